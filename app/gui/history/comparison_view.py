"""Two stored runs side by side: per job and direction, the medians, the ratio B/A with its
95 % interval and the verdict; improvements green, regressions red (and said in words)."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableView,
    QWidget,
)

from app.core.document.numbers import seconds_text
from app.core.history.compare import (
    IMPROVEMENT,
    REGRESSION,
    DirectionComparison,
    JobComparison,
    RunComparison,
)
from app.gui.history.run_view import HistoryViewWindow
from app.gui.menus import add_close_controls
from app.gui.table_model import AnyIndex, FlatTableModel

HEADERS = (
    "Job",
    "Direction",
    "Median A",
    "Median B",
    "Ratio B/A",
    "95 % CI",
    "Time change",
    "Verdict",
)
VERDICT_TEXT = {IMPROVEMENT: "faster (improvement)", REGRESSION: "SLOWER (regression)"}
_GREEN = QColor(200, 240, 200)
_RED = QColor(250, 205, 205)


def _ci(d: DirectionComparison) -> str:
    if math.isnan(d.low) or math.isnan(d.high):
        return "—"
    return f"{d.low:.3f} – {d.high:.3f}"


def _cells(job: JobComparison, d: DirectionComparison) -> tuple[str, ...]:
    ratio = "—" if not math.isfinite(d.ratio) else f"{d.ratio:.3f}"
    change = "—" if not math.isfinite(d.ratio) else f"{d.percent_time_change:+.1f} %"
    return (
        job.label,
        d.direction,
        seconds_text(d.median_a_s),
        seconds_text(d.median_b_s),
        ratio,
        _ci(d),
        change,
        VERDICT_TEXT.get(d.verdict, d.verdict),
    )


class ComparisonModel(FlatTableModel):
    """One row per job and direction of a :class:`RunComparison`."""

    def __init__(self, comparison: RunComparison, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison = comparison
        self._rows = [(j, d) for j in comparison.jobs for d in j.directions]

    def direction(self, row: int) -> DirectionComparison:
        return self._rows[row][1]

    def column_count(self) -> int:
        return len(HEADERS)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        job, d = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return _cells(job, d)[index.column()]
        if role == Qt.ItemDataRole.BackgroundRole:
            if d.verdict == IMPROVEMENT:
                return QBrush(_GREEN)
            if d.verdict == REGRESSION:
                return QBrush(_RED)
            return None
        if role == Qt.ItemDataRole.ForegroundRole and d.verdict in (IMPROVEMENT, REGRESSION):
            return QBrush(QColor(0, 0, 0))  # readable on the tint in a dark theme too
        if role == Qt.ItemDataRole.ToolTipRole:
            a, b = f"run {self.comparison.run_a.id}", f"run {self.comparison.run_b.id}"
            return d.sentence(a, b)
        if role == Qt.ItemDataRole.TextAlignmentRole and 2 <= index.column() <= 6:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def header_text(self, section: int) -> str:
        return HEADERS[section]


def summary_lines(c: RunComparison) -> list[str]:
    """What stands above the table: which runs, the tally, the notes, the unmatched jobs."""
    a, b = c.run_a, c.run_b
    lines = [
        f"A = run {a.id} ({a.date_text()}, {a.machine}); B = run {b.id} "
        f"({b.date_text()}, {b.machine}). Ratio = time B / time A over the rounds: "
        "below 1, B is faster.",
        f"{len(c.jobs)} job(s) in both: {c.improvements} improvement(s), "
        f"{c.regressions} regression(s).",
    ]
    lines.extend(f"Note: {n}" for n in c.notes)
    lines.extend(f"Only in run {a.id}: {label}" for label in c.only_in_a)
    lines.extend(f"Only in run {b.id}: {label}" for label in c.only_in_b)
    return lines


class ComparisonWindow(HistoryViewWindow):
    """A non-modal window showing one comparison."""

    def __init__(self, comparison: RunComparison, parent: QWidget | None = None) -> None:
        a, b = comparison.run_a.id, comparison.run_b.id
        title = f"Run {b} against run {a} — CipherBench"
        super().__init__(title, "\n".join(summary_lines(comparison)), parent)
        self.model = ComparisonModel(comparison, self)
        self.summary_label = self.header_label
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.resizeColumnsToContents()
        self.column.addWidget(self.table, 1)
        self.buttons = add_close_controls(self, self.column)
        self.resize(1100, 560)
