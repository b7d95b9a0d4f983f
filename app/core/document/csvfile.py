"""A :class:`Document` as CSV: each table as a block (its caption on a line of its own, the
header, the rows), blocks one empty line apart. An estimate's cell becomes three numbers at
full precision, its median and its interval's ends (empty: none), under its header and the
header's ``low`` and ``high``; a name that a spreadsheet would take for a formula (``=``,
``+``, ``-``, ``@``, a tab or a carriage return first) is written with a leading ``'``."""

from __future__ import annotations

import csv
import io

from app.core.document.estimate import Estimate
from app.core.document.model import Document, Table
from app.core.text import visible_text

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def name_cell(value: str) -> str:
    """A text cell a spreadsheet shows as text (never runs it as a formula: OWASP's advice on
    CSV injection) with its control characters shown (:func:`visible_text`); a number or the
    missing mark ``-`` stays as it is."""
    value = visible_text(value)
    if not value.startswith(_FORMULA_STARTS) or value == "-" or _is_number(value):
        return value
    return "'" + value


def _is_number(value: str) -> bool:
    try:
        float(value.replace(",", ""))
    except ValueError:
        return False
    return True


def _number(value: float | None) -> str:
    return "" if value is None or value != value else repr(float(value))


def table_rows(table: Table) -> list[list[str]]:
    estimates = {
        i for row in table.rows for i, cell in enumerate(row) if isinstance(cell, Estimate)
    }
    header: list[str] = []
    for i, h in enumerate(table.headers):
        unit = table.unit_of(i) if i in estimates else ""
        named = name_cell(f"{h} ({unit})" if unit else h)
        header += [named, f"{named} low", f"{named} high"] if i in estimates else [named]
    rows = [header]
    for row in table.rows:
        out: list[str] = []
        for i, cell in enumerate(row):
            if i not in estimates:
                out.append(name_cell(cell if isinstance(cell, str) else cell.text()))
            elif isinstance(cell, Estimate):
                low, high = cell.interval or (None, None)
                out += [_number(cell.median), _number(low), _number(high)]
            else:  # text in an estimate's column ("-"): the median's place, no interval
                out += [name_cell(cell), "", ""]
        rows.append(out)
    return rows


def render(document: Document) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for n, table in enumerate(document.tables):
        if n:
            writer.writerow([])
        if table.caption:
            writer.writerow([name_cell(table.caption)])
        writer.writerows(table_rows(table))
    return buffer.getvalue()
