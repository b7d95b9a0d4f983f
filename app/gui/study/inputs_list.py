"""The study's input files: a list with Add files… (multi-select), Remove and Clear.

Dropping files on the Study window adds them here too (the window forwards its drops). Files,
when given, replace the generated sizes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.text import display_text


class InputsList(QWidget):
    """Paths of the files to measure, each once, in the order added."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.last_folder = os.path.expanduser("~")
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setMinimumHeight(60)
        self.list.setToolTip("Files to measure; they replace the generated sizes")
        self.add_button = QPushButton("Add files…")
        self.remove_button = QPushButton("Remove")
        self.clear_button = QPushButton("Clear")
        self.add_button.clicked.connect(self._on_add_button_clicked)
        self.remove_button.clicked.connect(self.remove_selected)
        self.clear_button.clicked.connect(self.clear)
        self.list.itemSelectionChanged.connect(self._update_buttons)
        buttons = QHBoxLayout()
        for b in (self.add_button, self.remove_button, self.clear_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        self._update_buttons()

    def paths(self) -> list[str]:
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())]

    def add_files(self, paths: Iterable[str]) -> int:
        """Add the files among ``paths`` not listed yet (folders are skipped); returns how many."""
        have = set(self.paths())
        added = 0
        for path in paths:
            path = os.path.abspath(path)
            if path in have or os.path.isdir(path):
                continue
            item = QListWidgetItem(display_text(os.path.basename(path)))
            item.setData(Qt.ItemDataRole.UserRole, path)
            item.setToolTip(display_text(path))
            self.list.addItem(item)
            have.add(path)
            added += 1
            self.last_folder = os.path.dirname(path)
        if added:
            self._changed()
        return added

    @Slot()
    def remove_selected(self) -> None:
        rows = sorted((self.list.row(i) for i in self.list.selectedItems()), reverse=True)
        for row in rows:
            self.list.takeItem(row)
        if rows:
            self._changed()

    @Slot()
    def clear(self) -> None:
        if self.list.count():
            self.list.clear()
            self._changed()

    @Slot()
    def _on_add_button_clicked(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Add files to the study", self.last_folder)
        self.add_files(paths)

    def _changed(self) -> None:
        self._update_buttons()
        self.changed.emit()

    @Slot()
    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(bool(self.list.selectedItems()))
        self.clear_button.setEnabled(self.list.count() > 0)
