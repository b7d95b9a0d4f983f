"""The main window's live chart of the running job: its resident memory and CPU over time
(:class:`MonitorChart`), a finished job's when its row is selected.

Plot items are created once and updated with ``setData``; redraws are throttled by its base,
:class:`~app.gui.results.throttled_chart.ThrottledChart` (about 10 per second). The axes open
on a worker's start and grow by steps with room to spare, so that a running job does not
rescale them on every sample.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QWidget

from app.core.bench.results import MonitorSample
from app.core.units import MIB
from app.gui.results.chart_math import cpu_ceiling, nice_ceiling, smoothed_cpu
from app.gui.results.chart_style import CPU_COLOR, MEMORY_COLOR, style_plot
from app.gui.results.throttled_chart import ThrottledChart

MONITOR_EMPTY = "The running job's memory and CPU appear here (a finished job's: select its row)"
INITIAL_MONITOR_LIMITS = (1.0, 100.0, 100.0)  # s, MiB, % of one core: a worker's start
LIVE_AXIS_ROOM = 2.0  # a running job's time and memory axes jump to twice what they need
MEMORY_SHRINK = 8  # a run opens the memory axis on its need when the axis is this much more


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
