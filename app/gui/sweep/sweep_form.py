"""The Message lengths and hardware window's choices, on two tabs:

- **Sweep**: the cipher entries (a checkable list of cipher ids, with a filter), the library
  (the compiled ones, one, or all), the message lengths as text (the default filled in, checked
  as typed), associated data or not, rounds.
- **Hardware ladder**: an AES cipher, the libraries to switch the AES instructions off in
  (cryptography, pycryptodome or both), rounds.

:meth:`SweepForm.request` reads the tab shown as a
:class:`~app.gui.sweep.sweep_worker.SweepRequest`; ``mode_changed`` says which tab is shown.
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.ciphers.registry import cipher_ids, libraries_for, lookup
from app.core.errors import UserError
from app.core.sweep import plan
from app.core.sweep.plan import AD_AT, AD_LENGTHS, DEFAULT_LENGTHS, DEFAULT_ROUNDS, parse_lengths
from app.core.sweep.report import length_label
from app.core.sweep.results import LADDER, SWEEP
from app.core.sweep.runner import MAX_ROUNDS
from app.gui.check_list import CheckList
from app.gui.label import Label
from app.gui.request_form import RequestForm
from app.gui.sweep.sweep_worker import SweepRequest

CHECKED = ("aes-256-gcm", "chacha20-poly1305")  # TLS 1.3's two, on first opening
LADDER_DEFAULT = "aes-128-gcm"
COMPILED = (("cryptography", "cryptography"), ("pycryptodome", "pycryptodome"))
SWEEP_LIBRARIES = (
    ("The compiled ones (default)", None),
    ("cryptography", "cryptography"),
    ("pycryptodome", "pycryptodome"),
    ("pyaes (pure Python)", "pyaes"),
    ("Every library that has it", "all"),
)
LADDER_LIBRARIES = (
    ("cryptography", ("cryptography",)),
    ("pycryptodome", ("pycryptodome",)),
    ("Both", ("cryptography", "pycryptodome")),
)
ERROR_STYLE = "color: #b00020;"


def lengths_text(lengths: tuple[int, ...]) -> str:
    """``"16 B, 64 B, ..., 16 MiB"``: what the lengths field shows (parse_lengths reads it)."""
    return ", ".join(length_label(n) for n in lengths)


def ladder_ciphers() -> list[str]:
    """The AES ids a compiled library offers (the ladder switches the AES instructions off)."""
    out = []
    for cid in cipher_ids():
        libs = [lib for lib, _ in COMPILED if lib in libraries_for(cid)]
        if libs and lookup(cid, libs[0]).algorithm == "AES":
            out.append(cid)
    return out


def _rounds_spin() -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(1, MAX_ROUNDS)
    spin.setValue(DEFAULT_ROUNDS)
    spin.setToolTip(
        "Each round runs in a fresh worker process, rounds interleaved across entries: two "
        "rounds differ more than two samples of one round do"
    )
    return spin


def _hint() -> QLabel:
    label = Label()
    label.setWordWrap(True)
    label.setEnabled(False)  # the palette's muted text colour
    return label


class SweepPage(QWidget):
    """The Sweep tab."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter, e.g. gcm or chacha")
        self.filter_edit.setClearButtonEnabled(True)
        self.cipher_list = CheckList(((cid, cid) for cid in cipher_ids()), CHECKED)
        self.cipher_list.setToolTip("Each checked cipher is one entry per library chosen below")
        self.checked_label = _hint()
        self.library_combo = QComboBox()
        for text, value in SWEEP_LIBRARIES:
            self.library_combo.addItem(text, value)
        self.library_combo.setToolTip(
            "The compiled ones: cryptography and pycryptodome where they have the cipher"
        )

        self.lengths_edit = QLineEdit(lengths_text(DEFAULT_LENGTHS))
        self.lengths_edit.setToolTip(
            "Comma-separated; 4KiB = 4096 bytes, 4KB = 4000 bytes; 1 byte to 256 MiB"
        )
        self.default_button = QPushButton("Default")
        self.default_button.setToolTip("16 B to 16 MiB, with 576, 1350, 1536 B and 4 KiB")
        self.lengths_label = _hint()
        self.lengths_label.setEnabled(True)  # an error shows in red, the count muted
        ad = ", ".join(f"{n} B" for n in AD_LENGTHS)
        at = ", ".join(length_label(n) for n in AD_AT)
        self.ad_check = QCheckBox("Associated data")
        self.ad_check.setChecked(True)
        self.ad_check.setToolTip(
            f"AEADs also encrypt with {ad} of associated data at the messages of {at} "
            "(where those lengths are swept)"
        )
        self.rounds_spin = _rounds_spin()
        self._lay_out()
        self.filter_edit.textChanged.connect(self._on_filter_edit_text_changed)
        self.cipher_list.itemChanged.connect(self._show_checked)
        self.lengths_edit.textChanged.connect(self._on_lengths_edit_text_changed)
        self.default_button.clicked.connect(
            lambda: self.lengths_edit.setText(lengths_text(DEFAULT_LENGTHS))
        )
        self._show_checked()
        self._on_lengths_edit_text_changed(self.lengths_edit.text())

    def _lay_out(self) -> None:
        ciphers = QGroupBox("1. Cipher entries")
        column = QVBoxLayout(ciphers)
        column.addWidget(self.filter_edit)
        column.addWidget(self.cipher_list, 1)
        column.addWidget(self.checked_label)
        form = QFormLayout()
        form.addRow("Library:", self.library_combo)
        column.addLayout(form)
        messages = QGroupBox("2. Message lengths")
        column = QVBoxLayout(messages)
        row = QHBoxLayout()
        row.addWidget(self.lengths_edit, 1)
        row.addWidget(self.default_button)
        column.addLayout(row)
        column.addWidget(self.lengths_label)
        column.addWidget(self.ad_check)
        form = QFormLayout()
        form.addRow("Rounds:", self.rounds_spin)
        column.addLayout(form)
        layout = QVBoxLayout(self)
        layout.addWidget(ciphers, 1)
        layout.addWidget(messages)

    # --- reading and setting -------------------------------------------------------------------

    def set_ciphers(self, ids: list[str]) -> None:
        self.cipher_list.set_checked(ids)

    def ciphers(self) -> list[str]:
        return self.cipher_list.checked()

    def set_library(self, library: str | None) -> None:
        self.library_combo.setCurrentIndex(max(0, self.library_combo.findData(library)))

    def lengths(self) -> tuple[int, ...]:
        """The lengths typed; ``UserError`` in one sentence for a bad one."""
        if not self.lengths_edit.text().strip(" ,"):
            raise UserError("give at least one message length, e.g. 64, 1350, 4 KiB")
        return parse_lengths(self.lengths_edit.text())

    def request(self) -> SweepRequest:
        ids = tuple(self.ciphers())
        if not ids:
            raise UserError("check at least one cipher")
        return SweepRequest(
            SWEEP,
            ids,
            rounds=self.rounds_spin.value(),
            library=self.library_combo.currentData(),
            lengths=self.lengths(),
            ad=self.ad_check.isChecked(),
        )

    # --- as the user types ---------------------------------------------------------------------

    @Slot(str)
    def _on_filter_edit_text_changed(self, text: str) -> None:
        words = text.lower().split()
        for i in range(self.cipher_list.count()):
            item = self.cipher_list.item(i)
            item.setHidden(not all(w in item.text() for w in words))

    @Slot()
    def _show_checked(self, *_args: object) -> None:
        ids = self.ciphers()
        shown = ", ".join(ids[:3]) + (f" +{len(ids) - 3}" if len(ids) > 3 else "")
        self.checked_label.setText(f"Checked: {shown}" if ids else "Checked: none")

    @Slot(str)
    def _on_lengths_edit_text_changed(self, _text: str) -> None:
        try:
            lengths = self.lengths()
        except UserError as exc:
            self.lengths_label.setStyleSheet(ERROR_STYLE)
            self.lengths_label.setText(str(exc)[:1].upper() + str(exc)[1:] + ".")
            return
        self.lengths_label.setStyleSheet("")
        n = len(lengths)
        span = length_label(lengths[0])
        if n > 1:
            span += f" to {length_label(lengths[-1])}"
        self.lengths_label.setText(f"{n} length{'s' if n != 1 else ''}: {span}")


