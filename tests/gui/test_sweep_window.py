"""The Message lengths and hardware window (Run > Message lengths & hardware…) against the real
engine, made quick (tiny lengths, short points, one round): a sweep's table, chart, summary and
associated-data table; a ladder's steps and verdicts; exports; cancel and closing mid-run leave
no worker process; bad input is a message; each run lands in the history, and the History
window shows it."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
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

from app.core.history.store import History
from app.core.sweep import plan as sweep_plan
from app.core.sweep.results import LADDER, SWEEP, SweepResult
from app.gui.history.history_texts import export_filters
from app.gui.history.history_window import HistoryWindow
from app.gui.history.run_view import StoredRunWindow
from app.gui.main.window import MainWindow
from app.gui.results.sweep_tables import CURVE_COLUMNS, LADDER_COLUMNS
from app.gui.results.sweep_view import LadderResultView, SweepResultView
from app.gui.settings import AppSettings
from app.gui.sweep import sweep_worker
from app.gui.sweep.sweep_window import SweepWindow

RUN_TIMEOUT_MS = 90_000
STOP_S = 5.0  # a cancel kills the worker process within the engine's 0.1 s poll; room for load
pytestmark = pytest.mark.slow  # real worker processes


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Short points and a small ladder: a run takes a second or two, not a minute."""
    quick_plan = functools.partial(sweep_plan.sweep_plan, point_time_s=0.02)
    monkeypatch.setattr(sweep_worker, "sweep_plan", quick_plan)
    monkeypatch.setattr(sweep_plan, "LADDER_BYTES", 64 * 1024)
    monkeypatch.setattr(sweep_plan, "PURE_PYTHON_BYTES", 1024)


@pytest.fixture
def window(qtbot: QtBot, settings: AppSettings, dialogs: Dialogs) -> Iterator[SweepWindow]:
    w = shown_window(qtbot, SweepWindow(settings=settings))
    yield w
    stop_any_run(qtbot, w)


def _cell(model: Any, row: int, header: str, columns: tuple = CURVE_COLUMNS) -> str:
    col = next(i for i, c in enumerate(columns) if c.header == header)
    return model.data(model.index(row, col))


def _tiny_sweep(w: SweepWindow, lengths: str = "16,64,1024") -> None:
    page = w.form.sweep
    page.set_ciphers(["aes-256-gcm", "chacha20-poly1305"])
    page.set_library("cryptography")
    page.lengths_edit.setText(lengths)
    page.rounds_spin.setValue(1)
    page.ad_check.setChecked(True)


def _run(qtbot: QtBot, w: SweepWindow) -> SweepResult:
    w.run_action.trigger()
    assert w.controller.running
    qtbot.waitUntil(lambda: not w.controller.running, timeout=RUN_TIMEOUT_MS)
    result = w.controller.result()
    assert result is not None
    return result


