"""The steps in a series of runs: bottom-up segmentation with each boundary tested by the
Hodges-Lehmann shift between its two sides, widened by the noise between runs (the method and
its measured power: ``docs/method.md``, *Trends*; used by :mod:`app.core.history.trend`)."""

from __future__ import annotations

import heapq
import itertools
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from app.core.study.shift_interval import shift_interval

THRESHOLD = 0.03  # a step smaller than 3 % is not reported, however certain
CONFIDENCE = 0.95
# Standard errors of the noise between runs a step must clear: about a 99.7 % normal quantile,
# or a 95 % t quantile with the 3-4 degrees of freedom a robust spread of ten runs is worth.
NOISE_MULTIPLE = 3.0
MIN_RUNS_FOR_STEPS = 4  # fewer give no estimate of the noise between runs
MAX_VALUES_A_SIDE = 60  # rounds compared on each side of a boundary (the nearest runs)
# The spread of consecutive differences of a normal series: median |x1 - x2| = 0.6745 sqrt(2) s
_DIFF_TO_SIGMA = 1.0 / (0.6744897501960817 * math.sqrt(2.0))


@dataclass(frozen=True)
class Boundary:
    """A boundary between two segments of a series, tested (module doc). ``estimate``,
    ``low`` and ``high`` are the log ratio of times after over before and its interval."""

    at: int  # the index of the first run after the boundary
    estimate: float
    low: float  # nan: no interval
    high: float
    runs_before: int
    runs_after: int
    values_before: int
    values_after: int
    step: bool  # the whole interval beyond the threshold

    @property
    def strength(self) -> float:
        """The change over its interval's width: the weakest boundary merges first."""
        width = self.high - self.low
        if math.isnan(width):
            return 0.0
        return abs(self.estimate) / max(width, 1e-12)


def run_noise(figures: Sequence[float]) -> float:
    """A robust standard deviation of the runs' log figures: the median absolute difference
    between consecutive runs, scaled (a step is one difference of many and barely moves it);
    ``nan`` below ``MIN_RUNS_FOR_STEPS`` runs."""
    if len(figures) < MIN_RUNS_FOR_STEPS:
        return math.nan
    diffs = [abs(b - a) for a, b in pairwise(figures)]
    return statistics.median(diffs) * _DIFF_TO_SIGMA


def find_steps(
    runs: Sequence[Sequence[float]],
    *,
    threshold: float = THRESHOLD,
    confidence: float = CONFIDENCE,
) -> list[Boundary]:
    """The steps in a series of ``runs``, each its rounds' values (the log of each round's
    median time; at least one a run), oldest first: the boundaries left by the bottom-up
    segmentation (module doc), each a step."""
    n = len(runs)
    noise = run_noise([statistics.median(v) for v in runs])
    if math.isnan(noise):
        return []
    margin = math.log1p(threshold)
    # Bottom-up, as a heap: the weakest failing boundary goes first (ties: the earliest), and
    # only its two neighbours are tested again, so 10,000 runs take O(n log n), not O(n^2).
    bounds = list(range(1, n))
    if not bounds:
        return []
    before = dict(zip(bounds, [0, *bounds[:-1]], strict=True))
    after = dict(zip(bounds, [*bounds[1:], n], strict=True))
    current: dict[int, Boundary] = {}
    weakest: list[tuple[float, int, int, Boundary]] = []
    order = itertools.count()

    def test(at: int) -> None:
        boundary = _test(runs, before[at], at, after[at], noise, margin, confidence)
        current[at] = boundary
        if not boundary.step:
            heapq.heappush(weakest, (boundary.strength, at, next(order), boundary))

    for at in bounds:
        test(at)
    while weakest:
        _, at, _, boundary = heapq.heappop(weakest)
        if current.get(at) is not boundary:
            continue  # tested again since: a stale entry
        left, right = before.pop(at), after.pop(at)
        del current[at]
        if left in after:
            after[left] = right
        if right in before:
            before[right] = left
        for neighbour in (left, right):
            if neighbour in current:
                test(neighbour)
    return [current[at] for at in sorted(current)]


def _test(
    runs: Sequence[Sequence[float]],
    start: int,
    at: int,
    end: int,
    noise: float,
    margin: float,
    confidence: float,
) -> Boundary:
    """The boundary at ``at`` between the segments ``[start, at)`` and ``[at, end)``."""
    before = _nearest(runs[i] for i in range(at - 1, start - 1, -1))
    after = _nearest(runs[i] for i in range(at, end))
    xs = [x for r in before for x in r]
    ys = [y for r in after for y in r]
    shift = shift_interval(xs, ys, confidence)
    half = NOISE_MULTIPLE * noise * math.sqrt(1 / len(before) + 1 / len(after))
    low, high = shift.estimate - half, shift.estimate + half
    if not math.isnan(shift.low):
        low, high = min(low, shift.low), max(high, shift.high)
    elif half == 0:  # no spread between runs and too few rounds for an interval: no interval
        low = high = math.nan
    step = low > margin or high < -margin
    return Boundary(at, shift.estimate, low, high, len(before), len(after), len(xs), len(ys), step)


def _nearest(runs: Iterable[Sequence[float]]) -> list[Sequence[float]]:
    """The runs nearest the boundary (given nearest first) while their values stay within
    ``MAX_VALUES_A_SIDE``; at least one."""
    out: list[Sequence[float]] = []
    count = 0
    for r in runs:
        if out and count + len(r) > MAX_VALUES_A_SIDE:
            break
        out.append(r)
        count += len(r)
    return out
