"""The input box: choose files, pick a recent one, or generate random data; lists the inputs.

A run measures every chosen cipher on every input in the list (files and generated data, as
seed 002 compares a .txt, a .pdf and a .zip). The panel only asks: its signals go to the
window, which opens dialogs and calls the controller; the controller answers with
:meth:`InputPanel.set_inputs`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.text import visible_text
from app.gui.label import Label, plain_tip

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
    short_size: str = ""  # "263.2 KB", in the list


LIST_ROWS = 4  # inputs shown without scrolling; the left side scrolls on a 1366 x 768 screen


class InputPanel(QGroupBox):
    """Input choice. Signals: ``choose_requested()``, ``recent_chosen(path)``,
    ``generate_requested(size_text)``, ``clear_recent_requested()``,
    ``remove_requested(rows)`` and ``clear_requested()``."""

    choose_requested = Signal()
    recent_chosen = Signal(str)
    generate_requested = Signal(str)
    clear_recent_requested = Signal()
    remove_requested = Signal(list)  # rows of the list, in order
    clear_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("1. Input", parent)
        self._build_source_widgets()
        self._build_list_widgets()
        self._build_info_labels()
        self._build_layout()
        self.set_recent_files([])
        self.set_inputs([])

    def _build_source_widgets(self) -> None:
        """Where inputs come from: Choose files…, the Recent menu, Generate random data."""
        self.choose_button = QPushButton("Choose files…")
        self.choose_button.setToolTip(
            "Add files to measure (Ctrl+O; several at once with Ctrl or Shift), or drop them "
            "on the window. A run measures every cipher on every input."
        )
        self.choose_button.clicked.connect(self.choose_requested)

        # A push button with a menu keeps room for its arrow (a tool button drew it over the
        # text's end at 1366x768).
        self.recent_button = QPushButton("Recent")
        self.recent_menu = QMenu(self.recent_button)
        self.recent_button.setMenu(self.recent_menu)

        self.size_combo = QComboBox()
        self.size_combo.setEditable(True)
        self.size_combo.addItems(GENERATED_SIZES)
        self.size_combo.setCurrentText(DEFAULT_GENERATED_SIZE)
        self.size_combo.setToolTip("Size of random test data, e.g. 10 MB (10^6 bytes) or 1 GiB")
        self.generate_button = QPushButton("Generate random data")
        self.generate_button.setToolTip("Add random data of this size to the inputs")
        self.generate_button.clicked.connect(self._on_generate_button_clicked)

    def _build_list_widgets(self) -> None:
        """The list of inputs, with Remove, Clear and the count."""
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setToolTip("The inputs of the next run: every cipher runs on each of them")
        rows = self.list.fontMetrics().height() * LIST_ROWS + 8
        self.list.setMinimumHeight(self.list.fontMetrics().height() * 2 + 8)
        self.list.setMaximumHeight(rows)
        self.list.currentRowChanged.connect(self._on_list_current_row_changed)
        self.list.itemSelectionChanged.connect(self._update_buttons)
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("Take the selected inputs out of the list (Delete)")
        self.remove_button.clicked.connect(self._on_remove_button_clicked)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setToolTip("Empty the list of inputs (results stay until Reset)")
        self.clear_button.clicked.connect(self.clear_requested)
        self.count_label = Label("")
        self._infos: list[InputInfo] = []

    def _build_info_labels(self) -> None:
        """Name, size and type of the input chosen in the list."""
        self.name_label = Label("no input yet")
        self.name_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.name_label.setWordWrap(True)
        self.size_label = Label("—")
        self.type_label = Label("—")
        self.type_label.setWordWrap(True)

    def _build_layout(self) -> None:
        """Top to bottom: choose, the drop hint, generate, the list and its buttons, the details."""
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
        hint = Label("…or drop files anywhere on the window.")
        hint.setEnabled(False)
        row3 = QHBoxLayout()
        row3.addWidget(self.count_label, 1)
        row3.addWidget(self.remove_button)
        row3.addWidget(self.clear_button)

        layout = QVBoxLayout(self)
        layout.addLayout(row1)
        layout.addWidget(hint)
        layout.addLayout(row2)
        layout.addWidget(self.list)
        layout.addLayout(row3)
        layout.addLayout(form)

    @property
    def inputs(self) -> list[InputInfo]:
        return list(self._infos)

    def set_inputs(self, infos: list[InputInfo]) -> None:
        """Show ``infos`` (the controller's inputs, in order); the details below the list are
        the last one's (the one just added) until another is selected."""
        self._infos = list(infos)
        self.list.blockSignals(True)
        self.list.clear()
        for info in infos:
            item = QListWidgetItem(f"{info.name} — {info.short_size}")
            item.setToolTip(f"{info.path}\n{info.type_text}\n{info.size_text}")
            self.list.addItem(item)
        self.list.blockSignals(False)
        n = len(infos)
        self.count_label.setText(f"{n} input{'s' if n != 1 else ''}" if n else "")
        if infos:
            self.list.setCurrentRow(n - 1)
        self._show_details(infos[-1] if infos else None)
        self._update_buttons()

    def selected_rows(self) -> list[int]:
        return sorted(self.list.row(item) for item in self.list.selectedItems())

    def _show_details(self, info: InputInfo | None) -> None:
        if info is None:
            self.name_label.setText("no input yet")
            self.name_label.setToolTip("")
            self.size_label.setText("—")
            self.type_label.setText("—")
            return
        self.name_label.setText(visible_text(info.name))
        self.name_label.setToolTip(plain_tip(info.path))
        self.size_label.setText(info.size_text)
        self.type_label.setText(info.type_text)

    def _on_list_current_row_changed(self, row: int) -> None:
        if 0 <= row < len(self._infos):
            self._show_details(self._infos[row])

    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(bool(self.list.selectedItems()))
        self.clear_button.setEnabled(bool(self._infos))

    def _on_remove_button_clicked(self) -> None:
        rows = self.selected_rows()
        if rows:
            self.remove_requested.emit(rows)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Delete and self.list.hasFocus():
            self._on_remove_button_clicked()
            return
        super().keyPressEvent(event)

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
