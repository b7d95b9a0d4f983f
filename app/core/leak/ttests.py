"""dudect's statistics (Reparaz, Balasch and Verbauwhede, "Dude, is my code constant time?",
DATE 2017, and its reference code): Welch's t between the two classes' call times, on the raw
times, on copies cropped at a set of percentiles (a slow tail of interrupts and cache misses
hides a shift in the fast calls), and a second-order test (on the squared distance from the
class's mean: a difference in spread). Each test is updated online, a batch at a time (Chan's
merge of count, mean and sum of squares), so a run of millions of calls keeps no more than a
batch.

A test's ``t`` counts once each class has :data:`ENOUGH` measurements in it; the largest
``|t|`` of those is the run's. ``(|t| / sqrt(n))`` is dudect's ``tau``, the effect in standard
deviations a call, and ``(T / tau)^2`` the calls a test needs to reach ``|t| = T``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

PERCENTILES = 100  # dudect's DUDECT_NUMBER_PERCENTILES
ENOUGH = 10_000  # a test's measurements in each class before its t counts (dudect's)
LEAK_T = 10.0  # dudect's "probably not constant time"
POSSIBLE_T = 4.5  # dudect paper's threshold: below it no leak is found
DETECTION_Z = 1.645  # a shift of (4.5 + z) standard errors reaches 4.5 in 95 % of runs
# A test whose kept times hardly vary (a crop that keeps nearly one clock reading) shows no
# mean shift smaller than the clock's step: it is left out of the smallest shift seen.
CLOCK_STEP_NS = 1.0  # perf_counter_ns
SECOND_ORDER = "second order"


def crop_fractions(count: int = PERCENTILES) -> np.ndarray:
    """dudect's crop points: ``1 - 0.5 ** (10 (i + 1) / count)``, from 6.7 % to 99.9 %, dense
    near the top where the slow tail starts."""
    i = np.arange(count, dtype=float)
    fractions: np.ndarray = 1 - 0.5 ** (10 * (i + 1) / count)
    return fractions


@dataclass(frozen=True)
class Best:
    """The test with the largest ``|t|``: its index and name, its signed t (positive: class 0
    slower), the calls it holds, its difference of the class means with that difference's
    standard error (ns; ns squared for the second-order test), and the smallest mean shift the
    most sensitive first-order test would have shown (``|t| >= 4.5``) in 95 % of runs."""

    index: int
    name: str
    t: float
    n: int
    difference: float
    standard_error: float
    detectable_ns: float

    @property
    def second_order(self) -> bool:
        return self.name == SECOND_ORDER

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The difference's 95 % interval (Welch's normal approximation, n in the thousands)."""
        return self.difference - z * self.standard_error, self.difference + z * self.standard_error


