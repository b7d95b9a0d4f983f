"""The paper's part of every study report, of either kind (ciphers or transfers): its published
figures beside ours with the ratio, where each stands in the paper and what the paper's own text
says otherwise, and its claims with the verdict the study's comparisons give. As rows (for
the xlsx sheets and the tests), HTML sections and the JSON keys.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from openpyxl import Workbook

from app.core.document.svg_chart import text
from app.core.export.xlsx_export import put, write_table
from app.core.study.claim_verdicts import check_claims
from app.core.study.figures import QUANTITY_NAMES, memory_words
from app.core.study.paper import PaperMatch, match_published, source
from app.core.study.result import StudyResult
from app.core.study.transfer_result import TransferStudyResult

AnyStudy = StudyResult | TransferStudyResult

PUBLISHED_HEADER = [
    "Cipher (paper's name)",
    "Input (paper's)",
    "Quantity",
    "Paper's value",
    "Unit",
    "Our entry",
    "Our input",
    "Ours (same unit)",
    "Ours / paper",
    "Where in the paper",
    "Note",
]
CLAIM_HEADER = [
    "The paper's claim",
    "Where",
    "Verdict",
    "Comparisons",
    "Agree",
    "Against",
    "Not decided",
    "What decides it",
]


def published_rows(result: AnyStudy) -> list[list[Any]]:
    """The paper's figures, each beside our value of the same quantity and unit (None: the
    study did not run what the figure describes), with its table and note."""
    rows = []
    for m in match_published(result):
        p = m.figure
        quantity = QUANTITY_NAMES.get(p.quantity, p.quantity)
        if p.quantity == "memory":
            quantity += f" ({memory_words(p.basis, p.direction)})"
        if p.end:
            quantity += f", {p.end}"
        if p.statistic:
            quantity += f" ({p.statistic}; ours too)"
        ours = [m.cipher_label, m.input_label, m.measured, m.ratio]
        rows.append([p.cipher, p.input, quantity, p.value, p.unit, *ours, p.table, p.note])
    return rows


def claim_rows(result: AnyStudy) -> list[list[Any]]:
    """Each claim: its words, where, the verdict, how many comparisons agree, go against it or
    are not decided, and the sentence of the one that decides it."""
    rows = []
    for v in check_claims(result):
        counts = list(v.counts())
        rows.append([v.claim.says, v.claim.where, v.verdict, *counts, v.deciding()])
    return rows


# --- HTML ---------------------------------------------------------------------------------


def paper_html(result: AnyStudy) -> list[str]:
    """The sections "The paper's published figures" and "The paper's claims" (none: [])."""
    out: list[str] = []
    if result.study.paper_method:
        out += [
            "<h2>The paper's method</h2>",
            f"<p>{text(result.study.paper_method)}</p>",
            '<p class="note">Ours is in the Method section: where the definitions differ, a '
            "figure says which of ours it is set beside (a mean, the Python heap, a process's "
            "whole memory, one end of a transfer).</p>",
        ]
    if result.study.published:
        rows = published_rows(result)
        notes = list(dict.fromkeys(row[10] for row in rows if row[10]))  # each once, numbered
        cells = [
            [text(c) for c in row[:3]]
            + [f"{row[3]:g}", text(row[4]), text(row[5] or "—"), text(row[6] or "—")]
            + [_maybe(row[7], "{:.4g}"), _maybe(row[8], "{:.3g}"), text(row[9])]
            + [f"[{notes.index(row[10]) + 1}]" if row[10] else ""]
            for row in rows
        ]
        out += [
            "<h2>The paper's published figures</h2>",
            f'<p class="note">As published in {text(source(result))}, not measured here, each '
            "beside this study's value of the same quantity in the same unit (the paper's "
            "machine, library and method differ; — : not run here). Notes give what the "
            "paper's own text says otherwise.</p>",
            html_table(PUBLISHED_HEADER, cells, numeric=(3, 7, 8), css="paper"),
        ]
        if notes:
            out.append('<ol class="note">')
            out += [f"<li>{text(n)}</li>" for n in notes]
            out.append("</ol>")
    if result.study.claims:
        cells = [
            [text(row[0]), text(row[1]), f"<b>{text(row[2])}</b>"]
            + [str(n) for n in row[3:7]]
            + [text(row[7])]
            for row in claim_rows(result)
        ]
        out += [
            "<h2>The paper's claims</h2>",
            f'<p class="note">Each claim of {text(source(result))}, checked against this '
            "study's comparisons (rounds as the unit of evidence): <i>confirmed</i> when every "
            "comparison in its scope agrees beyond the margin, <i>contradicted</i> when one goes "
            "against it (or finds the two equal within the margin), <i>undecided</i> "
            "otherwise.</p>",
            html_table(CLAIM_HEADER, cells, numeric=(3, 4, 5, 6), css="paper"),
        ]
    return out


def html_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    numeric_from: int = 99,
    numeric_to: int = 99,
    css: str = "",
    numeric: Sequence[int] = (),
) -> str:
    """A table; ``rows`` hold escaped HTML, ``header`` plain text. Columns from
    ``numeric_from`` to ``numeric_to`` (inclusive), and those in ``numeric``, are
    right-aligned."""
    cls = f' class="{css}"' if css else ""
    out = [f"<table{cls}>"]
    if header:
        out.append("<tr>" + "".join(f"<th>{text(h)}</th>" for h in header) + "</tr>")
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            num = ' class="num"' if numeric_from <= i <= numeric_to or i in numeric else ""
            cells.append(f"<td{num}>{cell}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _maybe(value: float | None, fmt: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return text(fmt.format(value))


# --- xlsx and JSON ----------------------------------------------------------------------------


def write_paper_sheets(wb: Workbook, result: AnyStudy) -> None:
    """The sheets "Paper's method", "Published" and "Claims", when the study has them."""
    if result.study.paper_method:
        rows = [[result.study.paper_method], [f"From: {source(result)}"]]
        write_table(wb.create_sheet("Paper's method"), ("The paper's method",), rows)
    if result.study.published:
        ws = wb.create_sheet("Published")
        rows = published_rows(result)
        formats = (None, None, None, "General", None, None, None, "0.0000", "0.00", None, None)
        write_table(ws, PUBLISHED_HEADER, rows, formats)
        note = (
            f"Columns A-E: the paper's own figures ({source(result)}), not measured here; F-I: "
            "this study's value of the same quantity in the same unit (empty: not run here)."
        )
        put(ws, len(rows) + 3, 1, note)
    if result.study.claims:
        counts = ("0",) * 4
        claim_formats = (None, None, None, *counts, None)
        write_table(wb.create_sheet("Claims"), CLAIM_HEADER, claim_rows(result), claim_formats)


def paper_json(result: AnyStudy) -> dict[str, Any]:
    """``published`` (each figure with ``ours``) and ``paper_claims`` (each with its verdict)."""
    return {
        "published": [_figure_json(m) for m in match_published(result)],
        "paper_claims": [v.to_dict() for v in check_claims(result)],
    }


def _figure_json(m: PaperMatch) -> dict[str, Any]:
    """A published figure as in the study file, with ``ours``: one matching entry's value."""
    ours = None
    if m.cipher_label is not None:
        ours = {"cipher": m.cipher_label, "input": m.input_label, "value": m.measured}
        ours["ratio_to_paper"] = m.ratio
    return {**asdict(m.figure), "entry": list(m.figure.entry), "ours": ours}
