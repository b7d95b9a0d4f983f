"""The Transfer window's choices: what to send (a file, or generated random data of a size), the
ciphers (every AEAD the engine's transfer can seal with, and the plaintext baseline), the chunk
size, repetitions and warm-up runs. :meth:`TransferForm.request` reads them as a
:class:`~app.gui.transfer.transfer_worker.TransferRequest`.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.ciphers.registry import REGISTRY, Kind
from app.core.errors import UserError
from app.core.transfer.framing import PLAINTEXT
from app.core.transfer.runner import MAX_REPEAT, MAX_WARMUP, TransferOptions
from app.core.units import parse_size, size_label
from app.gui.check_list import CheckList
from app.gui.request_form import RequestForm
from app.gui.transfer.transfer_worker import TransferRequest

SIZES = ("10 KB", "1 MB", "10 MB", "100 MB", "200 MB", "500 MB")
CHUNKS = ("16 KiB", "64 KiB", "256 KiB", "1 MiB", "4 MiB", "16 MiB")
# The loopback study's pair, and the baseline.
CHECKED = ("aes-256-gcm", "chacha20-poly1305", PLAINTEXT)
BASELINE_TEXT = "none (plaintext baseline)"


def transfer_ciphers() -> list[str]:
    """Every cipher id a transfer can seal with (the registry's AEADs) and the baseline; seed
    004's pair and the baseline first."""
    ids = list(CHECKED)
    for spec in REGISTRY:
        if spec.kind is Kind.AEAD and spec.id not in ids:
            ids.append(spec.id)
    return ids


class TransferForm(RequestForm):
    """The choices; ``browse_requested`` asks the window for a file dialog."""

    browse_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.file_radio = QRadioButton("A file:")
        self.file_edit = QLineEdit()
        self.file_edit.setPlaceholderText("the file to send")
        self.file_edit.setToolTip("Read only, never modified")
        self.browse_button = QPushButton("Choose…")
        self.size_radio = QRadioButton("Random data:")
        self.size_combo = QComboBox()
        self.size_combo.setEditable(True)
        self.size_combo.addItems(SIZES)
        self.size_combo.setCurrentText("10 MB")
        self.size_combo.setToolTip("10 MB = 10^7 bytes, 10 MiB = 10 x 2^20 bytes")
        self.source_group = QButtonGroup(self)
        for button in (self.size_radio, self.file_radio):
            self.source_group.addButton(button)
        self.size_radio.setChecked(True)

        # Six rows at least; the list takes the room the column has left.
        self.cipher_list = CheckList(
            ((c, BASELINE_TEXT if c == PLAINTEXT else c) for c in transfer_ciphers()), CHECKED
        )
        self.cipher_list.setToolTip(
            "Each chunk is sealed with the chosen AEAD (the encrypted-file format's STREAM "
            "construction); 'none' sends plaintext frames, to show what the cipher costs"
        )

        self.chunk_combo = QComboBox()
        self.chunk_combo.setEditable(True)
        self.chunk_combo.addItems(CHUNKS)
        self.chunk_combo.setCurrentText("1 MiB")
        self.chunk_combo.setToolTip("Plaintext bytes per sealed frame (the loopback study: 1 MiB)")
        defaults = TransferOptions()
        self.repeat_spin = QSpinBox()
        self.repeat_spin.setRange(1, MAX_REPEAT)
        self.repeat_spin.setValue(defaults.repeat)
        self.repeat_spin.setToolTip("Timed transfers per cipher; the table shows their median")
        self.warmup_spin = QSpinBox()
        self.warmup_spin.setRange(0, MAX_WARMUP)
        self.warmup_spin.setValue(defaults.warmup)
        self.warmup_spin.setToolTip("Transfers before timing starts; measured but not counted")

        self._lay_out()
        self.browse_button.clicked.connect(self.browse_requested)
        self.file_edit.textEdited.connect(lambda _text: self.file_radio.setChecked(True))
        self.size_combo.editTextChanged.connect(lambda _text: self.size_radio.setChecked(True))

    def _lay_out(self) -> None:
        source = QGroupBox("1. What to send")
        grid = QVBoxLayout(source)
        row = QHBoxLayout()
        row.addWidget(self.size_radio)
        row.addWidget(self.size_combo, 1)
        grid.addLayout(row)
        grid.addWidget(self.file_radio)
        row = QHBoxLayout()
        row.addWidget(self.file_edit, 1)
        row.addWidget(self.browse_button)
        grid.addLayout(row)
        ciphers = QGroupBox("2. Ciphers")
        QVBoxLayout(ciphers).addWidget(self.cipher_list)
        options = QGroupBox("3. Options")
        form = QFormLayout(options)
        form.addRow("Chunk size:", self.chunk_combo)
        form.addRow("Repetitions:", self.repeat_spin)
        form.addRow("Warm-up runs:", self.warmup_spin)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(source)
        column.addWidget(ciphers, 1)
        column.addWidget(options)

    # --- reading and setting -------------------------------------------------------------------

    def set_file(self, path: str) -> None:
        self.file_edit.setText(path)
        self.file_radio.setChecked(True)

    def set_size(self, text: str) -> None:
        self.size_combo.setCurrentText(text)
        self.size_radio.setChecked(True)

    def set_ciphers(self, ciphers: list[str]) -> None:
        self.cipher_list.set_checked(ciphers)

    def ciphers(self) -> list[str]:
        return self.cipher_list.checked()

    def request(self) -> TransferRequest:
        """The choices as a request; ``UserError`` in one sentence for what cannot run."""
        ciphers = tuple(self.ciphers())
        if not ciphers:
            raise UserError("check at least one cipher (or the plaintext baseline)")
        options = TransferOptions(
            chunk_bytes=parse_size(self.chunk_combo.currentText().replace(" ", "")),
            repeat=self.repeat_spin.value(),
            warmup=self.warmup_spin.value(),
        )
        options.check()
        if self.file_radio.isChecked():
            path = self.file_edit.text().strip()
            if not path:
                raise UserError("choose the file to send, or random data of a size")
            return TransferRequest(ciphers, options, path=path)
        text = self.size_combo.currentText().replace(" ", "")
        size = parse_size(text)
        if size <= 0:
            raise UserError("the size must be at least 1 byte")
        return TransferRequest(ciphers, options, size_bytes=size, size_text=size_label(text))
