"""The History window's list of stored runs: one row per run, newest first, its id kept in
every cell; what the window asks of it is which runs are listed and selected, and of what kind."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from app.core.history.records import RunSummary
from app.core.text import visible_text
from app.gui.history.history_texts import what_was_run

HEADERS = ("Id", "Date", "Machine", "Kind", "What was run", "Where", "State")
WHAT_COLUMN = HEADERS.index("What was run")
KIND_COLUMN = HEADERS.index("Kind")
ID_ROLE = Qt.ItemDataRole.UserRole + 1


class RunTable(QTableWidget):
    def __init__(self) -> None:
        super().__init__(0, len(HEADERS))
        self.setHorizontalHeaderLabels(HEADERS)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.verticalHeader().hide()
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # "What was run" takes the room left (its full text in the tooltip), so a long title
        # never pushes Where and State out of sight.
        header.setSectionResizeMode(WHAT_COLUMN, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)

    def show_runs(self, runs: Sequence[RunSummary]) -> None:
        """List ``runs`` in this order, keeping the selection where the runs still exist."""
        chosen = set(self.selected_ids())
        self.setRowCount(len(runs))
        for row, s in enumerate(runs):
            cells = (
                str(s.id),
                s.date_text(),
                s.machine,
                s.kind,
                what_was_run(s),
                "imported" if s.source == "imported" else "here",
                "cancelled" if s.cancelled else "complete",
            )
            for col, text in enumerate(cells):
                text = visible_text(text)  # an imported run's host name may hold a newline
                item = QTableWidgetItem(text)
                item.setData(ID_ROLE, s.id)
                if col == WHAT_COLUMN:
                    item.setToolTip(text)
                self.setItem(row, col, item)
        for col in range(len(HEADERS)):
            if col != WHAT_COLUMN:  # stretched: it takes what the others leave
                self.resizeColumnToContents(col)
        for row, s in enumerate(runs):
            if s.id in chosen:
                self.selectRow(row)

    def run_ids(self) -> list[int]:
        """The ids listed, top to bottom (newest first)."""
        return [self.id_at(r) for r in range(self.rowCount())]

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.selectionModel().selectedRows()})

    def selected_ids(self) -> list[int]:
        return [self.id_at(r) for r in self.selected_rows()]

    def selected_kind(self) -> str:
        """The kind of the first selected run ("" without a selection)."""
        rows = self.selected_rows()
        return self.kind_at(rows[0]) if rows else ""

    def kind_at(self, row: int) -> str:
        item = self.item(row, KIND_COLUMN)
        return item.text() if item is not None else ""

    def id_at(self, row: int) -> int:
        item = self.item(row, 0)
        assert item is not None  # every listed row has its id cell
        run_id: int = item.data(ID_ROLE)
        return run_id

    def select_ids(self, ids: list[int]) -> None:
        self.clearSelection()
        mode = self.selectionMode()
        self.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        for row, run_id in enumerate(self.run_ids()):
            if run_id in ids:
                self.selectRow(row)
        self.setSelectionMode(mode)
