"""The cipher choice: presets, libraries, and algorithms with their key sizes and modes.

Built from :data:`app.gui.selection.CATALOG` (itself derived from the registry). The panel
shows the number of jobs the choice makes and the security notes of the chosen ciphers, each
note once.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.ciphers.libraries import ROWS as LIBRARY_ROWS
from app.core.ciphers.registry import LIBRARIES, CipherSpec
from app.gui.label import Label
from app.gui.selection import (
    CATALOG,
    PRESETS,
    Selection,
    default_selection,
    selected_specs,
    weakness_notes,
)

LIBRARY_TEXT = {row.name: f"{row.name} (pure Python)" for row in LIBRARY_ROWS if not row.compiled}
_ROLE = Qt.ItemDataRole.UserRole
CUSTOM_TEXT = "Custom selection"


def _spec_keys(specs: list[CipherSpec]) -> set[tuple[str, str, int]]:
    return {(s.id, s.library, s.key_bits) for s in specs}


class SelectionPanel(QGroupBox):
    """Which ciphers to run. ``selection_changed`` fires after every user change."""

    selection_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("2. Ciphers", parent)
        self._updating = False

        self.preset_combo = QComboBox()
        self.preset_combo.addItem(CUSTOM_TEXT)
        for preset in PRESETS:
            self.preset_combo.addItem(preset.name)
            self.preset_combo.setItemData(
                self.preset_combo.count() - 1, preset.source, Qt.ItemDataRole.ToolTipRole
            )
        self.preset_combo.setToolTip("One-click choices that reproduce published comparisons")
        self.preset_combo.activated.connect(self._on_preset_combo_activated)

        self.library_checks: dict[str, QCheckBox] = {}
        libs_row = QHBoxLayout()
        for lib in LIBRARIES:
            check = QCheckBox(LIBRARY_TEXT.get(lib, lib))
            check.toggled.connect(self._on_library_check_toggled)
            self.library_checks[lib] = check
            libs_row.addWidget(check)
        libs_row.addStretch(1)

        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setColumnCount(1)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setUniformRowHeights(True)
        self._build_tree()
        self.tree.itemChanged.connect(self._on_tree_item_changed)

        self.summary_label = Label()
        self.notes_label = Label()
        self.notes_label.setWordWrap(True)
        self.notes_label.setTextFormat(Qt.TextFormat.PlainText)

        preset_row = QHBoxLayout()
        preset_row.addWidget(Label("Preset:"))
        preset_row.addWidget(self.preset_combo, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(preset_row)
        layout.addWidget(Label("Libraries:"))
        layout.addLayout(libs_row)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.notes_label)
        self.set_selection(default_selection())

    # --- building ---------------------------------------------------------------------------

    def _build_tree(self) -> None:
        self._items: dict[tuple[str, ...], QTreeWidgetItem] = {}
        for name, info in CATALOG.items():
            text = name
            if len(info.key_bits) == 1:
                text += f"  ({info.key_bits[0]}-bit key)"
            if len(info.modes) == 1 and info.modes[0] not in ("Stream", "AEAD"):
                text += f", {info.modes[0]}"
            top = QTreeWidgetItem(self.tree, [text])
            top.setToolTip(0, f"{name}: offered by {', '.join(info.libraries)}")
            top.setData(0, _ROLE, ("alg", name))
            top.setFlags(top.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            self._items[("alg", name)] = top
            if len(info.key_bits) > 1:
                group = QTreeWidgetItem(top, ["Key size"])
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
                for bits in info.key_bits:
                    item = QTreeWidgetItem(group, [f"{bits}-bit"])
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    item.setData(0, _ROLE, ("bits", name, bits))
                    self._items[("bits", name, str(bits))] = item
            if len(info.modes) > 1:
                group = QTreeWidgetItem(top, ["Mode"])
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
                for mode in info.modes:
                    item = QTreeWidgetItem(group, [mode])
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    item.setData(0, _ROLE, ("mode", name, mode))
                    self._items[("mode", name, mode)] = item

    # --- state ------------------------------------------------------------------------------

    def selection(self) -> Selection:
        """The choice as shown."""
        sel = Selection(libraries={lib for lib, c in self.library_checks.items() if c.isChecked()})
        for name, info in CATALOG.items():
            choice = sel.choice(name)
            choice.enabled = self._checked(("alg", name))
            choice.key_bits = {
                b
                for b in info.key_bits
                if len(info.key_bits) == 1 or self._checked(("bits", name, str(b)))
            }
            choice.modes = {
                m for m in info.modes if len(info.modes) == 1 or self._checked(("mode", name, m))
            }
        return sel

    def specs(self) -> list[CipherSpec]:
        """The registry entries the current choice stands for (one job each)."""
        return selected_specs(self.selection())

    def set_selection(self, selection: Selection) -> None:
        self._updating = True
        try:
            for lib, check in self.library_checks.items():
                check.setChecked(lib in selection.libraries)
            for name, info in CATALOG.items():
                choice = selection.choice(name)
                self._set_checked(("alg", name), choice.enabled)
                for bits in info.key_bits:
                    if ("bits", name, str(bits)) in self._items:
                        self._set_checked(("bits", name, str(bits)), bits in choice.key_bits)
                for mode in info.modes:
                    if ("mode", name, mode) in self._items:
                        self._set_checked(("mode", name, mode), mode in choice.modes)
                self._expand(self._items[("alg", name)], choice.enabled)
        finally:
            self._updating = False
        self._refresh()

    def apply_preset(self, index: int) -> None:
        """Apply ``PRESETS[index]``."""
        self.set_selection(Selection.from_dict(PRESETS[index].selection.to_dict()))
        self.selection_changed.emit()

    def reset(self) -> None:
        self.set_selection(default_selection())

    # --- helpers ----------------------------------------------------------------------------

    @staticmethod
    def _expand(item: QTreeWidgetItem, on: bool) -> None:
        """Open (or close) an algorithm with its key-size and mode groups."""
        item.setExpanded(on)
        for i in range(item.childCount()):
            child = item.child(i)
            if child is not None:
                child.setExpanded(True)

    def _checked(self, key: tuple[str, ...]) -> bool:
        return self._items[key].checkState(0) == Qt.CheckState.Checked

    def _set_checked(self, key: tuple[str, ...], on: bool) -> None:
        self._items[key].setCheckState(0, Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def _refresh(self) -> None:
        selection = self.selection()
        specs = selected_specs(selection)
        n = len(specs)
        self.summary_label.setText(
            f"{n} job{'s' if n != 1 else ''} selected" if n else "No cipher selected"
        )
        self.summary_label.setToolTip("\n".join(f"{s.label}, {s.key_bits}-bit" for s in specs))
        notes = weakness_notes(specs)
        self.notes_label.setText("\n".join(f"Note: {note}" for note in notes))
        self.notes_label.setVisible(bool(notes))
        current = _spec_keys(specs)
        index = next(
            (
                i + 1
                for i, p in enumerate(PRESETS)
                if _spec_keys(selected_specs(p.selection)) == current
            ),
            0,
        )
        self.preset_combo.setCurrentIndex(index)

    def _on_preset_combo_activated(self, index: int) -> None:
        if index > 0:
            self.apply_preset(index - 1)

    def _on_library_check_toggled(self, _on: bool) -> None:
        if not self._updating:
            self._refresh()
            self.selection_changed.emit()

    def _on_tree_item_changed(self, item: QTreeWidgetItem, _column: int) -> None:
        if self._updating:
            return
        key = item.data(0, _ROLE)
        if key and key[0] == "alg":
            self._expand(item, item.checkState(0) == Qt.CheckState.Checked)
        elif key:
            # Checking a key size or mode of an unchecked algorithm means "I want this one".
            top = self._items[("alg", key[1])]
            if item.checkState(0) == Qt.CheckState.Checked:
                self._updating = True
                top.setCheckState(0, Qt.CheckState.Checked)
                self._updating = False
        self._refresh()
        self.selection_changed.emit()
