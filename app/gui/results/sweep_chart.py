"""The charts of a sweep and a ladder.

- :class:`SweepChart`: cycles per byte of encryption against message length, log-log, one curve
  per entry (SUPERCOP's picture: the fixed cost per call dominates short messages, the curve
  flattens at the cipher's speed). Time per byte instead when no cycles are known.
- :class:`LadderChart`: cycles per byte of each ladder step as horizontal bars on a log axis
  (the steps are 30x and 10,000x apart), each bar labelled with its factor to step 1.

Curves are made once per entry and updated with ``setData``; redraws go through
:class:`~app.gui.results.throttled_chart.ThrottledChart`'s timer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QWidget

from app.core.sweep.report import ladder_steps, length_label, number
from app.core.sweep.results import SweepEntry, SweepResult
from app.gui.results import chart_math
from app.gui.results.chart_style import DECRYPT_COLOR, ENCRYPT_COLOR, OKABE_ITO
from app.gui.results.sweep_tables import step_title
from app.gui.results.throttled_chart import OnePlotChart

MAX_LENGTH_LABELS = 8
LEGEND_COLUMNS = 3
PURE_PYTHON_COLOR = OKABE_ITO["vermillion"]
BAR_HEIGHT = 0.6
LADDER_TITLE = "Cycles per byte per step of {cipher} (log axis; shorter is faster)"


def length_ticks(lengths: Sequence[int]) -> list[list[tuple[float, str]]]:
    """Ticks for a log10 axis of message lengths: powers of two labelled as the lengths are
    chosen (``"16 B"``, ``"4 KiB"``), every 2nd or 4th... when there are many, the others
    unlabelled."""
    low = math.floor(math.log2(min(lengths)))
    high = math.ceil(math.log2(max(lengths)))
    powers = range(low, high + 1)
    step = next(s for s in (1, 2, 4, 8, 16) if len(powers) / s <= MAX_LENGTH_LABELS)
    major = [(k * math.log10(2), length_label(2**k)) for k in powers if k % step == 0]
    minor = [(k * math.log10(2), "") for k in powers if k % step]
    return [major, minor]


def value_ticks(values: Sequence[float]) -> list[list[tuple[float, str]]]:
    """Ticks for a log10 value axis over ``values`` (positive)."""
    return chart_math.log_ticks(math.log10(min(values)), math.log10(max(values)))


def per_byte(entry: SweepEntry, cycles: bool) -> list[tuple[float, float]]:
    """``(message bytes, cycles or ns per byte)`` of the encryption curve."""
    out = []
    for p in entry.curve():
        y = p.cycles_per_byte(entry.clock_mhz) if cycles else p.ns_per_byte
        if y is not None and y > 0:
            out.append((float(p.message_bytes), y))
    return out


def has_cycles(entries: Sequence[SweepEntry]) -> bool:
    """Whether every entry has a cycles figure (counted or estimated)."""
    return all(p.cycles_per_byte(e.clock_mhz) is not None for e in entries for p in e.curve()[:1])


def y_label(entries: Sequence[SweepEntry], cycles: bool) -> str:
    if not cycles:
        return "Time per byte (ns)"
    if all(e.counter for e in entries):
        return "Cycles per byte"
    return "Cycles per byte (~ estimated)"


class _SweepResultChart(OnePlotChart):
    """A chart of one result (the sweep's or the ladder's), redrawn when it is set."""

    _result: SweepResult | None = None

    def _ready(self) -> None:
        """The end of a subclass's construction: no result yet, the theme's colours."""
        self._result = None
        self._apply_palette()
        self._show_data(False)

    def set_result(self, result: SweepResult | None) -> None:
        self._result = result
        self._schedule()

    def clear(self) -> None:
        self.set_result(None)


class SweepChart(_SweepResultChart):
    """Cycles per byte against message length, a curve per entry."""

    grid = (True, True)
    grid_alpha = 0.2

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Cycles per byte against message length (encryption; lower is faster)",
            "The curve of each entry appears here when the sweep has finished.",
            parent,
        )
        self._finish_header(self.plot_widget)
        self.plot.setContentsMargins(4, 4, 12, 4)
        self.plot.setLogMode(x=True, y=True)
        self.plot.setLabel("bottom", "Message length")
        self.plot.setLabel("left", "Cycles per byte")
        # The legend in a band of its own above the curves (columns side by side): inside the
        # plot it would cover the slow entries' long-message ends whatever corner it took.
        self.legend: pg.LegendItem = self.plot.addLegend(offset=(-10, 4), verSpacing=-6)
        self.plot.vb.sigResized.connect(self._schedule)  # the band's share of the height
        self.curves: dict[str, pg.PlotDataItem] = {}
        self._ready()

    def _curve(self, label: str) -> pg.PlotDataItem:
        return self._series_curve(self.curves, label, 7)

    def _redraw(self) -> None:
        entries = list(self._result.entries) if self._result else []
        for label in [k for k in self.curves if k not in {e.label for e in entries}]:
            curve = self.curves.pop(label)
            self.plot.removeItem(curve)
            self.legend.removeItem(curve)
        cycles = has_cycles(entries)
        points = {e.label: per_byte(e, cycles) for e in entries}
        every = [p for pts in points.values() for p in pts]
        self._show_data(bool(every))
        if not every:
            return
        self.plot.setLabel("left", y_label(entries, cycles))
        for e in entries:
            pts = points[e.label]
            self._curve(e.label).setData([p[0] for p in pts], [p[1] for p in pts])
        self.legend.setColumnCount(min(LEGEND_COLUMNS, len(entries)))
        xs, ys = [p[0] for p in every], [p[1] for p in every]
        self.plot.getAxis("bottom").setTicks(length_ticks([int(x) for x in xs]))
        self.plot.getAxis("left").setTicks(value_ticks(ys))
        self.plot.setXRange(math.log10(min(xs)), math.log10(max(xs)), padding=0.04)
        self.plot.setYRange(*self._y_range(ys), padding=0)

    def _y_range(self, ys: Sequence[float]) -> tuple[float, float]:
        """The value axis (log10) with room above the curves for the legend's band."""
        low, high = math.log10(min(ys)), math.log10(max(ys))
        span = max(high - low, 0.5)
        low, high = low - 0.05 * span, high + 0.05 * span
        height = self.plot.vb.height()
        band = (self.legend.height() + 8) / height if height > 50 else 0.25
        band = min(band, 0.5)
        return low, high + (high - low) * band / (1 - band)


