"""A distribution-free 95 % interval for a median, as benchstat gives one.

With n values, the interval between the k-th smallest and the k-th largest covers the true
median with probability 1 - 2 P(Binomial(n, 1/2) < k); the widest k that keeps that at or
above the confidence is used. Below 6 values no such interval reaches 95 % (the whole range of
5 covers 93.75 %), and none is given: a table says so rather than printing a narrower one.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from fractions import Fraction

CONFIDENCE = 0.95


def _coverage(n: int, k: int) -> float:
    """P(the k-th smallest <= median <= the k-th largest) for n values."""
    below = sum(math.comb(n, i) for i in range(k)) / 2**n
    return 1 - 2 * below


def median_interval(
    values: Sequence[float], confidence: float = CONFIDENCE
) -> tuple[float, float] | None:
    """``(low, high)`` around the median of ``values``, or None with too few of them."""
    xs = sorted(values)
    n = len(xs)
    # coverage(k) >= confidence  <=>  2 below(k) den <= (den - num) 2^n, in exact integers;
    # below(k) = sum of C(n, i) for i < k, kept as k grows (a bench keeps 1,000 samples).
    num, den = Fraction(confidence).as_integer_ratio()
    limit = (den - num) * 2**n
    best, below, term = 0, 0, 1  # term: C(n, k - 1)
    for k in range(1, n // 2 + 1):
        below += term
        if 2 * below * den > limit:
            break
        best = k
        term = term * (n - k + 1) // k
    if not best:
        return None
    return xs[best - 1], xs[n - best]


def minimum_values(confidence: float = CONFIDENCE) -> int:
    """The fewest values that give an interval at ``confidence`` (6 for 95 %)."""
    n = 1
    while _coverage(n, 1) < confidence:
        n += 1
    return n


def median(values: Sequence[float]) -> float:
    return statistics.median(values)
