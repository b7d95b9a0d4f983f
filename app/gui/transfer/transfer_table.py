"""The Transfer window's table: one row per cipher, medians with their spread, both ends.

Throughput in MB/s (10^6 bytes per second) and MiB/s (2^20), as everywhere in the app; memory
is each end's peak resident memory above its baseline (the run with the largest peak), CPU the
median over the timed runs, in % of one core. Rows stay in the order the ciphers ran (a few
rows: no sorting, whose header indicators would cost the room of a column).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from app.core.transfer.results import TransferResult
from app.core.units import MIB, format_bytes, format_seconds

AnyIndex = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Column:
    header: str
    tooltip: str
    text: Callable[[TransferResult], str]
    numeric: bool = True
    shown: str = ""  # the header as drawn, on two lines; default: the unit on the second

    @property
    def drawn(self) -> str:
        return self.shown or self.header.replace(" (", "\n(")


def _time_text(r: TransferResult) -> str:
    t = r.timing
    return f"{format_seconds(t.median_s, 2)} (IQR {format_seconds(t.iqr_s, 2)})"


def _end_columns(end: str, word: str) -> tuple[Column, Column]:
    return (
        Column(
            f"{word} CPU (%)",
            f"The {end}'s CPU time over its part of each transfer / that part's wall time, in "
            "% of one core (median of the timed runs)",
            lambda r: f"{getattr(r, end).cpu_percent:.0f}",
            shown=f"{word}\nCPU (%)",
        ),
        Column(
            f"{word} memory (MiB)",
            f"The {end}'s peak resident memory above its baseline (kernel high-water mark), "
            "in 2^20 bytes: the largest of the timed runs",
            lambda r: f"{getattr(r, end).peak_above_baseline_bytes / MIB:.1f}",
            shown=f"{word}\nmem. (MiB)",
        ),
    )


COLUMNS: tuple[Column, ...] = (
    Column(
        "Cipher",
        "The AEAD sealing each chunk (its library in the tooltip); none: plaintext",
        lambda r: r.cipher_id,
        False,
    ),
    Column(
        "Size",
        "Bytes sent per transfer",
        lambda r: format_bytes(r.input_bytes, binary=False),
    ),
    Column(
        "Time (median, IQR)",
        "First byte sent to last byte verified: median and interquartile range of the timed runs",
        _time_text,
    ),
    Column(
        "Throughput (MB/s)",
        "Size / median time, in 10^6 bytes per second",
        lambda r: f"{r.throughput_mb_s:,.1f}",
    ),
    Column(
        "Throughput (MiB/s)",
        "Size / median time, in 2^20 bytes per second",
        lambda r: f"{r.throughput_mib_s:,.1f}",
    ),
    *_end_columns("sender", "Sender"),
    *_end_columns("receiver", "Receiver"),
    Column(
        "Verified",
        "Every chunk authenticated and both ends' SHA-256 digests equal, in every run",
        lambda r: "yes" if r.verified else "NO",
        False,
    ),
    Column(
        "Warnings",
        "What makes this measurement less trustworthy (from the engine)",
        lambda r: "; ".join(r.warnings),
        False,
    ),
)


class TransferTableModel(QAbstractTableModel):
    """The finished ciphers of the run, in the order they finished."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[TransferResult] = []

    def set_results(self, results: list[TransferResult]) -> None:
        self.beginResetModel()
        self._rows = list(results)
        self.endResetModel()

    def result(self, row: int) -> TransferResult:
        return self._rows[row]

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, col = self._rows[index.row()], COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.text(r)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col.header == "Warnings" and r.warnings:
                return "\n".join(r.warnings)  # the cell is often cut short: all of it here
            return _row_tip(r)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            side = Qt.AlignmentFlag.AlignRight if col.numeric else Qt.AlignmentFlag.AlignLeft
            return int(side | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return str(section + 1) if role == Qt.ItemDataRole.DisplayRole else None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section].drawn
        if role == Qt.ItemDataRole.ToolTipRole:
            return COLUMNS[section].tooltip
        return None


def _row_tip(r: TransferResult) -> str:
    t = r.timing
    return (
        f"{r.label} on {r.input_label}: {r.chunks:,} chunks of {format_bytes(r.chunk_bytes)}\n"
        f"{len(r.runs)} timed runs: min {format_seconds(t.min_s)}, median "
        f"{format_seconds(t.median_s)}, max {format_seconds(t.max_s)}"
    )


class TransferTableView(QTableView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(True)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
