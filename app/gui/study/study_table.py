"""The study's paper-style table: the engine's study columns (app.core.study.columns: Algorithm,
Library, Input, Size, times with their IQR, throughputs in the chosen unit, memory above the
worker's baseline, repetitions) through the one column model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from app.core.bench.results import JobResult
from app.core.study.columns import STUDY_COLUMNS, TRANSFER_STUDY_COLUMNS
from app.core.transfer.results import TransferResult
from app.gui.results.column_model import ColumnTableModel


class StudyTableModel(ColumnTableModel):
    """One row per (cipher entry, input), all runs so far; throughputs in :attr:`units`; a
    transfer study's rows through its own columns."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(STUDY_COLUMNS, parent)

    def set_results(  # type: ignore[override]
        self, results: Sequence[JobResult | TransferResult], units: str
    ) -> None:
        transfer = bool(results) and isinstance(results[0], TransferResult)
        columns = TRANSFER_STUDY_COLUMNS if transfer else STUDY_COLUMNS
        super().set_results(results, units, columns)


class StudyTableView(QTableView):
    """The table, its columns as wide as their longest text. The widths are measured from the
    model's texts once per change (Qt's ``ResizeToContents`` asks every cell for a size hint
    on every change and every paint: 25-40 ms for a dozen rows here)."""

    PADDING = 18  # the cell's margins and the header's sort indicator room, in pixels

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAlternatingRowColors(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)

    def setModel(self, model: Any) -> None:
        super().setModel(model)
        if model is not None:
            model.modelReset.connect(self.fit_columns)
            self.fit_columns()

    def fit_columns(self) -> None:
        model = self.model()
        if model is None:
            return
        cells = self.fontMetrics()
        titles = self.horizontalHeader().fontMetrics()
        horizontal = Qt.Orientation.Horizontal
        for column in range(model.columnCount()):
            title = str(model.headerData(column, horizontal) or "")
            width = titles.horizontalAdvance(title)
            for row in range(model.rowCount()):
                text = model.data(model.index(row, column))
                width = max(width, cells.horizontalAdvance(str(text or "")))
            self.horizontalHeader().resizeSection(column, width + self.PADDING)
