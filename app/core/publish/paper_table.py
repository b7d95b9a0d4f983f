"""The paper's own figures in a study's paper kit: each published figure in the paper's
quantity and unit (seconds, a speed-up, MiB), ours beside it in the same unit and the ratio,
and the paper's claims with their verdicts; printed by every renderer of the document."""

from __future__ import annotations

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
