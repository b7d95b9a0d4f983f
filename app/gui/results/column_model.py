"""One Qt table model over a result type's column spec (:class:`app.core.columns.Column`).

The Study and Transfer windows' tables are this model over the engine's tuples; they add
nothing but which columns and rows. Each cell's text and sort value are computed once per
change: a view that sizes its columns to their contents asks ``data`` for every cell and role
on every change (computing them there took 40 ms for a dozen rows, a stall the user feels).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt

from app.core.columns import Column
from app.gui.table_model import AnyIndex, FlatTableModel

RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
SORT_ROLE = Qt.ItemDataRole.UserRole  # the raw value, for sorting and tests
LIST_SEPARATOR = " | "  # a cell holding a list (warnings): one item a line in its tooltip


class ColumnTableModel(FlatTableModel):
    """Rows of one result type shown through ``columns``; ``row_tip`` (optional) explains a
    whole row in every cell's tooltip; ``two_line_headers`` puts a header's unit on a second
    line, to keep narrow numeric columns narrow."""

    def __init__(
        self,
        columns: Sequence[Column[Any]],
        parent: QObject | None = None,
        *,
        row_tip: Callable[[Any], str] | None = None,
        two_line_headers: bool = False,
    ) -> None:
        super().__init__(parent)
        self._columns = tuple(columns)
        self._row_tip = row_tip
        self._two_lines = two_line_headers
        self._rows: list[Any] = []
        self._cells: list[list[tuple[str, Any]]] = []  # per row, per column: (text, value)
        self.units = "MB/s"

    def set_results(
        self,
        results: Sequence[Any],
        units: str = "MB/s",
        columns: Sequence[Column[Any]] | None = None,
    ) -> None:
        """Show ``results`` (throughputs in ``units``), through ``columns`` if given."""
        self.beginResetModel()
        if columns is not None:
            self._columns = tuple(columns)
        self._rows = list(results)
        self.units = units
        self._cells = [
            [(c.text(value), value) for c in self._columns for value in [c.get(r, units)]]
            for r in self._rows
        ]
        self.endResetModel()

    def result(self, row: int) -> Any:
        return self._rows[row]

    def rows_as_tsv(self) -> str:
        """A header line and one line per row, tab-separated, as shown."""
        lines = ["\t".join(c.shown_title(self.units) for c in self._columns)]
        lines.extend("\t".join(text for text, _v in cells) for cells in self._cells)
        return "\n".join(lines)

    # --- QAbstractTableModel -----------------------------------------------------------------

    def column_count(self) -> int:
        return len(self._columns)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        text, value = self._cells[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return text
        if role == SORT_ROLE:
            return value
        if role == Qt.ItemDataRole.ToolTipRole:
            if self._columns[index.column()].key == "warnings" and text:
                return text.replace(LIST_SEPARATOR, "\n")  # often cut short: all of it here
            return self._row_tip(self._rows[index.row()]) if self._row_tip else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return RIGHT if self._columns[index.column()].numeric else LEFT
        return None

    def header_text(self, section: int) -> str:
        title = self._columns[section].shown_title(self.units)
        return title.replace(" (", "\n(") if self._two_lines else title

    def header_tip(self, section: int) -> str | None:
        return self._columns[section].tip or None