class TTests:
    """Every test's running statistics, shape (tests, 2 classes): test 0 on the raw times,
    tests 1..P on the times below each crop threshold, the last one second order."""

    def __init__(self, thresholds: np.ndarray) -> None:
        self.thresholds = np.asarray(thresholds, dtype=float)
        tests = len(self.thresholds) + 2
        self.n = np.zeros((tests, 2))
        self.mean = np.zeros((tests, 2))
        self.m2 = np.zeros((tests, 2))

    @classmethod
    def from_first_batch(cls, times: np.ndarray, count: int = PERCENTILES) -> TTests:
        """Thresholds at the crop points of ``times`` (a batch measured and then discarded,
        as dudect prepares its percentiles)."""
        return cls(np.quantile(np.asarray(times, dtype=float), crop_fractions(count)))

    @property
    def names(self) -> list[str]:
        crops = [f"cropped at {100 * f:.3g} %" for f in crop_fractions(len(self.thresholds))]
        return ["raw", *crops, SECOND_ORDER]

    def push(self, times: np.ndarray, classes: np.ndarray) -> None:
        """Add a batch: ``times`` (ns) and each one's class (0 or 1)."""
        x = np.asarray(times, dtype=float)
        cls = np.asarray(classes, dtype=np.int8)
        second = len(self.thresholds) + 1
        if self.n[0].min() > ENOUGH:  # dudect: centred on the means before this batch
            centred = x - self.mean[0][cls]
            self._merge_one(second, centred * centred, cls)
        for c in (0, 1):
            self._merge_all(x[cls == c], c)

    def _merge_all(self, x: np.ndarray, c: int) -> None:
        """Chan's merge of a batch into tests 0..P for class ``c``, every test at once: the
        batch sorted once, each crop a prefix of it (the times below its threshold), its count,
        mean and sum of squares read from running sums about the batch's mean (no matrix of
        tests by calls: 100,000 calls a batch took 97 MB that way)."""
        xs = np.sort(x)
        centre = float(xs.mean()) if len(xs) else 0.0
        d = xs - centre
        s1 = np.concatenate(([0.0], np.cumsum(d)))
        s2 = np.concatenate(([0.0], np.cumsum(d * d)))
        counts = np.concatenate(([len(xs)], np.searchsorted(xs, self.thresholds, side="left")))
        nb = counts.astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            shift = np.where(nb > 0, s1[counts] / np.maximum(nb, 1), 0.0)
        mb = centre + shift
        m2b = np.maximum(s2[counts] - nb * shift * shift, 0.0)
        self._combine(slice(0, len(nb)), c, nb, mb, m2b)

    def _merge_one(self, test: int, values: np.ndarray, cls: np.ndarray) -> None:
        for c in (0, 1):
            v = values[cls == c]
            if len(v):
                nb = np.array([float(len(v))])
                mb = np.array([v.mean()])
                m2b = np.array([((v - mb[0]) ** 2).sum()])
                self._combine(slice(test, test + 1), c, nb, mb, m2b)

    def _combine(
        self, rows: slice, c: int, nb: np.ndarray, mb: np.ndarray, m2b: np.ndarray
    ) -> None:
        na, ma = self.n[rows, c], self.mean[rows, c]
        n = na + nb
        with np.errstate(invalid="ignore", divide="ignore"):
            delta = mb - ma
            share = np.where(n > 0, nb / np.maximum(n, 1), 0.0)
            self.mean[rows, c] = ma + delta * share
            self.m2[rows, c] += m2b + delta * delta * na * share
        self.n[rows, c] = n

    def standard_errors(self) -> np.ndarray:
        """Each test's standard error of the difference of the class means (nan: too few)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            var = self.m2 / (self.n - 1)
            se: np.ndarray = np.sqrt(var[:, 0] / self.n[:, 0] + var[:, 1] / self.n[:, 1])
        return se

    def t_values(self) -> np.ndarray:
        """Each test's Welch t (class 0's mean minus class 1's over its standard error); nan
        for a test without :data:`ENOUGH` measurements in each class."""
        se = self.standard_errors()
        with np.errstate(invalid="ignore", divide="ignore"):
            t: np.ndarray = (self.mean[:, 0] - self.mean[:, 1]) / se
        t[(self.n.min(axis=1) <= ENOUGH) | ~np.isfinite(t)] = np.nan
        return t

    def best(self) -> Best | None:
        """The test with the largest |t| among those that count, or None before any does."""
        t = self.t_values()
        if np.all(np.isnan(t)):
            return None
        i = int(np.nanargmax(np.abs(t)))
        # the most sensitive first-order test (the second order's unit is ns squared) among
        # those whose times vary by a clock step or more in both classes
        with np.errstate(invalid="ignore", divide="ignore"):
            spread = np.sqrt(np.min(self.m2 / (self.n - 1), axis=1))
        counts = ~np.isnan(t) & (spread >= CLOCK_STEP_NS)
        first = np.where(counts, self.standard_errors(), np.nan)[:-1]
        # The shift that reaches |t| = 4.5 in 95 % of runs (its t's spread is one: 1.645 more)
        seen = (
            (POSSIBLE_T + DETECTION_Z) * float(np.nanmin(first))
            if np.any(~np.isnan(first))
            else math.nan
        )
        difference = float(self.mean[i, 0] - self.mean[i, 1])
        se = float(self.standard_errors()[i])
        return Best(i, self.names[i], float(t[i]), int(self.n[i].sum()), difference, se, seen)

    @property
    def calls(self) -> int:
        return int(self.n[0].sum())


def calls_needed(t: float, n: int, target: float = LEAK_T) -> float:
    """The calls a test with ``|t|`` after ``n`` calls would need to reach ``target``:
    ``(target / tau)^2`` with dudect's ``tau = |t| / sqrt(n)``; inf for t = 0."""
    tau = abs(t) / math.sqrt(n) if n else 0.0
    return math.inf if tau == 0 else (target / tau) ** 2
