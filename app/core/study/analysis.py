"""The statistics of a study: time against input size, and one cipher against another.

``fit_time_vs_size`` fits ``time_s = fixed_s + size_bytes / bytes_per_second`` by ordinary least
squares. The intercept is the fixed cost of a call (key schedule, object creation, the Python
overhead the pyaes report measures); the inverse slope is the sustained throughput, which a single
"MB/s at one size" figure mixes up with that fixed cost. Anything odd about the fit (two sizes
only, a negative intercept, a flat or falling line) is reported in ``LinearFit.note`` and never
corrected silently: a negative fixed cost stays negative, so the reader sees the model is wrong.

``fit_interval`` puts a 95 % interval on the fitted fixed cost and throughput by resampling
rounds, the unit of evidence (:mod:`app.core.study.claims`): at each size, the cell's round
medians are drawn with replacement, their median is that size's point, and the line is fitted
again, 2,000 times (seeded); the interval is the middle 95 % of the refits. What varies between
workers and moments therefore widens it; repetitions inside a round count once, through their
median. With few rounds a percentile bootstrap runs somewhat narrow, so the interval describes
the fit's stability rather than being a test.

Claims that one entry is faster than another (their intervals, verdicts and the rounds they
rest on) are :mod:`app.core.study.claims`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

MIN_SIZES_FOR_FIT = 2
# Two sizes always give a line through the two groups; a third size is what can show that time
# does not grow linearly (caches, memory pressure), so fewer is noted.
RECOMMENDED_SIZES_FOR_FIT = 3


@dataclass(frozen=True)
class LinearFit:
    """``time_s = fixed_s + size_bytes / bytes_per_second``, fitted over ``n_points`` points.

    ``bytes_per_second`` is ``math.inf`` when the fitted slope is zero or negative (the note says
    so). ``r_squared`` is ``nan`` when every time is identical (nothing to explain). ``note`` is
    empty for an unremarkable fit, otherwise plain-language remarks separated by "; ".
    """

    fixed_s: float
    bytes_per_second: float
    r_squared: float
    n_points: int
    note: str = ""

    def predict_s(self, size_bytes: float) -> float:
        """The fitted time for ``size_bytes``."""
        if math.isinf(self.bytes_per_second):
            return self.fixed_s
        return self.fixed_s + size_bytes / self.bytes_per_second


def fit_time_vs_size(points: Sequence[tuple[int, float]]) -> LinearFit | None:
    """Ordinary least squares of time on size over ``(size_bytes, time_s)`` points.

    Pass every raw sample (several points per size) or one median per size. Returns ``None`` with
    fewer than two distinct sizes, where no line is determined. Raises ``ValueError`` for a
    non-finite value or a negative size.
    """
    for size, time_s in points:
        if not (math.isfinite(size) and math.isfinite(time_s)) or size < 0:
            raise ValueError(f"not a valid (size_bytes, time_s) point: ({size!r}, {time_s!r})")
    n_sizes = len({size for size, _ in points})
    if n_sizes < MIN_SIZES_FOR_FIT:
        return None
    n = len(points)
    # Centred sums: sizes reach 10^8-10^9 bytes, and the textbook sum(x*x) - n*mean^2 form
    # would lose most of its digits to cancellation.
    mean_x = math.fsum(float(x) for x, _ in points) / n
    mean_y = math.fsum(y for _, y in points) / n
    sxx = math.fsum((x - mean_x) ** 2 for x, _ in points)
    sxy = math.fsum((x - mean_x) * (y - mean_y) for x, y in points)
    syy = math.fsum((y - mean_y) ** 2 for _, y in points)
    slope = sxy / sxx  # sxx > 0: at least two distinct sizes
    fixed_s = mean_y - slope * mean_x
    ss_res = math.fsum((y - (fixed_s + slope * x)) ** 2 for x, y in points)

    notes: list[str] = []
    if n_sizes < RECOMMENDED_SIZES_FOR_FIT:
        notes.append(
            f"only {n_sizes} sizes: a line always fits two, so linearity is not tested "
            f"(use at least {RECOMMENDED_SIZES_FOR_FIT})"
        )
    if syy == 0:
        r_squared = math.nan
        notes.append("every time is identical: R² is undefined")
    else:
        # Clamped at 0 only against rounding; OLS with an intercept cannot truly go below it.
        r_squared = max(0.0, 1.0 - ss_res / syy)
    if slope > 0:
        bytes_per_second = 1.0 / slope
    else:
        bytes_per_second = math.inf
        notes.append(
            f"time does not grow with size (slope {slope:.3g} s/B): no throughput, "
            "bytes_per_second set to infinity"
        )
    if fixed_s < 0:
        notes.append(
            f"negative fixed cost ({fixed_s:.3g} s), kept as fitted: the line does not "
            "describe small inputs well"
        )
    return LinearFit(
        fixed_s=fixed_s,
        bytes_per_second=bytes_per_second,
        r_squared=r_squared,
        n_points=n,
        note="; ".join(notes),
    )


@dataclass(frozen=True)
class FitInterval:
    """95 % intervals of a fit's fixed cost (seconds) and throughput (bytes per second), from
    ``resamples`` refits over resampled rounds; a throughput bound is ``inf`` when some refit
    did not grow with size."""

    fixed_low_s: float
    fixed_high_s: float
    bytes_per_second_low: float
    bytes_per_second_high: float
    resamples: int
    min_rounds: int  # the fewest rounds at any size


FIT_RESAMPLES = 2000
MIN_ROUNDS_FOR_FIT_INTERVAL = 3


def fit_interval(
    rounds_by_size: Sequence[tuple[int, Sequence[float]]],
    *,
    confidence: float = 0.95,
    resamples: int = FIT_RESAMPLES,
    seed: int = 0,
) -> FitInterval | None:
    """Intervals of ``fit_time_vs_size`` over ``(size_bytes, round medians)`` per size, by
    resampling each size's rounds (module doc). None with fewer than two sizes or fewer than
    ``MIN_ROUNDS_FOR_FIT_INTERVAL`` rounds at a size."""
    if len({size for size, _ in rounds_by_size}) < MIN_SIZES_FOR_FIT:
        return None
    fewest = min(len(r) for _, r in rounds_by_size)
    if fewest < MIN_ROUNDS_FOR_FIT_INTERVAL:
        return None
    import numpy as np  # here: a command that only lists or encrypts does not load numpy

    rng = np.random.default_rng(seed)
    x = np.array([float(size) for size, _ in rounds_by_size])
    ys = np.empty((resamples, len(rounds_by_size)))
    for j, (_, medians) in enumerate(rounds_by_size):
        values = np.asarray(medians, dtype=float)
        drawn = values[rng.integers(0, len(values), size=(resamples, len(values)))]
        ys[:, j] = np.median(drawn, axis=1)
    xc = x - x.mean()
    slopes = (ys - ys.mean(axis=1, keepdims=True)) @ xc / float(xc @ xc)
    fixed = ys.mean(axis=1) - slopes * x.mean()
    tail = (1.0 - confidence) / 2.0
    f_low, f_high = np.quantile(fixed, [tail, 1.0 - tail])
    s_low, s_high = np.quantile(slopes, [tail, 1.0 - tail])
    return FitInterval(
        fixed_low_s=float(f_low),
        fixed_high_s=float(f_high),
        bytes_per_second_low=1.0 / float(s_high) if s_high > 0 else math.inf,
        bytes_per_second_high=1.0 / float(s_low) if s_low > 0 else math.inf,
        resamples=resamples,
        min_rounds=fewest,
    )


def speedup(slow_median_s: float, fast_median_s: float) -> float:
    """How many times faster: ``slow / fast`` (the pyaes report: 598.0 ms / 98.2 ms = 6.09x).

    Raises ``ValueError`` unless both medians are positive and finite.
    """
    for value in (slow_median_s, fast_median_s):
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"a median time must be positive and finite, not {value!r}")
    return slow_median_s / fast_median_s
