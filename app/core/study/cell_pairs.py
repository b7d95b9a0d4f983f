"""Pairs of a study's cells compared: each pair of entries on one input, in each direction,
from their rounds of raw samples (:func:`app.core.study.claims.compare`); the cells of the
claims not yet settled, which an adaptive study runs again; whole programs compared by their
runs."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from app.core.bench.results import JobResult
from app.core.study.claims import Comparison, compare
from app.core.study.whole_program import ProgramTiming

if TYPE_CHECKING:
    from app.core.transfer.results import TransferResult

DIRECTIONS = ("encrypt", "decrypt")

R = TypeVar("R", bound="JobResult | TransferResult")


def by_input(results: Iterable[R]) -> dict[str, list[R]]:
    """``results`` (a study's jobs or transfers) grouped by input, in the order they ran."""
    groups: dict[str, list[R]] = {}
    for r in results:
        groups.setdefault(r.input_label, []).append(r)
    return groups


@dataclass(frozen=True)
class PairComparison:
    """Two cipher entries on one input, one direction, from their rounds of raw samples."""

    input_label: str
    direction: str
    comparison: Comparison

    def sentence(self) -> str:
        return self.comparison.sentence()

    def to_dict(self) -> dict[str, Any]:
        return {"input": self.input_label, **self.comparison.to_dict()}


def compare_results(
    a: JobResult, b: JobResult, direction: str, *, margin: float, target: float
) -> Comparison:
    """``a`` against ``b`` in ``direction``, their rounds as the unit of evidence. Raises
    ``ValueError`` for a zero-time sample (nothing to compare)."""
    return compare(
        a.label,
        a.round_samples(direction),
        b.label,
        b.round_samples(direction),
        direction=direction,
        cpu_percent=(*a.round_cpu_percent(), *b.round_cpu_percent()),
        margin=margin,
        target=target,
    )


def pair_comparisons(
    results: Iterable[JobResult], *, margin: float, target: float
) -> list[PairComparison]:
    """For each input, each pair of entries, encryption and decryption."""
    out: list[PairComparison] = []
    for input_label, group in by_input(results).items():
        for a, b in itertools.combinations(group, 2):
            for direction in DIRECTIONS:
                try:
                    c = compare_results(a, b, direction, margin=margin, target=target)
                except ValueError:  # a zero-time sample: nothing to compare
                    continue
                out.append(PairComparison(input_label, direction, c))
    return out


def unsettled_cells(
    results: Mapping[int, R],
    claims_of: Callable[[R, R], Iterable[Comparison]],
) -> set[int]:
    """The keys of ``results`` (a study's cells so far, cipher jobs or transfers) in a claim
    not yet settled (:attr:`Comparison.settled`): ``claims_of(a, b)`` gives a pair's claims,
    every direction."""
    index = {id(r): i for i, r in results.items()}
    wanted: set[int] = set()
    for group in by_input(results.values()).values():
        for a, b in itertools.combinations(group, 2):
            try:
                if not all(c.settled for c in claims_of(a, b)):
                    wanted.update((index[id(a)], index[id(b)]))
            except ValueError:  # a zero-time sample: nothing to compare
                continue
    return wanted


def job_claims(margin: float, target: float) -> Callable[[JobResult, JobResult], list[Comparison]]:
    """Both directions of a pair of cipher jobs, for :func:`unsettled_cells`."""

    def both(a: JobResult, b: JobResult) -> list[Comparison]:
        return [compare_results(a, b, d, margin=margin, target=target) for d in DIRECTIONS]

    return both


def compare_programs(
    a: ProgramTiming, b: ProgramTiming, *, margin: float, target: float
) -> Comparison:
    """Two whole programs on one input, each run (a fresh process) a round of evidence."""
    return compare(
        a.label,
        [[s] for s in a.samples_s],
        b.label,
        [[s] for s in b.samples_s],
        direction="program",
        margin=margin,
        target=target,
    )
