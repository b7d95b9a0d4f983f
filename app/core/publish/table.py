"""A study as one publication table (rows of cells, each a median with its interval, the unit
in every header), and the notes and units every kind's table shares."""

from __future__ import annotations

import math
from collections.abc import Iterable

from app.core.document.estimate import CELL_RATE, rate_estimate
from app.core.document.intervals import minimum_values
from app.core.document.model import Table
from app.core.errors import UserError
from app.core.study.figures import UNITS
from app.core.study.result import StudyResult
from app.core.units import format_bytes, parse_size


def power_text(n: int) -> str:
    """``10^6``, ``2^20``: a unit's size as a paper writes it."""
    for base in (10, 2):
        k = round(math.log(n, base)) if n > 0 else 0
        if base**k == n:
            return f"{base}^{k}"
    return f"{n:,}"


def rate_unit(units: str) -> str:
    """``"MB/s (10^6 bytes per second)"`` for a key of ``UNITS``."""
    return f"{units} ({power_text(UNITS[units])} bytes per second)"


def too_few_note(counts: Iterable[int], what: str, advice: str) -> list[str]:
    """The note that explains ``[n/a]`` when any of ``counts`` (values behind an estimate) is
    below the 95 % interval's minimum: ``what`` they are ("rounds"), how to get more."""
    least = min(counts, default=None)
    if least is None or least >= minimum_values():  # no values at all: nothing to explain
        return []
    return [
        f"[n/a]: fewer than {minimum_values()} {what}, too few for a 95 % interval of a "
        f"median; {advice}."
    ]


def input_name(label: str, size: int, *, binary: bool) -> str:
    """An input as a paper names it: a size as written ("50 MiB"), a file with its size
    ("notes.txt (14.7 KB)", in the study's unit family)."""
    try:
        parse_size(label)
        return label
    except UserError:
        return f"{label} ({format_bytes(size, binary=binary)})"


def study_table(result: StudyResult) -> Table:
    """One row per cipher entry and input: encryption and decryption throughput."""
    units = result.units
    scale = UNITS[units]
    rows = []
    for r in result.results:
        enc = rate_estimate(r.input_bytes, r.round_samples("encrypt"), scale)
        dec = rate_estimate(r.input_bytes, r.round_samples("decrypt"), scale)
        name = input_name(r.input_label, r.input_bytes, binary="i" in units)
        rows.append((r.cipher, r.library, name, enc, dec, str(enc.rounds)))
    notes = [
        f"Throughput in {rate_unit(units)}: {CELL_RATE}, with its distribution-free 95 % "
        "interval over those rounds in brackets.",
        *too_few_note(
            (int(str(row[-1])) for row in rows),
            "rounds",
            "run the study with more rounds (--rounds)",
        ),
    ]
    study = result.study
    caption = study.title or f"Study {study.name}"
    return Table(
        caption=caption,
        headers=(
            "Cipher",
            "Library",
            "Input",
            f"Encryption ({units})",
            f"Decryption ({units})",
            "Rounds",
        ),
        rows=tuple(rows),
        notes=tuple(notes),
    )


def failure_notes(failures: Iterable[tuple[str, str]], cancelled: bool = False) -> list[str]:
    """A note per ``(what, why)`` that failed, and one if the run was cancelled: a table shows
    what it leaves out."""
    notes = [f"Not measured: {what}: {(why.splitlines() or [''])[0]}" for what, why in failures]
    if cancelled:
        notes.append("The run was cancelled: the table holds what finished before it stopped.")
    return notes
