"""The Transfer window's table: one row per cipher, the engine's transfer columns
(:data:`app.core.transfer.columns.SHOWN`) through the one column model. Rows stay in the order
the ciphers ran (a few rows: no sorting, whose header indicators would cost the room of a
column)."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from app.core.transfer.columns import SHOWN
from app.core.transfer.results import TransferResult
from app.core.units import format_bytes, format_seconds
from app.gui.results.column_model import ColumnTableModel


def row_tip(r: TransferResult) -> str:
    t = r.timing
    return (
        f"{r.label} on {r.input_label}: {r.chunks:,} chunks of {format_bytes(r.chunk_bytes)}\n"
        f"{len(r.runs)} timed runs: min {format_seconds(t.min_s)}, median "
        f"{format_seconds(t.median_s)}, max {format_seconds(t.max_s)}"
    )


class TransferTableModel(ColumnTableModel):
    """The finished ciphers of the run, in the order they finished."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(SHOWN, parent, row_tip=row_tip, two_line_headers=True)


class TransferTableView(QTableView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(True)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
