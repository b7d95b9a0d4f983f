"""A :class:`Document` as an Excel workbook: a sheet per table (its caption on top, the header,
the rows, its notes under them) and a sheet of the method. An estimate's cell is written as
every table prints it, then as three numbers at full precision (its median and its
interval's ends, empty without one) for a formula to use. Every text goes in as a string
cell (never a formula, whatever it starts with), with its control characters shown."""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.worksheet.worksheet import Worksheet

from app.core.document.estimate import Estimate
from app.core.document.model import Document, Table
from app.core.text import visible_text

_BAD = re.compile(r"[\[\]:*?/\\]")  # what a sheet's name may not hold
_WIDEST = 60  # characters a column is widened to at most


def _sheet_name(caption: str, n: int, taken: set[str]) -> str:
    """``"2 Where the time goes by class"``: the table's number, then its caption's words as
    far as a sheet's 31 characters go (captions may share their first words)."""
    # Shown control characters (a sheet's name holding one makes a file LibreOffice refuses);
    # no apostrophe first or last (Excel refuses one there).
    words = " ".join(_BAD.sub(" ", visible_text(caption)).replace(",", " ").split()).strip("'")
    name = f"{n} {words}" if n else words or "Sheet"
    if len(name) > 31:
        cut = name[:31]
        name = (cut if name[31] == " " else cut.rsplit(" ", 1)[0]).rstrip("'")  # whole words
    base, k = name, 2
    while name.lower() in taken:
        name, k = f"{base[:27]} {k}", k + 1
    taken.add(name.lower())
    return name


def _value(text: str, numeric: bool) -> object:
    """A figure of a numeric column as a number (``"1,232"`` -> 1232), so a formula can use
    it; its digits are those every format prints. Anything else as text."""
    if not numeric:
        return text
    try:
        number = float(text.replace(",", ""))
    except ValueError:
        return text
    if not math.isfinite(number):
        return text
    return int(number) if number.is_integer() and "." not in text else number


def _write_table(sheet: Worksheet, table: Table) -> None:
    estimates = {
        i for row in table.rows for i, cell in enumerate(row) if isinstance(cell, Estimate)
    }
    _append(sheet, [visible_text(table.caption)])
    sheet.cell(1, 1).font = Font(bold=True)
    header: list[str] = []
    for i, h in enumerate(table.headers):
        named = visible_text(h)
        unit = table.unit_of(i) if i in estimates else ""
        numbers = f"{named} ({unit})" if unit else named  # as the CSV: "Time per call (s) low"
        header += (
            [named, f"{numbers} median", f"{numbers} low", f"{numbers} high"]
            if i in estimates
            else [named]
        )
    _append(sheet, header)
    for cell in sheet[2]:
        cell.font = Font(bold=True)
    for row in table.rows:
        out: list[object] = []
        for i, cell in enumerate(row):
            text = visible_text(cell if isinstance(cell, str) else cell.text())
            if i not in estimates:
                out.append(_value(text, table.numeric(i)))
            elif isinstance(cell, Estimate):
                low, high = cell.interval or (None, None)
                out += [text, *(_number(v) for v in (cell.median, low, high))]
            else:
                out += [text, None, None, None]
        _append(sheet, out)
    for note in table.notes:
        _append(sheet, [visible_text(note)])
    for column in sheet.columns:
        width = max((len(str(c.value)) for c in list(column)[1:] if c.value is not None), default=8)
        sheet.column_dimensions[column[0].column_letter].width = min(_WIDEST, width + 2)


def _number(value: float | None) -> float | None:
    """A finite number, or None (an empty cell: Excel refuses a file holding nan or inf)."""
    return None if value is None or not math.isfinite(value) else float(value)


def _append(sheet: Worksheet, values: Sequence[object]) -> None:
    """A row, its texts stored as strings (openpyxl would make "=x" a formula)."""
    sheet.append(values)
    for cell in sheet[sheet.max_row]:
        if isinstance(cell.value, str):
            cell.data_type = "s"


def render(document: Document) -> bytes:
    book = Workbook()
    taken: set[str] = set()
    first = True
    for n, table in enumerate(document.tables, 1):
        sheet = book.active if first else book.create_sheet()
        assert sheet is not None
        sheet.title = _sheet_name(table.caption, n, taken)
        _write_table(sheet, table)
        first = False
    if document.method or document.sections or first:
        sheet = book.active if first else book.create_sheet()
        assert sheet is not None
        sheet.title = _sheet_name("Method", 0, taken)
        _append(sheet, [visible_text(document.title)])
        sheet.cell(1, 1).font = Font(bold=True)
        for section in document.sections:
            _append(sheet, [visible_text(section.heading)])
            for line in section.lines:
                _append(sheet, [visible_text(line)])
        if document.method:
            _append(sheet, [visible_text("Method: " + document.method)])
            sheet.cell(sheet.max_row, 1).alignment = Alignment(wrap_text=True)
        sheet.column_dimensions["A"].width = 120
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
