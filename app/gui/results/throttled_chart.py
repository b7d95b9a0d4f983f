"""The base of every chart: :class:`ThrottledChart`, a header row (title, options, Save
button) above a pyqtgraph widget, shown in place of a placeholder text once there is data (the
Memory & CPU chart shows empty axes instead).
Updates only mark it dirty; a single-shot timer redraws at most every ``REDRAW_INTERVAL_MS``
(about 10 per second) however fast data arrives. :meth:`ThrottledChart.save` writes it as PNG
or SVG. :class:`OnePlotChart` is such a chart of one plot in the window's look."""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QPalette, QShowEvent
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QGraphicsItem,
    QHBoxLayout,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.export.writers import write_atomically
from app.gui.label import Label
from app.gui.results.chart_style import SERIES_COLORS, SERIES_SYMBOLS, style_legend, style_plot

REDRAW_INTERVAL_MS = 100


class ThrottledChart(QWidget):
    """Header row (options, Save button) above a pyqtgraph widget; redraws on a timer."""

    save_requested = Signal()

    def __init__(self, title: str, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REDRAW_INTERVAL_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self.redraw_count = 0  # for tests and the responsiveness benchmark
        self._stale = False  # an update waits for the chart to be shown

        self._header = QHBoxLayout()
        self._title = Label(title)
        self._header.addWidget(self._title)
        self._header.addStretch(1)
        self._save = QPushButton("Save chart…")
        self._save.setToolTip("Save this chart as PNG or SVG")
        self._save.clicked.connect(self.save_requested)
        self._placeholder = Label(placeholder)
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._placeholder.setWordWrap(True)
        self._placeholder.setEnabled(False)  # drawn in the palette's muted text colour
        self._stack = QStackedWidget()
        self._stack.addWidget(self._placeholder)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self._header)
        layout.addWidget(self._stack, 1)

    def _finish_header(self, graphics: QWidget) -> None:
        self._header.addWidget(self._save)
        self._stack.addWidget(graphics)

    def _show_data(self, has_data: bool) -> None:
        """The plot when there is something to show, otherwise the placeholder text."""
        self._stack.setCurrentIndex(1 if has_data else 0)
        self._save.setEnabled(has_data)

    @property
    def showing_data(self) -> bool:
        return self._stack.currentIndex() == 1

    @property
    def has_data(self) -> bool:
        """Whether there is something to save (a chart may show empty axes)."""
        return self.showing_data

    def _schedule(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def flush(self) -> None:
        """Redraw now if an update is pending, hidden or not (tests, and before saving)."""
        if self._timer.isActive():
            self._timer.stop()
            self._stale = True
        if self._stale:
            self._redraw_now()

    # A chart on a hidden tab is redrawn when it is shown, not on every finished job: each
    # redraw costs a few milliseconds of the GUI thread, and the window's three hidden charts
    # redrawing one after another at a job's end were one of its longest stalls.

    def _on_timer_timeout(self) -> None:
        if not self.isVisible():
            self._stale = True
            return
        self._redraw_now()

    def _redraw_now(self) -> None:
        self._stale = False
        self.redraw_count += 1
        self._redraw()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self._redraw_now()  # before the first paint: never a stale chart on screen

    def _redraw(self) -> None:
        raise NotImplementedError

    def _graphics(self) -> pg.GraphicsView:
        raise NotImplementedError

    def _apply_palette(self) -> None:
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.StyleChange):
            self._apply_palette()
        super().changeEvent(event)

    def save(self, path: str | Path) -> Path:
        """Write the chart to ``path``: SVG (vector) for ``.svg``, otherwise a PNG image, through
        an unnamed file linked in when complete (app.core.runtime.safe_files: a kill leaves
        nothing).
        Raises ``UserError`` ("cannot write <path>: ...") when the file cannot be written."""
        self.flush()
        path = Path(path)
        svg = path.suffix.lower() == ".svg"
        write_atomically(path, lambda staged: self._render(staged, svg=svg))
        return path

    def _render(self, path: Path, *, svg: bool) -> None:
        view = self._graphics()
        if svg:
            # Qt's own SVG generator: pyqtgraph's SVGExporter cannot parse the paths Qt 6.11
            # writes (pyqtgraph issue 3485).
            generator = QSvgGenerator()
            generator.setFileName(str(path))
            # Same resolution as the screen: pyqtgraph caches axes as QPictures, which would be
            # rescaled (and misplaced) on a device of another resolution.
            generator.setResolution(view.logicalDpiX())
            generator.setSize(view.size())
            generator.setViewBox(QRect(QPoint(0, 0), view.size()))
            generator.setTitle(self._title.text())
            painter = QPainter()
            if not painter.begin(generator):
                raise OSError(f"cannot write {path}")
            axes = [i for i in view.scene().items() if isinstance(i, pg.AxisItem)]
            try:
                for axis in axes:  # their text as text, not the screen's cached pixmaps
                    axis.setCacheMode(QGraphicsItem.CacheMode.NoCache)
                view.render(painter)
            finally:
                for axis in axes:
                    axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
                painter.end()
        elif not view.grab().save(str(path), "PNG"):
            raise OSError(f"cannot write {path}")


class OnePlotChart(ThrottledChart):
    """A chart of one pyqtgraph plot (``plot`` in ``plot_widget``, without pyqtgraph's
    auto-range button) in the window's look; a subclass adds its header widgets, then calls
    ``_finish_header(self.plot_widget)``, and may set ``legend``; ``grid`` says which axes
    get grid lines (x, y) and ``grid_alpha`` how dark they are."""

    grid: tuple[bool, bool] = (True, False)
    grid_alpha = 0.25

    def __init__(self, title: str, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(title, placeholder, parent)
        self.plot_widget = pg.PlotWidget()
        self.plot = self.plot_widget.getPlotItem()
        self.plot.hideButtons()
        self.legend: pg.LegendItem | None = None

    def _graphics(self) -> pg.GraphicsView:
        return self.plot_widget

    def _apply_palette(self) -> None:
        palette = self.palette()
        self.plot_widget.setBackground(palette.color(QPalette.ColorRole.Base))
        style_plot(self.plot, palette, self.grid, self.grid_alpha)
        style_legend(self.legend, palette)

    def _series_curve(
        self, curves: dict[str, pg.PlotDataItem], label: str, symbol_size: int = 8
    ) -> pg.PlotDataItem:
        """``label``'s line in ``curves``, made and added to the plot the first time: the
        n-th series' colour and marker shape (both tell series apart, in grey print too)."""
        curve = curves.get(label)
        if curve is None:
            n = len(curves)
            color = SERIES_COLORS[n % len(SERIES_COLORS)]
            curve = pg.PlotDataItem(
                pen=pg.mkPen(color, width=2),
                symbol=SERIES_SYMBOLS[n % len(SERIES_SYMBOLS)],
                symbolBrush=color,
                symbolPen=pg.mkPen(color),
                symbolSize=symbol_size,
                name=label,
            )
            self.plot.addItem(curve)
            curves[label] = curve
        return curve
