"""In the worker: one leak test, dudect's loop. Pinned to one core, the collector off, each call
timed alone with ``perf_counter_ns`` in batches: a batch's classes drawn at random (seeded),
its arguments made before the clock starts, then each call timed. A first batch sets the
crop thresholds and is discarded (the warm-up); every later batch updates the tests
(:mod:`.ttests`). It stops when the budget is spent, or early once ``|t|`` reaches
:data:`~.ttests.LEAK_T`: a leak that clear needs no more calls.

The effect's size two ways: the difference of the class means in the test with the largest
|t| (its 95 % interval from the same standard error as the t), and, from a sample of each
class's times (a reservoir), the difference of the medians with a bootstrapped 95 % interval,
tlsfuzzer's view (coarse where the clock's step is as large as the effect).
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from app.core.leak.job import LeakJob
from app.core.leak.probes import Probe, probe
from app.core.leak.ttests import LEAK_T, Best, TTests

BATCH_S = 0.2  # a batch's time, so progress and the curve move a few times a second
MIN_BATCH, MAX_BATCH = 1_000, 100_000
MIN_THRESHOLD_CALLS = 100  # the fewest calls the crop thresholds are read from
KEEP = 10_000  # times kept a class for the effect's size
BOOTSTRAP = 1_000
CURVE_POINTS = 300


def pin() -> int:
    """Pin this process to one core (the last it may use); -1 where it cannot be."""
    if not hasattr(os, "sched_setaffinity"):
        return -1
    cpu = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def time_batch(p: Probe, classes: np.ndarray) -> np.ndarray:
    """Each call of a batch timed alone, in ns (its arguments made first)."""
    arguments = p.arguments(classes)
    call = p.call
    clock = time.perf_counter_ns
    times = [0] * len(arguments)
    for i, argument in enumerate(arguments):
        start = clock()
        call(argument)
        times[i] = clock() - start
    return np.array(times, dtype=np.int64)


class Reservoir:
    """A uniform sample of at most :data:`KEEP` times of one class (Vitter's algorithm R)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.kept = np.zeros(0, dtype=np.int64)
        self.seen = 0

    def add(self, values: np.ndarray) -> None:
        room = max(0, KEEP - len(self.kept))
        self.kept = np.concatenate([self.kept, values[:room]])
        rest = values[room:]
        if len(rest):
            index = self.seen + room + np.arange(len(rest))
            slots = (self.rng.random(len(rest)) * (index + 1)).astype(np.int64)
            taken = slots < KEEP
            self.kept[slots[taken]] = rest[taken]
        self.seen += len(values)


def median_difference(
    a: np.ndarray, b: np.ndarray, rng: np.random.Generator
) -> tuple[float, float, float]:
    """median(a) - median(b) with a percentile bootstrap 95 % interval (ns)."""
    if not len(a) or not len(b):
        return (np.nan, np.nan, np.nan)
    point = float(np.median(a) - np.median(b))
    diffs = np.empty(BOOTSTRAP)
    for i in range(BOOTSTRAP):
        diffs[i] = np.median(rng.choice(a, len(a))) - np.median(rng.choice(b, len(b)))
    low, high = np.quantile(diffs, [0.025, 0.975])
    return point, float(low), float(high)


def thinned(curve: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """At most :data:`CURVE_POINTS` of the curve, its last point kept."""
    if not curve:  # the budget ended before a batch was measured
        return []
    step = -(-len(curve) // CURVE_POINTS)
    return curve[::-1][::step][::-1]


def batch_size(job: LeakJob, p: Probe, rng: np.random.Generator) -> int:
    """The calls in a batch, from a trial of 200 timed calls: :data:`BATCH_S` of them, within
    :data:`MIN_BATCH`..:data:`MAX_BATCH`."""
    trial = time_batch(p, rng.integers(0, 2, 200))
    per_call_s = max(float(np.median(trial)), 1.0) / 1e9 + 2e-7  # the loop's own cost
    # A batch of 0.2 s, and never more than a tenth of the budget (slow calls: a 64 KiB
    # message in pure Python takes milliseconds), nor what the probe can hold at once.
    share = job.budget_s / 10 / per_call_s
    size = int(min(MAX_BATCH, p.max_batch, share, max(MIN_BATCH, BATCH_S / per_call_s)))
    return max(size, MIN_THRESHOLD_CALLS)


def measure(job: LeakJob, progress: Callable[..., None]) -> dict[str, Any]:
    cpu = pin()
    rng = np.random.default_rng(job.seed)
    p = probe(job, rng)
    started = time.monotonic()
    gc.disable()
    try:
        size = batch_size(job, p, rng)
        tests = TTests.from_first_batch(time_batch(p, rng.integers(0, 2, size)))
        kept = (Reservoir(rng), Reservoir(rng))
        curve: list[tuple[int, float]] = []
        best = None
        stopped_early = False
        while (elapsed := time.monotonic() - started) < job.budget_s:
            classes = rng.integers(0, 2, size)
            times = time_batch(p, classes)
            tests.push(times, classes)
            kept[0].add(times[classes == 0])
            kept[1].add(times[classes == 1])
            best = tests.best()
            if best is not None:  # no point before a test counts: not a |t| of 0
                curve.append((tests.calls, abs(best.t)))
            detail = {
                "entry": job.label,
                "curve": thinned(curve),
                "t": best.t if best else None,
                "calls": tests.calls,
            }
            progress(min(1.0, elapsed / job.budget_s), detail)
            if best is not None and abs(best.t) >= LEAK_T:
                stopped_early = True
                break
            gc.collect()  # between batches, outside the timed calls
    finally:
        gc.enable()
    return {
        **_findings(tests, best, kept, curve, rng),
        "batch": size,
        "cpu": cpu,
        "stopped_early": stopped_early,
        "seconds": time.monotonic() - started,
    }


def _findings(
    tests: TTests,
    best: Best | None,
    kept: tuple[Reservoir, Reservoir],
    curve: list[tuple[int, float]],
    rng: np.random.Generator,
) -> dict[str, Any]:
    """What the tests found: the calls, the best test's |t| and what it could have seen, the
    curve of |t| against the calls, and the effect's size both ways (module doc)."""
    effect = median_difference(kept[0].kept, kept[1].kept, rng)
    t_values = tests.t_values()
    nan = float("nan")
    mean_effect = (
        [best.difference, *best.interval()] if best and not best.second_order else [nan] * 3
    )
    return {
        "calls": tests.calls,
        "per_class": [int(tests.n[0, 0]), int(tests.n[0, 1])],
        "best_test": best.name if best else "",
        "t": best.t if best else float("nan"),
        "detectable_ns": best.detectable_ns if best else float("nan"),
        "t_raw": float(t_values[0]),
        "t_second_order": float(t_values[-1]),
        "curve": thinned(curve),
        "mean_effect_ns": mean_effect,
        "effect_ns": list(effect),
        "median_ns": [float(np.median(k.kept)) if len(k.kept) else float("nan") for k in kept],
    }
