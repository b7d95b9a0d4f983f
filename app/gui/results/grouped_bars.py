"""Grouped bars on one pyqtgraph plot: a group per input, a bar per entry (cipher), as the papers
draw a comparison of file types (seed 002's figures). Shared by the main window's By input tab
and the Study window's charts of files.

A log scale (drawn as log10 heights above a floor; the axis labels the quantity's own values)
is used when the largest bar is at least ``log_ratio`` times the smallest: a linear axis would
draw the slow cipher's bar a few pixels long.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import pyqtgraph as pg

Height = Callable[[float], float]


def bar_layout(entries: int, group: int, entry: int) -> tuple[float, float]:
    """Where bar ``entry`` of ``entries`` stands in group ``group`` (groups 1 apart): its
    centre and width."""
    width = 0.8 / max(1, entries)
    return group - 0.4 + width * (entry + 0.5), width * 0.9


class GroupedBars:
    """The bar items of ``plot``, one per entry (named: the legend lists them)."""

    def __init__(self, plot: pg.PlotItem, legend: pg.LegendItem, colors: Sequence[str]) -> None:
        self.plot = plot
        self.legend = legend
        self.colors = list(colors)
        self.bars: dict[str, pg.BarGraphItem] = {}
        self.log_scale = False

    def draw(
        self,
        values: Mapping[tuple[str, str], float | None],
        entries: Sequence[str],
        inputs: Sequence[str],
        *,
        log_ratio: float = 10.0,
        also: Sequence[float] = (),
    ) -> Height:
        """Draw ``values[(entry, input)]``; returns the height of a value as drawn (for marks
        placed on the bars). ``also``: other values the axis must reach (the paper's)."""
        shown = [v for v in values.values() if v is not None and v > 0]
        log_y = bool(shown) and max(shown) >= log_ratio * min(shown)
        self.log_scale = log_y
        shown += [v for v in also if v > 0]
        floor = math.floor(math.log10(min(shown))) if log_y else 0

        def height(v: float) -> float:
            return math.log10(v) - floor if log_y else v

        for k, entry in enumerate(entries):
            xs, hs = [], []
            for g, input_label in enumerate(inputs):
                v = values.get((entry, input_label))
                if v is not None and (v > 0 or not log_y):
                    xs.append(bar_layout(len(entries), g, k)[0])
                    hs.append(height(v))
            self._bar(entry, k, len(entries)).setOpts(x=xs, height=hs)
        for gone in [e for e in self.bars if e not in entries]:
            self._remove(gone)
        self.plot.getAxis("bottom").setTicks([list(enumerate(inputs))])
        top = math.ceil(max(height(v) for v in shown)) if shown else 1
        self.plot.getAxis("left").setTicks(
            [[(float(d), f"{10 ** (d + floor):g}") for d in range(top + 1)]] if log_y else None
        )
        return height

    def clear(self) -> None:
        """Remove every bar; the axes get their automatic ticks back."""
        for entry in list(self.bars):
            self._remove(entry)
        self.plot.getAxis("bottom").setTicks(None)
        self.plot.getAxis("left").setTicks(None)
        self.log_scale = False

    def _remove(self, entry: str) -> None:
        bar = self.bars.pop(entry)
        self.plot.removeItem(bar)
        self.legend.removeItem(bar)

    def _bar(self, entry: str, k: int, entries: int) -> pg.BarGraphItem:
        bar = self.bars.get(entry)
        color = self.colors[k % len(self.colors)]
        width = bar_layout(entries, 0, k)[1]
        if bar is None:
            bar = pg.BarGraphItem(x=[], height=[], width=width, brush=color, name=entry)
            self.plot.addItem(bar)
            self.bars[entry] = bar
        bar.setOpts(width=width, brush=color)
        return bar