def test_a_tiny_sweep_fills_table_chart_summary_and_exports(
    qtbot: QtBot,
    window: SweepWindow,
    dialogs: Dialogs,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = window
    steps: list[str] = []
    w.controller.progress_changed.connect(lambda _f, text: steps.append(text))
    assert not w.export_button.isEnabled()
    _tiny_sweep(w)
    qtbot.mouseClick(w.run_button, Qt.MouseButton.LeftButton)
    assert w.controller.running and w.cancel_button.isEnabled() and not w.form.isEnabled()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=RUN_TIMEOUT_MS)
    assert dialogs.warnings == []
    assert "round 1/1 aes-256-gcm [cryptography]" in steps
    assert "round 1/1 chacha20-poly1305 [cryptography]" in steps
    assert w.progress.value() == w.progress.maximum()
    assert w.status_label.text().startswith("Done: 2 entries in ")
    assert w.views.currentWidget() is w.sweep_view
    assert not spawned_children()

    view = w.sweep_view
    model = view.model
    assert model.rowCount() == 6
    entries = [_cell(model, r, "Entry") for r in range(6)]
    assert entries == ["aes-256-gcm [cryptography]"] * 3 + ["chacha20-poly1305 [cryptography]"] * 3
    assert [_cell(model, r, "Message") for r in range(3)] == ["16 B", "64 B", "1 KiB"]
    result = w.controller.result()
    assert result is not None and result.kind == SWEEP
    for r in range(6):
        entry = result.entries[r // 3]
        cycles = _cell(model, r, "Cycles/byte")
        assert cycles.startswith("~ ") != entry.counter, cycles  # "~" exactly when estimated
        assert float(cycles.removeprefix("~ ").replace(",", "")) > 0
        assert float(_cell(model, r, "MB/s").replace(",", "")) > 0
        assert _cell(model, r, "Encrypt (per call)").endswith("s")
        assert _cell(model, r, "Whole message").endswith("s")  # as bench times the message
        assert _cell(model, r, "Forgery").endswith("s")  # AEADs: the time to reject one
        assert float(_cell(model, r, "Decrypt MB/s").replace(",", "")) > 0
    # The 1 KiB message costs less per byte than the 16 B one (the fixed cost per call).
    assert float(_cell(model, 0, "ns/byte")) > float(_cell(model, 2, "ns/byte"))

    view.chart.flush()
    assert view.chart.showing_data
    assert sorted(view.chart.curves) == [
        "aes-256-gcm [cryptography]",
        "chacha20-poly1305 [cryptography]",
    ]
    for curve in view.chart.curves.values():
        xs, ys = curve.getOriginalDataset()
        assert list(xs) == [16.0, 64.0, 1024.0] and all(y > 0 for y in ys)
    assert len(view.chart.legend.items) == 2
    assert view.chart.plot.getAxis("bottom").labelText == "Message length"
    assert view.chart.plot.getAxis("left").labelText.startswith("Cycles per byte")

    summary = view.summary.toPlainText()
    assert summary.count("Key setup (making a cipher object):") == 2
    assert summary.count("Fixed cost per call:") == 2
    assert "Cycles" in summary and "How it was measured: Each entry ran 1 round(s)" in summary
    # Associated data at 64 B (the one of 64, 1350 and 16 KiB swept), for both entries.
    assert view.tabs.isTabEnabled(2) and view.ad_model.rowCount() == 2
    headers = [view.ad_model.headerData(c, Qt.Orientation.Horizontal) for c in range(6)]
    assert headers == ["Entry", "Message", "AD 0 B", "AD 13 B", "AD 64 B", "AD 1024 B"]
    assert view.ad_model.data(view.ad_model.index(0, 1)) == "64 B"

    # Export: the user types no extension and picks JSON; then .xlsx and .html by name.
    assert w.export_button.isEnabled()
    answer_save_dialog(monkeypatch, tmp_path / "s", "JSON, everything with raw samples (*.json)")
    qtbot.mouseClick(w.export_button, Qt.MouseButton.LeftButton)
    doc = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert doc["format"] == "cipherbench-sweep" and doc["kind"] == "sweep"
    back = SweepResult.from_dict(doc)
    assert [e.label for e in back.entries] == [e.label for e in result.entries]
    assert w.export_to(str(tmp_path / "s.xlsx")) is not None
    book = openpyxl.load_workbook(tmp_path / "s.xlsx")
    assert book.sheetnames == ["Curves", "Points", "Notes", "Environment"]
    assert [c.value for c in book["Curves"]["A"][1:]] == [16, 64, 1024]
    assert w.export_to(str(tmp_path / "s.html")) is not None
    assert "<svg" in (tmp_path / "s.html").read_text(encoding="utf-8")
    assert w.export_to(str(tmp_path / "s.txt")) is None  # no writer for .txt: one sentence
    assert dialogs.warnings[-1][0] == "Cannot export" and ".txt" in dialogs.warnings[-1][1]

    # Save chart…: PNG (no extension typed), SVG by name.
    assert_chart_saves(w, view.chart, monkeypatch, tmp_path)


def test_a_ladder_shows_its_steps_and_verdicts_and_exports(
    qtbot: QtBot, window: SweepWindow, dialogs: Dialogs, tmp_path: Path
) -> None:
    w = window
    w.form.set_mode(LADDER)
    assert w.views.currentWidget() is w.ladder_view  # the tab chosen shows its kind
    page = w.form.ladder
    page.cipher_combo.setCurrentText("aes-128-gcm")
    page.library_combo.setCurrentIndex(0)  # cryptography
    page.rounds_spin.setValue(1)
    result = _run(qtbot, w)
    assert dialogs.warnings == []
    assert result.kind == LADDER and result.title == "aes-128-gcm"
    assert w.status_label.text().startswith("Done: 3 steps in ")
    model = w.ladder_view.model
    assert model.rowCount() == 3

    def cell(r: int, header: str) -> str:
        return _cell(model, r, header, LADDER_COLUMNS)

    assert [cell(r, "Step") for r in range(3)] == [
        "1. cryptography",
        "2. cryptography, AES off",
        "3. pure Python",
    ]
    assert [cell(r, "Message") for r in range(3)] == ["64 KiB", "64 KiB", "1 KiB"]
    assert cell(0, "Slower than step 1") == "-"
    assert cell(2, "Slower than step 1").endswith("x")
    assert "no GCM: aes-128-ctr stands in" in cell(2, "Note") and cell(0, "Note") == ""
    text = w.ladder_view.verdicts.toPlainText()
    assert "cryptography: " in text and "Pure Python is" in text
    assert "Hardware ladder of aes-128-gcm" in text
    w.ladder_view.chart.flush()
    assert w.ladder_view.chart.showing_data
    assert len(w.ladder_view.chart.bars.opts["width"]) == 3
    assert "of aes-128-gcm" in w.ladder_view.chart._title.text()

    # The other tab shows the other kind (no sweep yet: nothing to export there).
    w.form.set_mode(SWEEP)
    assert w.views.currentWidget() is w.sweep_view and not w.export_button.isEnabled()
    assert w.status_label.text() == "Not run."  # the sweep's status, not the ladder's
    w.form.set_mode(LADDER)
    assert w.export_button.isEnabled() and w.status_label.text().startswith("Done: 3 steps")
    assert w.export_to(str(tmp_path / "l.json")) is not None
    doc = json.loads((tmp_path / "l.json").read_text(encoding="utf-8"))
    assert doc["kind"] == "ladder" and len(doc["results"]) == 3
    assert w.export_to(str(tmp_path / "l.xlsx")) is not None
    notes = openpyxl.load_workbook(tmp_path / "l.xlsx")["Notes"]
    assert any("Pure Python is" in str(c.value) for c in notes["A"])


def _start_long_sweep(qtbot: QtBot, w: SweepWindow) -> None:
    """A sweep that would take minutes; returns once a worker process measures."""
    page = w.form.sweep
    page.set_ciphers(["aes-256-gcm", "chacha20-poly1305", "aes-128-cbc"])
    page.set_library("all")
    page.lengths_edit.setText("16, 64, 1 KiB, 1 MiB, 16 MiB, 64 MiB")
    page.rounds_spin.setValue(20)
    w.run_action.trigger()
    assert w.controller.running
    qtbot.waitUntil(lambda: len(spawned_children()) >= 1, timeout=30_000)
    qtbot.waitUntil(lambda: "round 1/20 " in w.status_label.text(), timeout=30_000)


def test_cancel_mid_run_stops_the_worker_process_promptly(
    qtbot: QtBot, window: SweepWindow
) -> None:
    w = window
    _start_long_sweep(qtbot, w)
    started = time.monotonic()
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not w.controller.running, timeout=15_000)
    assert time.monotonic() - started < STOP_S
    assert not spawned_children()
    result = w.controller.result()
    assert result is not None and result.cancelled
    assert "Cancelled" in w.status_label.text()
    assert w.run_button.isEnabled() and w.form.isEnabled()
    assert w.export_button.isEnabled() == bool(result.entries)


