"""A sweep or a ladder as the window shows it, also from the history: the chart above; below,
the tables and the sentences the command line prints (all from :mod:`app.core.sweep.report`).

- :class:`SweepResultView`: the log-log chart; tabs for the curve table, the summary (how it was
  measured, then per entry key setup, fixed cost per call, where the cycles come from, lengths
  not timed) and the associated-data table.
- :class:`LadderResultView`: the bars; the steps' table; the verdicts.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QSplitter, QTabWidget, QVBoxLayout, QWidget

from app.core.sweep.report import ladder_steps, ladder_verdicts, method_text, summary_sentences
from app.core.sweep.results import LADDER, SweepResult
from app.gui.results.sweep_chart import LadderChart, SweepChart
from app.gui.results.sweep_tables import (
    CURVE_COLUMNS,
    ESTIMATED,
    LADDER_COLUMNS,
    SweepTableModel,
    SweepTableView,
    ad_columns,
    ad_lines,
    curve_lines,
    curve_tip,
    ladder_lines,
    ladder_tip,
    step_title,
)

SWEEP_PLACEHOLDER = "How each entry was measured, and what its curve says, appear here."
LADDER_PLACEHOLDER = "Whether each switch really switched appears here."


def _method(result: SweepResult) -> str:
    return method_text(result)


def _failures(result: SweepResult) -> list[str]:
    lines = [f"FAILED {f.label}: {f.message.splitlines()[0]}" for f in result.failures if f.message]
    if result.cancelled:
        lines.append("Cancelled: only the rounds that finished before are shown.")
    return lines


def summary_text(result: SweepResult | None) -> str:
    """Per entry its summary sentences (the first its name, library and rounds), the failures,
    then how it was measured."""
    if result is None:
        return SWEEP_PLACEHOLDER
    blocks = []
    for entry in result.entries:
        head, *rest = summary_sentences(entry)
        blocks.append("\n".join([head, *(f"  {s}" for s in rest)]))
    if any(not e.counter for e in result.entries):
        blocks.append(
            f"'{ESTIMATED.strip()}' in the table: cycles estimated as time x the clock frequency "
            "the kernel reports (no cycle counter here)."
        )
    failed = _failures(result)
    if failed:
        blocks.append("\n".join(failed))
    blocks.append("How it was measured: " + _method(result))
    return "\n\n".join(blocks)


def ladder_text(result: SweepResult | None) -> str:
    """The verdicts first, then what each step ran, the failures, how it was measured."""
    if result is None:
        return LADDER_PLACEHOLDER
    blocks = []
    verdicts = ladder_verdicts(result)
    if verdicts:
        blocks.append("\n".join(verdicts))
    steps = [
        f"{step_title(i, s.entry)}: {s.entry.label} ({s.entry.library} "
        f"{s.entry.library_version})" + (f": {s.entry.note}" if s.entry.note else "")
        for i, s in enumerate(ladder_steps(result), start=1)
    ]
    if steps:
        title = f"Hardware ladder of {result.title}" if result.title else "Hardware ladder"
        blocks.append(
            "\n".join(
                [f"{title}; slower than step 1: time per byte against the first step's.", *steps]
            )
        )
    failed = _failures(result)
    if failed:
        blocks.append("\n".join(failed))
    blocks.append("How it was measured: " + _method(result))
    return "\n\n".join(blocks)


def _text_box() -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setReadOnly(True)
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    return box


def _fill(view: QWidget, splitter: QSplitter) -> None:
    """``splitter`` (the chart above the rest) filling ``view`` edge to edge."""
    layout = QVBoxLayout(view)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(splitter)


class SweepResultView(QWidget):
    """A sweep: :meth:`set_result` shows one (None: empty)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.chart = SweepChart()
        self.model = SweepTableModel(curve_lines, lambda _: CURVE_COLUMNS, self, row_tip=curve_tip)
        self.table = SweepTableView()
        self.table.setModel(self.model)
        self.summary = _text_box()
        self.summary.setPlainText(SWEEP_PLACEHOLDER)
        self.ad_model = SweepTableModel(ad_lines, ad_columns, self)
        self.ad_table = SweepTableView()
        self.ad_table.setModel(self.ad_model)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.table, "Table")
        self.tabs.addTab(self.summary, "Summary")
        self.tabs.addTab(self.ad_table, "Associated data")
        self.tabs.setTabToolTip(2, "Encryption time per call with associated data (AEADs)")
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.chart)
        self.splitter.addWidget(self.tabs)
        self.splitter.setSizes([330, 300])
        _fill(self, self.splitter)

    def set_result(self, result: SweepResult | None) -> None:
        self.chart.set_result(result)
        self.model.set_result(result)
        self.ad_model.set_result(result)
        self.summary.setPlainText(summary_text(result))
        self.tabs.setTabEnabled(2, self.ad_model.rowCount() > 0)


class LadderResultView(QWidget):
    """A ladder: :meth:`set_result` shows one (None: empty)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.chart = LadderChart()
        self.model = SweepTableModel(
            ladder_lines, lambda _: LADDER_COLUMNS, self, row_tip=ladder_tip
        )
        self.table = SweepTableView(stretch_last=True)
        self.table.setModel(self.model)
        self.verdicts = _text_box()
        self.verdicts.setPlainText(LADDER_PLACEHOLDER)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        for widget in (self.chart, self.table, self.verdicts):
            self.splitter.addWidget(widget)
        self.splitter.setSizes([260, 150, 220])
        self.splitter.setChildrenCollapsible(False)
        self.table.setMinimumHeight(self.table.rows_height(3))
        _fill(self, self.splitter)

    def set_result(self, result: SweepResult | None) -> None:
        self.chart.set_result(result)
        self.model.set_result(result)
        self.verdicts.setPlainText(ladder_text(result))
        # Every step in sight (five at most), the chart and the text sharing the rest.
        self.table.setMinimumHeight(self.table.rows_height(max(3, self.model.rowCount())))


def result_view(result: SweepResult) -> SweepResultView | LadderResultView:
    """A view showing ``result``, of its kind."""
    view = LadderResultView() if result.kind == LADDER else SweepResultView()
    view.set_result(result)
    return view
