"""Every window's opening size: as large as asked where there is room, never larger than the
screen it opens on, title bar and frame included (a 1366x768 laptop: a window as tall as the
screen put its status bar below the bottom edge)."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

# What a window manager adds around a window (title bar and borders), unknown before it is
# shown: a typical title bar of 30 px and borders of 4, with a little to spare.
FRAME_W = 10
FRAME_H = 40


class ScreenFit(NamedTuple):
    width: int  # at most, where there is room
    height: int
    share_w: float = 1.0  # of the screen's free area, at most
    share_h: float = 1.0
    fallback_w: int = 1200  # without a screen to ask
    fallback_h: int = 680


def fit_to_screen(window: QWidget, fit: ScreenFit) -> None:
    """Resize ``window`` (and place it at the free area's top left) so that it and its frame
    fit the screen it is on."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    room = screen.availableGeometry() if screen is not None else None
    if room is None or room.width() <= 0 or room.height() <= 0:
        window.resize(fit.fallback_w, fit.fallback_h)
        return
    width = min(fit.width, round(room.width() * fit.share_w), room.width() - FRAME_W)
    height = min(fit.height, round(room.height() * fit.share_h), room.height() - FRAME_H)
    window.resize(width, height)
    window.move(room.left(), room.top())


def keep_on_screen(window: QWidget) -> None:
    """After a size was restored (saved on a larger screen, or without room for the frame):
    shrink and move ``window`` so that it and its frame fit the screen it is on."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    room = screen.availableGeometry() if screen is not None else None
    if room is None or room.width() <= 0 or room.height() <= 0:
        return
    width = min(window.width(), room.width() - FRAME_W)
    height = min(window.height(), room.height() - FRAME_H)
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    x = max(room.left(), min(window.x(), room.right() - width - FRAME_W))
    y = max(room.top(), min(window.y(), room.bottom() - height - FRAME_H))
    if (x, y) != (window.x(), window.y()):
        window.move(x, y)
