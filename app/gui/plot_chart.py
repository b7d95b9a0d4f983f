"""A chart of one pyqtgraph plot in the main window's look: what the Study window's charts
against size and the Transfer window's bars share."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from app.gui.results.throttled_chart import OnePlotChart


class PlotChart(OnePlotChart):
    """A :class:`~app.gui.results.throttled_chart.OnePlotChart` with its header finished: the
    subclass adds its items to ``plot``."""

    def __init__(self, title: str, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(title, placeholder, parent)
        self._finish_header(self.plot_widget)
