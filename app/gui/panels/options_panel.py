"""Measurement options: repetitions, warm-up, data mode, chunk size, memory pass, keep output,
and processes (copies of each job at once, ``bench --processes``)."""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QSpinBox,
    QWidget,
)

from app.core.bench.jobs import LOAD_ALL, BenchOptions
from app.core.units import format_bytes, parse_size
from app.gui.label import Label

MAX_ROUNDS = 100  # as a study's (app.core.study.definition)

CHUNK_SIZES = ("64 KiB", "256 KiB", "1 MiB", "4 MiB", "16 MiB")
_DEFAULTS = BenchOptions()
DATA_MODE_TEXT = {
    "memory": "memory: whole file in RAM",
    "stream": "stream: chunk by chunk from disk",
}


def _chunk_text(n: int) -> str:
    return format_bytes(n).replace(".00", "")


def cpu_cores() -> int:
    return os.cpu_count() or 1


class OptionsPanel(QGroupBox):
    """Options for every job of a run. :meth:`options` reads them as ``BenchOptions``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("3. Options", parent)
        self._build_timing_widgets()
        self._build_memory_widgets()
        self._build_parallel_widgets()
        self.mode_combo.currentIndexChanged.connect(self._on_mode_combo_changed)
        self.processes_spin.valueChanged.connect(self._on_processes_spin_changed)
        self._build_form()
        self.reset()

    def _build_timing_widgets(self) -> None:
        """Repetitions, warm-up runs, data mode and chunk size."""
        self.repeat_spin = QSpinBox()
        self.repeat_spin.setRange(1, 1000)
        self.repeat_spin.setToolTip(
            "Timed runs per direction. Small inputs are repeated until each direction took "
            f"{_DEFAULTS.min_time_s:g} s, so the median is stable."
        )
        self.warmup_spin = QSpinBox()
        self.warmup_spin.setRange(0, 100)
        self.warmup_spin.setToolTip("Runs before timing starts; measured but not counted")
        self.mode_combo = QComboBox()
        for mode, text in DATA_MODE_TEXT.items():
            self.mode_combo.addItem(text, mode)
        self.mode_combo.setToolTip(
            "memory: load the file, encrypt into a buffer (as most studies do); "
            "stream: read, encrypt and write chunk by chunk (large files)"
        )
        self.chunk_combo = QComboBox()
        self.chunk_combo.setEditable(True)
        self.chunk_combo.addItems(CHUNK_SIZES)
        self.chunk_combo.setToolTip("Stream mode chunk size, e.g. 1 MiB; a multiple of 64 bytes")

    def _build_memory_widgets(self) -> None:
        """The memory pass (and the load-all program's) and keeping the ciphertexts."""
        self.memory_check = QCheckBox("Measure peak memory (a separate, untimed pass)")
        self.load_all_check = QCheckBox("… and the papers' load-all program's memory")
        self.load_all_check.setToolTip(
            "Also run the program shape of the papers, each direction apart: the file read "
            "whole, a padded copy and a new ciphertext (3x the input, where CipherBench's own "
            "pass holds 1-2x). Its figures are in the Memory cell's tooltip and the exports."
        )
        self.memory_check.toggled.connect(self.load_all_check.setEnabled)
        self.keep_check = QCheckBox("Keep each job's ciphertext, to save it afterwards")
        self.keep_check.setToolTip(
            "Uses temporary disk space (one ciphertext per job) until Reset or exit"
        )

    def _build_parallel_widgets(self) -> None:
        """Processes (copies of each job at once, with a note past the cores) and rounds."""
        cores = cpu_cores()
        self.processes_spin = QSpinBox()
        self.processes_spin.setRange(1, cores * 4)
        self.processes_spin.setToolTip(
            "Above 1: after each job, run that many copies of it at once, each in its own "
            "process and each verified, and show their aggregate throughput beside the "
            f"single-process figure, as `openssl speed -multi` does. This machine has {cores} "
            f"core{'s' if cores != 1 else ''}."
        )
        self.processes_note = Label(
            f"More than this machine's {cores} core{'s' if cores != 1 else ''}: the copies "
            "share them, and the aggregate shows what they got together."
        )
        self.processes_note.setWordWrap(True)
        self.processes_note.setStyleSheet("color: #9a5b00;")
        self.processes_note.setVisible(False)
        self.rounds_spin = QSpinBox()
        self.rounds_spin.setRange(1, MAX_ROUNDS)
        self.rounds_spin.setToolTip(
            "Run every job this many times, each time in a fresh worker process and each round "
            "in a random order, the repetitions split over the rounds. With 4 or more, the "
            "Comparisons tab gives each claim a 95 % interval that covers what varies between "
            "workers and moments; with 6 or more, each figure of the table gets one too (1: one "
            "worker per job, no interval)."
        )

    def _build_form(self) -> None:
        """One row per option; Rounds beside Repetitions, which it splits, near the top (the
        first thing to set for a verdict, and in view without scrolling at 1366x768)."""
        form = QFormLayout(self)
        form.addRow("Repetitions:", self.repeat_spin)
        form.addRow("Rounds:", self.rounds_spin)
        form.addRow("Warm-up runs:", self.warmup_spin)
        form.addRow("Data mode:", self.mode_combo)
        form.addRow("Chunk size:", self.chunk_combo)
        form.addRow(self.memory_check)
        form.addRow(self.load_all_check)
        form.addRow(self.keep_check)
        form.addRow("Processes:", self.processes_spin)
        form.addRow(self.processes_note)
        # Tab goes down the rows as shown (Rounds was made last, with the options below it).
        self.setTabOrder(self.repeat_spin, self.rounds_spin)
        self.setTabOrder(self.rounds_spin, self.warmup_spin)

    def reset(self) -> None:
        """Back to the engine's defaults."""
        self.repeat_spin.setValue(_DEFAULTS.repeat)
        self.warmup_spin.setValue(_DEFAULTS.warmup)
        self.mode_combo.setCurrentIndex(self.mode_combo.findData(_DEFAULTS.data_mode))
        self.chunk_combo.setCurrentText(_chunk_text(_DEFAULTS.chunk_bytes))
        self.memory_check.setChecked(_DEFAULTS.measure_memory)
        self.load_all_check.setChecked(bool(_DEFAULTS.memory_workload))
        self.keep_check.setChecked(True)
        self.processes_spin.setValue(1)
        self.rounds_spin.setValue(1)
        self._on_mode_combo_changed()

    def options(self) -> BenchOptions:
        """The chosen options; raises ``UserError`` when the chunk size cannot be read."""
        return BenchOptions(
            repeat=self.repeat_spin.value(),
            warmup=self.warmup_spin.value(),
            data_mode=str(self.mode_combo.currentData()),
            chunk_bytes=parse_size(self.chunk_combo.currentText().replace(" ", "")),
            measure_memory=self.memory_check.isChecked(),
            memory_workload=LOAD_ALL if self._load_all() else "",
        )

    def _load_all(self) -> bool:
        return self.memory_check.isChecked() and self.load_all_check.isChecked()

    def keep_ciphertext(self) -> bool:
        return self.keep_check.isChecked()

    def rounds(self) -> int:
        """Rounds of every job, each in a fresh worker (1: one), for ``RoundsRun(rounds=)``."""
        return self.rounds_spin.value()

    def processes(self) -> int:
        """Copies of each job to run at once (1: none), for ``BenchmarkRun(processes=)``."""
        return self.processes_spin.value()

    def to_dict(self) -> dict[str, Any]:
        return {
            "repeat": self.repeat_spin.value(),
            "warmup": self.warmup_spin.value(),
            "data_mode": self.mode_combo.currentData(),
            "chunk": self.chunk_combo.currentText(),
            "measure_memory": self.memory_check.isChecked(),
            "load_all_memory": self.load_all_check.isChecked(),
            "keep_ciphertext": self.keep_check.isChecked(),
            "processes": self.processes_spin.value(),
            "rounds": self.rounds_spin.value(),
        }

    def from_dict(self, data: Any) -> None:
        """Restore saved options; anything missing or malformed keeps its current value."""
        if not isinstance(data, dict):
            return
        try:
            self.repeat_spin.setValue(int(data.get("repeat", self.repeat_spin.value())))
            self.warmup_spin.setValue(int(data.get("warmup", self.warmup_spin.value())))
            index = self.mode_combo.findData(data.get("data_mode"))
            if index >= 0:
                self.mode_combo.setCurrentIndex(index)
            if isinstance(data.get("chunk"), str):
                self.chunk_combo.setCurrentText(data["chunk"])
            self.memory_check.setChecked(bool(data.get("measure_memory", True)))
            self.load_all_check.setChecked(bool(data.get("load_all_memory", False)))
            self.keep_check.setChecked(bool(data.get("keep_ciphertext", True)))
            self.processes_spin.setValue(int(data.get("processes", 1)))  # clamped to the range
            self.rounds_spin.setValue(int(data.get("rounds", 1)))
        except (TypeError, ValueError):
            pass
        self._on_mode_combo_changed()

    def _on_mode_combo_changed(self, _index: int = 0) -> None:
        self.chunk_combo.setEnabled(self.mode_combo.currentData() == "stream")

    def _on_processes_spin_changed(self, value: int) -> None:
        self.processes_note.setVisible(value > cpu_cores())
