"""Every window opens inside the screen, its frame included (the status bar of a window as tall
as a 1366x768 screen was below its bottom edge)."""

from __future__ import annotations

import pytest
from conftest import Dialogs
from gui_factories import shown_window
from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from app.gui.screen_fit import FRAME_H, FRAME_W, ScreenFit, fit_to_screen, keep_on_screen
from app.gui.settings import AppSettings
from app.gui.sweep.sweep_window import SweepWindow
from app.gui.transfer.transfer_window import TransferWindow


def _room(w: QMainWindow) -> tuple[int, int]:
    room = w.screen().availableGeometry()
    return room.width(), room.height()


def test_a_window_asked_larger_than_the_screen_leaves_room_for_its_frame(qtbot: QtBot) -> None:
    w = QMainWindow()
    qtbot.addWidget(w)
    fit_to_screen(w, ScreenFit(10_000, 10_000))
    width, height = _room(w)
    assert (w.width(), w.height()) == (width - FRAME_W, height - FRAME_H)
    fit_to_screen(w, ScreenFit(300, 200))  # smaller than the screen: as asked
    assert (w.width(), w.height()) == (300, 200)


def test_a_restored_size_too_large_is_brought_back_on_screen(qtbot: QtBot) -> None:
    w = QMainWindow()
    qtbot.addWidget(w)
    width, height = _room(w)
    w.setGeometry(500, 400, width + 500, height + 300)  # saved on a larger screen
    keep_on_screen(w)
    assert w.width() <= width - FRAME_W and w.height() <= height - FRAME_H
    assert w.x() + w.width() + FRAME_W <= width and w.y() + w.height() + FRAME_H <= height


@pytest.mark.parametrize("window_type", [SweepWindow, TransferWindow])
def test_the_window_fits_a_1366_by_768_screen(
    qtbot: QtBot, settings: AppSettings, dialogs: Dialogs, window_type: type[QMainWindow]
) -> None:
    window = shown_window(qtbot, window_type(settings=settings))  # type: ignore[call-arg]
    hint = window.minimumSizeHint()
    assert hint.width() <= 1366 and hint.height() <= 768 - 60  # a panel, a title bar
