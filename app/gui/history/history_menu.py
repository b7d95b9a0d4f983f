"""The History window's menu: *Keep a history of runs* (checkable), *Run a study file here…*,
*Refresh* and *Close*. :func:`add_menu` makes it on the window's menu bar, each action owned by
the window and connected to the handler given, and returns the two actions the window keeps."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow

from app.core.history.location import storing_disabled


class HistoryMenu(NamedTuple):
    keep_action: QAction  # checked while runs are stored
    run_file_action: QAction  # enabled as the Run a study file here button is


def add_menu(
    window: QMainWindow,
    *,
    keep: bool,
    run_file_tip: str,
    on_keep_toggled: Callable[[bool], object],
    on_run_file: Callable[[], object],
    on_refresh: Callable[[], object],
    on_close: Callable[[], object],
) -> HistoryMenu:
    """Add the History menu to ``window`` (``keep``: whether runs are stored now)."""
    menu = window.menuBar().addMenu("&History")
    keep_action = QAction("&Keep a history of runs", window)
    keep_action.setCheckable(True)
    keep_action.setChecked(keep)
    tip = "Store every benchmark, study and transfer this window runs"
    if storing_disabled():
        tip += " (CIPHERBENCH_NO_HISTORY is set: nothing is stored while it is)"
    keep_action.setStatusTip(tip)
    keep_action.toggled.connect(on_keep_toggled)
    run_file_action = QAction("Run a study &file here…", window)
    run_file_action.setStatusTip(run_file_tip)
    run_file_action.triggered.connect(on_run_file)
    refresh = QAction("&Refresh", window)
    refresh.setShortcut(QKeySequence(QKeySequence.StandardKey.Refresh))
    refresh.triggered.connect(on_refresh)
    close = QAction("&Close", window)
    close.setShortcut(QKeySequence(QKeySequence.StandardKey.Close))
    close.triggered.connect(on_close)
    menu.addAction(keep_action)
    menu.addSeparator()
    menu.addAction(run_file_action)
    menu.addSeparator()
    menu.addAction(refresh)
    menu.addAction(close)
    return HistoryMenu(keep_action, run_file_action)
