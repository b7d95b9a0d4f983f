"""What a cipher study's result derives from its raw samples: each entry's line of time on
size (:class:`CipherFit`), the speed-ups against a baseline entry (:class:`Speedup`), and the
same for whole programs. :class:`app.core.study.result.StudyResult` computes each once, on
first use."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from app.core.bench.results import JobResult
from app.core.document.numbers import figure, ratio_text
from app.core.study.analysis import (
    FitInterval,
    LinearFit,
    fit_interval,
    fit_time_vs_size,
    speedup,
)
from app.core.study.cell_pairs import (
    DIRECTIONS,
    PairComparison,
    by_input,
    compare_programs,
    compare_results,
)
from app.core.study.claims import round_medians
from app.core.study.whole_program import ProgramTiming
from app.core.text import counted

_T = TypeVar("_T", bound="JobResult | ProgramTiming")


@dataclass(frozen=True)
class CipherFit:
    """``time = fixed cost + size / throughput`` for one cipher entry and direction."""

    cipher_label: str
    direction: str  # "encrypt" or "decrypt"
    fit: LinearFit | None  # None: fewer than two sizes
    interval: FitInterval | None = None  # over resampled rounds; None: too few of them


@dataclass(frozen=True)
class Speedup:
    """Seed 003's speed-up factor: how many times faster than the slowest entry on the input
    (encryption time of the slowest / this entry's, the claim's ratio over rounds), with its
    95 % interval (``nan`` with too few rounds), as every claim (:mod:`.claims`)."""

    input_label: str
    cipher_label: str
    baseline_label: str
    factor: float
    low: float = math.nan
    high: float = math.nan
    rounds: int = 1

    def interval_text(self) -> str:
        """ "95 % CI 5.80-6.40x" or "no interval: 2 rounds" (the digits of every ratio)."""
        if math.isnan(self.low):
            return f"no interval: {counted(self.rounds, 'round')}"
        return f"95 % CI {figure(self.low)}-{ratio_text(self.high)}"


def cipher_fits(results: Sequence[JobResult]) -> tuple[CipherFit, ...]:
    """Per cipher entry (in the order they ran) and direction, the least-squares line of
    median time on size, with its interval over the rounds."""
    out: list[CipherFit] = []
    for label in dict.fromkeys(r.label for r in results):
        mine = [r for r in results if r.label == label]
        for direction in DIRECTIONS:
            points = [(r.input_bytes, getattr(r, direction).median_s) for r in mine]
            try:
                fit = fit_time_vs_size(points)
            except ValueError:
                fit = None
            interval = None
            if fit is not None:
                interval = fit_interval(
                    [(r.input_bytes, round_medians(r.round_samples(direction))) for r in mine]
                )
            out.append(CipherFit(label, direction, fit, interval))
    return tuple(out)


def speedups(results: Sequence[JobResult], baseline: str) -> tuple[Speedup, ...]:
    """Per input with two entries or more, each entry's factor against the ``baseline`` entry
    (the study's: "id" or "id [library]"), or the slowest where it did not run."""
    out: list[Speedup] = []
    for input_label, group in by_input(results).items():
        timed = [r for r in group if r.encrypt.median_s > 0]
        if len(timed) < 2:
            continue
        slowest = _baseline(baseline, timed, lambda r: r.encrypt.median_s)
        for r in timed:
            factor = speedup(slowest.encrypt.median_s, r.encrypt.median_s)
            low = high = math.nan
            rounds = len(r.round_samples("encrypt"))
            if r is slowest:
                factor = low = high = 1.0
            else:
                try:  # the claim's ratio, so that the factor lies inside its interval
                    c = compare_results(r, slowest, "encrypt", margin=0.0, target=0.0)
                    factor, low, high, rounds = c.ratio, c.low, c.high, c.rounds
                except ValueError:  # a zero-time sample: the medians' ratio alone
                    pass
            out.append(Speedup(input_label, r.label, slowest.label, factor, low, high, rounds))
    return tuple(out)


def program_comparisons(
    programs: Sequence[ProgramTiming], *, margin: float, target: float
) -> tuple[PairComparison, ...]:
    """Per input, each pair of whole programs (each repetition a fresh process: the unit of
    evidence)."""
    out: list[PairComparison] = []
    for input_label in dict.fromkeys(p.input_label for p in programs if p.input_label):
        timed = [p for p in programs if p.input_label == input_label]
        for a, b in itertools.combinations(timed, 2):
            c = compare_programs(a, b, margin=margin, target=target)
            out.append(PairComparison(input_label, "program", c))
    return tuple(out)


def program_speedups(programs: Sequence[ProgramTiming], baseline: str) -> tuple[Speedup, ...]:
    """Per input, each whole program's factor against the ``baseline`` program, or the
    slowest on it, from the repetitions (each a fresh process)."""
    out: list[Speedup] = []
    for input_label in dict.fromkeys(p.input_label for p in programs if p.input_label):
        timed = [p for p in programs if p.input_label == input_label]
        slowest = _baseline(baseline, timed, lambda p: p.median_s)
        for p in timed:
            c = compare_programs(p, slowest, margin=0.0, target=0.0)
            factor, low, high = (c.ratio, c.low, c.high) if p is not slowest else (1.0,) * 3
            out.append(Speedup(input_label, p.label, slowest.label, factor, low, high, c.rounds))
    return tuple(out)


def _baseline(baseline: str, timed: list[_T], median: Callable[[_T], float]) -> _T:
    """The entry speed-ups are taken against: the study's ``baseline`` where it ran, else
    the slowest."""
    if baseline:
        named = [t for t in timed if _names_baseline(baseline, t)]
        if named:
            return named[0]
    return max(timed, key=median)


def _names_baseline(name: str, timed: JobResult | ProgramTiming) -> bool:
    """Whether the study's ``baseline`` ("id" or "id [library]") names this entry."""
    label = timed.label.lower()
    wanted = name.strip().lower()
    return wanted in (label, label.split(" [", 1)[0])
