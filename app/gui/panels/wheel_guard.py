"""The mouse wheel scrolls the panel, not the setting under the pointer.

Scrolling the left panel with the wheel used to change whichever spin box or combo box passed
under the pointer (repetitions, data mode, the preset). Now a spin box or combo box takes the
wheel only once it has the focus (clicked or tabbed into); otherwise the wheel event goes on to
the scroll area, as in browsers and most desktop applications.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QWidget


class WheelGuard(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.Wheel
            and isinstance(watched, QAbstractSpinBox | QComboBox)
            and not watched.hasFocus()
        ):
            # Ignored and filtered: Qt hands an ignored wheel event on to the parent widgets.
            event.ignore()
            return True
        return False


def guard_wheel(root: QWidget) -> WheelGuard:
    """Install the guard on every spin box and combo box under ``root`` (kept alive by it)."""
    guard = WheelGuard(root)
    for widget in [*root.findChildren(QAbstractSpinBox), *root.findChildren(QComboBox)]:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the wheel alone gives no focus
        widget.installEventFilter(guard)
    return guard
