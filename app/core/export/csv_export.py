"""Results as CSV: one row per job, flat columns, the unit at the end of each column name.

Read back with ``csv.DictReader(open(path, newline="", encoding="utf-8"))``. Numbers are
written at full precision (``repr``), empty cells mean "not measured", ``verified`` is
``true``/``false`` (``verified_round_trips`` says how many round trips were checked);
``chunk_bytes`` is the chunk a stream-mode job used and ``repetitions`` the
timed runs it made; ``aggregate_processes``, ``aggregate_enc_throughput_mb_s`` and
``aggregate_dec_throughput_mb_s`` are those of ``bench --processes N`` (empty without). A file
name byte that is not UTF-8 is written as the text ``\\xff``. Jobs
that failed get a row too: cipher and library, no numbers, and ``failed: <reason>`` in
``warnings``. Use ``exporters.export`` for an atomic write.
"""

from __future__ import annotations

import csv
from os import PathLike
from typing import Any

from app.core.bench.results import JobFailure, RunResult
from app.core.export.schema import FIELDS, WARNING_SEPARATOR, job_row
from app.core.text import display_text

__all__ = ["CSV_COLUMNS", "WARNING_SEPARATOR", "csv_cell", "failure_row", "job_row", "write_csv"]

# Every field of the schema, in its order.
CSV_COLUMNS: tuple[str, ...] = tuple(f.key for f in FIELDS)


def failure_row(failure: JobFailure) -> dict[str, Any]:
    """A ``CSV_COLUMNS`` record for a job that failed: names and the reason, nothing else."""
    row: dict[str, Any] = dict.fromkeys(CSV_COLUMNS)
    row.update(
        cipher=failure.cipher, library=failure.library, warnings=f"failed: {failure.message}"
    )
    return row


def csv_cell(value: Any) -> str:
    """A value as every CipherBench CSV writes it: full precision, true/false, empty for
    not measured, a file name's stray byte as the text ``\\xff``."""
    if isinstance(value, str):
        return display_text(value)  # UTF-8 cannot hold a file name's stray byte as it is
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write_csv(run: RunResult, path: str | PathLike[str]) -> None:
    """Write ``run`` to ``path`` (UTF-8, comma-separated, header row). Not atomic."""
    rows = [job_row(j) for j in run.results] + [failure_row(f) for f in run.failures]
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            writer.writerow([csv_cell(row[c]) for c in CSV_COLUMNS])
