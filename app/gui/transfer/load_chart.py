"""The Transfer window's CPU and memory over time: both ends of each cipher's median run,
sampled every 50 ms (:mod:`app.core.transfer.load_series`, the loopback study's method), the
sender as a solid line and the receiver dashed, one colour a cipher. A choice in its header
shows CPU % (100 = one core busy) or resident memory (MiB, 2^20 bytes)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QWidget

from app.core.transfer.results import RunSample, TransferResult
from app.core.units import MIB
from app.gui.results.chart_style import SERIES_COLORS
from app.gui.transfer.transfer_chart import TransferResultsChart

QUANTITIES = {"CPU %": "cpu_percent", "Memory (MiB)": "rss_bytes"}


def median_run(result: TransferResult) -> RunSample | None:
    """The run with the median total time (the lower middle of an even count) that has a
    series; None when none has."""
    runs = sorted((r for r in result.runs if r.series), key=lambda r: r.total_seconds)
    return runs[(len(runs) - 1) // 2] if runs else None


class LoadChart(TransferResultsChart):
    def __init__(self, parent: QWidget | None = None) -> None:
        self.choice = QComboBox()
        self.choice.addItems(list(QUANTITIES))
        self.choice.setToolTip("What to draw of each end: its CPU use or its resident memory")
        super().__init__(
            "Each end every 50 ms, median run (sender solid, receiver dashed)",
            "Both ends' CPU and memory appear here as the transfers finish.",
            parent,
        )
        self._header.insertWidget(2, self.choice)
        self.choice.currentIndexChanged.connect(self._schedule)
        self.plot.setLabel("bottom", "Time since the run started (s)")
        self.plot.setMouseEnabled(x=False, y=False)
        self.legend: pg.LegendItem = self.plot.addLegend(offset=(-10, 4))
        self._results = []
        self._apply_palette()
        self._show_data(False)

    @property
    def quantity(self) -> str:
        return QUANTITIES[self.choice.currentText()]

    def _redraw(self) -> None:
        self.plot.clear()
        if self.legend is not None:
            self.legend.clear()
        memory = self.quantity == "rss_bytes"
        self.plot.setLabel("left", self.choice.currentText())
        drawn = 0
        several = len({r.input_label for r in self._results}) > 1  # a study of sizes
        for i, result in enumerate(self._results):
            run = median_run(result)
            if run is None:
                continue
            colour = SERIES_COLORS[i % len(SERIES_COLORS)]
            for end, style in (
                ("sender", Qt.PenStyle.SolidLine),
                ("receiver", Qt.PenStyle.DashLine),
            ):
                values = [getattr(p, f"{end}_{self.quantity}") for p in run.series]
                ys = [v / MIB for v in values] if memory else values
                self.plot.plot(
                    [p.seconds for p in run.series],
                    ys,
                    pen=pg.mkPen(colour, width=2, style=style),
                    symbol="o" if end == "sender" else "t",  # a run of one point shows too
                    symbolSize=6,
                    symbolBrush=colour,
                    symbolPen=pg.mkPen(colour),
                    name=f"{result.label}{f' on {result.input_label}' if several else ''}, {end}",
                )
            drawn += 1
        self._show_data(drawn > 0)
        self.plot.setXRange(0, max((p.seconds for r in self._results if (m := median_run(r))
                                    for p in m.series), default=1.0) * 1.05, padding=0)  # fmt: skip
        if drawn and not memory:
            top = max(
                (max(p.sender_cpu_percent, p.receiver_cpu_percent)
                 for r in self._results if (m := median_run(r)) for p in m.series),
                default=100.0,
            )  # fmt: skip
            self.plot.setYRange(0, max(100.0, top) * 1.05, padding=0)
        elif drawn:
            self.plot.enableAutoRange(axis="y")
