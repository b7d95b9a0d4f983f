"""The study's paper-style table: Algorithm | Library | Input | Size | Enc. time | Dec. time |
throughputs in the chosen unit | memory above the worker's baseline | repetitions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from app.core.bench.results import JobResult
from app.core.study.result import memory_mib, rate
from app.core.study.transfer_result import end_mib, transfer_rate
from app.core.text import display_text
from app.core.transfer.results import TransferResult
from app.core.units import format_seconds

AnyIndex = QModelIndex | QPersistentModelIndex


def format_time(seconds: float) -> str:
    return format_seconds(seconds, digits=2)


def format_rate(value: float) -> str:
    return f"{value:,.0f}" if value >= 1000 else f"{value:,.2f}"


Cell = Callable[[Any, str], Any]  # (result, units) -> sort value
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

COLUMNS: list[tuple[str, Cell, Callable[[Any], str]]] = [
    ("Algorithm", lambda r, _u: r.cipher, str),
    ("Library", lambda r, _u: r.library, str),
    ("Input", lambda r, _u: r.input_label, display_text),
    ("Size (bytes)", lambda r, _u: r.input_bytes, lambda v: f"{v:,}"),
    ("Enc. time", lambda r, _u: r.encrypt.median_s, format_time),
    ("Enc. IQR", lambda r, _u: r.encrypt.iqr_s, format_time),
    ("Dec. time", lambda r, _u: r.decrypt.median_s, format_time),
    ("Dec. IQR", lambda r, _u: r.decrypt.iqr_s, format_time),
    ("Enc. {units}", lambda r, u: rate(r, "encrypt", u), format_rate),
    ("Dec. {units}", lambda r, u: rate(r, "decrypt", u), format_rate),
    (
        "Memory above baseline (MiB)",
        lambda r, _u: memory_mib(r),
        lambda v: "–" if v is None else f"{v:,.1f}",
    ),
    ("Repetitions", lambda r, _u: len(r.encrypt.samples_s), str),
]
# A transfer study's rows (the loopback study): total time end to end, each end's CPU and memory.
TRANSFER_COLUMNS: list[tuple[str, Cell, Callable[[Any], str]]] = [
    ("Cipher", lambda r, _u: r.label, str),
    ("Input", lambda r, _u: r.input_label, display_text),
    ("Size (bytes)", lambda r, _u: r.input_bytes, lambda v: f"{v:,}"),
    ("Total time", lambda r, _u: r.timing.median_s, format_time),
    ("IQR", lambda r, _u: r.timing.iqr_s, format_time),
    ("{units}", lambda r, u: transfer_rate(r, u), format_rate),
    ("Sender CPU %", lambda r, _u: r.sender.cpu_percent, lambda v: f"{v:.0f}"),
    ("Receiver CPU %", lambda r, _u: r.receiver.cpu_percent, lambda v: f"{v:.0f}"),
    ("Sender MiB", lambda r, _u: end_mib(r, "sender"), lambda v: f"{v:,.1f}"),
    ("Receiver MiB", lambda r, _u: end_mib(r, "receiver"), lambda v: f"{v:,.1f}"),
    ("Runs", lambda r, _u: len(r.runs), str),
]
TIPS = {
    "Total time": "Median of the timed transfers, first byte sent to last byte verified",
    "IQR": "Interquartile range of the timed transfers",
    "Sender MiB": "The sender's peak resident memory above its baseline, MiB = 2^20 bytes",
    "Receiver MiB": "The receiver's peak resident memory above its baseline, MiB = 2^20 bytes",
    "Sender CPU %": "CPU time over wall time of the sender (100 = one core)",
    "Receiver CPU %": "CPU time over wall time of the receiver (100 = one core)",
    "Enc. time": "Median of the timed encryptions (warm-up not counted)",
    "Dec. time": "Median of the timed decryptions (warm-up not counted)",
    "Enc. IQR": "Interquartile range of the timed encryptions: the spread every view shows",
    "Dec. IQR": "Interquartile range of the timed decryptions: the spread every view shows",
    "Memory above baseline (MiB)": (
        "Peak resident memory above the worker's baseline, MiB = 2^20 bytes"
    ),
}


class StudyTableModel(QAbstractTableModel):
    """One row per (cipher entry, input), all runs so far; throughputs in :attr:`units`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Any] = []  # JobResult, or TransferResult in a transfer study
        self._columns = COLUMNS
        self._cells: list[list[tuple[str, Any]]] = []  # per row, per column: (text, sort value)
        self.units = "MB/s"

    def set_results(self, results: Sequence[JobResult | TransferResult], units: str) -> None:
        """Show ``results``. Each cell's text and sort value are computed here once: the view
        sizes its columns to their contents, asking ``data`` for every cell and role on every
        change (computing them there took 40 ms for a dozen rows, a stall the user feels)."""
        self.beginResetModel()
        self._rows = list(results)
        self.units = units
        transfer = bool(self._rows) and isinstance(self._rows[0], TransferResult)
        self._columns = TRANSFER_COLUMNS if transfer else COLUMNS
        self._cells = [
            [(text(value), value) for _n, cell, text in self._columns for value in [cell(r, units)]]
            for r in self._rows
        ]
        self.endResetModel()

    def result(self, row: int) -> Any:
        return self._rows[row]

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cells[index.row()][index.column()][0]
        if role == Qt.ItemDataRole.UserRole:
            return self._cells[index.row()][index.column()][1]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() >= 3:
            return RIGHT
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        name = self._columns[section][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return name.format(units=self.units)
        if role == Qt.ItemDataRole.ToolTipRole:
            return TIPS.get(name)
        return None

    def rows_as_tsv(self) -> str:
        header = [self.headerData(c, Qt.Orientation.Horizontal) for c in range(len(self._columns))]
        lines = ["\t".join(header)]
        for row in range(len(self._rows)):
            cells = (self.data(self.index(row, c)) for c in range(len(self._columns)))
            lines.append("\t".join(cells))
        return "\n".join(lines)


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
