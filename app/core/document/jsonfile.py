"""A :class:`Document` as JSON: ``{"format": "cipherbench-document", "version": 1, "title",
"method", "tables": [{"caption", "headers", "rows", "notes"}], "sections"}``, where a cell is
its text or, for an estimate, ``{"median", "low", "high", "values", "approx", "text"}``
(``low`` and ``high`` null without an interval; ``text`` as every table prints it)."""

from __future__ import annotations

import json
import math
from typing import Any

from app.core.document.estimate import Estimate
from app.core.document.model import Cell, Document
from app.core.text import display_text

FORMAT = "cipherbench-document"
VERSION = 1


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def cell_json(cell: Cell) -> Any:
    if not isinstance(cell, Estimate):
        return display_text(cell)
    low, high = cell.interval or (math.nan, math.nan)
    return {
        "median": _number(cell.median),
        "low": _number(low),
        "high": _number(high),
        "values": cell.rounds,
        "approx": cell.approx,
        **({"unit": cell.unit} if cell.unit else {}),
        "text": cell.text(),
    }


def as_dict(document: Document) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "title": display_text(document.title),
        "method": display_text(document.method),
        "tables": [
            {
                "caption": display_text(t.caption),
                "headers": [display_text(h) for h in t.headers],
                "rows": [[cell_json(c) for c in row] for row in t.rows],
                "notes": [display_text(n) for n in t.notes],
            }
            for t in document.tables
        ],
        "sections": [
            {"heading": display_text(s.heading), "lines": [display_text(x) for x in s.lines]}
            for s in document.sections
        ],
    }


def render(document: Document) -> str:
    return json.dumps(as_dict(document), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
