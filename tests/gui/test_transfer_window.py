"""The Transfer window (Run > Loopback transfer…) against the real engine: a small transfer,
its table, chart and exports; cancel and closing mid-run leave no process; bad input is a
message box."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import psutil
import pytest
from conftest import Dialogs
from gui_factories import (
    answer_save_dialog,
    assert_chart_saves,
    assert_opens_one_window,
    shown_window,
    stop_any_run,
)
from leftovers import spawned_children
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.bench.run_info import Environment
from app.core.bench.stats import summarize
from app.core.transfer.columns import SHOWN
from app.core.transfer.results import EndSample, RunSample, TransferResult, TransferRun
from app.gui.main.window import MainWindow
from app.gui.settings import AppSettings
from app.gui.transfer.transfer_form import BASELINE_TEXT
from app.gui.transfer.transfer_window import TransferWindow

RUN_TIMEOUT_MS = 90_000
pytestmark = pytest.mark.slow  # real sender and receiver processes


@pytest.fixture
def window(qtbot: QtBot, settings: AppSettings, dialogs: Dialogs) -> Iterator[TransferWindow]:
    w = shown_window(qtbot, TransferWindow(settings=settings))
    yield w
    stop_any_run(qtbot, w)


def _transfer_processes() -> list[psutil.Process]:
    """Live worker children (not multiprocessing's resource tracker, nor the scratch folder's
    janitor: both live as long as we do)."""
    return spawned_children()


def _column(header: str) -> int:
    return next(i for i, c in enumerate(SHOWN) if c.shown_title("MB/s") == header)


def _cell(w: TransferWindow, row: int, header: str) -> str:
    return w.model.data(w.model.index(row, _column(header)))


def _small_run(w: TransferWindow, size: str = "256 KB", repeat: int = 2) -> None:
    w.form.set_size(size)
    w.form.set_ciphers(["aes-256-gcm", "none"])
    w.form.repeat_spin.setValue(repeat)
    w.form.warmup_spin.setValue(0)
    w.form.chunk_combo.setCurrentText("64 KiB")


def test_a_small_transfer_fills_table_and_chart_and_exports(
    qtbot: QtBot,
    window: TransferWindow,
    dialogs: Dialogs,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = window
    assert not w.export_button.isEnabled()
    _small_run(w)
    qtbot.mouseClick(w.run_button, Qt.MouseButton.LeftButton)
    assert w.controller.running and w.cancel_button.isEnabled() and not w.form.isEnabled()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=RUN_TIMEOUT_MS)
    assert dialogs.warnings == []
    assert w.model.rowCount() == 2
    assert [_cell(w, r, "Cipher") for r in range(2)] == ["aes-256-gcm", "none"]
    for r in range(2):
        assert _cell(w, r, "Size") == "256.00 KB"
        assert _cell(w, r, "Verified") == "yes"
        assert float(_cell(w, r, "Throughput (MB/s)").replace(",", "")) > 0
        assert float(_cell(w, r, "Throughput (MiB/s)").replace(",", "")) > 0
        assert _cell(w, r, "Time median").endswith("s") and _cell(w, r, "Time IQR").endswith("s")
        assert 0 <= float(_cell(w, r, "Sender CPU (%)")) <= 400
    assert w.progress.value() == w.progress.maximum()
    assert "Done: 2 ciphers on random 256 KB." in w.status_label.text()
    w.chart.flush()
    assert w.chart.showing_data and len(w.chart.bars.opts["width"]) == 2
    assert not _transfer_processes()

    # Export: the user types no extension and picks CSV; then .json and .xlsx by name.
    answer_save_dialog(monkeypatch, tmp_path / "t", "CSV, one row per cipher (*.csv)")
    qtbot.mouseClick(w.export_button, Qt.MouseButton.LeftButton)
    with open(tmp_path / "t.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["cipher"] for r in rows] == ["aes-256-gcm", "none"]
    assert all(r["verified"] == "true" and float(r["throughput_mib_s"]) > 0 for r in rows)
    assert w.export_to(str(tmp_path / "t.json")) is not None
    doc = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert doc["format"] == "cipherbench-transfer"
    back = TransferRun.from_dict(doc)
    assert [r.cipher_id for r in back.results] == ["aes-256-gcm", "none"]
    assert back.results[0].sender.peak_rss_bytes > 0
    assert w.export_to(str(tmp_path / "t.xlsx")) is not None
    book = openpyxl.load_workbook(tmp_path / "t.xlsx")
    assert book.sheetnames == ["Results", "Runs", "Load every 50 ms", "Environment"]
    assert len(list(book["Runs"].iter_rows(min_row=2))) == 4  # 2 ciphers x 2 runs
    assert w.export_to(str(tmp_path / "t.txt")) is None  # no writer for .txt: one sentence
    assert dialogs.warnings[-1][0] == "Cannot export" and ".txt" in dialogs.warnings[-1][1]
    # The chart's Save button: PNG (the user typed no extension), SVG by name.
    assert_chart_saves(w, w.chart, monkeypatch, tmp_path)
    assert dialogs.warnings[-1][0] == "Cannot export" and ".txt" in dialogs.warnings[-1][1]


def _start_long_run(qtbot: QtBot, w: TransferWindow) -> None:
    """A transfer that would take minutes; returns once both ends are up."""
    _small_run(w, size="20 MB", repeat=1000)
    w.form.set_ciphers(["chacha20-poly1305"])
    w.run_action.trigger()
    qtbot.waitUntil(lambda: len(_transfer_processes()) >= 2, timeout=30_000)
    qtbot.waitUntil(lambda: "run " in w.status_label.text(), timeout=30_000)


def test_cancel_mid_run_leaves_no_process(qtbot: QtBot, window: TransferWindow) -> None:
    w = window
    _start_long_run(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not w.controller.running, timeout=15_000)
    assert not _transfer_processes()
    assert w.controller.last_run is not None and w.controller.last_run.cancelled
    assert "Cancelled" in w.status_label.text()
    assert w.controller.last_run.results == ()  # no cipher finished: nothing to export
    assert w.run_button.isEnabled() and not w.export_button.isEnabled()
    assert not w.export_action.isEnabled()


def test_closing_mid_run_stops_the_transfer_and_closes(
    qtbot: QtBot, window: TransferWindow
) -> None:
    w = window
    _start_long_run(qtbot, w)
    w.close()
    assert w.isVisible()  # until the worker has stopped
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=15_000)
    assert not w.controller.running
    assert not _transfer_processes()


def test_bad_choices_and_a_vanished_file_get_a_message_box(
    qtbot: QtBot, window: TransferWindow, dialogs: Dialogs, tmp_path: Path
) -> None:
    w = window
    w.form.set_ciphers([])
    w.run_action.trigger()
    assert dialogs.warnings[-1] == (
        "Cannot run the transfer",
        "Check at least one cipher (or the plaintext baseline)",
    )
    w.form.set_ciphers(["none"])
    w.form.set_size("ten")
    w.run_action.trigger()
    assert dialogs.warnings[-1][0] == "Cannot run the transfer"
    assert not w.controller.running
    gone = tmp_path / "gone.bin"
    gone.write_bytes(os.urandom(1000))
    w.form.set_file(str(gone))
    gone.unlink()
    w.run_action.trigger()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=RUN_TIMEOUT_MS)
    title, text = dialogs.warnings[-1]
    assert title == "Cannot run the transfer" and "No such file" in text
    assert "Traceback" not in text and w.model.rowCount() == 0


def test_the_cipher_list_offers_seed_004s_pair_and_the_baseline_first(
    window: TransferWindow,
) -> None:
    items = [window.form.cipher_list.item(i).text() for i in range(3)]
    assert items == ["aes-256-gcm", "chacha20-poly1305", BASELINE_TEXT]
    assert window.form.ciphers() == ["aes-256-gcm", "chacha20-poly1305", "none"]


def test_run_menu_opens_one_transfer_window(
    qtbot: QtBot, main_window: MainWindow, settings: AppSettings, dialogs: Dialogs
) -> None:
    main = main_window
    first = assert_opens_one_window(qtbot, main, "transfer")
    assert first.settings is settings
    assert main.transfer_action.text() == "&Loopback transfer…"
    assert main.transfer_action in main.menuBar().actions()[1].menu().actions()


def test_a_failed_transfer_is_a_message_box_naming_the_cipher(
    qtbot: QtBot,
    window: TransferWindow,
    dialogs: Dialogs,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.core.transfer import runner

    def cannot_listen(*_args: object, **_kwargs: object) -> None:
        raise runner.TransferFailed(
            "cannot listen on 127.0.0.1: Address already in use (reported by the receiver)"
        )

    monkeypatch.setattr(runner, "transfer", cannot_listen)
    w = window
    _small_run(w)
    w.run_action.trigger()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=RUN_TIMEOUT_MS)
    title, text = dialogs.warnings[-1]
    assert title == "A transfer failed"
    assert text.splitlines() == [
        "What went wrong, per cipher:",
        "aes-256-gcm: cannot listen on 127.0.0.1: Address already in use (reported by the "
        "receiver)",
        "none: cannot listen on 127.0.0.1: Address already in use (reported by the receiver)",
    ]
    assert w.model.rowCount() == 0
    assert "Done: 0 ciphers on random 256 KB, 2 failed." in w.status_label.text()
    assert not w.export_button.isEnabled()  # every cipher failed: no result to export


def _result(cipher: str, warnings: tuple[str, ...] = ()) -> TransferResult:
    end = EndSample(0.01, 0.005, 40 * 2**20, 42 * 2**20)
    samples = (0.01, 0.011)
    return TransferResult(
        cipher_id=cipher,
        library="cryptography",
        input_label="random 200 KB",
        input_bytes=200_000,
        chunk_bytes=65536,
        chunks=4,
        runs=tuple(RunSample(t, end, end, True) for t in samples),
        warmups=(),
        timing=summarize(samples, 200_000, ()),
        warnings=warnings,
    )


def _finish(w: TransferWindow, results: tuple[TransferResult, ...], cancelled: bool) -> None:
    """What the controller does when its worker's run comes back (no processes)."""
    run = TransferRun(
        input_label="random 200 KB",
        input_bytes=200_000,
        options={"chunk_bytes": 65536, "repeat": 2, "warmup": 0, "timeout_s": 10.0},
        results=results,
        failures=(),
        environment=Environment({}),
        started_at="2026-11-03T10:00:00+00:00",
        finished_at="2026-11-03T10:00:02+00:00",
        cancelled=cancelled,
    )
    w.controller.last_run = run
    w.controller.run_finished.emit(run)