class LadderPage(QWidget):
    """The Hardware ladder tab."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cipher_combo = QComboBox()
        self.cipher_combo.addItems(ladder_ciphers())
        self.cipher_combo.setCurrentText(LADDER_DEFAULT)
        self.library_combo = QComboBox()
        for text, value in LADDER_LIBRARIES:
            self.library_combo.addItem(text, value)
        self.rounds_spin = _rounds_spin()
        about = Label(
            f"Times the cipher on {length_label(plan.LADDER_BYTES)} messages with the CPU's AES "
            "instructions, with them switched off in the worker process (OpenSSL's capability "
            "mask, PyCryptodome's use_aesni=False), and in pure Python (pyaes, "
            f"{length_label(plan.PURE_PYTHON_BYTES)} messages; for a mode pyaes lacks, AES-CTR "
            "of the same key size stands in). Nothing outside the worker changes."
        )
        about.setWordWrap(True)
        group = QGroupBox("AES with and without its instructions")
        form = QFormLayout(group)
        form.addRow("Cipher:", self.cipher_combo)
        form.addRow("Libraries:", self.library_combo)
        form.addRow("Rounds:", self.rounds_spin)
        form.addRow(about)
        layout = QVBoxLayout(self)
        layout.addWidget(group)
        layout.addStretch(1)

    def request(self) -> SweepRequest:
        return SweepRequest(
            LADDER,
            (self.cipher_combo.currentText(),),
            rounds=self.rounds_spin.value(),
            libraries=tuple(self.library_combo.currentData()),
        )


class SweepForm(RequestForm):
    """Both tabs; ``mode_changed(kind)`` when the other is shown."""

    mode_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sweep = SweepPage()
        self.ladder = LadderPage()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.sweep, "Sweep")
        self.tabs.addTab(self.ladder, "Hardware ladder")
        self.tabs.setTabToolTip(0, "Each cipher on messages of many lengths, in cycles per byte")
        self.tabs.setTabToolTip(1, "One AES cipher with the CPU's AES instructions, without")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)
        self.tabs.currentChanged.connect(lambda _i: self.mode_changed.emit(self.mode))

    @property
    def mode(self) -> str:
        return LADDER if self.tabs.currentWidget() is self.ladder else SWEEP

    def set_mode(self, kind: str) -> None:
        self.tabs.setCurrentWidget(self.ladder if kind == LADDER else self.sweep)

    def request(self) -> SweepRequest:
        """The shown tab's choices; ``UserError`` in one sentence for what cannot run."""
        return self.ladder.request() if self.mode == LADDER else self.sweep.request()
