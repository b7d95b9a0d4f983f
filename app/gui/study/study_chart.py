"""Charts for a study: against input size, one curve with markers per cipher entry; or, for a
study of files (or of one input), grouped bars per input, a bar per entry, as the papers draw a
comparison of file types. The paper's own values are black diamonds on either.

Three quantities (:data:`QUANTITIES`): median encryption time, encryption throughput in the
chosen unit, and peak memory above the worker's baseline. The x axis (input size) turns
logarithmic when the sizes span two decades or more, and so does the time axis then (time grows
with size). Curves are created once per cipher entry and updated with ``setData``; redraws go
through :class:`~app.gui.results.throttled_chart.ThrottledChart`'s timer (about 10 a second), and a
chart on a hidden tab waits until it is shown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from app.core.bench.results import JobResult
from app.core.study.report_data import paper_points
from app.core.study.result import StudyResult, memory_mib, rate
from app.core.study.transfer_result import end_mib, transfer_rate
from app.core.transfer.results import TransferResult
from app.gui.plot_chart import PlotChart
from app.gui.results import chart_math
from app.gui.results.chart_style import SERIES_COLORS
from app.gui.results.grouped_bars import GroupedBars, bar_layout

MB = 1e6  # the size axis is in MB (10^6 bytes): "1e+06 bytes" reads badly
LOG_SPAN = 100.0  # largest / smallest size from which the size axis is logarithmic


@dataclass(frozen=True)
class Quantity:
    key: str
    title: str
    axis: str  # "{units}" is replaced by the chosen throughput unit
    log_with_size: bool  # log y too when the size axis is logarithmic


QUANTITIES = {
    "time": Quantity("time", "Encryption time against size", "Median encryption time (ms)", True),
    "throughput": Quantity(
        "throughput", "Encryption throughput against size", "Throughput ({units})", False
    ),
    "memory": Quantity(
        "memory",
        "Memory against size",
        "Peak memory above the worker's baseline (MiB)",
        False,
    ),
}


# A transfer study's charts: the same three against size, measured end to end.
TRANSFER_TEXT = {
    "time": ("Transfer time against size", "Median total transfer time (ms)"),
    "throughput": ("Transfer throughput against size", "Throughput ({units})"),
    "memory": ("Receiver memory against size", "Receiver peak above its baseline (MiB)"),
}


def value_of(result: JobResult | TransferResult, key: str, units: str) -> float | None:
    """A cipher job's encryption, or a transfer's total (memory: the receiver's)."""
    if isinstance(result, TransferResult):
        if key == "time":
            return result.timing.median_s * 1e3
        if key == "throughput":
            return transfer_rate(result, units)
        return end_mib(result, "receiver")
    if key == "time":
        return result.encrypt.median_s * 1e3
    if key == "throughput":
        return rate(result, "encrypt", units)
    return memory_mib(result)


# Each chart's quantity as the report names it, and the factor from the report's unit to ours.
_PAPER = {"time": ("enc_time", 1e3), "throughput": ("enc_rate", 1.0), "memory": ("memory", 1.0)}


def paper_values(result: StudyResult, key: str) -> list[tuple[str, str, float]]:
    """The paper's values of chart ``key`` where our study ran them: ``(our entry, our input,
    value in the chart's unit)`` (throughput in ``result``'s unit)."""
    report_key, factor = _PAPER[key]
    return [
        (entry, input_label, value * factor)
        for entry, input_label, value, _tip in paper_points(result, report_key)
    ]


def log_ticks(values: Sequence[float]) -> list[list[tuple[float, str]]] | None:
    """Ticks for a log axis over ``values``, a decade of room each side: the main window's
    rule (labelled powers of ten, thinned when there are many; unlabelled 2..9 minor ticks)."""
    positive = [v for v in values if v > 0]
    if not positive:
        return None
    low, high = math.log10(min(positive)) - 1, math.log10(max(positive)) + 1
    return chart_math.log_ticks(low, high)


class StudyChart(PlotChart):
    """One quantity against input size, a curve per cipher entry."""

    grid = (True, True)  # against size: both axes matter
    grid_alpha = 0.2

    def __init__(self, key: str, parent: QWidget | None = None) -> None:
        self.quantity = QUANTITIES[key]
        super().__init__(
            self.quantity.title,
            "Curves against input size appear here as the study's cells finish.",
            parent,
        )
        self.plot.setLabel("bottom", "Input size (MB = 10^6 bytes)")
        # The legend under the plot, its entries side by side: over the plot it hid the
        # points at its corner (the paper's AES-128 value, seen at 1366x768).
        self.legend: pg.LegendItem = pg.LegendItem(colCount=3)
        self.plot.layout.addItem(self.legend, 4, 1)
        self.plot.legend = self.legend  # curves added with a name are listed in it
        self.curves: dict[str, pg.PlotDataItem] = {}
        self._results: list[JobResult | TransferResult] = []
        self._units = "MB/s"
        self.log_x = False
        self._axes_state: tuple[bool, bool, str] | None = None
        self._ticks: tuple[object, object] | None = None
        self._drawn: dict[str, list[tuple[float, float]]] = {}  # what each curve shows
        # The paper's own values, black diamonds (a PlotDataItem: it follows the log axes).
        self.paper = pg.PlotDataItem(
            pen=None,
            symbol="d",
            symbolBrush="#000000",
            symbolPen=pg.mkPen("#ffffff"),
            symbolSize=11,
            name="the paper's values",
        )
        self._paper_points: list[tuple[str, str, float]] = []
        self.by_input = False  # grouped bars per input instead of curves against size
        self.grouped = GroupedBars(self.plot, self.legend, SERIES_COLORS)
        self._show_data(False)
        self._apply_palette()

    def set_results(
        self, results: Sequence[JobResult | TransferResult], units: str, by_input: bool = False
    ) -> None:
        """Show ``results`` (drawn on the next redraw tick, or when shown if hidden), as
        grouped bars per input when ``by_input``."""
        self._results, self._units, self.by_input = list(results), units, by_input
        self._schedule()

    def set_paper(self, points: Sequence[tuple[str, str, float]]) -> None:
        """The paper's values as ``(our entry, our input, value in this chart's unit)``; none:
        hidden."""
        self._paper_points = list(points)
        self._schedule()

    def clear(self) -> None:
        self.set_paper([])
        for curve in self.curves.values():
            self.plot.removeItem(curve)
            self.legend.removeItem(curve)
        self.curves = {}
        self._drawn = {}
        self._clear_bars()
        self.set_results([], self._units)

    def _curve(self, label: str) -> pg.PlotDataItem:
        return self._series_curve(self.curves, label, 8)

    def _redraw(self) -> None:
        sizes = [r.input_bytes for r in self._results if r.input_bytes > 0]
        self._show_data(bool(sizes))
        if not sizes:
            self._draw_paper([])
            return
        if self.by_input:
            self._redraw_bars()
            return
        self._clear_bars()
        log_x = max(sizes) / min(sizes) >= LOG_SPAN
        log_y = log_x and self.quantity.log_with_size
        self.log_x = log_x
        # Each of these makes pyqtgraph lay out and repaint its axes (about 10 ms a chart):
        # only when they change, not on every redraw.
        transfer = isinstance(self._results[0], TransferResult)
        q = self.quantity
        title, axis = TRANSFER_TEXT[q.key] if transfer else (q.title, q.axis)
        self._title.setText(title)
        label = axis.format(units=self._units)
        if (log_x, log_y, label) != self._axes_state:
            self._axes_state = (log_x, log_y, label)
            self.plot.setLogMode(x=log_x, y=log_y)
            self.plot.setLabel("left", label)
        points: dict[str, list[tuple[float, float]]] = {}
        for r in self._results:
            y = value_of(r, self.quantity.key, self._units)
            if y is None or r.input_bytes <= 0 or (log_y and y <= 0):
                continue  # no memory pass, or nothing a log axis can show
            points.setdefault(r.label, []).append((r.input_bytes / MB, y))
        changed = False
        for label in dict.fromkeys(r.label for r in self._results):
            pts = sorted(points.get(label, []))
            if self._drawn.get(label) != pts:  # unchanged curves: no rebuild, no repaint
                self._drawn[label] = pts
                self._curve(label).setData([p[0] for p in pts], [p[1] for p in pts])
                changed = True
        where = {r.input_label: r.input_bytes / MB for r in self._results}
        self._draw_paper(
            [
                (where[i], v)
                for _e, i, v in self._paper_points
                if i in where and (v > 0 or not log_y)
            ]
        )
        every = [p for pts in points.values() for p in pts]
        ticks = (
            log_ticks([p[0] for p in every]) if log_x else None,
            log_ticks([p[1] for p in every]) if log_y else None,
        )
        if ticks != self._ticks:
            self._ticks = ticks
            self.plot.getAxis("bottom").setTicks(ticks[0])
            self.plot.getAxis("left").setTicks(ticks[1])
        if changed:
            self.plot.enableAutoRange()

    def _redraw_bars(self) -> None:
        """A group per input, a bar per entry; a log scale (drawn as log10 heights, ticks
        labelled in the quantity's unit) when one value is ten times another."""
        for curve in self.curves.values():
            curve.setData([], [])
        self._drawn = {}
        self._axes_state = None
        self.plot.setLogMode(x=False, y=False)
        transfer = isinstance(self._results[0], TransferResult)
        q = self.quantity
        title, axis = TRANSFER_TEXT[q.key] if transfer else (q.title, q.axis)
        self._title.setText(title.replace("against size", "by input"))
        inputs = list(dict.fromkeys(r.input_label for r in self._results))
        labels = list(dict.fromkeys(r.label for r in self._results))
        values = {(r.label, r.input_label): value_of(r, q.key, self._units) for r in self._results}
        paper = [v for _e, _i, v in self._paper_points]
        height = self.grouped.draw(values, labels, inputs, also=paper)
        log_y = self.grouped.log_scale
        self.plot.setLabel("left", axis.format(units=self._units) + (" (log)" if log_y else ""))
        self._draw_paper(
            [
                (bar_layout(len(labels), inputs.index(i), labels.index(e))[0], height(v))
                for e, i, v in self._paper_points
                if e in labels and i in inputs and (v > 0 or not log_y)
            ]
        )
        self.plot.setLabel("bottom", "Input")
        self._ticks = None
        self.plot.enableAutoRange()

    def _clear_bars(self) -> None:
        if self.grouped.bars:
            self.grouped.clear()
            self.plot.setLabel("bottom", "Input size (MB = 10^6 bytes)")

    def _draw_paper(self, shown: list[tuple[float, float]]) -> None:
        if shown and self.paper not in self.plot.items:
            self.plot.addItem(self.paper)  # after the curves: drawn on top, last in the legend
        elif not shown and self.paper in self.plot.items:
            self.plot.removeItem(self.paper)
            self.legend.removeItem(self.paper)
        self.paper.setData([p[0] for p in shown], [p[1] for p in shown])
