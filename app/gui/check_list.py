"""A list of values the user ticks: one item a value, its text what the list shows."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

_STATE = {True: Qt.CheckState.Checked, False: Qt.CheckState.Unchecked}


class CheckList(QListWidget):
    """``values`` as ``(value, text)``, those in ``checked`` ticked; at least six rows high."""

    def __init__(
        self,
        values: Iterable[tuple[str, str]],
        checked: Iterable[str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        on = set(checked)
        for value, text in values:
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, value)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(_STATE[value in on])
            self.addItem(item)
        self.setMinimumHeight(6 * self.sizeHintForRow(0) + 6)

    def _items(self) -> list[QListWidgetItem]:
        return [self.item(i) for i in range(self.count())]

    def checked(self) -> list[str]:
        """The ticked values, in the list's order."""
        return [
            str(item.data(Qt.ItemDataRole.UserRole))
            for item in self._items()
            if item.checkState() == Qt.CheckState.Checked
        ]

    def set_checked(self, values: Iterable[str]) -> None:
        """Tick exactly ``values``."""
        on = set(values)
        for item in self._items():
            item.setCheckState(_STATE[item.data(Qt.ItemDataRole.UserRole) in on])
