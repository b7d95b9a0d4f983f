"""A run's series over time (:class:`~app.core.history.trend.Trend`): an entry chooser, the
chart of the chosen entry (:class:`~app.gui.history.trend_chart.TrendChart`), and below it the
steps in words with what changed along the series, as ``history trend`` prints them."""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QScrollArea,
    QWidget,
)

from app.core.history.trend_results import NOTHING_CHANGED, Trend, quiet_sentence
from app.gui.history.run_view import HistoryViewWindow
from app.gui.history.trend_chart import TrendChart
from app.gui.label import Label
from app.gui.menus import add_close_controls

DETAILS_HEIGHT = 130  # the steps and changes below the chart scroll beyond this


def describe(trend: Trend) -> str:
    """The line above the chart: which series, where, from when to when."""
    runs = trend.runs
    cpu = f" ({trend.cpu_model})" if trend.cpu_model and trend.cpu_model != trend.machine else ""
    return (
        f"Run {trend.run_id}'s series: {len(runs)} {trend.kind} runs with the same definition "
        f"on {trend.machine}{cpu}, {runs[0].date_text()} to {runs[-1].date_text()}."
    )


def entry_caption(trend: Trend, entry: str) -> str:
    """The chooser's text for ``entry``: its name, and how many steps it has."""
    steps = sum(len(e.steps) for e in trend.of_entry(entry))
    return f"{entry}  ({steps} step{'s' if steps != 1 else ''})" if steps else entry


def details_lines(trend: Trend, entry: str) -> list[str]:
    """The chosen entry's steps (or why none), then what changed along the series."""
    directions = trend.of_entry(entry)
    steps = sorted(
        ((s, e.direction) for e in directions for s in e.steps), key=lambda p: p[0].position
    )
    lines = [s.sentence(d)[0].upper() + s.sentence(d)[1:] for s, d in steps]
    if not steps:
        lines.append(quiet_sentence(directions))
    if trend.changes:
        lines.append(
            "What changed along the series: " + "; ".join(c.sentence() for c in trend.changes)
        )
    else:
        lines.append(NOTHING_CHANGED)
    return lines


class TrendWindow(HistoryViewWindow):
    """A non-modal window showing one trend, an entry at a time."""

    def __init__(self, trend: Trend, parent: QWidget | None = None) -> None:
        title = f"Trend of run {trend.run_id} — CipherBench history"
        super().__init__(title, describe(trend), parent)
        self.trend = trend
        layout = self.column
        method = Label(trend.method())
        method.setWordWrap(True)
        method.setEnabled(False)  # the palette's muted text: an explanation, not data
        layout.addWidget(method)
        row = QHBoxLayout()
        row.addWidget(Label("&Entry:"))
        self.entry_box = QComboBox()
        self.entry_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for name in trend.entry_names():
            self.entry_box.addItem(entry_caption(trend, name), name)
        row.itemAt(0).widget().setBuddy(self.entry_box)  # type: ignore[union-attr]
        row.addWidget(self.entry_box)
        row.addStretch(1)
        self.by_date = QCheckBox("Space runs by &date")
        self.by_date.setToolTip(
            "Place each run at its date (days after the first run) rather than evenly, in order"
        )
        row.addWidget(self.by_date)
        layout.addLayout(row)
        self.chart = TrendChart()
        layout.addWidget(self.chart, 1)
        self.details = Label()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.details_area = QScrollArea()
        self.details_area.setWidget(self.details)
        self.details_area.setWidgetResizable(True)
        self.details_area.setFrameShape(QScrollArea.Shape.NoFrame)
        layout.addWidget(self.details_area)
        self.buttons = add_close_controls(self, layout)
        self.entry_box.currentIndexChanged.connect(self._on_entry_box_changed)
        self.by_date.toggled.connect(self.chart.set_by_time)
        # The first entry with a step, if any: what the user most likely came for.
        names = trend.entry_names()
        first = next((i for i, n in enumerate(names) if any(e.steps for e in trend.of_entry(n))), 0)
        self.entry_box.setCurrentIndex(first)
        self._on_entry_box_changed(first)
        self.resize(1100, 640)

    @property
    def entry(self) -> str:
        return str(self.entry_box.currentData() or "")

    def choose(self, entry: str) -> None:
        """Show ``entry`` (as picking it in the chooser does)."""
        self.entry_box.setCurrentIndex(self.entry_box.findData(entry))

    @Slot(int)
    def _on_entry_box_changed(self, _index: int) -> None:
        self.chart.set_entry(self.trend, self.entry)
        self.details.setText("\n".join(details_lines(self.trend, self.entry)))
        self._fit_details()

    def _fit_details(self) -> None:
        """The text below the chart as tall as its lines, up to ``DETAILS_HEIGHT`` (then it
        scrolls): the chart gets the rest."""
        wanted = self.details.heightForWidth(max(200, self.details_area.viewport().width()))
        self.details_area.setFixedHeight(min(DETAILS_HEIGHT, max(wanted, 20) + 4))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_details()
