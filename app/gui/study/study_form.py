"""The study's form: which study (a preset or a .toml file), what it compares, and the
settings the user may change (sizes, repetitions, rounds, units); the input files below it."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.bench.rounds import repeat_per_round
from app.core.errors import UserError
from app.core.study.definition import UNITS, Study, parse_sizes, study_with
from app.core.study.definition_checks import MAX_ROUNDS
from app.core.text import display_text
from app.core.units import format_bytes
from app.gui.label import Label
from app.gui.study.inputs_list import InputsList

MAX_REPEAT = 1000
REPEAT_LABEL = "Total repetitions"  # over all rounds, not per round: the study splits them


def describe_ciphers(study: Study) -> str:
    parts = []
    for c in study.ciphers:
        parts.append(f"{c.cipher_id} [{c.library}]" if c.library else c.cipher_id)
    bits = f"; {study.key_bits}-bit keys" if study.key_bits else ""
    return ", ".join(parts) + bits


def describe_mode(study: Study) -> str:
    if study.data_mode == "stream":
        return f"streamed in {format_bytes(study.chunk_bytes)} chunks"
    return "whole input in memory"


class StudyForm(QWidget):
    """Emits ``study_changed`` when another study is chosen (the window may want to ask)."""

    study_changed = Signal()
    units_changed = Signal(str)
    error = Signal(str, str)  # title, sentence: a study file that cannot be used

    def __init__(self, presets: list[Study], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._studies: list[Study] = list(presets)
        self._build_chooser()
        self._build_settings()
        self.inputs = InputsList()
        self.inputs.changed.connect(self._on_inputs_changed)
        self.slots_label = _wrapping_label()
        self._build_layout()

        for study in self._studies:
            self._add_to_combo(study)
        self.preset_combo.currentIndexChanged.connect(self._on_preset_combo_changed)
        self.repeat_spin.valueChanged.connect(self._on_repeat_spin_value_changed)
        self.rounds_spin.valueChanged.connect(self._on_rounds_spin_value_changed)
        if self._studies:
            self.load(self._studies[0])

    def _build_chooser(self) -> None:
        """Which study: the presets' combo, Open .toml…, and what the chosen one is."""
        self.preset_combo = QComboBox()
        self.preset_combo.setMinimumContentsLength(18)
        self.preset_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.open_button = QPushButton("Open .toml…")
        self.open_button.setToolTip("Run a study saved as a TOML file")
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.title_label = _wrapping_label()
        self.ciphers_label = _wrapping_label()
        self.mode_label = _wrapping_label()

    def _build_settings(self) -> None:
        """The settings the user may change: sizes, repetitions, rounds, precision, units."""
        self.sizes_edit = QLineEdit()
        self.sizes_edit.setPlaceholderText("e.g. 1MB, 10MB, 1MiB")
        self.sizes_edit.setToolTip("Generated inputs, comma-separated; MB = 10^6, MiB = 2^20 bytes")
        self.repeat_spin = _spin(
            1,
            MAX_REPEAT,
            "Timed repetitions per job in all, over all rounds: the study shares them out "
            "(12 in 6 rounds: 2 in each round's fresh worker); a round added for a claim not "
            "yet precise makes as many as each of the first",
        )
        self.per_round_label = Label()
        self.per_round_label.setToolTip("The timed repetitions each round's worker makes")
        self.rounds_spin = _spin(
            1,
            MAX_ROUNDS,
            "Rounds over the whole grid, each job in a fresh worker, in a random order per "
            "round: the evidence of every claim (1: one job after another)",
        )
        self.max_rounds_spin = _spin(
            1, MAX_ROUNDS, "More rounds, up to this many, for the claims not yet precise"
        )
        self.budget_spin = _spin(0, 24 * 3600, "Add rounds only while the study has run less")
        self.budget_spin.setSuffix(" s")
        self.precision_spin = _percent_spin(
            0.1, "A claim is precise when its 95 % interval is within ± this"
        )
        self.margin_spin = _percent_spin(
            0.0, "Differences below this read as equal within this margin"
        )
        self.units_combo = QComboBox()
        self.units_combo.addItems(list(UNITS))
        self.units_combo.currentTextChanged.connect(self.units_changed)

    def _build_layout(self) -> None:
        """The form's rows, then the input files below it."""
        chooser = QHBoxLayout()
        chooser.addWidget(self.preset_combo, 1)
        chooser.addWidget(self.open_button)
        form = QFormLayout()
        form.addRow("Study", chooser)
        form.addRow("", self.title_label)
        form.addRow("Compares", self.ciphers_label)
        form.addRow("Data", self.mode_label)
        form.addRow("Sizes", self.sizes_edit)
        form.addRow(REPEAT_LABEL, _row(self.repeat_spin, "", self.per_round_label))
        form.addRow("Rounds", _row(self.rounds_spin, "up to", self.max_rounds_spin))
        form.addRow("Budget", self.budget_spin)
        form.addRow("Precision ±", _row(self.precision_spin, "margin", self.margin_spin))
        form.addRow("Units", self.units_combo)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        layout.addWidget(Label("Files (instead of the sizes):"))
        layout.addWidget(self.slots_label)
        layout.addWidget(self.inputs, 1)

    # --- the chosen study ----------------------------------------------------------------------

    @property
    def base(self) -> Study | None:
        i = self.preset_combo.currentIndex()
        return self._studies[i] if 0 <= i < len(self._studies) else None

    def choose(self, name: str) -> None:
        """Select the preset (or opened study) called ``name``."""
        for i, study in enumerate(self._studies):
            if study.name == name:
                self.preset_combo.setCurrentIndex(i)
                return
        raise UserError(f"no study called {name!r}")

    def add_study(self, study: Study) -> None:
        """Add a study read from a file and select it."""
        self._studies.append(study)
        self._add_to_combo(study, opened=True)
        self.preset_combo.setCurrentIndex(len(self._studies) - 1)

    def load(self, study: Study) -> None:
        """Show ``study``'s settings in the form."""
        self.title_label.setText(display_text(_title(study)))
        self.title_label.setToolTip(display_text(study.description))
        self.ciphers_label.setText(display_text(describe_ciphers(study)))
        self.mode_label.setText(describe_mode(study))
        self.sizes_edit.setText(", ".join(s.label for s in study.sizes))
        self.repeat_spin.setValue(study.repeat)
        self.rounds_spin.setValue(study.rounds)
        self.max_rounds_spin.setValue(study.max_rounds)
        self.budget_spin.setValue(round(study.time_budget_s))
        self.precision_spin.setValue(study.precision_percent)
        self.margin_spin.setValue(study.margin_percent)
        self.units_combo.setCurrentText(study.units)
        slots = ", ".join(study.file_slots)
        self.slots_label.setText(f"This study expects: {slots}" if slots else "")
        self.slots_label.setVisible(bool(slots))
        self.inputs.clear()
        self.inputs.add_files(study.files)
        self._on_inputs_changed()
        self._show_per_round()

    def study(self) -> Study:
        """The study as the form says, or ``UserError`` in one sentence."""
        base = self.base
        if base is None:
            raise UserError("choose a study first")
        files = self.inputs.paths()
        return study_with(
            base,
            sizes=None if files else parse_sizes(self.sizes_edit.text()),
            files=files or (),
            repeat=self.repeat_spin.value(),
            rounds=self.rounds_spin.value(),
            units=self.units_combo.currentText(),
            max_rounds=max(self.rounds_spin.value(), self.max_rounds_spin.value()),
            time_budget_s=float(self.budget_spin.value()),
            precision_percent=self.precision_spin.value(),
            margin_percent=self.margin_spin.value(),
        )

    @property
    def units(self) -> str:
        return self.units_combo.currentText()

    # --- handlers --------------------------------------------------------------------------------

    @Slot(int)
    def _on_repeat_spin_value_changed(self, _value: int) -> None:
        self._show_per_round()

    @Slot(int)
    def _on_rounds_spin_value_changed(self, _value: int) -> None:
        self._show_per_round()

    def _show_per_round(self) -> None:
        """``"= 2 per round"``: what each round's worker makes of the total, as the study
        splits it (rounded up)."""
        rounds = self.rounds_spin.value()
        per_round = repeat_per_round(self.repeat_spin.value(), rounds)
        self.per_round_label.setText(f"= {per_round} per round" if rounds > 1 else "(one round)")

    @Slot(int)
    def _on_preset_combo_changed(self, index: int) -> None:
        if 0 <= index < len(self._studies):
            self.load(self._studies[index])
            self.study_changed.emit()

    @Slot()
    def _on_open_button_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Open a study", self.inputs.last_folder, "Studies (*.toml);;All files (*)"
        )
        if path:
            self.open_study(path)

    def open_study(self, path: str) -> bool:
        """Load the study file ``path`` into the form; False (and ``error``) when it cannot."""
        from app.core.study.study_file import load_study

        try:
            self.add_study(load_study(path))
        except UserError as exc:
            self.error.emit("Cannot open the study", str(exc))
            return False
        return True

    @Slot()
    def _on_inputs_changed(self) -> None:
        has_files = bool(self.inputs.paths())
        self.sizes_edit.setEnabled(not has_files)
        self.sizes_edit.setToolTip(
            "Files are given: they replace the generated sizes"
            if has_files
            else "Generated inputs, comma-separated; MB = 10^6, MiB = 2^20 bytes"
        )

    def _add_to_combo(self, study: Study, opened: bool = False) -> None:
        text = study.name + (f" ({study.after()})" if study.after() else "")
        self.preset_combo.addItem(display_text(text + (" – file" if opened else "")))
        self.preset_combo.setItemData(
            self.preset_combo.count() - 1,
            display_text(study.compares()),
            Qt.ItemDataRole.ToolTipRole,
        )


def _title(study: Study) -> str:
    text = study.title or study.name
    return text + (f" — {study.paper}" if study.paper else "")


def _spin(low: int, high: int, tip: str) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setToolTip(tip)
    return spin


def _percent_spin(low: float, tip: str) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(low, 100.0)
    spin.setDecimals(1)
    spin.setSingleStep(0.5)
    spin.setSuffix(" %")
    spin.setToolTip(tip)
    return spin


def _row(first: QWidget, between: str, second: QWidget) -> QHBoxLayout:
    row = QHBoxLayout()
    row.addWidget(first, 1)
    row.addWidget(Label(between))
    row.addWidget(second, 1)
    return row


def _wrapping_label() -> QLabel:
    label = Label()
    label.setWordWrap(True)
    return label
