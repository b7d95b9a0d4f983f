"""Saving a study: JSON (everything), CSV (the paper-style table), XLSX (a sheet per table and
native charts against size, :mod:`app.core.study.report_xlsx`) and a self-contained HTML report
(:mod:`app.core.study.report_html`), each written atomically.

JSON: ``{"format": "cipherbench-study", "version": 1, ...StudyResult.to_dict()}``: the study's
definition, how it ran, the environment, every job result with its raw samples, the fits,
comparisons and speed-ups, and the paper's published figures (labelled ``published``), each
with ``ours``: our matching entry, input and value in the paper's unit (null: not run here).

CSV: one row per (cipher entry, input) as the papers tabulate it: Algorithm, Library, Input,
Size (bytes), median encryption and decryption times (s), throughputs in the study's unit (the
column names say which), memory above the worker's baseline (MiB), the timed repetitions and
the spread (IQR, s). A failed cell gets a row with its reason and no numbers.

All go through :func:`app.core.export.writers.write_atomically`: a temporary file beside the
target, renamed over it when complete; nothing half-written. Every failure is a ``UserError``
whose message starts with ``cannot write <path>:``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from os import PathLike
from typing import TYPE_CHECKING, Any

from app.core.columns import headers, values
from app.core.export.csv_export import write_rows
from app.core.export.digest import with_digest

# The benchmark exporters' helpers: the same checks, permissions and failure wording for every
# export.
from app.core.export.json_export import json_safe
from app.core.study.columns import STUDY_COLUMNS
from app.core.study.paper_report import paper_json
from app.core.study.result import StudyResult

if TYPE_CHECKING:
    from app.core.study.transfer_result import TransferStudyResult

FORMAT = "cipherbench-study"
VERSION = 1


def study_document(result: StudyResult, *, compare: bool = True) -> dict[str, Any]:
    """The JSON document for ``result``, as Python objects (``compare``: see
    :meth:`StudyResult.to_dict`)."""
    doc = result.to_dict(compare=compare)
    doc.update(paper_json(result))
    return {"format": FORMAT, "version": VERSION, **json_safe(doc)}


def stored_document(result: StudyResult) -> dict[str, Any]:
    """The document the history stores: no claims computed (those not yet computed are
    recomputed from the raw samples when the run is shown)."""
    return study_document(result, compare=False)


def result_from_document(doc: Mapping[str, Any]) -> StudyResult | TransferStudyResult:
    """A study's JSON document read back: a study of transfers when its workload says so."""
    if doc.get("workload") == "transfer":
        from app.core.study.transfer_result import TransferStudyResult

        return TransferStudyResult.from_dict(doc)
    return StudyResult.from_dict(doc)


def write_study_json(result: StudyResult, path: str | PathLike[str]) -> None:
    """Write ``result`` as indented JSON. Not atomic (``app.core.kinds.formats.save`` is)."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(
            with_digest(study_document(result)), f, indent=2, ensure_ascii=False, allow_nan=False
        )
        f.write("\n")


def csv_header(units: str) -> list[str]:
    return [*headers(STUDY_COLUMNS, units), "Note"]


def csv_rows(result: StudyResult) -> list[list[Any]]:
    """The paper-style table, header first."""
    rows = [csv_header(result.units)]
    for r in result.results:
        rows.append([*values(STUDY_COLUMNS, r, result.units), " | ".join(r.warnings)])
    for f in result.failures:
        cipher, _, library = f.cipher_label.partition(" [")
        row = [""] * len(rows[0])
        row[0], row[1], row[2] = cipher, library.rstrip("]"), f.input_label
        row[-1] = f"failed: {f.message}"
        rows.append(row)
    return rows


def write_study_csv(result: StudyResult, path: str | PathLike[str]) -> None:
    """Write the paper-style table (UTF-8, comma-separated, header row). Not atomic."""
    write_rows(path, csv_rows(result))
