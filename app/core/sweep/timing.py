"""Timing one call that may last 20 ns or 2 s: calibrated batches of calls per timer read.

As pyperf and SUPERCOP do: one untimed call first (warm-up: caches, lazy initialisation); then
the number of calls per sample doubles until a sample lasts :data:`MIN_SAMPLE_NS`, so the
timer's own cost (about 50-100 ns) is under 1 % of every sample; then samples until the point's
time budget is spent, at least :data:`MIN_SAMPLES` and at most :data:`MAX_SAMPLES`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from app.core.sweep.cycles import CycleCounter

MIN_SAMPLE_NS = 1_000_000  # 1 ms
MIN_SAMPLES = 5
MAX_SAMPLES = 200
MAX_CALLS = 1 << 22


@dataclass(frozen=True)
class Timed:
    calls: int
    ns_per_call: tuple[float, ...]
    cycles_per_call: tuple[float, ...]


def _batch(fn: Callable[[], object], calls: int) -> int:
    clock = time.perf_counter_ns
    loop = range(calls)
    t0 = clock()
    for _ in loop:
        fn()
    return clock() - t0


def calibrate(fn: Callable[[], object]) -> tuple[int, int]:
    """``(calls per sample, ns of the last calibration batch)`` after one untimed call."""
    fn()
    calls = 1
    while True:
        ns = _batch(fn, calls)
        if ns >= MIN_SAMPLE_NS or calls >= MAX_CALLS:
            return calls, ns
        # Jump close to the target, at most 100x (a first call can be unusually fast).
        calls = min(MAX_CALLS, calls * max(2, min(100, MIN_SAMPLE_NS // max(ns, 1) + 1)))


def time_calls(
    fn: Callable[[], object],
    budget_s: float,
    counter: CycleCounter | None = None,
    min_samples: int = MIN_SAMPLES,
) -> Timed:
    """Samples of ``fn``'s time per call (ns), and cycles per call when ``counter`` counts."""
    calls, _ = calibrate(fn)
    clock = time.perf_counter_ns
    loop = range(calls)
    ns_samples: list[float] = []
    cycle_samples: list[float] = []
    deadline = clock() + int(budget_s * 1e9)
    while len(ns_samples) < MAX_SAMPLES:
        c0 = counter.read() if counter is not None else 0
        t0 = clock()
        for _ in loop:
            fn()
        t1 = clock()
        if counter is not None:
            cycle_samples.append((counter.read() - c0) / calls)
        ns_samples.append((t1 - t0) / calls)
        if len(ns_samples) >= min_samples and t1 >= deadline:
            break
    return Timed(calls, tuple(ns_samples), tuple(cycle_samples))
