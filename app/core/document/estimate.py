"""The estimate of a cell, computed once, here: a median with its distribution-free 95 %
interval (:mod:`app.core.document.intervals`), over the values that are the unit of evidence.

A job that ran in several rounds (each a fresh worker process at its own moment) is estimated
from its rounds: each round's median, then the median of those and its interval over them.
A job of one round is estimated from its repetitions (the interval then covers only the noise
within one process). A rate is the reciprocal of the time (:meth:`Estimate.reciprocal`), so a
time and its throughput always describe the same value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.document.intervals import median, median_interval
from app.core.document.numbers import figure, time_scale

# How a cell's time is taken, in the words of every method text and table note.
CELL_TIME = (
    "the median over rounds of each round's median time (with one round, the median of its "
    "repetitions)"
)
CELL_RATE = f"the input size over {CELL_TIME}"
SECONDS = "s"  # the unit of a time that carries its own unit (Estimate.unit)


@dataclass(frozen=True)
class Estimate:
    """A median and its 95 % interval (None: too few values for one). ``rounds`` counts the
    values (a study's rounds; a bench's repetitions when it ran in one worker); ``approx``
    marks an estimate (cycles from the clock figure), printed with a leading ``~``."""

    median: float
    interval: tuple[float, float] | None
    rounds: int
    approx: bool = False
    # "": the unit its header names; SECONDS: a time that carries its own unit, chosen by its
    # median as every view prints a time (1.33 µs [1.30, 1.40]), in seconds in CSV and JSON.
    unit: str = ""

    def text(self) -> str:
        """``10,400 [10,200, 10,500]``, ``10,400 [n/a]``, ``~3.71 [3.60, 3.80]`` or, a time,
        ``1.33 µs [1.30, 1.40]``."""
        mark = "~" if self.approx else ""
        scale, suffix = 1.0, ""
        if self.unit == SECONDS and math.isfinite(self.median):  # as seconds_text: 0 s, -2 µs
            scale, name = time_scale(abs(self.median)) if self.median else (1.0, "s")
            suffix = " " + name
        median = f"{mark}{figure(self.median / scale)}{suffix}"
        if self.interval is None:
            return f"{median} [n/a]"
        lo, hi = self.interval
        return f"{median} [{figure(lo / scale)}, {figure(hi / scale)}]"

    def reciprocal(self, numerator: float) -> Estimate:
        """``numerator / value``: a rate from a time. The median and the interval's ends map
        exactly (order statistics keep their order, reversed), so the interval still holds."""

        def inv(x: float) -> float:
            return numerator / x if x > 0 else math.nan

        ends = None if self.interval is None else (inv(self.interval[1]), inv(self.interval[0]))
        return Estimate(inv(self.median), ends, self.rounds, self.approx)

    def scaled(
        self, factor: float, *, approx: bool | None = None, unit: str | None = None
    ) -> Estimate:
        """``value x factor`` (a positive factor: a unit, a clock); ``approx`` to mark it,
        ``unit`` to name what it is now (:data:`SECONDS`)."""
        ends = (
            None
            if self.interval is None
            else (self.interval[0] * factor, self.interval[1] * factor)
        )
        return Estimate(
            self.median * factor,
            ends,
            self.rounds,
            self.approx if approx is None else approx,
            self.unit if unit is None else unit,
        )


def estimate(values: Sequence[float]) -> Estimate:
    """The median of ``values`` and its interval (nan and none without values)."""
    if not values:
        return Estimate(math.nan, None, 0)
    return Estimate(median(values), median_interval(values), len(values))


def split_rounds(
    samples: tuple[float, ...], counts: Sequence[int]
) -> tuple[tuple[float, ...], ...]:
    """``samples`` cut into consecutive rounds of ``counts`` samples; one round when ``counts``
    is empty or does not add up (a result written before rounds were kept)."""
    if not counts or sum(counts) != len(samples):
        return (samples,)
    out, start = [], 0
    for n in counts:
        out.append(samples[start : start + n])
        start += n
    return tuple(out)


def round_medians(rounds: Sequence[Sequence[float]]) -> list[float]:
    """Each non-empty round's median."""
    return [median(r) for r in rounds if r]


def central_time(rounds: Sequence[Sequence[float]]) -> float:
    """The one time of a cell: the median of its rounds' medians, or with one round the median
    of its repetitions (nan without any). Every view and export prints this value."""
    medians = round_medians(rounds)
    if len(medians) > 1:
        return median(medians)
    values = next((r for r in rounds if r), ())
    return median(values) if values else math.nan


def time_estimate(rounds: Sequence[Sequence[float]]) -> Estimate:
    """The cell's time with its interval: over the rounds when there are two or more, else
    over the repetitions of the one round. Its median is :func:`central_time`."""
    medians = round_medians(rounds)
    if len(medians) > 1:
        return estimate(medians)
    return estimate(next((r for r in rounds if r), ()))


def rate_estimate(input_bytes: int, rounds: Sequence[Sequence[float]], unit: int) -> Estimate:
    """Throughput in ``unit`` bytes per second: the input over :func:`time_estimate`, the
    interval's ends mapped with it."""
    return time_estimate(rounds).reciprocal(input_bytes / unit)
