"""The charts' look, shared by every chart of the window and the tool windows: the Okabe-Ito
palette (safe for the common colour-vision deficiencies) and the colours named from it, the
series colours and marker shapes, and :func:`style_plot` / :func:`style_legend`, which make a
pyqtgraph plot and legend follow the widget palette (light and dark themes)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QGraphicsItem

# Okabe & Ito (2008), "Color Universal Design".
OKABE_ITO = {
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}
ENCRYPT_COLOR = OKABE_ITO["blue"]
DECRYPT_COLOR = OKABE_ITO["orange"]
MEMORY_COLOR = OKABE_ITO["bluish_green"]
CPU_COLOR = OKABE_ITO["vermillion"]

SERIES_COLORS = [c for name, c in OKABE_ITO.items() if name != "yellow"] + ["#000000"]
SERIES_SYMBOLS = ["o", "s", "t", "d", "star", "+", "x", "p", "h"]


def mixed(under: QColor, over: QColor, alpha: float) -> QColor:
    """``over`` drawn at ``alpha`` on ``under``, as one opaque colour."""
    return QColor.fromRgbF(
        under.redF() + (over.redF() - under.redF()) * alpha,
        under.greenF() + (over.greenF() - under.greenF()) * alpha,
        under.blueF() + (over.blueF() - under.blueF()) * alpha,
    )


def style_plot(
    plot: pg.PlotItem,
    palette: QPalette,
    grid: tuple[bool, bool] = (True, False),
    grid_alpha: float = 0.25,
) -> None:
    """``plot`` in the palette's colours, with grid lines across x (``grid[0]``) and y
    (``grid[1]``) in the text colour at ``grid_alpha`` over the background.

    The grid is drawn opaque, in that colour mixed in advance: pyqtgraph draws grid lines as the
    axes' ticks, translucent, and blending a translucent line across the plot cost 2-2.6 ms an
    axis each time an axis changed (an opaque one 0.1-0.2 ms), which made a live chart's redraw
    the window's longest stall (benchmarks/bench_gui_responsiveness.py)."""
    text = palette.color(QPalette.ColorRole.WindowText)
    base = palette.color(QPalette.ColorRole.Base)
    line = mixed(base, text, grid_alpha)
    for name in ("left", "bottom", "right", "top"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen(text))
        axis.setTextPen(pg.mkPen(text))
        axis.enableAutoSIPrefix(False)
        axis.setStyle(maxTickLevel=1)  # grid lines at major and first-level ticks only
        # Painted once into a pixmap and blitted after: a live curve repaints the view many
        # times a second, and replaying an axis's text was the GUI thread's largest cost
        # during a run (py-spy, benchmarks/bench_gui_responsiveness.py).
        axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        on = grid[0] if name in ("bottom", "top") else grid[1]
        if on:
            axis.setTickPen(pg.mkPen(line))
            axis.setStyle(tickAlpha=255)
            axis.setGrid(255)
        else:
            axis.setTickPen()
            axis.setStyle(tickAlpha=None)
            axis.setGrid(False)
    plot.titleLabel.setAttr("color", text.name())


def style_legend(legend: pg.LegendItem | None, palette: QPalette) -> None:
    if legend is None:
        return
    base = QColor(palette.color(QPalette.ColorRole.Base))
    base.setAlpha(220)
    legend.setBrush(pg.mkBrush(base))
    legend.setPen(pg.mkPen(palette.color(QPalette.ColorRole.Mid)))
    legend.setLabelTextColor(palette.color(QPalette.ColorRole.WindowText))
    for _sample, label in legend.items:
        label.setText(label.text)  # setLabelTextColor only applies on the next setText
