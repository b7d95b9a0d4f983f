"""File > Quit ends the program: the other windows (History, Study, Transfer, Sweep) close with
the main window, each as the user would close it, so that none keeps the program running."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

if TYPE_CHECKING:
    from app.gui.main.window import MainWindow


def _open_tool_windows(qtbot: QtBot, w: MainWindow) -> list[QWidget]:
    w.show()
    for action in (w.history_action, w.study_action, w.transfer_action, w.sweep_action):
        action.trigger()
    windows = [w.history_window, w.study_window, w.transfer_window, w.sweep_window]  # type: ignore[attr-defined]
    for window in windows:
        qtbot.addWidget(window)
        assert window.isVisible()
    return windows


def _visible_windows() -> list[QWidget]:
    return [x for x in QApplication.topLevelWidgets() if x.isWindow() and x.isVisible()]


def test_quit_closes_every_other_window(qtbot: QtBot, main_window: MainWindow) -> None:
    windows = _open_tool_windows(qtbot, main_window)
    main_window.quit_action.trigger()
    qtbot.waitUntil(lambda: not _visible_windows(), timeout=5000)
    assert not main_window.isVisible() and not any(x.isVisible() for x in windows)


def test_a_window_whose_question_is_answered_no_stays_open(
    qtbot: QtBot, main_window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.gui.study.study_window import StudyWindow

    asked: list[bool] = []

    def may_close(self: StudyWindow, event: object) -> bool:
        asked.append(self.closed_by_user(event))  # type: ignore[arg-type]
        return False  # "Close the study?" answered No

    monkeypatch.setattr(StudyWindow, "_may_close", may_close)
    study = _open_tool_windows(qtbot, main_window)[1]
    main_window.quit_action.trigger()
    assert asked == [True]  # asked as the user's own close
    qtbot.waitUntil(lambda: _visible_windows() == [study], timeout=5000)
    monkeypatch.undo()
    study.close()


def test_a_window_closes_what_it_owns_itself(
    qtbot: QtBot, main_window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """History's own views (parented to it) are History's to close: when it stays open (its
    "Stop the study?" answered No), they stay with it."""
    from PySide6.QtWidgets import QMainWindow

    from app.gui.history import history_window

    monkeypatch.setattr(history_window.HistoryWindow, "rerunning", True)
    monkeypatch.setattr(history_window, "ask_yes_no", lambda *_a: False)
    history = _open_tool_windows(qtbot, main_window)[0]
    view = QMainWindow(history)  # a stored run's window, say
    view.show()
    main_window.quit_action.trigger()
    qtbot.waitUntil(lambda: set(_visible_windows()) == {history, view}, timeout=5000)
    monkeypatch.undo()
    view.close()
    history.close()
