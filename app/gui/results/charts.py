"""Live charts of the main window.

Two charts of the results, each a small widget with a ``set_...`` method the window calls
with engine data (the third, the running job's memory and CPU, is
:mod:`app.gui.results.monitor_chart`):

- :class:`ThroughputChart`: encryption and decryption throughput per job, side by side.
- :class:`TimingChart`: median encryption and decryption times with interquartile whiskers.

Plot items are created once and updated with ``setData``/``setOpts``; redraws are throttled by
their base, :class:`~app.gui.results.throttled_chart.ThrottledChart` (about 10 per second).
Colours come from the Okabe-Ito palette (:mod:`app.gui.results.chart_style`); backgrounds and
text follow the widget palette, so the charts read in light and dark themes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QCheckBox, QWidget

from app.core.bench.results import JobResult
from app.gui.results.chart_math import log_ticks
from app.gui.results.chart_style import (
    DECRYPT_COLOR,
    ENCRYPT_COLOR,
)
from app.gui.results.throttled_chart import OnePlotChart

DIRECTIONS = ("encrypt", "decrypt")

BAR_HEIGHT = 0.38  # two bars per job row, with a gap between rows
AUTO_LOG_RATIO = 20.0  # bars this far apart switch the axis to log (unless the user chose)


def job_label(r: JobResult) -> str:
    return f"{r.cipher} [{r.library}]"


class _JobBarsChart(OnePlotChart):
    """A chart with one row per job (jobs on the left axis) and an optional log value axis."""

    def __init__(
        self, title: str, value_label: str, placeholder: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(title, placeholder, parent)
        self._base_title = title
        self._log = QCheckBox("Logarithmic axis")
        self._log.setToolTip(
            f"On by itself when the largest value is {AUTO_LOG_RATIO:g}x the smallest or more "
            "(pyaes, or Blowfish beside AES-NI): a linear axis would draw the slow bars a few "
            "pixels long. Click to choose for yourself."
        )
        self._log.toggled.connect(self._on_log_toggled)
        self._log_chosen = False  # the user clicked the box: no more automatic switching
        self._header.addWidget(self._log)
        self._finish_header(self.plot_widget)
        self.plot.setContentsMargins(8, 4, 12, 4)  # job names are not clipped at the edge
        self.plot.setLabel("bottom", value_label)
        self.plot.invertY(True)  # first job at the top, like the table
        self.plot.setMouseEnabled(x=True, y=False)
        self.legend = self.plot.addLegend(offset=(-10, 10))
        self._results: list[JobResult] = []
        self._show_data(False)

    @property
    def log_scale(self) -> bool:
        return self._log.isChecked()

    def set_log_scale(self, on: bool) -> None:
        """Choose the axis (as a click on the box does: no more automatic switching)."""
        self._log.setChecked(on)
        self._log_chosen = True

    def set_results(self, results: Sequence[JobResult]) -> None:
        """Show ``results`` (all finished jobs so far); drawn on the next redraw tick."""
        self._results = list(results)
        self._schedule()

    def clear(self) -> None:
        """No results; the axis switches by itself again."""
        self._log_chosen = False
        self.set_results([])

    def _on_log_toggled(self, _on: bool) -> None:
        self._log_chosen = True  # the automatic switch blocks this signal: a user's choice
        # Ticks are set by hand (pyqtgraph's log mode takes 10**x of the range still shown,
        # which overflows for a linear range, and labels 2..9 x 10^n until they overlap); the
        # range and the ticks change together, now.
        self._timer.stop()
        self._redraw_now()

    def _values(self) -> np.ndarray:
        """The values drawn (for the automatic log axis)."""
        raise NotImplementedError

    def _auto_log(self) -> None:
        """A log axis when the bars differ by :data:`AUTO_LOG_RATIO` or more, unless the user
        chose; the title says why."""
        values = self._values() if self._results else np.array([])
        values = values[values > 0]
        spread = float(values.max() / values.min()) if values.size else 1.0
        wanted = spread >= AUTO_LOG_RATIO
        if not self._log_chosen and wanted != self._log.isChecked():
            self._log.blockSignals(True)
            self._log.setChecked(wanted)
            self._log.blockSignals(False)
        note = f" — log axis: values {spread:,.0f}x apart" if self.log_scale and wanted else ""
        self._title.setText(self._base_title + note)

    def _redraw(self) -> None:
        n = len(self._results)
        self._auto_log()
        self._set_job_ticks()
        self._show_data(n > 0)
        if n:  # with none, the placeholder covers the plot; its items keep their last data
            self._draw_rows(np.arange(n, dtype=float))

    def _draw_rows(self, rows: np.ndarray) -> None:
        """Draw one row per job in ``self._results``; ``rows`` are their positions."""
        raise NotImplementedError

    def _set_job_ticks(self) -> None:
        several = len({r.input_label for r in self._results}) > 1
        ticks = [
            (i, f"{job_label(r)} · {r.input_label}" if several else job_label(r))
            for i, r in enumerate(self._results)
        ]
        self.plot.getAxis("left").setTicks([ticks, []])

    def _scale(self, values: np.ndarray) -> np.ndarray:
        """Values as drawn: log10 when the axis is logarithmic (pyqtgraph bars have no log
        mode, so the data are transformed here and the axis only labels powers of ten)."""
        if not self.log_scale:
            return values
        return np.log10(np.maximum(values, 1e-12))

    def _set_ranges(self, rows: int, start: float, end: float) -> None:
        """Show every row; leave room on the right for the legend (top right)."""
        self.plot.setYRange(-0.6, rows - 0.4, padding=0)
        room = 1.0 if self.log_scale else 0.3 * (end - start)
        self.plot.setXRange(start, end + max(room, 1e-9), padding=0)
        axis = self.plot.getAxis("bottom")
        axis.setTicks(log_ticks(start, end + room) if self.log_scale else None)

    def _value_origin(self, drawn: np.ndarray) -> float:
        if not self.log_scale or drawn.size == 0:
            return 0.0
        return float(math.floor(float(drawn.min())))


def _direction_bars(name: str, color: str) -> pg.BarGraphItem:
    """One direction's bars, empty until the first redraw sets their rows."""
    return pg.BarGraphItem(
        x0=[0.0],
        y=[0.0],
        width=[0.0],
        height=BAR_HEIGHT,
        name=name,
        brush=color,
        pen=pg.mkPen(None),
    )


