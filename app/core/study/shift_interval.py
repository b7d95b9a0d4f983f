"""The shift between two small samples and its exact distribution-free interval: the
Hodges-Lehmann estimate and the interval that inverts the Mann-Whitney (Wilcoxon rank-sum)
test, as the claims use it on log round medians (:mod:`app.core.study.claims`).

``shift_interval(xs, ys, confidence)`` returns the median of all ``y - x`` differences and the
interval ``[D(k), D(mn + 1 - k)]`` of the sorted differences, ``k`` the largest count with
``P(U <= k - 1) <= (1 - confidence) / 2`` under the null hypothesis (``U`` the Mann-Whitney
statistic of samples of sizes ``m`` and ``n``). Its coverage is at least ``confidence`` for any
continuous distribution of the samples under the shift model (Lehmann, "Nonparametrics",
1975, 2.6; Bauer, JASA 67, 1972). The null distribution is counted exactly (the coefficients
of the Gaussian binomial ``[m + n choose m]_q``), so no table and no normal approximation.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Shift:
    """``estimate`` of ``y - x`` and its interval; ``low``/``high`` are ``nan`` when the
    samples are too small for ``confidence`` (``achieved`` is then ``nan`` too)."""

    estimate: float
    low: float
    high: float
    achieved: float  # the interval's exact coverage under the null, >= the confidence asked


@lru_cache(maxsize=256)
def _u_counts(m: int, n: int) -> tuple[int, ...]:
    """How many of the ``C(m + n, m)`` rank arrangements give each ``U`` from 0 to ``m * n``:
    the coefficients of ``prod_{i=1..m} (1 - q^(n + i)) / (1 - q^i)``."""
    counts = [1] + [0] * (m * n)
    top = 0  # highest non-zero power so far
    for i in range(1, m + 1):
        # multiply by (1 - q^(n+i)) ...
        top += n
        for u in range(top, n + i - 1, -1):
            counts[u] -= counts[u - n - i]
        # ... and divide by (1 - q^i): a running sum with stride i
        for u in range(i, top + 1):
            counts[u] += counts[u - i]
    return tuple(counts)


def lower_count(m: int, n: int, tail: float) -> int:
    """The largest ``k`` with ``P(U <= k - 1) <= tail`` (0 when even ``U = 0`` is likelier)."""
    counts = _u_counts(m, n)
    total = math.comb(m + n, m)
    cumulative = 0
    k = 0
    for u, c in enumerate(counts):
        cumulative += c
        if cumulative / total > tail:
            break
        k = u + 1
    return k


def shift_interval(xs: Sequence[float], ys: Sequence[float], confidence: float) -> Shift:
    """The Hodges-Lehmann shift of ``ys`` against ``xs`` with its exact interval (module doc)."""
    if not xs or not ys:
        raise ValueError("both samples need at least one value")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    diffs = sorted(y - x for x in xs for y in ys)
    estimate = statistics.median(diffs)
    m, n = len(xs), len(ys)
    k = lower_count(m, n, (1.0 - confidence) / 2.0)
    if k < 1:
        return Shift(estimate, math.nan, math.nan, math.nan)
    counts = _u_counts(m, n)
    achieved = 1.0 - 2.0 * sum(counts[:k]) / math.comb(m + n, m)
    return Shift(estimate, diffs[k - 1], diffs[len(diffs) - k], achieved)
