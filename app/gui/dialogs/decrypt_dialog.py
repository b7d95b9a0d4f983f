"""The "Decrypt file…" dialog: a CipherBench file with its password or key file, or raw
ciphertext with its JSON key file; then a preview of the plaintext and "Save plaintext…".

Choosing a file reads its header at once (no secret needed): the dialog shows the cipher and the
sizes and asks for what the file needs. Decryption runs in the pool with progress and Cancel,
into a private temporary folder (mode 0700, plaintext files 0600); only a file that decrypted
completely (and, for CipherBench files, authenticated: every chunk and the end) appears there.
"Save plaintext…" then moves it where the user chooses, after confirming any overwrite. The
temporary folder is deleted when the dialog closes, or when another file is decrypted.

A file asking for an unusually expensive password derivation comes back from the worker as a
:class:`KdfQuestion` before any work; the dialog asks (in the GUI thread) with the estimated
time and memory, and runs the same request again with the cost allowed, or stops. Cancel stops
such a derivation within a second (the core runs it in a process it can kill).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import UserError
from app.core.files.protect import describe_container
from app.core.runtime import scratch
from app.core.runtime.output_checks import check_output
from app.gui.describe import sentence
from app.gui.dialogs.crypt_files import (
    FileIdentity,
    guess_key_file,
    identify,
    plaintext_name,
    read_raw_key_quietly,
)
from app.gui.dialogs.crypt_tasks import (
    DecryptOutcome,
    DecryptRequest,
    KdfQuestion,
    decrypt,
    save_plaintext,
)
from app.gui.dialogs.crypt_texts import expensive_kdf_question, plain_message, raw_ciphertext_info
from app.gui.dialogs.crypt_widgets import (
    PasswordFields,
    PathField,
    form_label,
    grow_to_fit,
    label_width,
)
from app.gui.dialogs.decrypt_preview import build_preview_box, show_plaintext
from app.gui.dialogs.dialog_base import NOTHING_WRITTEN, CryptDialogBase
from app.gui.label import Label
from app.gui.settings import AppSettings

TEMP_PREFIX = "plain-"  # a folder in the process's scratch root (app.core.runtime.scratch)


class DecryptDialog(CryptDialogBase):
    """Decrypt, preview, save. Signal ``saved(path)`` after "Save plaintext…" succeeded."""

    saved = Signal(str)

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(settings, parent)
        self.identity: FileIdentity | None = None
        self.outcome: DecryptOutcome | None = None
        self._temp_dir: str | None = None
        # The running request (it holds the password) and the worker's question about it: kept
        # only until the task finishes, to run it again if the user allows the cost.
        self._request: DecryptRequest | None = None
        self._question: KdfQuestion | None = None
        self._finished_request: DecryptRequest | None = None
        self._finished_question: KdfQuestion | None = None
        self._saving = False
        self._guessed_key = ""  # the key file the dialog filled in (not the user)
        self.setWindowTitle("Decrypt a file")
        self.setMinimumWidth(680)
        self._build()
        self._update_buttons()

    # --- construction -----------------------------------------------------------------------

    def _build(self) -> None:
        self.form_box = QWidget()
        self._build_form(self.form_box)
        self.decrypt_button = QPushButton("Decrypt")
        self.decrypt_button.setDefault(True)
        self.preview_box, self.preview_caption, self.preview_text = build_preview_box()
        self.save_button = QPushButton("Save plaintext…")
        self.save_button.setToolTip("Move the decrypted file where you choose")

        layout = QVBoxLayout(self)
        layout.addWidget(self.form_box)
        layout.addWidget(self.message)
        layout.addWidget(self.task)
        layout.addWidget(self.preview_box, 1)
        layout.addStretch(1)  # takes the room while there is no preview
        layout.addWidget(self._make_buttons(self.decrypt_button, self.save_button))
        self._layout = layout

        self.source_field.changed.connect(self._on_source_field_changed)
        self.key_field.changed.connect(self._on_key_field_changed)
        self.password_fields.changed.connect(self._update_buttons)
        self.password_fields.first_edit.returnPressed.connect(self.decrypt_button.click)
        self.decrypt_button.clicked.connect(self._on_decrypt_button_clicked)
        self.save_button.clicked.connect(self._on_save_button_clicked)
        self._set_preview_visible(False)
        self._show_secret_fields()

    def _build_form(self, box: QWidget) -> None:
        """The encrypted file, what it is, and the secret it needs."""
        s = self.settings
        width = label_width(self, ["Encrypted file:", "Key file (.json):"])
        form = QFormLayout(box)
        form.setContentsMargins(0, 0, 0, 0)
        self.source_field = PathField(
            "open", "Choose the encrypted file", s, "A CipherBench file (.cbf) or raw ciphertext"
        )
        form.addRow(form_label("Encrypted file:", width), self.source_field)
        self.info_label = Label(
            "Choose a file: CipherBench files say what they need; raw "
            "ciphertext needs the .key.json file exported with it."
        )
        self.info_label.setWordWrap(True)
        form.addRow(form_label("", width), self.info_label)
        self.password_fields = PasswordFields(confirm=False, label_width=width)
        form.addRow(self.password_fields)
        self.key_label = form_label("Key file:", width)
        self.key_field = PathField("open", "Choose the key file", s)
        form.addRow(self.key_label, self.key_field)

    # --- state ------------------------------------------------------------------------------

    @property
    def plaintext_path(self) -> str | None:
        """The decrypted file in the temporary folder, while there is one."""
        if self.outcome is not None and self.outcome.path.is_file():
            return str(self.outcome.path)
        return None

    @property
    def temp_dir(self) -> str | None:
        return self._temp_dir

    def set_source(self, path: str) -> None:
        self.source_field.set_path(path)

    def _needs_password(self) -> bool:
        info = self.identity.info if self.identity else None
        return info is not None and info.needs_password

    def _needs_key_file(self) -> bool:
        return self.identity is not None and not self._needs_password()

    def _show_secret_fields(self) -> None:
        self.password_fields.setVisible(self._needs_password())
        raw = self.identity is not None and not self.identity.is_container
        self.key_label.setText("Key file (.json):" if raw else "Key file:")
        self.key_label.setVisible(self._needs_key_file())
        self.key_field.setVisible(self._needs_key_file())

    def _update_buttons(self) -> None:
        idle = not self.task.running
        ready = self.identity is not None and (
            bool(self.password_fields.password())
            if self._needs_password()
            else bool(self.key_field.path())
        )
        self.decrypt_button.setEnabled(idle and ready)
        self.save_button.setEnabled(idle and self.plaintext_path is not None)
        self.form_box.setEnabled(idle)

    # --- reactions --------------------------------------------------------------------------

    @Slot()
    def _on_source_field_changed(self) -> None:
        path = self.source_field.path()
        self.identity = None
        self.message.clear_message()
        # Another file: the previous one's plaintext, preview and guessed key file are not its.
        self._discard_plaintext()
        self.preview_caption.clear()
        if self._guessed_key and self.key_field.path() == self._guessed_key:
            self.key_field.set_path("")
        self._guessed_key = ""
        if not path:
            self.info_label.setText("Choose the encrypted file.")
        elif not os.path.isfile(path):
            self.info_label.setText("No such file." if not os.path.exists(path) else "Not a file.")
        else:
            try:
                self.identity = identify(path)
            except UserError as exc:
                self.info_label.setText(plain_message(str(exc)))
            else:
                self._describe_identity()
        self._show_secret_fields()
        self._update_buttons()
        grow_to_fit(self)

    def _describe_identity(self) -> None:
        identity = self.identity
        assert identity is not None
        if identity.info is not None:
            self.info_label.setText(describe_container(identity.info))
            if identity.info.needs_key_file:
                self._guess_key_file(guess_key_file(identity.path))
        else:
            self._guess_key_file(identity.raw_key_guess)
            self._on_key_field_changed()

    def _guess_key_file(self, guess: str | None) -> None:
        """Fill in the key file found beside the encrypted one, unless the user chose one."""
        if guess and not self.key_field.path():
            self.key_field.set_path(guess)
            self._guessed_key = guess

    @Slot()
    def _on_key_field_changed(self) -> None:
        identity = self.identity
        if identity is not None and not identity.is_container:
            raw_key = read_raw_key_quietly(self.key_field.path()) if self.key_field.path() else None
            self.info_label.setText(raw_ciphertext_info(raw_key))
            grow_to_fit(self)
        self._update_buttons()

    @Slot()
    def _on_decrypt_button_clicked(self) -> None:
        if self.task.running or self.identity is None:
            return
        identity = self.identity
        if self._needs_password() and not self.password_fields.password():
            self.message.show_error("Type the password.")
            return
        if self._needs_key_file() and not self.key_field.path():
            self.message.show_error("Choose the key file.")
            return
        self._discard_plaintext()
        try:
            self._temp_dir = scratch.make_dir(TEMP_PREFIX)  # private: the root is 0700
        except OSError as exc:
            self.message.show_error(f"Cannot create a temporary folder: {exc.strerror}.")
            return
        needs_password = self._needs_password()
        request = DecryptRequest(
            source=identity.path,
            output=os.path.join(self._temp_dir, plaintext_name(identity.path)),
            raw=not identity.is_container,
            password=self.password_fields.password() if needs_password else None,
            key_path=None if needs_password else self.key_field.path(),
        )
        self.password_fields.clear()
        self.settings.last_folder = str(Path(identity.path).parent)
        self.message.clear_message()
        self._start_decrypt(request)

    def _start_decrypt(self, request: DecryptRequest) -> None:
        self._request = request
        self._question = None
        self.task.start("Decrypting", decrypt, request)
        self._update_buttons()

    @Slot(object)
    def _on_task_succeeded(self, value: object) -> None:
        if isinstance(value, KdfQuestion):  # asked once the worker has finished
            self._question = value
        elif isinstance(value, DecryptOutcome):
            self.outcome = value
            self._show_preview(value)
            self.message.show_ok(value.summary)
        else:  # the move of "Save plaintext…"
            target = str(value)
            self.message.show_ok(f"Saved the plaintext to {target}.")
            self.saved.emit(target)

    def _show_preview(self, outcome: DecryptOutcome) -> None:
        show_plaintext(outcome.path, self.preview_caption, self.preview_text)
        self._set_preview_visible(True)

    def _set_preview_visible(self, visible: bool) -> None:
        self.preview_box.setVisible(visible)
        self._layout.setStretch(self._layout.indexOf(self.preview_box) + 1, 0 if visible else 1)
        grow_to_fit(self)

    @Slot(str)
    def _on_task_failed(self, text: str) -> None:
        if self._saving:  # the decrypted data stays, unless the failed move took it along
            again = "" if self.plaintext_path else " The decrypted data is gone: decrypt again."
            self.message.show_error(plain_message(text) + again)
            return
        self._discard_plaintext()
        self._show_failure(text)
        if self._needs_password():
            self.password_fields.focus()

    def _task_cancelled(self) -> None:
        self._discard_plaintext()

    def _task_stopped(self) -> None:
        self._saving = False
        self._finished_request, self._finished_question = self._request, self._question
        self._request = self._question = None
        self._update_buttons()

    def _task_settled(self) -> None:
        request, question = self._finished_request, self._finished_question
        self._finished_request = self._finished_question = None
        if question is not None and request is not None:
            self._ask_about_kdf(request, question)

    def _ask_about_kdf(self, request: DecryptRequest, question: KdfQuestion) -> None:
        """Run ``request`` again paying the file's Argon2id cost, if the user says so."""
        if self._ask(
            "Unusually expensive password check", expensive_kdf_question(question.message)
        ):
            self._start_decrypt(replace(request, allow_expensive_kdf=True))
            return
        self._discard_plaintext()
        self.message.show_info("Not decrypted: the password was not checked." + NOTHING_WRITTEN)

    @Slot()
    def _on_save_button_clicked(self) -> None:
        source = self.plaintext_path
        if source is None or self.task.running:
            return
        folder = Path(self.identity.path).parent if self.identity else Path.home()
        suggested = str(folder / Path(source).name)
        target, _ = QFileDialog.getSaveFileName(
            self,
            "Save the plaintext as",
            suggested,
            "",
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        if not target:
            return
        self.save_to(target)

    def save_to(self, target: str) -> bool:
        """Move the decrypted file to ``target``, asking before replacing a file. False when
        refused or not started."""
        source = self.plaintext_path
        if source is None or self.task.running:
            return False
        target = os.path.abspath(target)
        inputs = [self.identity.path] if self.identity is not None else []
        try:  # a folder, a device, a missing folder, the encrypted file itself: refused
            check_output(target, force=True, inputs=inputs)
        except UserError as exc:
            self.message.show_error(f"{sentence(str(exc))}.")
            return False
        if os.path.exists(target) and not self._ask_replace(
            f"{target} already exists.\n\nReplace it with the decrypted data?"
        ):
            self.message.show_info("Not saved.")
            return False
        self.settings.last_folder = os.path.dirname(target)
        self._saving = True
        self.task.start("Saving", save_plaintext, source, target, progress=False)
        self._update_buttons()
        return True

    # --- closing ----------------------------------------------------------------------------

    def _discard_plaintext(self) -> None:
        self.outcome = None
        self.preview_text.clear()
        self._set_preview_visible(False)
        self.remove_temporary_files()

    def remove_temporary_files(self) -> None:
        """Delete the temporary folder and the plaintext in it."""
        if self._temp_dir is not None:
            scratch.remove(self._temp_dir)
            self._temp_dir = None

    def _release(self) -> None:
        """Closing forgets the password and takes the temporary files along."""
        super()._release()
        self.remove_temporary_files()