def _direction_points(name: str, color: str, symbol: str) -> pg.ScatterPlotItem:
    """One direction's median markers; ``symbol`` tells the directions apart without colour."""
    return pg.ScatterPlotItem(
        symbol=symbol, size=9, brush=pg.mkBrush(color), pen=pg.mkPen(None), name=name
    )


class ThroughputChart(_JobBarsChart):
    """Encryption and decryption throughput (MB/s) per job, as horizontal bars."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Throughput per job (median time; higher is faster)",
            "Throughput (MB/s, 10^6 bytes per second)",
            "Encryption and decryption throughput of each job appears here as jobs finish.",
            parent,
        )
        self.encrypt_bars = _direction_bars("Encryption", ENCRYPT_COLOR)
        self.decrypt_bars = _direction_bars("Decryption", DECRYPT_COLOR)
        for item in (self.encrypt_bars, self.decrypt_bars):
            self.plot.addItem(item)
        self._apply_palette()

    def _values(self) -> np.ndarray:
        return np.array(
            [r.encrypt.throughput_mb_s for r in self._results]
            + [r.decrypt.throughput_mb_s for r in self._results]
        )

    def _draw_rows(self, rows: np.ndarray) -> None:
        n = len(rows)
        enc = self._scale(np.array([r.encrypt.throughput_mb_s for r in self._results]))
        dec = self._scale(np.array([r.decrypt.throughput_mb_s for r in self._results]))
        x0 = self._value_origin(np.concatenate([enc, dec]))
        self.encrypt_bars.setOpts(x0=x0, y=rows - BAR_HEIGHT / 2, width=enc - x0)
        self.decrypt_bars.setOpts(x0=x0, y=rows + BAR_HEIGHT / 2, width=dec - x0)
        self._set_ranges(n, x0, float(max(enc.max(), dec.max())))


class TimingChart(_JobBarsChart):
    """Median encryption and decryption times (ms) per job, whiskers over the interquartile
    range: the spread the table, the CLI and the exports show too."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Times per job: median, whiskers from the first to the third quartile",
            "Time per pass over the input (ms)",
            "Encryption and decryption times, with their spread, appear here as jobs finish.",
            parent,
        )
        self.encrypt_points = _direction_points("Encryption", ENCRYPT_COLOR, symbol="o")
        self.decrypt_points = _direction_points("Decryption", DECRYPT_COLOR, symbol="s")
        self.encrypt_spread = pg.ErrorBarItem(beam=0.12, pen=pg.mkPen(ENCRYPT_COLOR, width=1.5))
        self.decrypt_spread = pg.ErrorBarItem(beam=0.12, pen=pg.mkPen(DECRYPT_COLOR, width=1.5))
        for item in (self.encrypt_spread, self.decrypt_spread):
            self.plot.addItem(item)
        self.plot.addItem(self.encrypt_points)
        self.plot.addItem(self.decrypt_points)
        self._apply_palette()

    def _values(self) -> np.ndarray:
        return np.array([getattr(r, d).median_s for r in self._results for d in DIRECTIONS])

    def _draw_rows(self, rows: np.ndarray) -> None:
        n = len(rows)
        pairs = (
            ("encrypt", self.encrypt_points, self.encrypt_spread, rows - 0.15),
            ("decrypt", self.decrypt_points, self.decrypt_spread, rows + 0.15),
        )
        lowest, highest = math.inf, -math.inf
        for direction, points, spread, ys in pairs:
            stats = [getattr(r, direction) for r in self._results]
            med = self._scale(np.array([s.median_s * 1e3 for s in stats]))
            lo = self._scale(np.array([s.quartiles_s[0] * 1e3 for s in stats]))
            hi = self._scale(np.array([s.quartiles_s[1] * 1e3 for s in stats]))
            points.setData(med, ys)
            spread.setData(x=med, y=ys, left=np.maximum(med - lo, 0), right=np.maximum(hi - med, 0))
            spread.setVisible(True)
            lowest, highest = min(lowest, float(lo.min())), max(highest, float(hi.max()))
        self._set_ranges(n, self._value_origin(np.array([lowest])), highest)
