"""One entry of a :class:`~app.core.history.trend.Trend` over its series: each run's median
throughput, a curve per direction (oldest run left), its 95 % interval as error bars, and each
step a dashed line between the two runs, labelled with what changed and by how much (red when
slower, green when faster).

The curves and error bars are made once per direction, the step lines once each and hidden
when not needed; all are updated with ``setData``/``setPos``, and redraws go through
:class:`~app.gui.results.throttled_chart.ThrottledChart`'s timer.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QWidget

from app.core.history.trend import run_days
from app.core.history.trend_results import EntryTrend, Step, Trend
from app.gui.plot_chart import PlotChart
from app.gui.results.chart_style import DECRYPT_COLOR, ENCRYPT_COLOR, OKABE_ITO

DIRECTION_COLORS = {
    "encrypt": ENCRYPT_COLOR,
    "decrypt": DECRYPT_COLOR,
    "transfer": OKABE_ITO["reddish_purple"],
}
SYMBOLS = {"encrypt": "o", "decrypt": "s", "transfer": "t"}
SLOWER_COLOR = OKABE_ITO["vermillion"]
FASTER_COLOR = OKABE_ITO["bluish_green"]
MAX_LABELLED_TICKS = 12  # more runs than this: every k-th run's tick is labelled


def run_positions(trend: Trend, by_time: bool) -> list[float]:
    """Each run's x: its place in the series, or (``by_time``) its start in days after the
    first run's (the places when a start cannot be read)."""
    days = run_days(trend.runs) if by_time else None
    return days if days is not None else [float(i) for i in range(len(trend.runs))]


def tick_labels(trend: Trend, xs: list[float]) -> list[list[tuple[float, str]]]:
    """The x axis: a tick at each run, labelled with its id and date; only those at least a
    twelfth of the axis from the last labelled (the last run's always, in place of a
    labelled neighbour too close), the others unlabelled."""
    span = (xs[-1] - xs[0]) if xs else 0.0
    gap = span / MAX_LABELLED_TICKS
    labelled: list[int] = []
    for i, x in enumerate(xs):
        if not labelled or x - xs[labelled[-1]] >= gap * 0.999:
            labelled.append(i)
    if xs and labelled[-1] != len(xs) - 1:
        if len(labelled) > 1 and xs[-1] - xs[labelled[-1]] < gap:
            labelled.pop()
        labelled.append(len(xs) - 1)
    major = [(xs[i], f"run {trend.runs[i].id}\n{trend.runs[i].date_text()[:10]}") for i in labelled]
    minor = [(x, "") for i, x in enumerate(xs) if i not in set(labelled)]
    return [major, minor]


def step_text(steps: list[tuple[str, Step]]) -> str:
    """The label of the steps at one run: what changed, then each direction's change."""
    lines = [steps[0][1].what_changed()]
    lines += [f"{direction} {step.amount()}" for direction, step in steps]
    return "\n".join(lines)