def test_closing_mid_run_stops_the_sweep_and_closes(qtbot: QtBot, window: SweepWindow) -> None:
    w = window
    _start_long_sweep(qtbot, w)
    w.close()
    assert w.isVisible()  # until the worker has stopped
    assert w.status_label.text() == "Stopping the run before closing…"
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=15_000)
    assert not w.controller.running
    assert not spawned_children()


@pytest.mark.parametrize(
    ("lengths", "said"),
    [
        ("16, ten", "cannot read the size 'ten'"),
        ("16, 1 GiB", "message lengths go up to 256.00 MiB"),
        ("0", "a message length must be at least 1 byte"),
        (" , ", "give at least one message length, e.g. 64, 1350, 4 KiB"),
    ],
)
def test_bad_lengths_are_a_message_not_a_run(
    window: SweepWindow, dialogs: Dialogs, lengths: str, said: str
) -> None:
    w = window
    w.form.sweep.lengths_edit.setText(lengths)
    label = w.form.sweep.lengths_label
    assert said[:1].upper() + said[1:] in label.text() and "b00020" in label.styleSheet()
    w.run_action.trigger()
    assert not w.controller.running
    title, text = dialogs.warnings[-1]
    assert title == "Cannot run the sweep"
    assert said[:1].upper() + said[1:] in text and "Traceback" not in text
    assert w.status_label.text().startswith("Not run: ")
    assert not spawned_children()
    w.form.sweep.default_button.click()  # back to the default: no error shown
    assert label.text() == "14 lengths: 16 B to 16 MiB" and label.styleSheet() == ""


def test_other_bad_choices_are_a_message(window: SweepWindow, dialogs: Dialogs) -> None:
    w = window
    w.form.sweep.set_ciphers([])
    w.run_action.trigger()
    assert dialogs.warnings[-1] == ("Cannot run the sweep", "Check at least one cipher")
    w.form.sweep.set_ciphers(["aes-256-gcm"])
    w.form.sweep.set_library("pyaes")
    w.run_action.trigger()
    assert dialogs.warnings[-1][0] == "Cannot run the sweep"
    assert "not offered by pyaes" in dialogs.warnings[-1][1]
    w.form.set_mode(LADDER)
    w.form.ladder.cipher_combo.setCurrentText("aes-128-gcm-siv")  # cryptography only
    w.form.ladder.library_combo.setCurrentIndex(1)  # pycryptodome
    w.run_action.trigger()
    assert dialogs.warnings[-1][0] == "Cannot run the ladder"
    assert "not offered by pycryptodome" in dialogs.warnings[-1][1]
    assert not w.controller.running