def test_export_is_offered_only_when_a_cipher_finished(window: TransferWindow) -> None:
    w = window
    _finish(w, (), cancelled=True)  # cancelled before any cipher finished
    assert not w.export_button.isEnabled() and not w.export_action.isEnabled()
    _finish(w, (_result("aes-256-gcm"),), cancelled=True)
    assert w.export_button.isEnabled() and w.export_action.isEnabled()
    _small_run(w)
    w.run_action.trigger()  # a new run: nothing to export until it ends
    assert w.controller.running and not w.export_button.isEnabled()
    w.controller.cancel_and_wait()


def test_a_warnings_cell_shows_every_warning_in_its_tooltip(window: TransferWindow) -> None:
    w = window
    warnings = (
        "transfer: unstable, the timed runs' spread is 30 % of the median",
        "the first run was 2x slower than the median (a cold start)",
    )
    w.model.set_results([_result("aes-256-gcm", warnings), _result("none")])
    tip = Qt.ItemDataRole.ToolTipRole
    assert w.model.data(w.model.index(0, _column("Warnings")), tip) == "\n".join(warnings)
    other = w.model.data(w.model.index(0, _column("Cipher")), tip)
    assert "timed runs" in other and warnings[0] not in other  # the row's summary
    no_warnings = w.model.data(w.model.index(1, _column("Warnings")), tip)
    assert no_warnings == w.model.data(w.model.index(1, _column("Cipher")), tip)


def test_a_cancel_while_the_input_is_generated_stops_it_at_once(
    qtbot: QtBot, window: TransferWindow
) -> None:
    w = window
    _small_run(w, size="2 GB", repeat=1)  # seconds of writing random data, were it not cancelled
    w.run_action.trigger()
    qtbot.waitUntil(lambda: "Generating" in w.status_label.text(), timeout=30_000)
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not w.controller.running, timeout=15_000)
    assert w.status_label.text() == "Cancelled while generating the input; nothing ran."
    assert w.controller.last_run is None and w.run_button.isEnabled()
    assert not w.export_button.isEnabled()
