"""Making a window's actions and its menus: the main window's and the tool windows' share one
way, so a shortcut works anywhere in the window and a menu is its groups of actions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QBoxLayout, QDialogButtonBox, QMainWindow, QMenu, QWidget


def add_action(
    window: QMainWindow, text: str, slot: Callable[[], Any], shortcut: Any = None, tip: str = ""
) -> QAction:
    """An action of ``window`` calling ``slot``; added to the window, so its shortcut works
    anywhere in it, also with the menu closed; ``tip`` shows in the status bar."""
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setStatusTip(tip)
    action.triggered.connect(slot)
    window.addAction(action)
    return action


def add_menu(window: QMainWindow, title: str, *groups: Sequence[QAction]) -> QMenu:
    """A menu of ``window``'s menu bar holding ``groups`` of actions, a separator between two."""
    menu = window.menuBar().addMenu(title)
    for index, group in enumerate(groups):
        if index:
            menu.addSeparator()
        menu.addActions(list(group))
    return menu


def add_close_controls(window: QWidget, layout: QBoxLayout) -> QDialogButtonBox:
    """A Close button at the bottom of ``layout``, and Escape and the platform's Close
    shortcut (Ctrl+W, Cmd+W) closing ``window``, as in a dialog."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(window.close)
    layout.addWidget(buttons)
    close = QAction("Close", window)
    close.setShortcuts(
        [*QKeySequence.keyBindings(QKeySequence.StandardKey.Close), QKeySequence(Qt.Key.Key_Escape)]
    )
    close.triggered.connect(window.close)
    window.addAction(close)
    return buttons
