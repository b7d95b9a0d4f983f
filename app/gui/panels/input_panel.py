"""The input box: choose a file, pick a recent one, or generate random data; shows the input.

The panel only asks: its signals go to the window, which opens dialogs and calls the
controller; the controller answers with :meth:`InputPanel.set_input`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

GENERATED_SIZES = ("1 MB", "10 MB", "50 MB", "100 MB", "1 GiB")
DEFAULT_GENERATED_SIZE = "10 MB"


@dataclass(frozen=True)
class InputInfo:
    """What the panel shows about the chosen input (prepared by the controller)."""

    name: str
    path: str
    size_text: str
    type_text: str
    generated: bool = False


class InputPanel(QGroupBox):
    """Input choice. Signals: ``choose_requested()``, ``recent_chosen(path)``,
    ``generate_requested(size_text)``, ``clear_recent_requested()``."""

    choose_requested = Signal()
    recent_chosen = Signal(str)
    generate_requested = Signal(str)
    clear_recent_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("1. Input", parent)
        self.choose_button = QPushButton("Choose file…")
        self.choose_button.setToolTip(
            "Pick the file to encrypt (Ctrl+O), or drop one on the window"
        )
        self.choose_button.clicked.connect(self.choose_requested)

        self.recent_button = QToolButton()
        self.recent_button.setText("Recent")
        self.recent_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.recent_menu = QMenu(self.recent_button)
        self.recent_button.setMenu(self.recent_menu)

        self.size_combo = QComboBox()
        self.size_combo.setEditable(True)
        self.size_combo.addItems(GENERATED_SIZES)
        self.size_combo.setCurrentText(DEFAULT_GENERATED_SIZE)
        self.size_combo.setToolTip("Size of random test data, e.g. 10 MB (10^6 bytes) or 1 GiB")
        self.generate_button = QPushButton("Generate random data")
        self.generate_button.clicked.connect(self._on_generate_button_clicked)

        self.name_label = QLabel("no input yet")
        self.name_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.name_label.setWordWrap(True)
        self.size_label = QLabel("—")
        self.type_label = QLabel("—")
        self.type_label.setWordWrap(True)

        row1 = QHBoxLayout()
        row1.addWidget(self.choose_button, 1)
        row1.addWidget(self.recent_button)
        row2 = QHBoxLayout()
        row2.addWidget(self.size_combo)
        row2.addWidget(self.generate_button, 1)
        form = QFormLayout()
        form.addRow("Name:", self.name_label)
        form.addRow("Size:", self.size_label)
        form.addRow("Type:", self.type_label)
        hint = QLabel("…or drop a file anywhere on the window.")
        hint.setEnabled(False)

        layout = QVBoxLayout(self)
        layout.addLayout(row1)
        layout.addWidget(hint)
        layout.addLayout(row2)
        layout.addLayout(form)
        self.set_recent_files([])

    def set_input(self, info: InputInfo | None) -> None:
        if info is None:
            self.name_label.setText("no input yet")
            self.name_label.setToolTip("")
            self.size_label.setText("—")
            self.type_label.setText("—")
            return
        self.name_label.setText(info.name)
        self.name_label.setToolTip(info.path)
        self.size_label.setText(info.size_text)
        self.type_label.setText(info.type_text)

    def set_recent_files(self, paths: list[str]) -> None:
        self.recent_menu.clear()
        for path in paths:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _=False, p=path: self.recent_chosen.emit(p))
        if paths:
            self.recent_menu.addSeparator()
            clear = self.recent_menu.addAction("Clear list")
            clear.triggered.connect(lambda _=False: self.clear_recent_requested.emit())
        self.recent_button.setEnabled(bool(paths))

    def generated_size_text(self) -> str:
        return self.size_combo.currentText()

    def set_generated_size_text(self, text: str) -> None:
        self.size_combo.setCurrentText(text or DEFAULT_GENERATED_SIZE)

    def _on_generate_button_clicked(self) -> None:
        self.generate_requested.emit(self.size_combo.currentText())
