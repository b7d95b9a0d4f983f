"""Statistics over raw timing samples, and the stability warnings attached to a result.

Thresholds follow pyperf and hyperfine: a standard deviation of 10 % of the mean or more, or a
minimum or maximum 50 % or more away from the mean, marks the samples unstable; a cold first run
much slower than the rest is reported (pyperf keeps warm-ups but does not count them).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.document.estimate import central_time, split_rounds
from app.core.units import MB, MIB

UNSTABLE_STDEV_RATIO = 0.10
UNSTABLE_RANGE_RATIO = 0.50
COLD_START_RATIO = 2.0
# perf_counter_ns costs about 50-100 ns here; below 20 us a single sample is mostly noise.
TOO_SHORT_S = 20e-6


@dataclass(frozen=True)
class TimingStats:
    """One direction (encrypt or decrypt) of one job. Samples are seconds, warm-ups kept apart."""

    samples_s: tuple[float, ...]
    warmup_s: tuple[float, ...]
    min_s: float
    median_s: float
    mean_s: float
    stdev_s: float
    iqr_s: float
    max_s: float
    throughput_mb_s: float  # 10^6 bytes per second, from the median
    throughput_mib_s: float  # 2^20 bytes per second, from the median

    @property
    def stdev_percent(self) -> float:
        return 100.0 * self.stdev_s / self.mean_s if self.mean_s else 0.0

    @property
    def quartiles_s(self) -> tuple[float, float]:
        """The first and third quartiles (``iqr_s`` is their distance), as ``summarize`` takes
        them: the spread every view shows."""
        return _quartiles(sorted(self.samples_s))


def _quartiles(xs: Sequence[float]) -> tuple[float, float]:
    if len(xs) < 2:
        return xs[0], xs[0]
    q1, _, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    return q1, q3


def _stdev(xs: Sequence[float]) -> float:
    """The sample standard deviation in floating point (``statistics.stdev`` computes it in
    exact fractions: 8 ms for a job of thousands of samples, seconds for a merge of studies)."""
    mean = statistics.fmean(xs)
    return math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1))


def summarize(
    samples_s: Sequence[float],
    input_bytes: int,
    warmup_s: Sequence[float] = (),
    round_sizes: Sequence[int] = (),
) -> TimingStats:
    """Statistics of ``samples_s`` (at least one); ``round_sizes`` cuts them into the rounds
    they came from. The median is the cell's one time (:func:`central_time`: the median of the
    rounds' medians, or of the samples with one round); throughput is ``input_bytes`` over it.
    The spread (IQR, standard deviation, extremes) is over every sample."""
    if not samples_s:
        raise ValueError("no samples to summarize")
    xs = sorted(samples_s)
    median = central_time(split_rounds(tuple(samples_s), round_sizes))
    q1, q3 = _quartiles(xs)
    stdev = _stdev(xs) if len(xs) >= 2 else 0.0
    rate = input_bytes / median if median > 0 else 0.0
    return TimingStats(
        samples_s=tuple(samples_s),
        warmup_s=tuple(warmup_s),
        min_s=xs[0],
        median_s=median,
        mean_s=statistics.fmean(xs),
        stdev_s=stdev,
        iqr_s=q3 - q1,
        max_s=xs[-1],
        throughput_mb_s=rate / MB,
        throughput_mib_s=rate / MIB,
    )


def stability_warnings(stats: TimingStats, direction: str, calls: int = 1) -> list[str]:
    """Plain-language warnings about ``stats``; empty when the samples look trustworthy.
    ``calls``: the calls each sample timed at once (its time is per call): a sample is too
    short to time only when all of them together are."""
    out: list[str] = []
    mean = stats.mean_s
    if len(stats.samples_s) >= 2 and mean > 0:
        if stats.stdev_s >= UNSTABLE_STDEV_RATIO * mean:
            out.append(
                f"{direction}: unstable samples, standard deviation is {stats.stdev_percent:.0f} % "
                "of the mean (close other programs, add repetitions)"
            )
        lo, hi = (mean - stats.min_s) / mean, (stats.max_s - mean) / mean
        if max(lo, hi) >= UNSTABLE_RANGE_RATIO:
            which = "minimum" if lo >= hi else "maximum"
            out.append(
                f"{direction}: the {which} is {100 * max(lo, hi):.0f} % away from the mean "
                "(an outlier: a background process or a frequency change)"
            )
    if stats.median_s * calls < TOO_SHORT_S:
        out.append(
            f"{direction}: each sample takes {stats.median_s * 1e6:.1f} µs, too short to time "
            "precisely; use a larger input"
        )
    cold = stats.warmup_s[0] if stats.warmup_s else None
    if cold is None and len(stats.samples_s) >= 3:
        rest = statistics.median(stats.samples_s[1:])
        if rest > 0 and stats.samples_s[0] >= COLD_START_RATIO * rest:
            out.append(
                f"{direction}: the first run was {stats.samples_s[0] / rest:.1f}x slower than the "
                "rest (a cold start counted as a result); add a warm-up"
            )
    elif cold is not None and stats.median_s > 0 and cold >= COLD_START_RATIO * stats.median_s:
        # Informational: the warm-up did its job. Kept so readers of papers that time one cold
        # call (the AES key-length study) can see how far off such a figure is.
        out.append(
            f"{direction}: the cold first run took {cold / stats.median_s:.1f}x the median "
            "(discarded as warm-up)"
        )
    return out
