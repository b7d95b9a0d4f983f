"""A chart of one pyqtgraph plot in the main window's look: what the Study window's charts
against size and the Transfer window's bars share."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QWidget

from app.gui.results.charts import ThrottledChart, style_plot


class PlotChart(ThrottledChart):
    """A :class:`~app.gui.results.charts.ThrottledChart` drawing in one plot, ``plot`` (in
    ``plot_widget``), without pyqtgraph's auto-range button; the subclass adds its items."""

    def __init__(self, title: str, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(title, placeholder, parent)
        self.plot_widget = pg.PlotWidget()
        self._finish_header(self.plot_widget)
        self.plot = self.plot_widget.getPlotItem()
        self.plot.hideButtons()

    def _graphics(self) -> pg.GraphicsView:
        return self.plot_widget

    def _apply_palette(self) -> None:
        palette = self.palette()
        self.plot_widget.setBackground(palette.color(QPalette.ColorRole.Base))
        style_plot(self.plot, palette)  # the main window's charts' look
