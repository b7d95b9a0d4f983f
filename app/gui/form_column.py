"""The left column of the main window and of every tool window: its form in a scroll area as
wide as the form needs (never a horizontal scroll bar, nothing cut off), the mouse wheel
scrolling the column rather than the setting under the pointer, over a footer (Run, Cancel,
the status) that stays in view: a 1366 x 768 screen scrolls the form, never the buttons out
of reach."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

from app.gui.panels.wheel_guard import guard_wheel


def form_column(
    form: QWidget, footer: QWidget | None = None, *, framed: bool = True
) -> tuple[QWidget, QScrollArea]:
    """The column (to put in the window's splitter) and its scroll area around ``form``."""
    scroll = QScrollArea()
    scroll.setWidget(form)
    scroll.setWidgetResizable(True)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    if not framed:
        scroll.setFrameShape(QFrame.Shape.NoFrame)
    bar = scroll.verticalScrollBar().sizeHint().width()
    scroll.setMinimumWidth(form.minimumSizeHint().width() + bar + (4 if framed else 2))
    guard_wheel(form)  # kept alive by the form
    if footer is None:
        return scroll, scroll
    column = QWidget()
    layout = QVBoxLayout(column)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    layout.addWidget(scroll, 1)
    layout.addWidget(footer)
    return column, scroll
