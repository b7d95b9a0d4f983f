"""The statistics of a study: time against input size, and one cipher against another.

``fit_time_vs_size`` fits ``time_s = fixed_s + size_bytes / bytes_per_second`` by ordinary least
squares. The intercept is the fixed cost of a call (key schedule, object creation, the Python
overhead seed 003 measures); the inverse slope is the sustained throughput, which a single
"MB/s at one size" figure mixes up with that fixed cost. Anything odd about the fit (two sizes
only, a negative intercept, a flat or falling line) is reported in ``LinearFit.note`` and never
corrected silently: a negative fixed cost stays negative, so the reader sees the model is wrong.

``compare`` answers "is A faster than B, and by how much" with a percentile bootstrap of the
ratio of the medians, ``median(time_b) / median(time_a)``:

* medians, because on a shared machine the noise is one-sided and heavy-tailed (a background
  process, a frequency change, a page fault adds time, never removes it), and a few such
  outliers move a mean but not a median;
* a bootstrap, because timing samples are not normal (skewed, often bimodal) and a ratio of
  medians has no simple closed-form interval; resampling assumes only that each side's samples
  are independent draws from that side's distribution;
* a ratio, because it does not depend on the unit or the input size, and for the same input it
  is also the ratio of throughputs, so "A is 4.1 % faster" reads directly from it.

The bootstrap is seeded (``numpy.random.default_rng(seed)``), so the same samples always give
the same interval: a report can be regenerated and checked.

The samples being compared should come from interleaved runs (A, B, A, B, ... rather than all
of A then all of B). Otherwise a slow drift of the machine (thermal throttling, a backup
starting) lands on one side only and shows up as a difference between the ciphers, which no
statistic computed afterwards can detect or remove.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# Below three samples a bootstrap has almost nothing to resample (with two samples the median of
# a resample takes only three distinct values), so its "interval" would be an artefact.
MIN_SAMPLES_FOR_INTERVAL = 3
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
class Comparison:
    """A against B: ``ratio = median(time_b) / median(time_a)``, so > 1 means A is faster.

    For the same input, ``ratio`` is also A's throughput over B's; ``percent_faster`` is
    ``(ratio - 1) * 100`` (negative when A is slower). ``low`` and ``high`` bound the
    ``confidence`` interval of ``ratio``; both are ``nan`` when either side has fewer than
    ``MIN_SAMPLES_FOR_INTERVAL`` samples, and such a comparison is never significant.
    """

    label_a: str
    label_b: str
    ratio: float
    low: float
    high: float
    n_a: int
    n_b: int
    confidence: float
    method: str

    @property
    def has_interval(self) -> bool:
        return not (math.isnan(self.low) or math.isnan(self.high))

    @property
    def significant(self) -> bool:
        """True when the interval excludes 1 (no difference)."""
        return self.has_interval and (self.low > 1.0 or self.high < 1.0)

    @property
    def percent_faster(self) -> float:
        """How much higher A's throughput is than B's, in percent (negative: A is slower)."""
        return (self.ratio - 1.0) * 100.0

    def sentence(self, what: str = "encrypts") -> str:
        """One plain-language line, e.g. "A encrypts 4.1 % faster than B (95 % CI ...)".

        "X % faster" is ``(ratio - 1) * 100`` and "X % slower" is ``(1 - ratio) * 100``: A's
        throughput is X % above or below B's. The interval is given in the same terms.
        """
        level = f"{self.confidence * 100:g} %"
        counts = f"n = {self.n_a} and {self.n_b}"
        if not self.has_interval:
            return (
                f"no significant difference can be shown between {self.label_a} and "
                f"{self.label_b} (ratio {self.ratio:.2f}, no {level} CI: {counts}, at least "
                f"{MIN_SAMPLES_FOR_INTERVAL} samples each needed)"
            )
        if not self.significant:
            return (
                f"no significant difference between {self.label_a} and {self.label_b} "
                f"(ratio {self.ratio:.2f}, {level} CI {self.low:.2f}-{self.high:.2f}, {counts})"
            )
        if self.ratio > 1.0:
            amount = self.percent_faster
            low, high = (self.low - 1.0) * 100.0, (self.high - 1.0) * 100.0
            direction = "faster"
        else:
            amount = -self.percent_faster
            low, high = (1.0 - self.high) * 100.0, (1.0 - self.low) * 100.0
            direction = "slower"
        return (
            f"{self.label_a} {what} {amount:.1f} % {direction} than {self.label_b} "
            f"({level} CI {low:.1f}-{high:.1f} %, {counts})"
        )


def compare(
    label_a: str,
    samples_a_s: Sequence[float],
    label_b: str,
    samples_b_s: Sequence[float],
    *,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> Comparison:
    """Compare the times of A and B (seconds, same input) by the ratio of their medians.

    The interval is a percentile bootstrap: each side is resampled with replacement
    ``resamples`` times, independently, from ``numpy.random.default_rng(seed)``. Raises
    ``ValueError`` for an empty side, a sample that is not positive and finite, ``confidence``
    outside (0, 1) or ``resamples`` below 1.
    """
    if not samples_a_s or not samples_b_s:
        raise ValueError(f"nothing to compare: {label_a} or {label_b} has no samples")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, not {resamples!r}")
    a = [float(x) for x in samples_a_s]
    b = [float(x) for x in samples_b_s]
    # Every sample positive, not just the medians: a resample can have any sample as its
    # median, and a ratio needs a positive denominator in all of them.
    if not all(math.isfinite(x) and x > 0 for x in a + b):
        raise ValueError("samples must be positive, finite numbers of seconds")
    ratio = statistics.median(b) / statistics.median(a)

    if min(len(a), len(b)) < MIN_SAMPLES_FOR_INTERVAL:
        low = high = math.nan
        method = (
            f"ratio of medians; no interval: fewer than {MIN_SAMPLES_FOR_INTERVAL} samples "
            "on one side"
        )
    else:
        ratios = sorted(_bootstrap_ratios(a, b, resamples, seed))
        tail = (1.0 - confidence) / 2.0
        low, high = _quantile(ratios, tail), _quantile(ratios, 1.0 - tail)
        method = f"bootstrap of the ratio of medians, {resamples} resamples, seed {seed}"
    return Comparison(
        label_a=label_a,
        label_b=label_b,
        ratio=ratio,
        low=low,
        high=high,
        n_a=len(a),
        n_b=len(b),
        confidence=confidence,
        method=method,
    )


_BATCH_VALUES = 200_000  # values drawn at once (1.6 MB): the GIL is held only a few ms per batch


def _bootstrap_ratios(
    a: Sequence[float], b: Sequence[float], resamples: int, seed: int
) -> list[float]:
    """``resamples`` ratios median(B*) / median(A*), each side resampled with replacement.
    numpy draws and takes medians in batches: a pure-Python loop took seconds per pair on the
    thousands of samples tiny inputs collect."""
    rng = np.random.default_rng(seed)
    xa, xb = np.asarray(a), np.asarray(b)
    per_batch = max(1, _BATCH_VALUES // (len(a) + len(b)))
    ratios: list[float] = []
    while len(ratios) < resamples:
        k = min(per_batch, resamples - len(ratios))
        m_a = np.median(xa[rng.integers(0, len(xa), size=(k, len(xa)))], axis=1)
        m_b = np.median(xb[rng.integers(0, len(xb), size=(k, len(xb)))], axis=1)
        ratios.extend((m_b / m_a).tolist())
    return ratios


def _quantile(sorted_xs: Sequence[float], p: float) -> float:
    """The ``p`` quantile of sorted values, interpolated linearly (Hyndman-Fan type 7)."""
    pos = p * (len(sorted_xs) - 1)
    i = math.floor(pos)
    j = min(i + 1, len(sorted_xs) - 1)
    return sorted_xs[i] + (sorted_xs[j] - sorted_xs[i]) * (pos - i)


def speedup(slow_median_s: float, fast_median_s: float) -> float:
    """How many times faster: ``slow / fast`` (seed 003: 598.0 ms / 98.2 ms = 6.09x).

    Raises ``ValueError`` unless both medians are positive and finite.
    """
    for value in (slow_median_s, fast_median_s):
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"a median time must be positive and finite, not {value!r}")
    return slow_median_s / fast_median_s
