"""Which comparisons a paper's claim rests on (:mod:`.claim_verdicts` reads their verdicts):
the study's comparisons between the claim's entries, read from the claim's side; their memory
on the claim's basis; one direction of an entry against the other; and an entry's smallest
input against its largest, per byte, for a claim of a trend. Each as ``(input, comparison)``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from app.core.bench.results import JobResult
from app.core.study.claim_words import CPU, GERUNDS
from app.core.study.claims import Comparison, compare, memory_comparison
from app.core.study.figures import names_entry, same_input
from app.core.study.memory_figures import memory_bytes
from app.core.study.paper_claims import PaperClaim

if TYPE_CHECKING:
    from app.core.study.result import StudyResult
    from app.core.study.transfer_result import TransferStudyResult

CROSSED_DIRECTIONS = ("encrypt", "decrypt")


def read_as_claimed(
    claim: PaperClaim, result: StudyResult | TransferStudyResult
) -> list[tuple[str, Comparison]]:
    """The study's comparisons (whole programs too) between the claim's entries in its
    directions, each read from the claim's side: its a first."""
    entries = {r.label: _entry(r) for r in result.results}
    out = []
    for pc in (*result.comparisons, *getattr(result, "program_comparisons", ())):
        if claim.directions and pc.direction not in claim.directions:
            continue
        c = pc.comparison
        a, b = entries.get(c.label_a), entries.get(c.label_b)
        if a is None or b is None or a[:2] == b[:2]:  # an entry against its own copy
            continue
        if _names(claim.a, b) and _names(claim.b, a):
            c = swapped(c)
        elif not (_names(claim.a, a) and _names(claim.b, b)):
            continue
        out.append((pc.input_label, c))
    return out


def memory_compared(
    claim: PaperClaim, result: StudyResult | TransferStudyResult
) -> list[tuple[str, Comparison]]:
    """Each entry of the claim's a against each of its b on each input, by their memory on the
    claim's basis and direction (exact counts, measured once a side)."""
    jobs = [r for r in result.results if isinstance(r, JobResult)]
    basis = claim.memory_basis
    margin = result.study.margin_percent / 100
    out = []
    for ra, rb in _claimed_pairs(claim, jobs):
        a = memory_bytes(basis, claim.direction, ra)
        b = memory_bytes(basis, claim.direction, rb)
        if a and b:
            c = memory_comparison(
                ra.label, a, rb.label, b, direction=claim.direction, margin=margin
            )
            out.append((ra.input_label, c))
    return out


def crossed(
    claim: PaperClaim, result: StudyResult | TransferStudyResult
) -> list[tuple[str, Comparison]]:
    """For a claim that sets one direction against another, each entry it names (in a and
    b) on each input against itself: its rounds in the claim's direction against the same
    rounds in the other ("aes-128-cbc decrypting is 5.1 % faster than aes-128-cbc
    encrypting")."""
    mine, theirs = claim.directions[0], claim.against
    crossing = f"{mine}/{theirs}"
    study = result.study
    jobs = [r for r in result.results if isinstance(r, JobResult)]  # a transfer has one
    out = []
    for job in jobs:  # each against itself: one worker's rounds in both directions
        if not (_names(claim.a, _entry(job)) and _names(claim.b, _entry(job))):
            continue
        try:
            c = compare(
                f"{job.label} {GERUNDS[mine]}",
                job.round_samples(mine),
                f"{job.label} {GERUNDS[theirs]}",
                job.round_samples(theirs),
                direction=crossing,
                cpu_percent=job.round_cpu_percent(),
                margin=study.margin_percent / 100,
                target=study.precision_percent / 100,
            )
        except ValueError:  # a zero-time sample: nothing to compare
            continue
        out.append((job.input_label, c))
    return out


