"""Timing one call that may last 20 ns or 2 s: calibrated batches of calls per timer read.

As pyperf and SUPERCOP do: one untimed call first (warm-up: caches, lazy initialisation); then
the number of calls per sample grows until the fastest of three such samples lasts
:data:`MIN_SAMPLE_NS` (or the calls reach ``max_calls``: 1,024 for a batch that makes a cipher
object per call), so the timer's own cost (about 50-100 ns) is under 1 % of every sample;
then samples until the point's time budget is spent, at least :data:`MIN_SAMPLES` and at most
:data:`MAX_SAMPLES`. A later slice of a point begins with an untimed warm-up
(:func:`warm_slice`): a whole batch, and for a call that is a sample of its own, calls until
:data:`WARM_UP_NS` has passed and they stop getting faster.

What is timed is a :data:`Batch`: given a number of calls, it makes what they need outside the
timer (a fresh cipher context per call, say) and returns the one callable that makes them all,
which alone is timed. :func:`repeated` is the batch of one function called again and again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from app.core.timing.cycles import CycleCounter

MIN_SAMPLE_NS = 1_000_000  # 1 ms
MIN_SAMPLES = 5
MAX_SAMPLES = 200
MAX_CALLS = 1 << 22
# How long a call that fills a sample alone is warmed before a slice's samples (at most half
# the slice): at 16 MiB the first two calls after the other points' work read 5-15 % slow.
WARM_UP_NS = 10_000_000
SPEEDING_UP = 0.97  # a warm-up call under this share of the one before: still speeding up
MAX_WARM_UP_SLICES = 2  # a slice's warm-up lasts at most twice the slice's own time

Batch = Callable[[int], Callable[[], object]]


@dataclass(frozen=True)
class Timed:
    calls: int
    ns_per_call: tuple[float, ...]
    cycles_per_call: tuple[float, ...]


def repeated(fn: Callable[[], object]) -> Batch:
    """The batch of ``calls`` calls of ``fn``, one after another."""

    def make(calls: int) -> Callable[[], object]:
        loop = range(calls)

        def run() -> None:
            for _ in loop:
                fn()

        return run

    return make


def _batch(batch: Batch, calls: int) -> int:
    clock = time.perf_counter_ns
    run = batch(calls)
    t0 = clock()
    run()
    return clock() - t0


class TooSlow(Exception):
    """One call took longer than the caller allows (``ns``: how long it took)."""

    def __init__(self, ns: int) -> None:
        super().__init__(f"one call took {ns / 1e9:,.1f} s")
        self.ns = ns


def calibrate(
    batch: Batch, max_call_ns: int | None = None, max_calls: int = MAX_CALLS
) -> tuple[int, int]:
    """``(calls per sample, ns of the last calibration batch)`` after one warm-up call (timed
    only to raise :class:`TooSlow` when it took over ``max_call_ns``)."""
    first = _batch(batch, 1)
    if max_call_ns is not None and first > max_call_ns:
        raise TooSlow(first)
    calls = 1
    while True:
        # The fastest of three batches (one while a call alone is the sample): a batch sized
        # at a slow moment of a shared machine would be too short at its fast ones.
        ns = min(_batch(batch, calls) for _ in range(1 if calls == 1 else 3))
        if ns >= MIN_SAMPLE_NS or calls >= max_calls:
            return calls, ns
        # Jump close to the target, at most 100x (a first call can be unusually fast).
        calls = min(max_calls, calls * max(2, min(100, MIN_SAMPLE_NS // max(ns, 1) + 1)))


def warm_slice(batch: Batch, calls: int, min_ns: int, max_ns: int | None = None) -> None:
    """Untimed: one batch of ``calls`` calls (the whole batch a sample will time: at 16 B the
    first sample of thousands of fresh cipher objects read 10-15 % slow after one call), or,
    when one call is a sample (``calls`` is 1), :func:`warm_single`."""
    if calls > 1:
        batch(calls)()
    else:
        warm_single(lambda: _batch(batch, 1), min_ns, max_ns or min_ns)


def warm_single(call_ns: Callable[[], int], min_ns: int, max_ns: int) -> None:
    """Untimed calls of a call that is a sample on its own (``call_ns`` makes one and returns
    its ns), the bench's and the sweep's alike: until ``min_ns`` has passed and the calls stop
    getting faster (one no more than 3 % faster than the one before), for at most ``max_ns``
    in all. A long message left idle comes back slowly: AES-GCM's first call at 16 MiB took
    2-3x the time of the fourth on the project's VMs, after other points' work or a check."""
    clock = time.perf_counter_ns
    start = clock()
    last = call_ns()
    while clock() - start < max(min_ns, max_ns):
        ns = call_ns()
        if clock() - start >= min_ns and ns >= SPEEDING_UP * last:
            return
        last = ns


def time_calls(
    batch: Batch,
    budget_s: float,
    counter: CycleCounter | None = None,
    min_samples: int = MIN_SAMPLES,
    max_call_ns: int | None = None,
    calls: int | None = None,
    warm_up: bool = False,
    max_calls: int = MAX_CALLS,
) -> Timed:
    """Samples of ``batch``'s time per call (ns), and cycles per call when ``counter`` counts.
    A call longer than twice the budget (too long to warm) is timed 3 times in all, its
    calibration call the first of them (pure Python at megabytes); :class:`TooSlow` past
    ``max_call_ns``.

    A calibration that ends on single calls, and a later slice of a point already calibrated
    (``calls`` given) when it is a batch or ``warm_up`` is asked for, are warmed first by
    :func:`warm_slice`: 10 ms or half the budget, whichever is less, and on while single calls
    still speed up, for at most twice the budget. Without it a slice's first sample is timed after
    the other points' work, and at 16 MiB that made a point read 10-16 % slower by its place
    in the pass."""
    ns_samples: list[float] = []
    warm_ns = min(WARM_UP_NS, int(budget_s * 1e9) // 2)
    max_warm_ns = int(budget_s * 1e9 * MAX_WARM_UP_SLICES)
    if calls is None:
        calls, last_ns = calibrate(batch, max_call_ns, max_calls)
        if calls == 1 and last_ns >= max_warm_ns:  # too long to warm
            ns_samples.append(float(last_ns))
            min_samples = min(min_samples, 3)
        elif calls == 1:
            warm_slice(batch, 1, warm_ns, max_warm_ns)
    elif calls > 1 or warm_up:
        warm_slice(batch, calls, warm_ns, max_warm_ns)
    clock = time.perf_counter_ns
    cycle_samples: list[float] = []
    deadline = clock() + int(budget_s * 1e9)
    while len(ns_samples) < MAX_SAMPLES:
        run = batch(calls)
        c0 = counter.read() if counter is not None else 0
        t0 = clock()
        run()
        t1 = clock()
        if counter is not None:
            cycle_samples.append((counter.read() - c0) / calls)
        del run  # its calls' objects go before the next batch makes its own (a warm cache)
        ns_samples.append((t1 - t0) / calls)
        if len(ns_samples) >= min_samples and t1 >= deadline:
            break
    return Timed(calls, tuple(ns_samples), tuple(cycle_samples))