class TrendChart(PlotChart):
    """The runs of one entry of a trend, a curve per direction, steps marked."""

    grid = (False, True)
    grid_alpha = 0.2

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Median throughput over the series",
            "Each run's figure appears here once an entry is chosen.",
            parent,
        )
        self.plot.setLabel("left", "Median throughput (MB/s)")
        # Two lines a tick ("run 12", its date): pyqtgraph sizes the axis for one and would
        # drop the labels.
        bottom = self.plot.getAxis("bottom")
        bottom.setHeight(2 * self.fontMetrics().lineSpacing() + 16)
        self.plot.setMouseEnabled(x=True, y=False)
        # One row, over the room kept above the figures (_fit_y).
        self.legend: pg.LegendItem = self.plot.addLegend(offset=(10, 4), colCount=3)
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.error_bars: dict[str, pg.ErrorBarItem] = {}
        self.step_lines: list[pg.InfiniteLine] = []
        self.trend: Trend | None = None
        self.entry = ""
        self.by_time = False
        self._show_data(False)
        self._apply_palette()

    def set_entry(self, trend: Trend, entry: str) -> None:
        """Show ``entry`` of ``trend`` (drawn on the next redraw tick)."""
        self.trend, self.entry = trend, entry
        self._schedule()

    def set_by_time(self, on: bool) -> None:
        """Space the runs by their dates (days after the first) or evenly, in order."""
        self.by_time = on
        self.plot.setLabel("bottom", "Days after the first run" if on else "")
        self._schedule()

    def positions(self) -> list[float]:
        return run_positions(self.trend, self.by_time) if self.trend is not None else []

    def directions(self) -> tuple[EntryTrend, ...]:
        return self.trend.of_entry(self.entry) if self.trend is not None else ()

    def visible_step_lines(self) -> list[pg.InfiniteLine]:
        return [line for line in self.step_lines if line.isVisible()]

    # --- drawing ------------------------------------------------------------------------------

    def _curve(self, direction: str) -> tuple[pg.PlotDataItem, pg.ErrorBarItem]:
        if direction not in self.curves:
            color = DIRECTION_COLORS.get(direction, OKABE_ITO["blue"])
            curve = pg.PlotDataItem(
                pen=pg.mkPen(color, width=2),
                symbol=SYMBOLS.get(direction, "o"),
                symbolBrush=color,
                symbolPen=pg.mkPen(color),
                symbolSize=8,
                name=direction,
            )
            bars = pg.ErrorBarItem(beam=0.18, pen=pg.mkPen(color, width=1.5))
            self.plot.addItem(bars)
            self.plot.addItem(curve)
            self.curves[direction], self.error_bars[direction] = curve, bars
        return self.curves[direction], self.error_bars[direction]

    def _step_line(self, k: int) -> pg.InfiniteLine:
        while len(self.step_lines) <= k:
            line = pg.InfiniteLine(angle=90, movable=False, label=" ", labelOpts={"movable": False})
            line.setZValue(-5)  # behind the curves
            self.plot.addItem(line, ignoreBounds=True)
            self.step_lines.append(line)
        return self.step_lines[k]

    def _redraw(self) -> None:
        directions = self.directions()
        self._show_data(bool(directions))
        shown = {e.direction for e in directions}
        for direction, curve in self.curves.items():
            if direction not in shown:
                curve.setData([], [])
                self.error_bars[direction].setVisible(False)
        xs = self.positions()
        spacing = (xs[-1] - xs[0]) / (len(xs) - 1) if len(xs) > 1 and xs[-1] > xs[0] else 1.0
        for e in directions:
            curve, bars = self._curve(e.direction)
            bars.setOpts(beam=0.18 * spacing)
            points = [(xs[i], p) for i, p in enumerate(e.points) if p is not None]
            curve.setData([i for i, _ in points], [p.throughput_mb_s for _, p in points])
            with_interval = [(i, p) for i, p in points if p.has_interval]
            bars.setVisible(bool(with_interval))
            if with_interval:
                x = np.array([i for i, _ in with_interval], dtype=float)
                y = np.array([p.throughput_mb_s for _, p in with_interval])
                bars.setData(
                    x=x,
                    y=y,
                    top=np.array([p.high_mb_s for _, p in with_interval]) - y,
                    bottom=y - np.array([p.low_mb_s for _, p in with_interval]),
                )
        self._draw_steps(directions, xs)
        if self.trend is not None and xs:
            self.plot.getAxis("bottom").setTicks(tick_labels(self.trend, xs))
            room = max(0.5 * spacing, 0.05 * (xs[-1] - xs[0]))  # half of the end labels
            self.plot.setXRange(xs[0] - room, xs[-1] + room, padding=0)
        self._fit_y(directions)

    def _fit_y(self, directions: tuple[EntryTrend, ...]) -> None:
        """Every figure and interval in view, with room above them for the steps' labels."""
        points = [p for e in directions for p in e.points if p is not None]
        ends = [p.throughput_mb_s for p in points]
        ends += [x for p in points if p.has_interval for x in (p.low_mb_s, p.high_mb_s)]
        if not ends:
            return
        low, high = min(ends), max(ends)
        span = (high - low) or abs(high) * 0.1 or 1.0
        top = 0.45 if any(e.steps for e in directions) else 0.2  # the labels, the legend
        self.plot.setYRange(low - 0.08 * span, high + top * span, padding=0)

    def _draw_steps(self, directions: tuple[EntryTrend, ...], xs: list[float]) -> None:
        at: dict[int, list[tuple[str, Step]]] = {}
        for e in directions:
            for step in e.steps:
                at.setdefault(step.position, []).append((e.direction, step))
        middle = (xs[0] + xs[-1]) / 2 if xs else 0.0
        palette = self.palette()
        fill = QColor(palette.color(QPalette.ColorRole.Base))
        fill.setAlpha(225)
        text_color = palette.color(QPalette.ColorRole.WindowText)
        for k, (position, steps) in enumerate(sorted(at.items())):
            slower = sum(s.change for _, s in steps) < 0
            color = SLOWER_COLOR if slower else FASTER_COLOR
            line = self._step_line(k)
            line.setPen(pg.mkPen(color, width=2, style=Qt.PenStyle.DashLine))
            line.setPos((xs[position - 1] + xs[position]) / 2)  # between the two runs
            label = line.label
            label.setFormat(step_text(steps).replace("{", "{{").replace("}", "}}"))
            label.setColor(text_color)
            label.fill = pg.mkBrush(fill)
            label.border = pg.mkPen(color)
            # Text on the side with room: right of a line in the left half, else left of it;
            # staggered in height so neighbouring labels do not cover each other.
            anchor = (0.0, 0.0) if xs[position] < middle else (1.0, 0.0)
            label.anchors = [anchor, anchor]
            label.setPosition(0.97 - 0.22 * (k % 3))
            line.setVisible(True)
        for line in self.step_lines[len(at) :]:
            line.setVisible(False)

    def _apply_palette(self) -> None:
        super()._apply_palette()
        if self.trend is not None:
            self._schedule()
