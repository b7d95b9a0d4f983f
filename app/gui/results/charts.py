"""Live charts of the main window.

Three charts, each a small widget with a ``set_...`` method the window calls with engine data:

- :class:`ThroughputChart`: encryption and decryption throughput per job, side by side.
- :class:`TimingChart`: median encryption and decryption times with interquartile whiskers.
- :class:`MonitorChart`: the running job's resident memory and CPU over time.

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
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QCheckBox, QWidget

from app.core.bench.results import JobResult, MonitorSample
from app.core.units import MIB
from app.gui.results.chart_math import cpu_ceiling, log_ticks, nice_ceiling, smoothed_cpu
from app.gui.results.chart_style import (
    CPU_COLOR,
    DECRYPT_COLOR,
    ENCRYPT_COLOR,
    MEMORY_COLOR,
    style_plot,
)
from app.gui.results.throttled_chart import OnePlotChart, ThrottledChart

DIRECTIONS = ("encrypt", "decrypt")

BAR_HEIGHT = 0.38  # two bars per job row, with a gap between rows
MONITOR_EMPTY = "The running job's memory and CPU appear here (a finished job's: select its row)"
INITIAL_MONITOR_LIMITS = (1.0, 100.0, 100.0)  # s, MiB, % of one core: a worker's start
LIVE_AXIS_ROOM = 2.0  # a running job's time and memory axes jump to twice what they need
MEMORY_SHRINK = 8  # a run opens the memory axis on its need when the axis is this much more
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


class MonitorChart(ThrottledChart):
    """Resident memory (MiB) and CPU (% of one core) of one job's process over time."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Worker process every 50 ms: memory (total; dashed: baseline) and CPU (400 ms mean)",
            MONITOR_EMPTY,
            parent,
        )
        self._title.setToolTip(
            "Resident memory of the job's worker process, in total. The table's memory column is "
            "its peak above the dashed baseline (the worker before the measured pass)."
        )
        self.layout_widget = pg.GraphicsLayoutWidget()
        self._finish_header(self.layout_widget)
        self.memory_plot = self.layout_widget.addPlot(row=0, col=0)
        self.cpu_plot = self.layout_widget.addPlot(row=1, col=0)
        self.cpu_plot.setXLink(self.memory_plot)
        # One time scale, under the CPU plot: the memory plot keeps its vertical grid lines
        # but not the same numbers again (each new time range lays them out: 1-1.5 ms).
        self.memory_plot.getAxis("bottom").setStyle(showValues=False)
        self.memory_plot.setLabel("left", "Memory, total (MiB)")
        self.cpu_plot.setLabel("left", "CPU (% of one core)")
        self.cpu_plot.setLabel("bottom", "Time since the job started (s)")
        for plot in (self.memory_plot, self.cpu_plot):
            plot.hideButtons()
            plot.setMouseEnabled(x=True, y=False)
            plot.getAxis("left").setWidth(60)
        self.memory_curve = self.memory_plot.plot(
            pen=pg.mkPen(MEMORY_COLOR, width=2), name="Resident memory"
        )
        self.cpu_curve = self.cpu_plot.plot(pen=pg.mkPen(CPU_COLOR, width=2), name="CPU")
        # The table's memory is the peak above this line (the worker before the measured pass).
        self.baseline_line = pg.InfiniteLine(
            angle=0,
            pen=pg.mkPen(MEMORY_COLOR, width=1, style=Qt.PenStyle.DashLine),
            label="baseline",
            labelOpts={"position": 0.05, "color": MEMORY_COLOR},
        )
        self.baseline_line.setVisible(False)
        self.memory_plot.addItem(self.baseline_line)
        self._baseline_mib: float | None = None
        self._samples: list[MonitorSample] = []
        self._label = ""
        self._live = False  # the running job's curves, not a finished one chosen in the table
        self._growing = False  # from a job's start until one is chosen: the ranges only grow
        self._axis_limits: tuple[float, float, float] = (0.0, 0.0, 0.0)
        self._title_text: str | None = None
        for plot in (self.memory_plot, self.cpu_plot):
            plot.disableAutoRange()
        # Empty axes from the start, where a job's curves will be, and the placeholder as
        # their title: the plot's first layout and paint, and a first job's usual ranges, are
        # paid when the window opens, not in the first turns of the first run (17 ms).
        self._set_limits(INITIAL_MONITOR_LIMITS)
        self._show_data(True)
        self._redraw()
        self._apply_palette()

    @property
    def label(self) -> str:
        return self._label

    @property
    def has_data(self) -> bool:
        return bool(self._samples)

    def start_job(self, label: str, expected_bytes: int | None = None) -> None:
        """A new job began: clear the curves and title them with ``label``. Each new range
        lays out and repaints the axes (3-6 ms an axis, twice that with a job running; all
        three at once, as fitting a finished job does, 11-19 ms), so the axes move as little
        as they can:

        - a job starts on the ranges the chart shows (the job before it, the last run's, or
          a job chosen in the table, fitted; never less than the opening ranges), and from
          then on they only grow, when the curves outgrow them; a finished run's last job
          stays on the ranges it ran in (:meth:`run_ended`);
        - the memory axis opens on ``expected_bytes`` (the most the job's worker is expected
          to hold) when that is more, so that a large input does not move it at every
          doubling while the job runs, and at a run's first job also when the axis is
          ``MEMORY_SHRINK``-fold more than that (a small run after a large one).

        A zoom or pan is undone either way."""
        limits = (
            max(INITIAL_MONITOR_LIMITS[0], self._axis_limits[0]),
            max(INITIAL_MONITOR_LIMITS[1], self._axis_limits[1]),
            max(INITIAL_MONITOR_LIMITS[2], self._axis_limits[2]),
        )
        if expected_bytes is not None:
            # With the room the running job's curve is kept within (5 %: see _ranges).
            expected = max(INITIAL_MONITOR_LIMITS[1], nice_ceiling(expected_bytes / MIB * 1.05))
            far_less = not self._live and limits[1] > MEMORY_SHRINK * expected
            if expected > limits[1] or far_less:
                limits = (limits[0], expected, limits[2])
        self.set_samples(label, [])
        self._set_limits(limits)
        self._live = self._growing = True

    def run_ended(self) -> None:
        """The run is over: the curves shown are a finished job's, on the ranges they ran in.
        They are not fitted: a new range for every axis at once is a stall of more than a
        frame (see :meth:`start_job`); choosing the job's row in the table fits it."""
        if self._live:
            self._live = False
            self._schedule()  # the title

    def add_samples(self, samples: Sequence[MonitorSample]) -> None:
        self._samples.extend(samples)
        self._schedule()

    def set_samples(
        self, label: str, samples: Sequence[MonitorSample], baseline_bytes: int | None = None
    ) -> None:
        """Show a whole series (a finished job chosen in the table), with its memory baseline
        as a dashed line when known (the table shows the peak above it)."""
        self._label = label
        self._live = self._growing = False
        self._samples = list(samples)
        self._baseline_mib = None if baseline_bytes is None else baseline_bytes / MIB
        self._axis_limits = (0.0, 0.0, 0.0)
        self._schedule()

    def clear(self) -> None:
        """Reset: empty, on the opening ranges."""
        self.set_samples("", [])

    def _redraw(self) -> None:
        if self._live:
            title = self._label + " — running; select a row after the run to see another job"
        elif self._label:
            title = self._label + " — select a row of the table to see another job"
        else:
            title = MONITOR_EMPTY
        if title != self._title_text:  # a new title lays the label out (1 ms)
            self._title_text = title
            self.memory_plot.setTitle(title)
            # A long title must not make the plot wider than the window (it is clipped).
            self.memory_plot.titleLabel.setMinimumWidth(0)
        self._save.setEnabled(bool(self._samples))
        if not self._samples:
            self.memory_curve.setData([], [])
            self.cpu_curve.setData([], [])
            self.baseline_line.setVisible(False)
            if not self._growing and self._axis_limits != INITIAL_MONITOR_LIMITS:
                self._set_limits(INITIAL_MONITOR_LIMITS)  # after Reset: the opening ranges
            return
        t = np.array([s.t_s for s in self._samples])
        rss = np.array([s.rss_bytes / MIB for s in self._samples])
        cpu = smoothed_cpu(t, np.array([s.cpu_percent for s in self._samples]))
        self.memory_curve.setData(t, rss)
        self.baseline_line.setVisible(self._baseline_mib is not None)
        if self._baseline_mib is not None:
            self.baseline_line.setValue(self._baseline_mib)
        self.cpu_curve.setData(t, cpu)
        self._ranges(float(t.max()), float(rss.max()), float(cpu.max()))

    def _ranges(self, t_max: float, rss_max: float, cpu_max: float) -> None:
        """Axes from zero (a few MiB or % must not look like a cliff) to a round number that
        only changes when the data outgrow it: a new range lays out and repaints the axes,
        which costs more than drawing the curves. From a job's start until a job is chosen in
        the table, time and memory jump to twice what they need when they change, so that a
        growing curve moves its axes about once per doubling, not at every round number (4
        changes in a 3 s job, not 8); a job chosen in the table is fitted. CPU stops at 100 %
        of one core, or the next quarter of a core above (:func:`cpu_ceiling`)."""
        grow = self._growing
        room = LIVE_AXIS_ROOM if grow else 1.0
        needed = (t_max, rss_max * 1.05, max(cpu_max, 100.0))
        fresh = (
            nice_ceiling(needed[0] * room),
            nice_ceiling(needed[1] * room),
            cpu_ceiling(cpu_max),
        )
        wanted = tuple(
            limit if grow and 0 < value <= limit else new
            for value, limit, new in zip(needed, self._axis_limits, fresh, strict=True)
        )
        if wanted != self._axis_limits:
            self._set_limits((wanted[0], wanted[1], wanted[2]))

    def _set_limits(self, limits: tuple[float, float, float]) -> None:
        self._axis_limits = limits
        self.memory_plot.setXRange(0, limits[0], padding=0)
        self.memory_plot.setYRange(0, limits[1], padding=0)
        self.cpu_plot.setYRange(0, limits[2], padding=0)

    def _graphics(self) -> pg.GraphicsView:
        return self.layout_widget

    def _apply_palette(self) -> None:
        palette = self.palette()
        self.layout_widget.setBackground(palette.color(QPalette.ColorRole.Base))
        for plot in (self.memory_plot, self.cpu_plot):
            style_plot(plot, palette, grid=(True, True))