def test_an_engine_failure_is_a_message_box(
    qtbot: QtBot, window: SweepWindow, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the engine broke")

    monkeypatch.setattr(sweep_worker, "run_sweep", broken)
    w = window
    _tiny_sweep(w)
    w.run_action.trigger()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=RUN_TIMEOUT_MS)
    assert dialogs.warnings[-1] == ("Cannot run the sweep", "RuntimeError: the engine broke")
    assert w.status_label.text() == "Not run." and not w.export_button.isEnabled()


def test_run_menu_opens_one_sweep_window(
    qtbot: QtBot, main_window: MainWindow, settings: AppSettings, dialogs: Dialogs
) -> None:
    main = main_window
    first = assert_opens_one_window(qtbot, main, "sweep")
    assert isinstance(first, SweepWindow) and first.settings is settings
    assert main.sweep_action.text() == "&Message lengths && hardware…"
    run_menu = main.menuBar().actions()[1].menu().actions()
    assert run_menu.index(main.sweep_action) == run_menu.index(main.transfer_action) + 1


# --- the history -------------------------------------------------------------------------------


def _history_window(qtbot: QtBot, settings: AppSettings) -> HistoryWindow:
    hw = HistoryWindow(settings=settings)
    qtbot.addWidget(hw)
    hw.show()
    return hw


def test_a_sweep_lands_in_the_history_and_opens_there(
    qtbot: QtBot,
    window: SweepWindow,
    settings: AppSettings,
    history_db: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = window
    _tiny_sweep(w, lengths="16,1024")
    result = _run(qtbot, w)
    saved = "Saved to history as run 1"
    qtbot.waitUntil(lambda: saved in w.statusBar().currentMessage(), timeout=30_000)
    with History.open(history_db) as history:
        (summary,) = history.list_runs()
    assert summary.kind == "sweep" and summary.ciphers == ("aes-256-gcm", "chacha20-poly1305")

    hw = _history_window(qtbot, settings)
    assert hw.table.item(0, 3).text() == "sweep"
    hw.select_ids([1])
    hw.open_button.click()
    view = hw.views[-1]
    assert isinstance(view, StoredRunWindow) and view.isVisible()
    assert view.tabs.tabText(0) == "Sweep"
    shown = view.sweep_view
    assert isinstance(shown, SweepResultView)
    assert view.table is shown.table and shown.model.rowCount() == 4
    assert _cell(shown.model, 3, "Message") == "1 KiB"
    assert _cell(shown.model, 0, "Cycles/byte") == _cell(w.sweep_view.model, 0, "Cycles/byte")
    summary_text = shown.summary.toPlainText()
    assert summary_text == w.sweep_view.summary.toPlainText()
    assert "Fixed cost per call:" in summary_text
    shown.chart.flush()
    assert len(shown.chart.curves) == 2

    # Export from the history offers the sweep's formats, and writes them.
    filters = export_filters("sweep")
    assert sorted(filters.values()) == [
        ".adoc",
        ".csv",
        ".html",
        ".json",
        ".md",
        ".pdf",
        ".svg",
        ".tex",
        ".xlsx",
    ]
    answer_save_dialog(monkeypatch, tmp_path / "h", "Excel workbook with a log-log chart (*.xlsx)")
    hw.export_button.click()
    assert openpyxl.load_workbook(tmp_path / "h.xlsx").sheetnames[0] == "Curves"
    assert len(result.entries) == 2


def test_the_history_shows_a_stored_ladder(
    qtbot: QtBot, window: SweepWindow, settings: AppSettings, history_db: Path
) -> None:
    w = window
    w.form.set_mode(LADDER)
    w.form.ladder.rounds_spin.setValue(1)
    _run(qtbot, w)
    qtbot.waitUntil(lambda: "Saved to history" in w.statusBar().currentMessage(), timeout=30_000)
    hw = _history_window(qtbot, settings)
    assert "ladder" in hw.table.item(0, 4).text()
    hw.select_ids(hw.run_ids()[:1])
    hw.open_button.click()
    view = hw.views[-1]
    assert isinstance(view, StoredRunWindow) and view.tabs.tabText(0) == "Ladder"
    assert isinstance(view.sweep_view, LadderResultView)
    assert view.sweep_view.model.rowCount() == 3
    assert "Pure Python is" in view.sweep_view.verdicts.toPlainText()