def trend(
    claim: PaperClaim, result: StudyResult | TransferStudyResult
) -> list[tuple[str, Comparison]]:
    """For a claim of how throughput changes with size: each entry it names, in each of its
    directions, on the smallest input in scope against the largest, per byte ("des-cbc
    [pycryptodome] on 108 KB (per byte) decrypts 3.1 % faster than ... on 2618 KB (per
    byte)": its throughput falls with size)."""
    study = result.study
    jobs = [
        r
        for r in result.results
        if isinstance(r, JobResult)
        and _names(claim.a, _entry(r))
        and in_scope(claim, r.input_label, r.input_bytes)
    ]
    by_entry: dict[tuple[str, str | None], list[JobResult]] = {}
    for job in jobs:
        by_entry.setdefault(_entry(job)[:2], []).append(job)
    out = []
    for cells in by_entry.values():
        small = min(cells, key=lambda r: r.input_bytes)
        large = max(cells, key=lambda r: r.input_bytes)
        if small.input_bytes == large.input_bytes:
            continue
        for direction in claim.directions or CROSSED_DIRECTIONS:
            try:
                c = compare(
                    f"{small.label} on {small.input_label} (per byte)",
                    _per_byte(small, direction),
                    f"{large.label} on {large.input_label} (per byte)",
                    _per_byte(large, direction),
                    direction=direction,
                    cpu_percent=[*small.round_cpu_percent(), *large.round_cpu_percent()],
                    margin=study.margin_percent / 100,
                    target=study.precision_percent / 100,
                )
            except ValueError:  # no sample, or a zero time
                continue
            out.append((f"{small.input_label} to {large.input_label}", c))
    return out


def _claimed_pairs(claim: PaperClaim, cells: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
    """Each cell of an entry in the claim's a with each cell of an entry in its b on the same
    input (an entry never against its own copy)."""
    for ra in cells:
        if not _names(claim.a, _entry(ra)):
            continue
        for rb in cells:
            same = rb.input_label == ra.input_label and _entry(rb)[:2] != _entry(ra)[:2]
            if same and _names(claim.b, _entry(rb)):
                yield ra, rb


def _per_byte(r: JobResult, direction: str) -> list[list[float]]:
    """``r``'s rounds of times in ``direction``, each divided by its input's size."""
    return [[t / r.input_bytes for t in rnd] for rnd in r.round_samples(direction)]


def cpu_compared(
    claim: PaperClaim, result: StudyResult | TransferStudyResult
) -> list[tuple[str, Comparison]]:
    """Each transfer entry of the claim's a against each of its b on each input, by each
    round's CPU % of the end the claim names (both ends added for none), over the rounds."""
    from app.core.transfer.results import TransferResult

    transfers = [r for r in result.results if isinstance(r, TransferResult)]
    study = result.study
    out = []
    for ra, rb in _claimed_pairs(claim, transfers):
        try:
            c = compare(
                ra.label,
                _round_cpu(ra, claim.end),
                rb.label,
                _round_cpu(rb, claim.end),
                direction="transfer",
                margin=study.margin_percent / 100,
                target=study.precision_percent / 100,
            )
        except ValueError:  # an end that took no CPU time at all: nothing to compare
            continue
        out.append((ra.input_label, replace(c, quantity=CPU)))
    return out


def _round_cpu(r: Any, end: str) -> list[list[float]]:
    """Each round's runs' CPU % of ``end`` (of both ends added for "")."""
    rounds, at = [], 0
    for size in r.round_sizes or (len(r.runs),):
        rounds.append([_end_cpu(run, end) for run in r.runs[at : at + size]])
        at += size
    return rounds


def _end_cpu(run: Any, end: str) -> float:
    if end == "sender":
        return float(run.sender.cpu_percent)
    if end == "receiver":
        return float(run.receiver.cpu_percent)
    return float(run.sender.cpu_percent + run.receiver.cpu_percent)


def swapped(c: Comparison) -> Comparison:
    """``c`` read the other way round: B against A (the ratio and interval inverted)."""
    return replace(
        c,
        label_a=c.label_b,
        label_b=c.label_a,
        ratio=1 / c.ratio,
        low=1 / c.high,
        high=1 / c.low,
        rounds_a=c.rounds_b,
        rounds_b=c.rounds_a,
        n_a=c.n_b,
        n_b=c.n_a,
        stop_low=1 / c.stop_high,
        stop_high=1 / c.stop_low,
    )


def _entry(r: Any) -> tuple[str, str | None, str]:
    """``(cipher id, library, label)`` of a cipher job or a transfer."""
    cipher = getattr(r, "cipher", None) or r.cipher_id
    return cipher, r.library, r.label


def _names(names: Sequence[str], entry: tuple[str, str | None, str]) -> bool:
    return any(names_entry((n,), "", *entry) for n in names)


def in_scope(claim: PaperClaim, input_label: str, input_bytes: int) -> bool:
    if claim.inputs and not any(same_input(i, input_label) for i in claim.inputs):
        return False
    return input_bytes >= claim.min_bytes
