"""A merged result (:mod:`app.core.publish.merge`) as HTML, xlsx, CSV or JSON (Markdown and
LaTeX: its document, :mod:`app.core.publish.documents`).

Every format holds the same four parts: the sources (one per column group), the figures with
their intervals, the normalised view, and what differs between the sources. Numbers are
rounded once (:func:`app.core.publish.table.figure`), so every format prints the same digits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.core.document.estimate import Estimate
from app.core.document.model import Cell, Section, Table
from app.core.export.csv_export import write_rows
from app.core.publish.merge import MergedResult, MergeSource


def _cell(value: Estimate | None) -> Cell:
    return value if value is not None else "-"


def figures_table(merged: MergedResult) -> Table:
    """One row per entry and input, one column per source (median [95 % interval])."""
    what = "Encryption" if merged.direction == "encrypt" else "Decryption"
    return Table(
        caption=f"{what} throughput ({merged.units}) on {len(merged.sources)} sources",
        headers=("Entry", "Input", *(f"{s} ({merged.units})" for s in merged.labels)),
        rows=tuple(
            (row.entry, row.input_label, *(_cell(c) for c in row.cells)) for row in merged.rows
        ),
        notes=tuple(merged.notes()),
    )


def normalised_table(merged: MergedResult) -> Table | None:
    if merged.reference is None:
        return None
    return Table(
        caption=f"Normalised to {merged.reference} = 1 on each source",
        headers=("Entry", "Input", *(f"{s} (x)" for s in merged.labels)),
        rows=tuple(
            (row.entry, row.input_label, *(_cell(c) for c in row.normalised)) for row in merged.rows
        ),
        notes=(),
    )


_INTEGRITY = {
    "intact": "digest checked",
    "changed": "CHANGED after it was written (digest mismatch)",
    "absent": "no digest (an older file)",
    "new": "measured just now",
    "": "from the history",
}


def sources_rows(sources: Sequence[MergeSource]) -> list[list[str]]:
    return [
        [
            s.label,
            s.origin,
            s.environment.cpu_model or "?",
            str(getattr(s.result, "started_at", "") or "?"),
            s.how_run,
            _INTEGRITY.get(s.integrity, s.integrity),
        ]
        for s in sources
    ]


SOURCE_HEADERS = ("Source", "From", "CPU", "Started (UTC)", "How run", "File")


def sources_table(sources: Sequence[MergeSource]) -> Table:
    rows = tuple(tuple(row) for row in sources_rows(sources))
    return Table("Sources", SOURCE_HEADERS, rows, text_columns=len(SOURCE_HEADERS))


def sources_section(sources: Sequence[MergeSource]) -> Section:
    """The sources a line each, for what prints prose rather than a six-column table."""
    return Section(
        "Sources",
        tuple(
            f"{s[0] if s[0] == s[1] else f'{s[0]}: {s[1]}'} ({s[5]}), {s[2]}, {s[3]}; {s[4]}"
            for s in sources_rows(sources)
        ),
    )


def differences_section(
    labels: Sequence[str], differences: Sequence[tuple[str, Sequence[str]]]
) -> Section:
    """What differs between the sources, a line each (one line when nothing does)."""
    differs = [
        f"{what}: " + "; ".join(f"{s}: {v}" for s, v in zip(labels, values, strict=True))
        for what, values in differences
    ] or ["Nothing recorded differs: the same machine and software."]
    return Section("What differs between the sources", tuple(differs))


def differences_rows(merged: MergedResult) -> list[list[str]]:
    return [[what, *values] for what, values in merged.differences]


# --- data: CSV, JSON, xlsx --------------------------------------------------------------------


CSV_HEADER = (
    "entry",
    "input",
    "input_bytes",
    "source",
    "median",
    "ci_low",
    "ci_high",
    "rounds",
    "normalised",
    "normalised_ci_low",
    "normalised_ci_high",
    "units",
    "direction",
    "reference",
)


def long_rows(merged: MergedResult) -> list[list[Any]]:
    """One row per entry, input and source (the tidy form a plotting tool reads)."""
    out: list[list[Any]] = []
    for row in merged.rows:
        for label, cell, norm in zip(merged.labels, row.cells, row.normalised, strict=True):
            if cell is None:
                continue
            lo, hi = cell.interval or (None, None)
            nlo, nhi = (norm.interval or (None, None)) if norm else (None, None)
            out.append(
                [
                    row.entry,
                    row.input_label,
                    row.input_bytes,
                    label,
                    cell.median,
                    lo,
                    hi,
                    cell.rounds,
                    norm.median if norm else None,
                    nlo,
                    nhi,
                    merged.units,
                    merged.direction,
                    merged.reference or "",
                ]
            )
    return out


def merged_document(merged: MergedResult) -> dict[str, Any]:
    return {
        "format": "cipherbench-merged",
        "version": 1,
        "units": merged.units,
        "direction": merged.direction,
        "reference": merged.reference,
        "sources": [
            dict(zip(SOURCE_HEADERS, r, strict=True)) for r in sources_rows(merged.sources)
        ],
        "rows": [dict(zip(CSV_HEADER, r, strict=True)) for r in long_rows(merged)],
        "differences": [{"what": w, "values": list(v)} for w, v in merged.differences],
    }


def write_json(merged: MergedResult, path: Path) -> None:
    Path(path).write_text(json.dumps(merged_document(merged), indent=1) + "\n", encoding="utf-8")


def write_csv(merged: MergedResult, path: Path) -> None:
    write_rows(path, [CSV_HEADER, *long_rows(merged)])


def write_xlsx(merged: MergedResult, path: Path) -> None:
    """Sheets: Merged (figures), Normalised, Differences, Sources, Data (the long form)."""
    from openpyxl import Workbook

    from app.core.export.xlsx_export import save_workbook, write_table

    wb = Workbook()
    first = True
    sheets: list[tuple[str, Any, Any]] = []
    for name, table in (
        ("Merged", figures_table(merged)),
        ("Normalised", normalised_table(merged)),
    ):
        if table is not None:
            rows = [*table.text_rows(), [], *([n] for n in table.notes)]
            sheets.append((name, table.headers, rows))
    sheets.append(("Differences", ("", *merged.labels), differences_rows(merged)))
    sheets.append(("Sources", SOURCE_HEADERS, sources_rows(merged.sources)))
    sheets.append(("Data", CSV_HEADER, long_rows(merged)))
    for name, headers, rows in sheets:
        ws = wb.active if first else wb.create_sheet()
        first = False
        ws.title = name
        write_table(ws, headers, rows, freeze="C2" if name in ("Merged", "Normalised") else "A2")
    save_workbook(wb, path)
