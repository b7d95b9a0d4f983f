"""Save encrypted, Encrypt file and Decrypt file, driven as a user would: typed passwords,
clicked buttons, answered questions; the files checked with the core API and OpenSSL."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from conftest import Dialogs
from gui_factories import KeepingRun
from leftovers import outlived, spawned_children
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from app.core.ciphers.registry import lookup
from app.core.files import container, container_format, container_keys
from app.core.files.container import Argon2Params
from app.core.files.container_keys import KdfPolicy
from app.core.files.progress import Progress
from app.core.files.rawexport import decrypt_raw, read_raw_key
from app.core.runtime import scratch
from app.gui.dialogs.crypt_tasks import Protection
from app.gui.dialogs.decrypt_dialog import TEMP_PREFIX, DecryptDialog
from app.gui.dialogs.encrypt_dialog import EncryptDialog
from app.gui.main.window import MainWindow
from app.gui.selection import make_selection
from app.gui.settings import AppSettings

PASSWORD = "correct horse battery staple"
TASK_TIMEOUT_MS = 20_000
TEXT = "CipherBench dialog test: ünïcödé text, nothing secret.\n" * 200  # about 11 KB


@pytest.fixture(autouse=True)
def cheap_kdf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(container, "DEFAULT_ARGON2", Argon2Params(64, 1, 1))


@pytest.fixture
def window(qtbot: QtBot, settings: AppSettings, dialogs: Dialogs) -> Iterator[MainWindow]:
    w = MainWindow(settings=settings, run_factory=KeepingRun)
    qtbot.addWidget(w)  # not shown: the dialogs need no charts (built after the first paint)
    yield w
    w.close()


@pytest.fixture
def text_file(tmp_path: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


@pytest.fixture
def binary_file(tmp_path: Path) -> Path:
    path = tmp_path / "photo.raw"
    path.write_bytes(bytes(range(256)) * 40 + os.urandom(5000))
    return path


def _finish_a_job(
    qtbot: QtBot,
    w: MainWindow,
    path: Path,
    algorithm: str = "AES",
    bits: int = 256,
    mode: str = "CTR",
    library: str = "cryptography",
) -> None:
    """Benchmark ``path`` with one cipher and select the finished row."""
    assert w.controller.set_input_file(str(path))
    w.selection_panel.set_selection(make_selection({algorithm: ((bits,), (mode,))}, (library,)))
    w.run_action.trigger()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=TASK_TIMEOUT_MS)
    assert w.controller.model.rowCount() == 1, w.controller.failures
    w.table.selectRow(0)


def _wait_task(qtbot: QtBot, dialog: EncryptDialog | DecryptDialog) -> None:
    qtbot.waitUntil(lambda: not dialog.task.running, timeout=TASK_TIMEOUT_MS)


def _type_password(qtbot: QtBot, dialog: EncryptDialog | DecryptDialog, password: str) -> None:
    fields = dialog.password_fields
    qtbot.keyClicks(fields.first_edit, password)
    if fields.second_edit.isVisibleTo(dialog):
        qtbot.keyClicks(fields.second_edit, password)


def _click(qtbot: QtBot, button: object) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _decrypt_in_window(qtbot: QtBot, w: MainWindow, encrypted: Path) -> DecryptDialog:
    w.decrypt_file_action.trigger()
    dialog = w.crypt_dialog
    assert isinstance(dialog, DecryptDialog) and dialog.isVisible()
    dialog.source_field.set_path(str(encrypted))
    return dialog


def _temp_dirs() -> set[str]:
    return {p for p in os.listdir(scratch.root()) if p.startswith(TEMP_PREFIX)}


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "settings.ini")


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


# --- the main flows ---------------------------------------------------------------------------


def test_save_encrypted_with_a_password_then_decrypt_preview_and_save(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    text_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = window
    temp_before = _temp_dirs()
    _finish_a_job(qtbot, w, text_file)
    assert w.save_encrypted_button.isEnabled()

    # 1. Save encrypted…: the job's cipher, a password typed twice, a strength hint
    _click(qtbot, w.save_encrypted_button)
    dialog = w.crypt_dialog
    assert isinstance(dialog, EncryptDialog) and dialog.windowTitle() == "Save encrypted"
    assert "aes-256-ctr [cryptography]" in dialog.job_label.text()
    # The file's size as the input list says it (14.35 KiB here, 14.69 KB there: one family)
    listed = w.input_panel.list.item(0).text().split(" — ")[1]
    assert f"({listed})" in dialog.job_label.text() and listed.endswith((" B", " KB", " MB"))
    assert dialog.protection is Protection.PASSWORD
    qtbot.keyClicks(dialog.password_fields.first_edit, "short")
    assert "too short" in dialog.password_fields.hint_label.text()
    dialog.password_fields.clear()
    _type_password(qtbot, dialog, PASSWORD)
    assert "28 characters: good" in dialog.password_fields.hint_label.text()
    out = tmp_path / "notes.txt.cbf"
    dialog.output_field.set_path(str(out))
    _click(qtbot, dialog.encrypt_button)
    assert dialog.password_fields.first_edit.text() == ""  # cleared as soon as it is used
    _wait_task(qtbot, dialog)
    assert f"Encrypted {listed} with" in dialog.message.text(), dialog.message.text()
    info = container.read_header(out)
    assert (info.cipher_id, info.key_bits, info.needs_password) == ("aes-256-ctr", 256, True)
    assert str(out) in w.status_label.text()
    dialog.close()
    assert w.crypt_dialog is None

    # 2. Decrypt file…: the header says what it needs; the password; the preview
    dialog = _decrypt_in_window(qtbot, w, out)
    assert "aes-256-ctr" in dialog.info_label.text()
    assert "password" in dialog.info_label.text()
    assert dialog.password_fields.isVisibleTo(dialog)
    assert not dialog.key_field.isVisibleTo(dialog)
    assert not dialog.decrypt_button.isEnabled()
    _type_password(qtbot, dialog, PASSWORD)
    _click(qtbot, dialog.decrypt_button)
    assert dialog.password_fields.first_edit.text() == ""
    _wait_task(qtbot, dialog)
    assert "authenticated" in dialog.message.text(), dialog.message.text()
    assert "UTF-8 text" in dialog.preview_caption.text()
    assert dialog.preview_text.toPlainText() == TEXT[: len(dialog.preview_text.toPlainText())]
    assert dialog.preview_text.toPlainText().startswith("CipherBench dialog test: ünïcödé")
    temp = dialog.temp_dir
    assert temp is not None and oct(os.stat(temp).st_mode & 0o777) == "0o700"

    # 3. Save plaintext…, then close: the temporary folder is gone
    target = tmp_path / "restored.txt"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), ""))
    )
    _click(qtbot, dialog.save_button)
    _wait_task(qtbot, dialog)
    assert target.read_text(encoding="utf-8") == TEXT
    assert str(target) in dialog.message.text()
    assert not dialog.save_button.isEnabled()  # moved, not copied
    dialog.close()
    assert not os.path.exists(temp)
    assert _temp_dirs() == temp_before
    assert dialogs.warnings == [] and dialogs.questions == []

    # the password went nowhere: not in the settings, the status bar or the files' names
    w.save_settings()
    settings_text = Path(w.settings.qsettings.fileName()).read_text(encoding="utf-8")
    assert PASSWORD not in settings_text and "horse" not in settings_text
    assert PASSWORD not in w.status_label.text()
    assert PASSWORD.encode() not in out.read_bytes()
    assert text_file.read_text(encoding="utf-8") == TEXT  # the input is never touched


def test_encrypt_file_with_a_new_key_file_then_decrypt_a_binary_file(
    qtbot: QtBot,
    window: MainWindow,
    binary_file: Path,
    tmp_path: Path,
) -> None:
    w = window
    w.encrypt_file_action.trigger()
    dialog = w.crypt_dialog
    assert isinstance(dialog, EncryptDialog) and dialog.windowTitle() == "Encrypt a file"
    assert dialog.cipher_combo.currentData() == "aes-256-gcm"
    assert any(
        "weak" in dialog.cipher_combo.itemText(i) and dialog.cipher_combo.itemData(i) == "des-cbc"
        for i in range(dialog.cipher_combo.count())
    )
    dialog.source_field.set_path(str(binary_file))
    assert dialog.output_field.path() == str(binary_file) + ".cbf"
    dialog.set_protection(Protection.NEW_KEY_FILE)
    key = tmp_path / "photo.raw.cbkey"
    assert dialog.new_key_field.path() == str(key)
    assert "unlocks the data" in dialog.new_key_warning.text()
    assert dialog.new_key_warning.isVisibleTo(dialog)
    assert not dialog.password_fields.isVisibleTo(dialog)
    _click(qtbot, dialog.encrypt_button)
    _wait_task(qtbot, dialog)
    out = tmp_path / "photo.raw.cbf"
    assert "unlocked by the new key file" in dialog.message.text(), dialog.message.text()
    assert "keep a copy" in dialog.notice.text() and str(key) in dialog.notice.text()
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    assert json.loads(key.read_text())["format"] == "cipherbench-key-file"
    assert container.read_header(out).needs_key_file
    dialog.close()

    dialog = _decrypt_in_window(qtbot, w, out)
    assert "key file" in dialog.info_label.text()
    assert not dialog.password_fields.isVisibleTo(dialog)
    assert dialog.key_field.path() == str(key)  # found beside it
    _click(qtbot, dialog.decrypt_button)
    _wait_task(qtbot, dialog)
    assert "binary data, as hex" in dialog.preview_caption.text()
    assert "the first 4,096" in dialog.preview_caption.text()
    assert dialog.preview_text.toPlainText().startswith(
        "00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|"
    )
    target = tmp_path / "photo.copy"
    assert dialog.save_to(str(target))
    _wait_task(qtbot, dialog)
    assert target.read_bytes() == binary_file.read_bytes()
    dialog.close()


def test_save_encrypted_raw_decrypts_with_decrypt_raw_and_openssl(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    text_file: Path,
    tmp_path: Path,
) -> None:
    # (test_workflow does the same with the real engine's kept ciphertext, in CTR mode)
    w = window
    _finish_a_job(qtbot, w, text_file, mode="CBC")
    kept = w.controller.finished_job(0).secret.ciphertext_path

    dialog = w.open_encrypt_dialog(w.controller.finished_job(0))
    assert dialog is not None
    dialog.set_protection(Protection.RAW)
    out = Path(dialog.output_field.path())
    key = Path(dialog.raw_key_field.path())
    assert out.name == "notes.txt.aes-256-cbc.enc" and key.name == out.name + ".key.json"
    dialog.output_field.set_path(str(tmp_path / out.name))  # the settings' folder is ~
    key = tmp_path / key.name
    assert dialog.raw_key_field.path() == str(key)  # follows the output
    assert "benchmark's own ciphertext" in dialog.raw_note.text()
    assert "openssl enc -d can decrypt it" in dialog.raw_note.text()
    _click(qtbot, dialog.encrypt_button)
    _wait_task(qtbot, dialog)
    out = tmp_path / out.name
    assert "To decrypt with OpenSSL: openssl enc -d -aes-256-cbc" in dialog.notice.text()
    assert out.read_bytes() == Path(kept).read_bytes()
    raw_key = read_raw_key(key)
    assert (raw_key.cipher_id, raw_key.plaintext_bytes) == ("aes-256-cbc", len(TEXT.encode()))
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    decrypt_raw(out, tmp_path / "by-core.txt", key)
    assert (tmp_path / "by-core.txt").read_text(encoding="utf-8") == TEXT
    if shutil.which("openssl"):
        command = raw_key.openssl_command(str(out), str(tmp_path / "by-openssl.txt"))
        subprocess.run(command, check=True, capture_output=True, timeout=30)
        assert (tmp_path / "by-openssl.txt").read_text(encoding="utf-8") == TEXT
    dialog.close()

    # and in the window: a raw file with its .key.json beside it
    dialog = _decrypt_in_window(qtbot, w, out)
    assert "Raw ciphertext" in dialog.info_label.text()
    assert "no integrity check" in dialog.info_label.text()
    assert dialog.key_field.path() == str(key)
    _click(qtbot, dialog.decrypt_button)
    _wait_task(qtbot, dialog)
    assert dialog.preview_text.toPlainText().startswith("CipherBench dialog test")
    dialog.close()
    assert dialogs.warnings == []


def test_raw_export_of_a_stream_mode_aead_job_encrypts_the_input_again(
    qtbot: QtBot,
    settings: AppSettings,
    dialogs: Dialogs,
    text_file: Path,
    tmp_path: Path,
) -> None:
    w = MainWindow(
        settings=settings, run_factory=lambda jobs, cancel: KeepingRun(jobs, cancel, "stream")
    )
    qtbot.addWidget(w)
    _finish_a_job(qtbot, w, text_file, mode="GCM")
    job = w.controller.finished_job(0)
    assert job.kept and not job.kept_is_one_message
    dialog = w.open_encrypt_dialog(job)
    dialog.set_protection(Protection.RAW)
    assert "fresh key" in dialog.raw_note.text()
    out = tmp_path / "notes.gcm.enc"
    dialog.output_field.set_path(str(out))
    _click(qtbot, dialog.encrypt_button)
    _wait_task(qtbot, dialog)
    assert "fresh random key" in dialog.message.text(), dialog.message.text()
    decrypt_raw(out, tmp_path / "back.txt", str(out) + ".key.json")
    assert (tmp_path / "back.txt").read_text(encoding="utf-8") == TEXT
    dialog.close()
    w.close()


# --- failures: plain messages, nothing left behind -----------------------------------------------


def test_wrong_password_or_modified_file_shows_the_message_and_leaves_nothing(
    qtbot: QtBot,
    window: MainWindow,
    text_file: Path,
    tmp_path: Path,
) -> None:
    out = tmp_path / "notes.cbf"
    container.encrypt_file(text_file, out, password=PASSWORD)
    temp_before = _temp_dirs()
    dialog = _decrypt_in_window(qtbot, window, out)
    _type_password(qtbot, dialog, "not the password")
    _click(qtbot, dialog.decrypt_button)
    _wait_task(qtbot, dialog)
    text = dialog.message.text()
    assert text.startswith("Wrong password or key file, or the file"), text
    assert "Nothing was written." in text
    assert dialog.message.isVisible()
    assert not dialog.preview_box.isVisible() and not dialog.save_button.isEnabled()
    assert dialog.plaintext_path is None and dialog.temp_dir is None
    assert _temp_dirs() == temp_before
    assert dialog.password_fields.first_edit.text() == ""

    # one flipped bit in the body: the right password, and still nothing
    data = bytearray(out.read_bytes())
    data[-40] ^= 1
    out.write_bytes(bytes(data))
    _type_password(qtbot, dialog, PASSWORD)
    _click(qtbot, dialog.decrypt_button)
    _wait_task(qtbot, dialog)
    assert "modified" in dialog.message.text(), dialog.message.text()
    assert dialog.temp_dir is None and _temp_dirs() == temp_before
    assert _leftovers(tmp_path) == []

    # not a CipherBench file, no key beside it: asked for the raw key; a key file by mistake
    dialog.source_field.set_path(str(text_file))
    assert "Raw ciphertext" in dialog.info_label.text()
    assert not dialog.decrypt_button.isEnabled()
    key = tmp_path / "k.cbkey"
    container.write_key_file(key, container.new_key())
    dialog.source_field.set_path(str(key))
    assert "is a key file" in dialog.info_label.text()
    dialog.close()


def test_cancel_mid_way_leaves_no_output(
    qtbot: QtBot,
    window: MainWindow,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(6 * 2**20))
    real_check = Progress.check_cancel

    def slow_check(self: Progress) -> None:  # every chunk takes a while: time to click Cancel
        time.sleep(0.05)
        real_check(self)

    monkeypatch.setattr(Progress, "check_cancel", slow_check)
    w = window
    before = _files(tmp_path)
    dialog = w.open_encrypt_dialog()
    dialog.source_field.set_path(str(big))
    dialog.set_protection(Protection.NEW_KEY_FILE)
    _click(qtbot, dialog.encrypt_button)
    assert dialog.task.isVisible() and not dialog.encrypt_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.task.bar.value() > 0, timeout=TASK_TIMEOUT_MS)
    _click(qtbot, dialog.task.cancel_button)
    _wait_task(qtbot, dialog)
    assert dialog.message.text() == "Cancelled. Nothing was written."
    assert _files(tmp_path) == before  # no output, no key file, no .part
    assert dialog.encrypt_button.isEnabled()

    # decryption cancelled: no plaintext, no temporary folder
    monkeypatch.setattr(Progress, "check_cancel", real_check)
    out = tmp_path / "big.cbf"
    container.encrypt_file(big, out, password=PASSWORD)
    monkeypatch.setattr(Progress, "check_cancel", slow_check)
    dialog.close()
    temp_before = _temp_dirs()
    dialog = _decrypt_in_window(qtbot, w, out)
    _type_password(qtbot, dialog, PASSWORD)
    _click(qtbot, dialog.decrypt_button)
    # Closing the dialog mid-way cancels, then closes once the work has stopped.
    dialog.close()
    assert dialog.isVisible()
    qtbot.waitUntil(lambda: w.crypt_dialog is None, timeout=TASK_TIMEOUT_MS)
    assert _temp_dirs() == temp_before

    # closing the window mid-way: cancelled, waited for, temporary folder gone
    dialog = _decrypt_in_window(qtbot, w, out)
    _type_password(qtbot, dialog, PASSWORD)
    _click(qtbot, dialog.decrypt_button)
    assert dialog.task.running and len(_temp_dirs()) == len(temp_before) + 1
    w.close()
    assert _temp_dirs() == temp_before


def test_overwrite_needs_confirmation(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    text_file: Path,
    tmp_path: Path,
) -> None:
    out = tmp_path / "existing.cbf"
    out.write_bytes(b"precious")
    dialog = window.open_encrypt_dialog()
    dialog.source_field.set_path(str(text_file))
    dialog.output_field.set_path(str(out))
    _type_password(qtbot, dialog, PASSWORD)
    dialogs.answer = QMessageBox.StandardButton.No
    _click(qtbot, dialog.encrypt_button)
    assert dialogs.questions[-1][0] == "Replace the file?"
    assert str(out) in dialogs.questions[-1][1]
    assert not dialog.task.running and out.read_bytes() == b"precious"
    assert dialog.message.text() == "Nothing was written."
    dialogs.answer = QMessageBox.StandardButton.Yes
    assert dialog.password_fields.password() == PASSWORD  # kept until the work starts
    _click(qtbot, dialog.encrypt_button)
    _wait_task(qtbot, dialog)
    assert container.read_header(out).needs_password

    # a key file is never replaced, whatever the answer
    dialog.set_protection(Protection.NEW_KEY_FILE)
    key = Path(dialog.new_key_field.path())
    key.write_text("my old key")
    asked = len(dialogs.questions)
    _click(qtbot, dialog.encrypt_button)
    assert "never replaced" in dialog.message.text()
    assert key.read_text() == "my old key" and len(dialogs.questions) == asked
    dialog.close()

    # saving the plaintext over an existing file asks too
    dialog = _decrypt_in_window(qtbot, window, out)
    _type_password(qtbot, dialog, PASSWORD)
    _click(qtbot, dialog.decrypt_button)
    _wait_task(qtbot, dialog)
    assert dialog.save_button.isEnabled(), dialog.message.text()
    assert not dialog.save_to(str(tmp_path / "no-such-folder" / "x.txt"))
    assert "does not exist" in dialog.message.text() and dialog.save_button.isEnabled()
    target = tmp_path / "taken.txt"
    target.write_text("keep me")
    dialogs.answer = QMessageBox.StandardButton.No
    assert not dialog.save_to(str(target))
    assert target.read_text() == "keep me" and dialog.save_button.isEnabled()
    dialogs.answer = QMessageBox.StandardButton.Yes
    assert dialog.save_to(str(target))
    _wait_task(qtbot, dialog)
    assert target.read_text(encoding="utf-8") == TEXT
    assert not dialog.save_to(str(out))  # nothing left to save
    assert not dialog.save_to(str(tmp_path / "no-such-folder" / "x.txt"))
    dialog.close()


def test_dialogs_wait_for_a_run(qtbot: QtBot, window: MainWindow, text_file: Path) -> None:
    w = window
    assert w.encrypt_file_action.isEnabled() and w.decrypt_file_action.isEnabled()
    assert not w.save_encrypted_action.isEnabled()  # nothing selected
    _finish_a_job(qtbot, w, text_file)
    assert w.save_encrypted_action.isEnabled() and w.save_plaintext_action.isEnabled()
    w.options_panel.keep_check.setChecked(False)
    w.run_action.trigger()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=TASK_TIMEOUT_MS)
    assert w.controller.model.rowCount() == 2  # results accumulate until Reset
    w.table.selectRow(1)
    # without a kept ciphertext the data can still be saved encrypted (from the input)
    assert w.save_encrypted_action.isEnabled() and not w.save_plaintext_action.isEnabled()
    w.table.selectRow(0)  # the first run's row still has its ciphertext
    assert w.save_plaintext_action.isEnabled()


# --- an unusually expensive password derivation (issue 7) ---------------------------------------


def _expensive_question(dialogs: Dialogs) -> str:
    title, text = dialogs.questions[-1]
    assert title == "Unusually expensive password check"
    return text


def test_expensive_kdf_asks_then_decrypts_or_stops(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    text_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(container_keys, "READER_POLICY", KdfPolicy(64, 64, 1))
    out = tmp_path / "notes.cbf"
    container.encrypt_file(text_file, out, password=PASSWORD, kdf_params=Argon2Params(256, 2, 1))
    temp_before = _temp_dirs()
    dialog = _decrypt_in_window(qtbot, window, out)
    _type_password(qtbot, dialog, PASSWORD)
    dialogs.answer = QMessageBox.StandardButton.No
    _click(qtbot, dialog.decrypt_button)
    qtbot.waitUntil(lambda: len(dialogs.questions) == 1, timeout=TASK_TIMEOUT_MS)
    text = _expensive_question(dialogs)
    assert "unusually expensive password derivation: about 0.0 s and 0 MiB." in text
    assert not dialog.task.running and not dialog.decrypt_button.isEnabled()  # password cleared
    assert dialog.message.text() == (
        "Not decrypted: the password was not checked. Nothing was written."
    )
    assert dialog.plaintext_path is None and _temp_dirs() == temp_before

    dialogs.answer = QMessageBox.StandardButton.Yes
    _type_password(qtbot, dialog, PASSWORD)
    _click(qtbot, dialog.decrypt_button)
    qtbot.waitUntil(lambda: dialog.plaintext_path is not None, timeout=TASK_TIMEOUT_MS)
    assert len(dialogs.questions) == 2
    _expensive_question(dialogs)
    assert Path(dialog.plaintext_path).read_text(encoding="utf-8") == TEXT
    assert dialog.preview_box.isVisible()
    dialog.close()


def test_cancel_stops_an_expensive_derivation_within_a_second(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    tmp_path: Path,
) -> None:
    # 64 MiB x 64 passes: above the reader's policy and seconds long; the MAC is random, so the
    # derivation is all there is to run.
    spec = lookup("aes-256-gcm", "cryptography")
    slow = Argon2Params(memory_kib=64 * 1024, iterations=64, lanes=1)
    signed = container_format.encode_header(spec, 64, slow, os.urandom(16), os.urandom(32))
    encrypted = tmp_path / "slow.cbf"
    encrypted.write_bytes(signed + os.urandom(32) + os.urandom(17))
    temp_before = _temp_dirs()
    dialog = _decrypt_in_window(qtbot, window, encrypted)
    _type_password(qtbot, dialog, PASSWORD)
    dialogs.answer = QMessageBox.StandardButton.Yes
    _click(qtbot, dialog.decrypt_button)
    qtbot.waitUntil(lambda: bool(_derivation_children()), timeout=TASK_TIMEOUT_MS)
    assert "about 4.3 s and 64 MiB" in _expensive_question(dialogs)
    children = _derivation_children()
    qtbot.wait(200)
    assert dialog.task.running
    started = time.perf_counter()
    _click(qtbot, dialog.task.cancel_button)
    qtbot.waitUntil(lambda: not dialog.task.running, timeout=TASK_TIMEOUT_MS)
    assert time.perf_counter() - started < 1.0
    assert dialog.message.text() == "Cancelled. Nothing was written."
    assert not outlived(children, 0)  # at once: the cancel waited for them
    assert _temp_dirs() == temp_before and _files(tmp_path) == ["slow.cbf"]
    dialog.close()


def _derivation_children() -> list[psutil.Process]:
    return spawned_children(recursive=False)


def test_a_new_path_clears_the_previous_files_preview_and_key(
    qtbot: QtBot, window: MainWindow, binary_file: Path, text_file: Path, tmp_path: Path
) -> None:
    w = window
    w.encrypt_file_action.trigger()
    encrypt = w.crypt_dialog
    assert isinstance(encrypt, EncryptDialog)
    encrypt.source_field.set_path(str(binary_file))
    encrypt.set_protection(Protection.NEW_KEY_FILE)
    _click(qtbot, encrypt.encrypt_button)
    _wait_task(qtbot, encrypt)
    encrypt.close()

    dialog = _decrypt_in_window(qtbot, w, tmp_path / "photo.raw.cbf")
    assert dialog.key_field.path() == str(tmp_path / "photo.raw.cbkey")  # guessed
    _click(qtbot, dialog.decrypt_button)
    _wait_task(qtbot, dialog)
    assert dialog.preview_box.isVisible() and dialog.save_button.isEnabled()
    temp = dialog.temp_dir
    assert temp is not None

    dialog.source_field.line_edit.clear()
    qtbot.keyClicks(dialog.source_field.line_edit, str(text_file))  # typed, not browsed
    assert not dialog.preview_box.isVisible()
    assert dialog.preview_text.toPlainText() == "" and dialog.preview_caption.text() == ""
    assert dialog.plaintext_path is None and not dialog.save_button.isEnabled()
    assert dialog.temp_dir is None and not os.path.exists(os.path.join(scratch.root(), temp))
    assert dialog.key_field.path() == ""  # the other file's key file was only a guess
    dialog.close()


@pytest.mark.parametrize("output", ["the input", "a folder"])
def test_an_output_that_cannot_be_written_is_said_before_replace_is_asked(
    qtbot: QtBot, window: MainWindow, binary_file: Path, dialogs: Dialogs, output: str
) -> None:
    """The input itself or a folder as Save as: "Replace it?" came first, and only after Yes
    the refusal, with the password to type again (an attacker's walk)."""
    window.encrypt_file_action.trigger()
    dialog = window.crypt_dialog
    assert isinstance(dialog, EncryptDialog)
    dialog.source_field.set_path(str(binary_file))
    target = binary_file if output == "the input" else binary_file.parent
    dialog.output_field.set_path(str(target))
    dialog.set_protection(Protection.PASSWORD)
    _type_password(qtbot, dialog, "correct horse battery")
    before = binary_file.read_bytes()
    _click(qtbot, dialog.encrypt_button)
    assert dialogs.questions == []  # never asked to replace
    expected = "is the input file" if output == "the input" else "is a folder"
    assert expected in dialog.message.text(), dialog.message.text()
    assert dialog.password_fields.password() == "correct horse battery"  # kept to fix the name
    assert not dialog.task.running and binary_file.read_bytes() == before
    dialog.close()


def test_passwords_that_differ_are_said_once(
    qtbot: QtBot, window: MainWindow, binary_file: Path
) -> None:
    """ "The two passwords differ." stood under the fields and again in the message line."""
    window.show()
    window.encrypt_file_action.trigger()
    dialog = window.crypt_dialog
    assert isinstance(dialog, EncryptDialog)
    dialog.source_field.set_path(str(binary_file))
    dialog.set_protection(Protection.PASSWORD)
    qtbot.keyClicks(dialog.password_fields.first_edit, "correct horse battery")
    qtbot.keyClicks(dialog.password_fields.second_edit, "correct horse batterx")
    _click(qtbot, dialog.encrypt_button)
    shown = dialog.password_fields.hint_label.text() + dialog.message.text()
    assert shown.count("The two passwords differ.") == 1 and not dialog.task.running
    dialog.close()