def step_color(entry: SweepEntry) -> str:
    if entry.library == "pyaes":
        return PURE_PYTHON_COLOR
    return ENCRYPT_COLOR if entry.aes_instructions else DECRYPT_COLOR


class LadderChart(_SweepResultChart):
    """Cycles per byte of each ladder step, bars on a log axis."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            LADDER_TITLE.format(cipher="the ladder"),
            "The ladder's steps appear here when it has finished.",
            parent,
        )
        self._finish_header(self.plot_widget)
        self.plot.setContentsMargins(8, 4, 12, 4)
        self.plot.setLabel("bottom", "Cycles per byte")
        self.plot.invertY(True)  # step 1 at the top, like the table
        self.plot.setMouseEnabled(x=False, y=False)
        self.bars = pg.BarGraphItem(
            x0=[0.0], y=[0.0], width=[0.0], height=BAR_HEIGHT, pen=pg.mkPen(None)
        )
        self.plot.addItem(self.bars)
        self.labels: list[pg.TextItem] = []  # a factor at each bar's end, made as needed
        self._ready()

    def _label(self, i: int) -> pg.TextItem:
        while len(self.labels) <= i:
            item = pg.TextItem(anchor=(0, 0.5))
            self.plot.addItem(item)
            self.labels.append(item)
        return self.labels[i]

    def _redraw(self) -> None:
        steps = ladder_steps(self._result) if self._result else []
        cipher = self._result.title if self._result and self._result.title else "the ladder"
        self._title.setText(LADDER_TITLE.format(cipher=cipher))
        entries = [s.entry for s in steps]
        cycles = has_cycles(entries)
        values = [
            (s.point.cycles_per_byte(s.entry.clock_mhz) if cycles else s.point.ns_per_byte) or 0.0
            for s in steps
        ]
        shown = [v for v in values if v > 0]
        self._show_data(bool(shown))
        for item in self.labels[len(steps) :]:
            item.setText("")
        if not shown:
            return
        self.plot.setLabel("bottom", y_label(entries, cycles) + " (log axis)")
        base = math.floor(math.log10(min(shown)))
        top = math.log10(max(shown))
        logs = np.array([math.log10(v) if v > 0 else base for v in values])
        n = len(steps)
        self.bars.setOpts(
            x0=np.full(n, float(base)),
            y=np.arange(n, dtype=float),
            width=logs - base,
            brushes=[pg.mkBrush(step_color(e)) for e in entries],
        )
        text = self.palette().color(QPalette.ColorRole.WindowText)
        for i, (s, x) in enumerate(zip(steps, logs, strict=True)):
            factor = s.slower_than_first
            label = self._label(i)
            label.setText(
                f" {number(values[i])}" + (f"  ({number(factor)}x)" if factor else ""),
                color=text,
            )
            label.setPos(float(x), float(i))
        self.plot.getAxis("left").setTicks(
            [[(i, step_title(i + 1, e)) for i, e in enumerate(entries)], []]
        )
        end = top + max(1.0, 0.35 * (top - base))  # room for the labels
        self.plot.getAxis("bottom").setTicks(chart_math.log_ticks(base, end))
        self.plot.setYRange(-0.6, n - 0.4, padding=0)
        self.plot.setXRange(base - 0.1, end, padding=0)  # the first label not on the edge
