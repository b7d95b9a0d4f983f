"""Loopback transfers as publication tables with their Methods: a ``transfer`` (one row per
cipher) and a study of transfers (one row per cipher and input). Throughput is a median
[95 % interval]; each end's CPU and memory and whether every run verified follow, headed as the
transfer's own columns (:mod:`app.core.transfer.columns`) head them.

A ``transfer`` runs all its timed runs between one sender and one receiver process, so its
interval is over those runs and covers what varies between transfers, not between processes. A
transfer study's rounds are each a fresh pair of processes: its intervals are over the rounds
when it ran two or more, over the runs otherwise, and the notes and Methods name which.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.document.estimate import CELL_RATE, Estimate, rate_estimate
from app.core.document.model import Table
from app.core.document.numbers import figure
from app.core.publish.methods import interval_sentence, machine_sentence, span_text
from app.core.publish.table import failure_notes, rate_unit, too_few_note
from app.core.study.figures import UNITS
from app.core.study.transfer_result import TransferStudyResult
from app.core.transfer.columns import BY_KEY
from app.core.transfer.results import TransferResult, TransferRun
from app.core.units import MIB

RUN_UNITS = "MB/s"  # a transfer's (its terminal table's); a study names its own


def by_rounds(results: Sequence[TransferResult]) -> bool:
    """Whether the intervals are over rounds: every result ran in two or more fresh pairs."""
    return bool(results) and all(len(r.round_samples()) >= 2 for r in results)


def throughput(result: TransferResult, units: str) -> Estimate:
    """Input over total time in ``units``: over rounds (each round's median), or over the
    runs (the input over their median time, as ``throughput_mb_s``)."""
    scale = UNITS[units]
    return rate_estimate(result.input_bytes, result.round_samples(), scale)


def _header(key: str) -> str:
    return BY_KEY[key].shown_title("")


def _rate_header(units: str) -> str:
    """``Throughput (MB/s)`` as the transfer's columns name it (a study's KB/s has none)."""
    column = BY_KEY.get(f"throughput_{units.lower().replace('/', '_')}")
    return column.shown_title(units) if column else f"Throughput ({units})"


def _table(
    results: Sequence[TransferResult],
    units: str,
    caption: str,
    notes: Sequence[str],
    *,
    inputs: bool,
) -> Table:
    """The rows of ``results``; ``inputs``: with an Input column (a study's several sizes)."""
    per_round = by_rounds(results)
    what = "rounds" if per_round else "runs"
    rows: list[tuple[str | Estimate, ...]] = []
    counts: list[int] = []
    for r in results:
        row, rate = _row(r, units, inputs=inputs)
        rows.append(row)
        counts.append(rate.rounds)
    advice = (
        "run the study with more rounds (--rounds)" if per_round else "run with --repeat 6 or more"
    )
    return Table(
        caption=caption,
        text_columns=3 if inputs else 2,
        headers=_headers(units, what, inputs=inputs),
        rows=tuple(rows),
        notes=(
            f"Throughput in {rate_unit(units)}: {_over(per_round)}",
            "CPU: each end's CPU time over its wall time, in % of one core (the median of the "
            "runs); memory: each end's peak resident memory above its baseline, in MiB "
            "(2^20 bytes), the largest of the runs; verified: every chunk authenticated and "
            "both ends' digests equal in every run.",
            *too_few_note(counts, what, advice),
            *notes,
        ),
    )


def _row(
    r: TransferResult, units: str, *, inputs: bool
) -> tuple[tuple[str | Estimate, ...], Estimate]:
    """A result's row, and its throughput (which counts its rounds or runs)."""
    rate = throughput(r, units)
    ends = [
        figure(v)
        for end in (r.sender, r.receiver)
        for v in (end.cpu_percent, end.peak_above_baseline_bytes / MIB)
    ]
    names = [r.cipher_id, r.library or "-", *([r.input_label] if inputs else [])]
    verified = "yes" if r.verified else "NO"
    return (*names, rate, *ends, verified, str(rate.rounds)), rate


def _headers(units: str, what: str, *, inputs: bool) -> tuple[str, ...]:
    """The columns' titles; ``what``: ``rounds`` or ``runs``, what the intervals are over."""
    return (
        "Cipher",
        "Library",
        *(("Input",) if inputs else ()),
        _rate_header(units),
        *(
            _header(f"{end}_{item}")
            for end in ("sender", "receiver")
            for item in ("cpu_percent", "peak_above_baseline_bytes")
        ),
        _header("verified"),
        what.capitalize(),
    )


def _over(per_round: bool) -> str:
    """What a throughput cell is and what its interval is over."""
    if per_round:
        return (
            f"{CELL_RATE}, with its distribution-free 95 % "
            "interval over those rounds in brackets; a round is a fresh sender and receiver."
        )
    return (
        "the input over the median time of the timed runs, with its distribution-free "
        "95 % interval over those runs in brackets; the runs share one sender and one "
        "receiver process, so the interval shows what varies between transfers, not between "
        "processes."
    )


def transfer_table(run: TransferRun) -> Table:
    """One row per cipher of a ``transfer``."""
    return _table(
        run.results,
        RUN_UNITS,
        f"Transfer of {run.input_label} over TCP loopback",
        failure_notes(((f.label, f.message) for f in run.failures), run.cancelled),
        inputs=False,
    )


def transfer_study_table(result: TransferStudyResult) -> Table:
    """One row per cipher and input of a study of transfers."""
    study = result.study
    failures = ((f"{f.cipher_label} on {f.input_label}", f.message) for f in result.failures)
    return _table(
        result.results,
        result.units,
        study.title or f"Study {study.name}: transfers over TCP loopback",
        failure_notes(failures, result.cancelled),
        inputs=True,
    )


def _definitions(units: str) -> str:
    return (
        "A run's time is from the first byte sent to the last byte authenticated and digested "
        f"by the receiver; throughput is the input size over the median time, in "
        f"{rate_unit(units)}. CPU is each end's CPU time over its own wall time (100 % = one "
        "core), the median of the runs; memory is each end's peak resident set size (the "
        "kernel's high-water mark) above its baseline before the run, the largest of the "
        "runs, in MiB (2^20 bytes). Verified: every chunk authenticated and both ends' stream "
        "digests equal, in every run."
    )


def _interval(results: Sequence[TransferResult]) -> str:
    if by_rounds(results):
        return interval_sentence(
            "rounds",
            "; a round is a fresh pair of processes, so the interval covers what "
            "varies between processes and moments",
        )
    return interval_sentence(
        "runs",
        "; the runs of a cipher share one sender and one receiver process, so the "
        "interval covers what varies between transfers, not between processes or moments",
    )


def transfer_methods(run: TransferRun) -> str:
    """The Methods paragraph of a ``transfer``."""
    chunk = run.options.get("chunk_bytes")
    chunks = f" in {chunk:,}-byte chunks" if isinstance(chunk, int) else " in chunks"
    runs = span_text(len(r.runs) for r in run.results)
    warmup = run.options.get("warmup", "?")
    return " ".join(
        [
            machine_sentence(run.environment),
            f"Each cipher sealed {run.input_label} ({run.input_bytes:,} bytes){chunks} (an "
            "AEAD per chunk; none: the plaintext baseline) and sent it over TCP loopback from a "
            "sender process to a receiver process, which opened and checked every chunk; "
            f"{warmup} warm-up and {runs} timed runs per cipher, all between the same two "
            "processes.",
            _definitions(RUN_UNITS),
            _interval(run.results),
        ]
    )


def transfer_study_methods(result: TransferStudyResult) -> str:
    """The Methods paragraph of a study of transfers."""
    return " ".join(
        [
            machine_sentence(result.environment),
            f"Each cipher sent each input over TCP loopback ({result.how_run()}).",
            _definitions(result.units),
            _interval(result.results),
        ]
    )
