"""The "Encrypt file…" and "Save encrypted…" dialog.

One dialog serves both: File > Encrypt file… chooses any file and cipher; Save encrypted… on a
finished job encrypts the job's input with the job's cipher, library and key size (a raw export
then keeps the job's own ciphertext when it is one message). Either way the user picks how the
result is unlocked: a password (typed twice, with a strength hint), a new key file (random
256-bit, mode 0600), an existing key file, or no protection at all: raw ciphertext with a JSON key
file that ``openssl enc -d`` and ``python main.py decrypt --raw`` read.

The work runs in the pool (:class:`~app.gui.dialogs.crypt_widgets.TaskPanel`) with progress and
Cancel; a cancel or an error leaves no output. Existing files are replaced only after a
confirmation; a key file is never replaced. Password fields are cleared as soon as the work
starts.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.core.bench.kept import FinishedJob
from app.core.ciphers.registry import CipherSpec, cipher_ids
from app.core.errors import UserError
from app.core.files import container
from app.core.runtime.output_checks import check_output
from app.core.units import file_size
from app.gui.describe import sentence
from app.gui.dialogs.crypt_files import default_key_path, default_output
from app.gui.dialogs.crypt_tasks import EncryptOutcome, EncryptRequest, Protection, encrypt
from app.gui.dialogs.crypt_texts import (
    kept_ciphertext_note,
    raw_notes,
    weak_cipher_warning,
    weakness,
)
from app.gui.dialogs.crypt_widgets import (
    MessageLabel,
    PasswordFields,
    PathField,
    form_label,
    grow_to_fit,
    label_width,
)
from app.gui.dialogs.dialog_base import CryptDialogBase
from app.gui.dialogs.encrypt_protection import (
    NEW_KEY_WARNING,
    PROTECTION_TEXT,
    RAW_KEY_WARNING,
    form_page,
    key_file_problem,
    warning_label,
)
from app.gui.label import Label
from app.gui.settings import AppSettings


class EncryptDialog(CryptDialogBase):
    """Encrypt a file (``job=None``) or save a finished job's data encrypted.

    Signal ``encrypted(EncryptOutcome)`` after a success (the window shows it in its status
    bar)."""

    encrypted = Signal(object)

    def __init__(
        self,
        settings: AppSettings,
        job: FinishedJob | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(settings, parent)
        self.job = job
        self._auto: dict[PathField, str] = {}  # the default each path field was last given
        self.setWindowTitle("Save encrypted" if job else "Encrypt a file")
        self.setMinimumWidth(640)
        self._build()
        self._on_inputs_changed()

    # --- construction -----------------------------------------------------------------------

    def _build(self) -> None:
        width = label_width(
            self,
            [
                "File to encrypt:",
                "Protect it with:",
                "Key file (.json):",
                "New key file:",
                "Save as:",
            ],
        )
        self.form_box = QWidget()
        form = self._form = QFormLayout(self.form_box)
        form.setContentsMargins(0, 0, 0, 0)
        self._build_data_rows(form, width)
        self.output_field = PathField("save", "Save the encrypted file as", self.settings)
        form.addRow(form_label("Save as:", width), self.output_field)
        form.addRow(form_label("Protect it with:", width), self._build_protection_radios())
        self.password_fields = PasswordFields(confirm=True, label_width=width)
        self.pages = self._build_protection_pages(width)
        for page in self.pages.values():
            form.addRow(page)

        self.notice = MessageLabel()  # what to do with a key file, after a success
        self.encrypt_button = QPushButton("Encrypt")
        self.encrypt_button.setDefault(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.form_box)
        layout.addWidget(self.message)
        layout.addWidget(self.notice)
        layout.addWidget(self.task)
        layout.addStretch(1)
        layout.addWidget(self._make_buttons(self.encrypt_button))

        self.protection_group.idToggled.connect(self._on_protection_group_toggled)
        self.output_field.changed.connect(self._on_output_field_changed)
        self.encrypt_button.clicked.connect(self._on_encrypt_button_clicked)
        self._show_page(Protection.PASSWORD)

    def _build_data_rows(self, form: QFormLayout, width: int) -> None:
        """What is encrypted: a chosen file and cipher, or the job's input and cipher."""
        self.source_field = PathField("open", "Choose the file to encrypt", self.settings)
        self.cipher_combo = QComboBox()
        self.cipher_warning = warning_label("")
        self.cipher_note = Label("")
        self.cipher_note.setWordWrap(True)
        if self.job is None:
            form.addRow(form_label("File to encrypt:", width), self.source_field)
            for cid in cipher_ids():
                spec = container.choose_spec(cid)
                weak = weakness(spec)
                self.cipher_combo.addItem(f"{cid}   (weak: {weak})" if weak else cid, cid)
            self.cipher_combo.setCurrentIndex(self.cipher_combo.findData(container.DEFAULT_CIPHER))
            self.cipher_combo.setToolTip("The default, AES-256-GCM, is fast and authenticated")
            form.addRow(form_label("Cipher:", width), self.cipher_combo)
            self.source_field.changed.connect(self._on_inputs_changed)
            self.cipher_combo.currentIndexChanged.connect(self._on_inputs_changed)
        else:
            r, source = self.job.result, self.job.input
            self.job_label = Label(
                f"{source.label} ({file_size(source.size_bytes)}), as benchmarked with "
                f"{r.cipher} [{r.library}], {r.key_bits}-bit key"
            )
            self.job_label.setWordWrap(True)
            form.addRow(form_label("Data:", width), self.job_label)
        form.addRow(form_label("", width), self.cipher_warning)
        form.addRow(form_label("", width), self.cipher_note)

    def _build_protection_radios(self) -> QWidget:
        self.protection_group = QButtonGroup(self)
        radios = QWidget()
        radio_layout = QVBoxLayout(radios)
        radio_layout.setContentsMargins(0, 0, 0, 0)
        self.protection_radios: dict[Protection, QRadioButton] = {}
        for i, (protection, text) in enumerate(PROTECTION_TEXT.items()):
            radio = QRadioButton(text)
            self.protection_group.addButton(radio, i)
            radio_layout.addWidget(radio)
            self.protection_radios[protection] = radio
        self.protection_radios[Protection.PASSWORD].setChecked(True)
        return radios

    def _build_protection_pages(self, width: int) -> dict[Protection, QWidget]:
        """One form row per protection, only the chosen one visible (a QStackedWidget would be
        as tall as its tallest page, and gets the height of wrapped text wrong)."""
        s = self.settings
        self.new_key_field = PathField("save", "Where to create the key file", s)
        self.key_field = PathField("open", "Choose the key file", s)
        self.raw_key_field = PathField("save", "Where to write the key file", s)
        self.raw_note = Label("")
        self.raw_note.setWordWrap(True)
        self.new_key_warning = warning_label(NEW_KEY_WARNING)
        key_file_hint = Label(
            "A CipherBench key file (.cbkey) made before, here or with --new-key-file."
        )
        return {
            Protection.PASSWORD: self.password_fields,
            Protection.NEW_KEY_FILE: form_page(
                width, ("New key file:", self.new_key_field), ("", self.new_key_warning)
            ),
            Protection.KEY_FILE: form_page(
                width, ("Key file:", self.key_field), ("", key_file_hint)
            ),
            Protection.RAW: form_page(
                width,
                ("Key file (.json):", self.raw_key_field),
                ("", self.raw_note),
                ("", warning_label(RAW_KEY_WARNING)),
            ),
        }

    # --- state ------------------------------------------------------------------------------

    @property
    def protection(self) -> Protection:
        return list(PROTECTION_TEXT)[max(0, self.protection_group.checkedId())]

    def set_protection(self, protection: Protection) -> None:
        self.protection_radios[protection].setChecked(True)

    def source(self) -> str:
        return self.job.input.path if self.job else self.source_field.path()

    def spec(self) -> CipherSpec | None:
        if self.job is not None:
            r = self.job.result
            return container.choose_spec(r.cipher, r.library, r.key_bits)
        cid = self.cipher_combo.currentData()
        return container.choose_spec(cid) if cid else None

    def _key_path_field(self) -> PathField | None:
        return {
            Protection.NEW_KEY_FILE: self.new_key_field,
            Protection.KEY_FILE: self.key_field,
            Protection.RAW: self.raw_key_field,
        }.get(self.protection)

    def _set_default(self, field: PathField, value: str) -> None:
        """Give ``field`` a new default, unless the user typed or chose something else."""
        current = field.line_edit.text()
        if not current or current == self._auto.get(field):
            field.set_path(value)
        self._auto[field] = value

    def _default_source_name(self) -> str:
        if self.job is None:
            return self.source()
        spec = self.job.input
        name = "random-data.bin" if spec.generated else Path(spec.path).name
        return str(Path(self.settings.last_folder) / name)

    # --- reactions --------------------------------------------------------------------------

    @Slot()
    def _on_inputs_changed(self) -> None:
        spec = self.spec()
        protection = self.protection
        warning = note = ""
        if spec is not None:
            warning = weak_cipher_warning(spec)
            if protection is not Protection.RAW and self.job is None:
                note = f"Runs with {spec.library}; any library with {spec.id} decrypts it."
            raw_note = raw_notes(spec)
            if self.job is not None and protection is Protection.RAW:
                raw_note += kept_ciphertext_note(self.job.kept_is_one_message)
            self.raw_note.setText(raw_note)
        self.cipher_warning.setText(warning)
        self._form.setRowVisible(self.cipher_warning, bool(warning))
        self.cipher_note.setText(note)
        self._form.setRowVisible(self.cipher_note, bool(note))
        grow_to_fit(self)
        base = self._default_source_name()
        if base and spec is not None:
            self._set_default(self.output_field, default_output(base, protection, spec.id))
        self._on_output_field_changed()

    @Slot(int, bool)
    def _on_protection_group_toggled(self, button_id: int, checked: bool) -> None:
        if checked:
            self._show_page(list(PROTECTION_TEXT)[button_id])
            self.message.clear_message()
            self.notice.clear_message()
            self._on_inputs_changed()

    def _show_page(self, protection: Protection) -> None:
        for p, page in self.pages.items():
            self._form.setRowVisible(page, p is protection)

    @Slot()
    def _on_output_field_changed(self) -> None:
        output = self.output_field.line_edit.text().strip()
        if output:
            for protection, field in (
                (Protection.NEW_KEY_FILE, self.new_key_field),
                (Protection.RAW, self.raw_key_field),
            ):
                self._set_default(field, default_key_path(output, protection))

    def _problem(self) -> str:
        """Why the request cannot start yet, or ""."""
        source, output = self.source(), self.output_field.path()
        if not source:
            return "Choose the file to encrypt."
        if self.job is None and not os.path.isfile(source):
            return f"{source} is not a file."
        if not output:
            return "Choose where to save the encrypted file."
        protection = self.protection
        if protection is Protection.PASSWORD:
            return self.password_fields.problem()
        key_field = self._key_path_field()
        assert key_field is not None
        return key_file_problem(protection, key_field.path(), output)

    def _outputs(self) -> list[str]:
        outputs = [self.output_field.path()]
        if self.protection is Protection.RAW:
            outputs.append(self.raw_key_field.path())
        return outputs

    def _output_problem(self) -> str:
        """Why an output cannot be written whatever the user agrees to (a folder, the input
        itself, a missing folder, a device): said before "Replace it?" is asked."""
        try:
            for path in self._outputs():
                check_output(os.path.abspath(path), force=True, inputs=[self.source()])
        except UserError as exc:
            return f"{sentence(str(exc))}."
        return ""

    def _confirm_overwrite(self) -> bool | None:
        """True: replace existing outputs (the user agreed); False: none exist; None: no."""
        outputs = self._outputs()
        existing = [p for p in outputs if os.path.exists(p)]
        if not existing:
            return False
        names = "\n".join(existing)
        agreed = self._ask_replace(
            f"This already exists:\n{names}\n\nReplace it?"
            if len(existing) == 1
            else f"These already exist:\n{names}\n\nReplace them?"
        )
        return True if agreed else None

    @Slot()
    def _on_encrypt_button_clicked(self) -> None:
        if self.task.running:
            return
        problem = self._problem() or self._output_problem()
        hint = self.password_fields.hint_label
        if problem and hint.isVisible() and problem in hint.text():
            self.message.clear_message()  # said in red under the fields already: not twice
            self.password_fields.focus()
            return
        if problem:
            self.message.show_error(problem)
            return
        force = self._confirm_overwrite()
        if force is None:
            self.message.show_info("Nothing was written.")
            return
        spec = self.spec()
        assert spec is not None
        key_field = self._key_path_field()
        request = EncryptRequest(
            source=self.source(),
            output=self.output_field.path(),
            cipher_id=spec.id,
            protection=self.protection,
            library=spec.library,
            key_bits=spec.key_bits,
            password=self.password_fields.password() or None,
            key_path=key_field.path() if key_field else None,
            force=force,
            job=self.job,
        )
        self.password_fields.clear()
        self.settings.last_folder = str(Path(request.output).parent)
        self.message.clear_message()
        self.notice.clear_message()
        self.form_box.setEnabled(False)
        self.encrypt_button.setEnabled(False)
        self.task.start("Encrypting", encrypt, request)

    @Slot(object)
    def _on_task_succeeded(self, value: object) -> None:
        outcome = value
        assert isinstance(outcome, EncryptOutcome)  # what encrypt() returns
        self.message.show_ok(outcome.summary)
        lines = [f"⚠ {outcome.key_warning}"] if outcome.key_warning else []
        if outcome.openssl_command:
            lines.append(f"To decrypt with OpenSSL: {outcome.openssl_command}")
        if lines:
            self.notice.show_warning("\n".join(lines))
            self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        grow_to_fit(self)
        self.close_button.setFocus()
        self.encrypted.emit(outcome)

    def _task_stopped(self) -> None:
        self.form_box.setEnabled(True)
        self.encrypt_button.setEnabled(True)
        if self.protection is Protection.PASSWORD:
            self.password_fields.focus()
