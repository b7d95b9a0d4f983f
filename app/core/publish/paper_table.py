"""The paper's own figures in a study's paper kit: each table the paper printed in its own
shape (its rows, its quantities as columns, in its units) with our row under each of its rows;
every published figure in the paper's quantity and unit beside ours with the ratio; and the
paper's claims with their verdicts. Printed by every renderer of the document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.core.document.model import Section, Table
from app.core.document.numbers import MISSING, figure, ratio_text
from app.core.study.claim_verdicts import check_claims
from app.core.study.paper_report import published_rows, source

NOTE = "Ours is the study's median in the paper's unit; - where the study ran no such cell."
HEADERS = (
    "Where in the paper",
    "Entry",
    "Input",
    "Quantity",
    "Unit",
    "Paper",
    "Ours",
    "Ours / paper",
)


SHAPED_NOTE = (
    "The paper's rows as it printed them, each followed by ours: the study's median in the "
    "paper's unit, from the entry of ours that reproduces it; - where the study ran no such cell."
)


def paper_shaped_tables(result: Any) -> tuple[Table, ...]:
    """Each table (or figure) of the paper in its own shape: one row per entry and input the
    paper printed, one column per quantity (with its unit), and under each of the paper's rows
    a row of ours per entry that reproduces it, so the paper's table can be pasted with ours."""
    groups: dict[str, list[Sequence[Any]]] = {}
    for row in published_rows(result):
        groups.setdefault(row[9], []).append(row)
    return tuple(_shaped(where, rows, source(result)) for where, rows in groups.items())


def _shaped(where: str, rows: list[Sequence[Any]], cited: str) -> Table:
    columns: dict[tuple[str, str], None] = {}  # (quantity, unit) in the paper's order
    lines: dict[tuple[str, str], dict[str | None, dict[tuple[str, str], float | None]]] = {}
    for paper_entry, paper_input, quantity, value, unit, entry, _, ours, *_ in rows:
        column = (quantity, unit)
        columns.setdefault(column, None)
        line = lines.setdefault((paper_entry, paper_input), {None: {}})
        line[None][column] = value
        if entry is not None:
            line.setdefault(entry, {})[column] = ours
    out: list[tuple[str, ...]] = []
    for (paper_entry, paper_input), sources in lines.items():
        for entry, values in sources.items():
            named = ("Paper", paper_entry) if entry is None else ("Ours", entry)
            cells = tuple(_value(values.get(c)) for c in columns)
            out.append((*named, paper_input, *cells))
        if len(sources) == 1:  # the study ran nothing the paper's row describes
            out.append(("Ours", paper_entry, paper_input, *(MISSING for _ in columns)))
    headers = ("Source", "Entry", "Input", *(_heading(q, u) for q, u in columns))
    printed = f"{where} as the paper printed it" if where else "The paper's figures in its shape"
    caption = f"{printed}, ours under each row ({cited})"
    return Table(caption, headers, tuple(out), notes=(SHAPED_NOTE,), text_columns=3)


def _value(value: float | None) -> str:
    return MISSING if value is None else figure(value)


def _heading(quantity: str, unit: str) -> str:
    """``"Encryption time (mean; ours too) (s)"``: the quantity, capitalised, and its unit."""
    return f"{quantity[:1].upper()}{quantity[1:]} ({unit})"


def paper_figures_table(result: Any) -> Table | None:
    """The paper's figures beside ours (None: the study carries none)."""
    rows = []
    for row in published_rows(result):
        paper_entry, paper_input, quantity, value, unit, entry, _, ours, ratio, where, _ = row
        rows.append(
            (
                where,
                entry or paper_entry,  # ours, which names the paper's ("... [pyaes]")
                paper_input,
                quantity,
                unit,
                figure(value),
                figure(ours) if ours is not None else MISSING,
                ratio_text(ratio),
            )
        )
    if not rows:
        return None
    return Table(
        f"The paper's figures beside ours ({source(result)})",
        HEADERS,
        tuple(rows),
        notes=(NOTE,),
        text_columns=5,
    )


def paper_claims_section(result: Any) -> tuple[Section, ...]:
    """The paper's claims, each with its verdict and the comparison that decides it."""
    verdicts = check_claims(result)
    if not verdicts:
        return ()
    return (Section("The paper's claims, checked", tuple(v.sentence() for v in verdicts)),)
