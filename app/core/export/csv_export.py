"""Results as CSV: one row per job, flat columns, the unit at the end of each column name.

Read back with ``csv.DictReader(open(path, newline="", encoding="utf-8"))``. Numbers are
written at full precision (``repr``), empty cells mean "not measured", ``verified`` is
``true``/``false`` (``verified_round_trips`` says how many round trips were checked);
``chunk_bytes`` is the chunk a stream-mode job used and ``repetitions`` the
timed runs it made; ``aggregate_processes``, ``aggregate_enc_throughput_mb_s`` and
``aggregate_dec_throughput_mb_s`` are those of ``bench --processes N`` (empty without). A file
name byte that is not UTF-8 is written as the text ``\\xff``, a control character as
``\\x1b``, and a name a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@`` first)
with a leading ``'``. Jobs
that failed get a row too: cipher and library, no numbers, and ``failed: <reason>`` in
``warnings``. Use ``exporters.export`` for an atomic write.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from os import PathLike
from typing import Any

from app.core.bench.results import RunResult
from app.core.document.csvfile import name_cell
from app.core.export.schema import FIELDS, WARNING_SEPARATOR, job_row
from app.core.runtime.envelope import EntryFailure

__all__ = [
    "CSV_COLUMNS",
    "WARNING_SEPARATOR",
    "csv_cell",
    "failure_row",
    "job_row",
    "write_csv",
    "write_rows",
]

# Every field of the schema, in its order.
CSV_COLUMNS: tuple[str, ...] = tuple(f.key for f in FIELDS)


def failure_row(failure: EntryFailure) -> dict[str, Any]:
    """A ``CSV_COLUMNS`` record for a job that failed: names and the reason, nothing else."""
    row: dict[str, Any] = dict.fromkeys(CSV_COLUMNS)
    row.update(
        cipher=failure.cipher, library=failure.library, warnings=f"failed: {failure.message}"
    )
    return row


def csv_cell(value: Any) -> str:
    """A value as every CipherBench CSV writes it: full precision, true/false, empty for
    not measured; text as :func:`name_cell` writes it (a file name's stray byte as ``\\xff``,
    a control character shown, never a formula)."""
    if isinstance(value, str):
        return name_cell(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write_rows(path: str | PathLike[str], rows: Iterable[Iterable[Any]]) -> None:
    """Every CipherBench CSV: ``rows`` (the header first) written to ``path`` (UTF-8,
    comma-separated), each value through :func:`csv_cell`. Not atomic."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([csv_cell(v) for v in row] for row in rows)


def write_csv(run: RunResult, path: str | PathLike[str]) -> None:
    """Write ``run`` to ``path``: a header row of :data:`CSV_COLUMNS`, a row per job."""
    rows = [job_row(j) for j in run.results] + [failure_row(f) for f in run.failures]
    write_rows(path, [CSV_COLUMNS, *([row[c] for c in CSV_COLUMNS] for row in rows)])
