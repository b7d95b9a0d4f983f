"""The Transfer window's chart: the throughput of each cipher (MB/s, 10^6 bytes per second) as
horizontal bars, the plaintext baseline in grey, so what sealing costs shows at a glance.

Bars are one item made once and updated with ``setOpts``; redraws go through
:class:`~app.gui.results.throttled_chart.ThrottledChart`'s timer (about 10 a second).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from app.core.transfer.framing import PLAINTEXT
from app.core.transfer.results import TransferResult
from app.gui.plot_chart import PlotChart
from app.gui.results.chart_style import ENCRYPT_COLOR

BASELINE_COLOR = "#999999"
BAR_HEIGHT = 0.6


class TransferResultsChart(PlotChart):
    """A chart of the finished transfers: :meth:`set_results` with them, :meth:`clear`; a
    subclass draws ``_results`` in ``_redraw``."""

    _results: list[TransferResult]

    def set_results(self, results: Sequence[TransferResult]) -> None:
        self._results = list(results)
        self._schedule()

    def clear(self) -> None:
        self.set_results([])


class TransferChart(TransferResultsChart):
    """Throughput per cipher; :meth:`set_results` with the finished ones."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Throughput per cipher (median total time; higher is faster)",
            "The throughput of each cipher appears here as its transfers finish.",
            parent,
        )
        self.plot.setContentsMargins(8, 4, 12, 4)
        self.plot.setLabel("bottom", "Throughput (MB/s, 10^6 bytes per second)")
        self.plot.invertY(True)  # first cipher at the top, like the table
        self.plot.setMouseEnabled(x=False, y=False)
        self.bars = pg.BarGraphItem(
            x0=[0.0], y=[0.0], width=[0.0], height=BAR_HEIGHT, pen=pg.mkPen(None)
        )
        self.plot.addItem(self.bars)
        self._results = []
        self._apply_palette()
        self._show_data(False)

    def _redraw(self) -> None:
        n = len(self._results)
        self._show_data(n > 0)
        if not n:
            return
        rows = np.arange(n, dtype=float)
        rates = np.array([r.throughput_mb_s for r in self._results])
        brushes = [
            pg.mkBrush(BASELINE_COLOR if r.cipher_id == PLAINTEXT else ENCRYPT_COLOR)
            for r in self._results
        ]
        self.bars.setOpts(x0=np.zeros(n), y=rows, width=rates, brushes=brushes)
        ticks = [(i, r.label) for i, r in enumerate(self._results)]
        self.plot.getAxis("left").setTicks([ticks, []])
        self.plot.setYRange(-0.6, n - 0.4, padding=0)
        self.plot.setXRange(0, max(float(rates.max()) * 1.1, 1e-9), padding=0)
