"""A leak test's |t| against the calls measured, live while it runs (each progress carries the
running entry's curve) and whole once it ends: one line an entry, dudect's thresholds 4.5
(possible leak) and 10 (leak) across it, the calls on a log axis. The same figure as the
result's ``.svg`` export (:mod:`app.core.leak.exports`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from app.core.document.numbers import count_text
from app.core.errors import UserError
from app.core.leak.result import LeakResult
from app.core.leak.ttests import LEAK_T, POSSIBLE_T
from app.gui.file_filters import CHART_FILTERS
from app.gui.plot_chart import PlotChart
from app.gui.results.chart_style import OKABE_ITO

THRESHOLDS = ((POSSIBLE_T, "possible leak", OKABE_ITO["orange"]), (LEAK_T, "leak", "#D55E00"))


class CallsAxis(pg.AxisItem):
    """A log axis whose ticks read as counts, labelled at 1, 2 and 5 times a power of ten
    (10,000 / 20,000 / 50,000), so the labels never run into each other."""

    def tickStrings(self, values: Sequence[float], scale: float, spacing: float) -> list[str]:
        out = []
        for v in values:
            n = 10**v if -1 < v < 15 else 0.0
            lead = n / 10 ** math.floor(math.log10(n)) if n >= 1 else 0.0
            shown = any(abs(lead - m) < 1e-6 * m for m in (1, 2, 5))
            out.append(count_text(round(n)) if shown else "")
        return out


class TCurveView(PlotChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        self.axis = CallsAxis("bottom")
        super().__init__(
            "The largest |t| as calls accumulate",
            "Each entry's |t| is drawn here as its calls are measured.",
            parent,
        )
        self.plot.setAxisItems({"bottom": self.axis})
        self.plot.setLogMode(x=True, y=False)
        self.plot.setLabel("bottom", "Calls measured")
        self.plot.setLabel("left", "Largest |t|")
        self.plot.setMouseEnabled(x=False, y=False)
        # Top right: a leak stops early (at the left), the rest lie low (4.5 and under)
        self.legend: pg.LegendItem = self.plot.addLegend(offset=(-10, 4))
        for level, name, colour in THRESHOLDS:
            line = pg.InfiniteLine(
                pos=level,
                angle=0,
                pen=pg.mkPen(colour, width=1.5, style=Qt.PenStyle.DashLine),
                label=f"{level:g}: {name}",
                labelOpts={"position": 0.05, "color": colour, "anchors": [(0, 1), (0, 1)]},
            )
            self.plot.addItem(line, ignoreBounds=True)
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.data: dict[str, list[tuple[int, float]]] = {}
        self.save_requested.connect(self._ask_where_to_save)
        self._show_data(False)
        self._apply_palette()

    def set_result(self, result: LeakResult | None) -> None:
        """The finished run's curves (None: clear, a new run starts)."""
        self.data = {} if result is None else {e.label: list(e.curve) for e in result.results}
        self._schedule()

    def show_progress(self, detail: Any) -> None:
        """The running entry's curve so far (a progress's detail)."""
        if isinstance(detail, dict) and detail.get("curve"):
            self.data[str(detail["entry"])] = [(int(n), float(t)) for n, t in detail["curve"]]
            self._schedule()

    def _redraw(self) -> None:
        for label in list(self.curves):
            if label not in self.data:
                self.plot.removeItem(self.curves.pop(label))
                if self.legend is not None:
                    self.legend.removeItem(label)
        highest = LEAK_T
        for label, points in self.data.items():
            kept = [(n, t) for n, t in points if n > 0 and math.isfinite(t)]
            curve = self._series_curve(self.curves, label, symbol_size=5)
            curve.setData([n for n, _ in kept], [t for _, t in kept])
            highest = max([highest, *(t for _, t in kept)])
        self.plot.setYRange(0, highest * 1.1, padding=0)
        self._show_data(bool(self.data))

    def _ask_where_to_save(self) -> None:
        start = str(Path.home() / "cipherbench-leak.png")
        path, chosen = QFileDialog.getSaveFileName(
            self, "Save chart", start, ";;".join(CHART_FILTERS)
        )
        if not path:
            return
        if not Path(path).suffix:
            path += CHART_FILTERS.get(chosen, ".png")
        try:
            self.save(path)
        except UserError as exc:
            QMessageBox.warning(self, "Cannot save the chart", str(exc))
