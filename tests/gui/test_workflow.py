"""The whole window, driven as a user would, against the real engine with tiny inputs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import psutil
import pytest
from conftest import Dialogs
from gui_factories import answer_save_dialog, drop_files, shown_window
from leftovers import spawned_children
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from app.core.ciphers.adapters import get_adapter
from app.core.ciphers.message import decrypt_bytes
from app.core.files.kept import raw_key_path
from app.core.files.rawexport import read_raw_key
from app.gui.dialogs.crypt_tasks import Protection
from app.gui.main.window import MainWindow
from app.gui.results.comparisons_panel import WAITING
from app.gui.results.results_table import COLUMN_INDEX
from app.gui.selection import PRESETS, Selection, make_selection
from app.gui.settings import AppSettings

RUN_TIMEOUT_MS = 90_000
pytestmark = pytest.mark.slow  # the real window against the real engine


@pytest.fixture
def window(qtbot: QtBot, settings: AppSettings, dialogs: Dialogs) -> Iterator[MainWindow]:
    w = shown_window(qtbot, MainWindow(settings=settings), (1400, 900))
    yield w
    if w.isVisible():
        w.close()
        qtbot.waitUntil(lambda: not w.isVisible(), timeout=60_000)
    assert not w.controller.running


@pytest.fixture
def plain_file(tmp_path: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"CipherBench test input, nothing secret.\n" * 1600)  # 64,000 bytes
    return path


def _answer_open_dialog(monkeypatch: pytest.MonkeyPatch, path: Path | str) -> None:
    monkeypatch.setattr(
        QFileDialog, "getOpenFileNames", staticmethod(lambda *a, **k: ([str(path)], ""))
    )


def _fast_options(w: MainWindow) -> None:
    w.options_panel.repeat_spin.setValue(2)
    w.options_panel.warmup_spin.setValue(0)


def _select(w: MainWindow, selection: Selection) -> None:
    w.selection_panel.set_selection(selection)


def _run_and_wait(qtbot: QtBot, w: MainWindow) -> None:
    qtbot.keyClick(w, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert w.controller.running
    qtbot.waitUntil(lambda: not w.controller.running, timeout=RUN_TIMEOUT_MS)


def _cell(w: MainWindow, row: int, header: str) -> str:
    model = w.controller.model
    return model.data(model.index(row, COLUMN_INDEX[header]))


def _worker_processes() -> list[psutil.Process]:
    """Live worker children (not multiprocessing's resource tracker, nor the scratch folder's
    janitor: both live as long as we do)."""
    return spawned_children()


def _no_worker_processes() -> bool:
    return not _worker_processes()


def test_choose_run_export_save_reset(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    plain_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = window
    assert w.windowTitle() == "CipherBench"
    assert not w.export_action.isEnabled()

    # 1. choose the file through the dialog
    _answer_open_dialog(monkeypatch, plain_file)
    qtbot.mouseClick(w.input_panel.choose_button, Qt.MouseButton.LeftButton)
    assert w.input_panel.name_label.text() == "notes.txt"
    assert "64,000 bytes" in w.input_panel.size_label.text()
    assert "text/plain" in w.input_panel.type_label.text()
    assert w.settings.recent_files == [str(plain_file)]

    # 2. the seed 002 preset, then uncheck Blowfish: AES-256 ECB and CTR
    w.selection_panel.apply_preset(0)
    w.selection_panel._items[("alg", "Blowfish")].setCheckState(0, Qt.CheckState.Unchecked)
    assert w.selection_panel.summary_label.text() == "2 jobs selected"
    assert "ECB" in w.selection_panel.notes_label.text()
    _fast_options(w)

    # 3. Run (Ctrl+R), watch it finish
    _run_and_wait(qtbot, w)
    assert dialogs.warnings == []
    model = w.controller.model
    assert model.rowCount() == 2
    assert {_cell(w, r, "Mode") for r in range(2)} == {"ECB", "CTR"}
    for r in range(2):
        assert _cell(w, r, "Verified") == "yes"
        assert _cell(w, r, "Original size (bytes)") == "64,000"
        assert float(_cell(w, r, "Enc. throughput (MB/s)").replace(",", "")) > 0
    assert _cell(w, 0, "Encrypted size (bytes)") == "64,016"  # ECB pads a whole block
    assert w.progress_panel.bar.value() == w.progress_panel.bar.maximum()
    w.tabs.throughput_chart.flush()
    assert w.tabs.throughput_chart.showing_data
    assert len(w.tabs.throughput_chart.encrypt_bars.opts["width"]) == 2
    assert "Finished 2 jobs" in w.status_label.text()
    assert "CPU" in w.environment_panel.text.toPlainText()

    # 4. export to .xlsx (the user typed no extension) and read it back
    target = tmp_path / "results"
    answer_save_dialog(monkeypatch, target, "Excel workbook with charts (*.xlsx)")
    qtbot.mouseClick(w.export_button, Qt.MouseButton.LeftButton)
    xlsx = tmp_path / "results.xlsx"
    assert xlsx.is_file()
    assert str(xlsx) in w.status_label.text()
    book = openpyxl.load_workbook(xlsx)
    rows = list(book["Results"].iter_rows(values_only=True))
    assert len(rows) == 3
    assert any("aes-256-ctr" in str(cell) for cell in rows[1] + rows[2])
    with zipfile.ZipFile(xlsx) as zf:
        assert any(name.startswith("xl/charts/chart") for name in zf.namelist())

    # 5. save the CTR job's ciphertext raw, with its key file, then the plaintext decrypted back
    ctr_row = next(r for r in range(2) if _cell(w, r, "Mode") == "CTR")
    proxy_row = w.proxy.mapFromSource(model.index(ctr_row, 0)).row()
    w.table.selectRow(proxy_row)
    assert w.save_encrypted_button.isEnabled()
    qtbot.mouseClick(w.save_encrypted_button, Qt.MouseButton.LeftButton)
    dialog = w.crypt_dialog
    dialog.set_protection(Protection.RAW)
    ct_path = tmp_path / "notes.enc"
    dialog.output_field.set_path(str(ct_path))
    qtbot.mouseClick(dialog.encrypt_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.task.running, timeout=60_000)
    dialog.close()
    key_path = raw_key_path(ct_path)
    key_doc = json.loads(key_path.read_text())
    assert key_doc["format"] == "cipherbench-raw-key"
    assert "anyone who has it can decrypt" in key_doc["warning"]
    raw_key = read_raw_key(key_path)
    recovered = decrypt_bytes(
        raw_key.spec, get_adapter(raw_key.library), raw_key.key, raw_key.iv, ct_path.read_bytes()
    )
    assert recovered == plain_file.read_bytes()
    assert ct_path.read_bytes() != plain_file.read_bytes()
    assert oct(key_path.stat().st_mode & 0o777) == "0o600"
    if shutil.which("openssl"):  # the engine's own ciphertext, as OpenSSL reads it
        by_openssl = tmp_path / "by-openssl.txt"
        subprocess.run(
            raw_key.openssl_command(str(ct_path), str(by_openssl)),
            check=True,
            capture_output=True,
            timeout=30,
        )
        assert by_openssl.read_bytes() == plain_file.read_bytes()

    pt_path = tmp_path / "notes.decrypted.txt"
    answer_save_dialog(monkeypatch, pt_path)
    qtbot.mouseClick(w.save_plaintext_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not w.controller.busy, timeout=60_000)
    assert pt_path.read_bytes() == plain_file.read_bytes()
    assert str(pt_path) in w.status_label.text()

    # the key is nowhere else: not in the export, not in the settings
    key_hex = key_doc["key_hex"]
    assert key_hex not in xlsx.read_bytes().decode("latin-1")
    w.save_settings()
    assert key_hex not in Path(w.settings.qsettings.fileName()).read_text()

    # 6. Reset: no results, no input, default choices; the kept ciphertexts are gone
    kept_dir = os.path.dirname(w.controller.finished_job(0).secret.ciphertext_path)
    w.options_panel.repeat_spin.setValue(9)
    qtbot.mouseClick(w.reset_button, Qt.MouseButton.LeftButton)
    assert model.rowCount() == 0
    assert w.input_panel.name_label.text() == "no input yet"
    assert w.selection_panel.preset_combo.currentText() == PRESETS[0].name
    assert w.options_panel.repeat_spin.value() == 5
    assert not w.export_action.isEnabled()
    # nothing to compare and nothing running: not "Comparing when the run has finished…"
    assert w.comparisons_panel.note.text() == WAITING
    assert not os.path.exists(kept_dir)
    assert plain_file.exists()  # the user's own file is never touched


def test_cancel_mid_run_stops_quickly_and_leaves_no_process(
    qtbot: QtBot,
    window: MainWindow,
    tmp_path: Path,
    dialogs: Dialogs,
) -> None:
    w = window
    slow = tmp_path / "slow.bin"
    slow.write_bytes(os.urandom(4 * 2**20))  # pure Python AES: about 10 s per pass
    assert w.controller.set_input_file(str(slow))
    _select(w, make_selection({"AES": ((128,), ("CTR",))}, ("pyaes",)))
    qtbot.keyClick(w, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(
        lambda: w.progress_panel.job_label.text().startswith("Job 1 of 1"), timeout=20_000
    )
    qtbot.wait(300)
    assert w.cancel_button.isEnabled() and not w.run_button.isEnabled()
    t0 = time.monotonic()
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not w.controller.running, timeout=60_000)
    assert time.monotonic() - t0 < 2.0
    assert w.controller.last_run is not None and w.controller.last_run.cancelled
    assert "Cancelled" in w.status_label.text()
    assert w.controller.model.rowCount() == 0
    assert w.run_button.isEnabled()
    qtbot.waitUntil(_no_worker_processes, timeout=60_000)
    assert dialogs.warnings == []


def test_closing_during_a_run_cancels_it(
    qtbot: QtBot,
    settings: AppSettings,
    tmp_path: Path,
    dialogs: Dialogs,
) -> None:
    w = MainWindow(settings=settings)
    w.show()
    slow = tmp_path / "slow.bin"
    slow.write_bytes(os.urandom(4 * 2**20))
    assert w.controller.set_input_file(str(slow))
    _select(w, make_selection({"AES": ((128,), ("CTR",))}, ("pyaes",)))
    w.run_action.trigger()
    qtbot.waitUntil(lambda: w.progress_panel.job_label.text().startswith("Job 1"), timeout=20_000)
    t0 = time.monotonic()
    w.close()
    assert w.isVisible()  # waits for the run to end...
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=60_000)  # ...which takes about a second
    assert time.monotonic() - t0 < 3.0
    assert not w.controller.running
    qtbot.waitUntil(_no_worker_processes, timeout=60_000)
    w.deleteLater()


@pytest.mark.usefixtures("in_process_jobs")
@pytest.mark.parametrize(
    ("algorithm", "bits", "mode", "library", "data_mode"),
    [
        ("AES", 256, "GCM", "cryptography", "memory"),
        ("AES", 128, "CBC", "pycryptodome", "stream"),
        ("ChaCha20-Poly1305", 256, "AEAD", "pycryptodome", "stream"),
    ],
)
def test_saved_plaintext_matches_input_in_every_data_mode(
    qtbot: QtBot,
    window: MainWindow,
    tmp_path: Path,
    algorithm: str,
    bits: int,
    mode: str,
    library: str,
    data_mode: str,
) -> None:
    w = window
    data = tmp_path / "data.bin"
    data.write_bytes(os.urandom(200_003))  # several 64 KiB chunks and a ragged end
    assert w.controller.set_input_file(str(data))
    _select(w, make_selection({algorithm: ((bits,), (mode,))}, (library,)))
    _fast_options(w)
    w.options_panel.memory_check.setChecked(False)
    w.options_panel.mode_combo.setCurrentIndex(w.options_panel.mode_combo.findData(data_mode))
    w.options_panel.chunk_combo.setCurrentText("64 KiB")
    _run_and_wait(qtbot, w)
    assert w.controller.model.rowCount() == 1, w.controller.failures
    assert w.controller.model.result(0).data_mode == data_mode
    out = tmp_path / "plain.bin"
    w.controller.save_plaintext(0, str(out))
    qtbot.waitUntil(lambda: not w.controller.busy, timeout=60_000)
    assert out.read_bytes() == data.read_bytes()


def test_drop_a_file_on_the_window(window: MainWindow, plain_file: Path) -> None:
    drop_files(window, [plain_file])
    assert window.input_panel.name_label.text() == "notes.txt"
    assert window.controller.input is not None


def test_generated_input_is_written_then_deleted_on_reset(
    qtbot: QtBot,
    window: MainWindow,
) -> None:
    w = window
    w.input_panel.size_combo.setCurrentText("64 KB")
    qtbot.mouseClick(w.input_panel.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.controller.input is not None, timeout=60_000)
    spec = w.controller.input
    assert spec.generated and spec.size_bytes == 64_000
    assert w.input_panel.name_label.text() == "random 64 KB"
    assert os.path.getsize(spec.path) == 64_000
    qtbot.waitUntil(lambda: not w.controller.busy)
    w.reset_action.trigger()
    assert not os.path.exists(spec.path)


def test_plain_errors_keep_the_window_usable(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    tmp_path: Path,
    plain_file: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = window
    # missing file
    _answer_open_dialog(monkeypatch, tmp_path / "Gone.TXT")
    w.open_action.trigger()
    assert dialogs.warnings[-1][1] == f"No such file: {tmp_path / 'Gone.TXT'}"
    # empty file
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert not w.controller.set_input_file(str(empty))
    assert "empty" in dialogs.warnings[-1][1]
    # a file that vanished after it was chosen
    doomed = tmp_path / "doomed.txt"
    doomed.write_bytes(b"x" * 1000)
    assert w.controller.set_input_file(str(doomed))
    doomed.unlink()
    w.run_action.trigger()
    assert not w.controller.running
    assert "No such file" in dialogs.warnings[-1][1]
    # nothing selected
    assert w.controller.set_input_file(str(plain_file))
    _select(w, make_selection({}, ("cryptography",)))
    w.run_action.trigger()
    assert dialogs.warnings[-1][0] == "No cipher"
    # a chunk size that is not a size
    _select(w, make_selection({"AES": ((128,), ("CTR",))}, ("cryptography",)))
    w.options_panel.mode_combo.setCurrentIndex(w.options_panel.mode_combo.findData("stream"))
    w.options_panel.chunk_combo.setCurrentText("lots")
    w.run_action.trigger()
    assert dialogs.warnings[-1][0] == "Check the options"
    assert not w.controller.running
    # a run, then an export that cannot be written
    w.options_panel.reset()
    _fast_options(w)
    _run_and_wait(qtbot, w)
    answer_save_dialog(monkeypatch, tmp_path / "no-such-folder" / "r.csv")
    w.export_action.trigger()
    assert dialogs.warnings[-1][0] == "Export failed"
    assert "does not exist" in dialogs.warnings[-1][1]
    assert w.run_button.isEnabled() and w.export_button.isEnabled()
    # a recent file that has since vanished leaves the list
    w.controller.set_input_file(str(tmp_path / "gone.txt"))
    assert str(tmp_path / "gone.txt") not in w.settings.recent_files


def test_settings_persist_but_never_keys(
    qtbot: QtBot,
    settings: AppSettings,
    plain_file: Path,
    dialogs: Dialogs,
) -> None:
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    first.selection_panel.apply_preset(3)
    first.options_panel.repeat_spin.setValue(7)
    first.options_panel.mode_combo.setCurrentIndex(
        first.options_panel.mode_combo.findData("stream")
    )
    first.options_panel.chunk_combo.setCurrentText("4 MiB")
    first.input_panel.size_combo.setCurrentText("100 MB")
    first.controller.set_input_file(str(plain_file))
    first.resize(700, 500)  # fits the offscreen screen, so it is not clamped
    first.close()

    second = MainWindow(settings=settings)
    qtbot.addWidget(second)
    assert second.selection_panel.preset_combo.currentText() == PRESETS[3].name
    assert second.options_panel.repeat_spin.value() == 7
    assert second.options_panel.options().data_mode == "stream"
    assert second.options_panel.options().chunk_bytes == 4 * 2**20
    assert second.input_panel.generated_size_text() == "100 MB"
    assert second.settings.recent_files == [str(plain_file)]
    assert second.input_panel.recent_menu.actions()[0].text() == str(plain_file)
    assert (second.size().width(), second.size().height()) == (700, 500)
    text = Path(settings.qsettings.fileName()).read_text().lower()
    assert "key_hex" not in text and "secret" not in text
    second.close()


def test_charts_are_built_after_the_first_paint(qtbot: QtBot, settings: AppSettings) -> None:
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    assert not w.tabs.ready  # nothing of pyqtgraph before the window is on screen
    assert w.tabs.tabText(0) == "Throughput"
    w.show()
    qtbot.waitUntil(lambda: w.tabs.ready, timeout=60_000)
    assert w.tabs.widget(0) is w.tabs.throughput_chart
    assert [w.tabs.tabText(i) for i in range(6)] == [
        "Throughput",
        "By input",
        "Times",
        "Memory && CPU",
        "Comparisons",
        "Environment",
    ]
