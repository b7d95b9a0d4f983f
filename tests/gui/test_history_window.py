"""The History window: runs finished in the window are stored (off the GUI thread), listed
newest first, opened again, compared side by side, deleted after asking, exported and imported;
the setting "Keep a history of runs" off stores nothing; the list survives a restart."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Dialogs
from gui_factories import KeepingRun, job_result, set_study
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QWidget
from pytestqt.qtbot import QtBot

from app.core.bench.results import RunResult
from app.core.history.compare import IMPROVEMENT, NO_INTERVAL, REGRESSION
from app.core.history.store import History
from app.core.runtime.events import Finished
from app.gui.history.comparison_view import ComparisonWindow
from app.gui.history.history_window import HistoryWindow, open_history_window
from app.gui.history.run_view import StoredRunWindow
from app.gui.main.window import MainWindow
from app.gui.recorder import history_recorder
from app.gui.selection import make_selection
from app.gui.settings import AppSettings

TIMEOUT_MS = 30_000


class StampedRun(KeepingRun):
    """KeepingRun with its own start time per run: two runs are two documents (the history
    refuses the very same document twice, as a real run's samples never repeat)."""

    runs = 0

    def events(self) -> Iterator[Any]:
        for event in super().events():
            if isinstance(event, Finished):
                StampedRun.runs += 1
                when = f"2026-11-{StampedRun.runs:02d}T10:00:00+00:00"
                event = Finished(dataclasses.replace(event.result, started_at=when))
            yield event


@pytest.fixture
def window(qtbot: QtBot, settings: AppSettings, dialogs: Dialogs) -> Iterator[MainWindow]:
    w = MainWindow(settings=settings, run_factory=StampedRun)
    qtbot.addWidget(w)
    yield w
    w.close()
    history_recorder().wait_for_done()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.csv"
    path.write_bytes(b"a,b\n1,2\n" * 300)
    return path


def _stored_ids(db: Path) -> list[int]:
    with History.open(db) as history:
        return [s.id for s in history.list_runs()]


def _run_once(qtbot: QtBot, w: MainWindow, path: Path, db: Path) -> None:
    """One tiny run through the real controller; waits until the recorder has stored it."""
    before = len(_stored_ids(db)) if db.exists() else 0
    rows = w.controller.model.rowCount()  # results accumulate until Reset
    assert w.controller.set_input_file(str(path))
    w.selection_panel.set_selection(make_selection({"AES": ((256,), ("CTR",))}, ("cryptography",)))
    w.run_action.trigger()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=TIMEOUT_MS)
    assert w.controller.model.rowCount() == rows + 1, w.controller.failures
    qtbot.waitUntil(lambda: db.exists() and len(_stored_ids(db)) == before + 1, timeout=TIMEOUT_MS)


def _history_window(qtbot: QtBot, settings: AppSettings) -> HistoryWindow:
    hw = HistoryWindow(settings=settings)
    qtbot.addWidget(hw)
    hw.show()
    return hw


def _run(enc_s: tuple[float, ...], dec_s: tuple[float, ...], started: str) -> RunResult:
    """A run whose job ran each repetition in a round of its own (a study's rounds)."""
    from dataclasses import replace

    from app.core.bench.results import RoundInfo

    n = max(len(enc_s), len(dec_s))
    rounds = tuple(
        RoundInfo(i, 0, int(i < len(enc_s)), int(i < len(dec_s)), 99.0) for i in range(n)
    )
    job = replace(job_result(enc_s=enc_s, dec_s=dec_s), rounds=rounds)
    return RunResult((job,), (), {}, {}, started, started)


@pytest.mark.usefixtures("in_process_jobs")
def test_two_runs_in_the_window_are_listed_and_compared(
    qtbot: QtBot, window: MainWindow, data: Path, history_db: Path, settings: AppSettings
) -> None:
    _run_once(qtbot, window, data, history_db)
    qtbot.waitUntil(lambda: "Saved to history as run 1" in window.statusBar().currentMessage())
    _run_once(qtbot, window, data, history_db)
    window.history_action.trigger()  # Run > History… (Ctrl+H)
    hw = window.history_window
    qtbot.addWidget(hw)
    assert hw.isVisible()
    assert hw.run_ids() == [2, 1]  # newest first
    assert hw.table.item(0, 3).text() == "bench"
    assert "aes-256-ctr" in hw.table.item(0, 4).text()
    assert hw.table.item(0, 5).text() == "here"
    hw.select_ids([1, 2])
    assert hw.compare_button.isEnabled()
    qtbot.mouseClick(hw.compare_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: getattr(hw, "comparison_window", None) is not None, timeout=TIMEOUT_MS)
    view: ComparisonWindow = hw.comparison_window
    model = view.model
    assert model.rowCount() == 2  # one job, encrypt and decrypt
    directions = {model.data(model.index(r, 1)) for r in range(2)}
    assert directions == {"encrypt", "decrypt"}
    for r in range(2):
        assert float(model.data(model.index(r, 4))) == pytest.approx(1.0)  # the same samples
        # A plain bench runs each job in one worker: one round a side, no interval.
        assert model.direction(r).verdict == NO_INTERVAL
    assert "A = run 1" in view.summary_label.text()


def test_comparison_colours_improvements_and_regressions_with_words(
    qtbot: QtBot, settings: AppSettings, history_db: Path
) -> None:
    with History.open(history_db) as history:
        fast, slow = (0.001, 0.0011, 0.0009, 0.001), (0.002, 0.0021, 0.0019, 0.002)
        history.record(_run(fast, slow, "2026-11-01"))  # four rounds a side
        history.record(_run(slow, fast, "2026-11-02"))
    hw = _history_window(qtbot, settings)
    hw.select_ids([1, 2])
    hw.compare_button.click()
    qtbot.waitUntil(lambda: getattr(hw, "comparison_window", None) is not None, timeout=TIMEOUT_MS)
    model = hw.comparison_window.model
    by_direction = {model.data(model.index(r, 1)): r for r in range(model.rowCount())}
    enc, dec = by_direction["encrypt"], by_direction["decrypt"]
    assert model.direction(enc).verdict == REGRESSION
    assert model.direction(dec).verdict == IMPROVEMENT
    assert "regression" in model.data(model.index(enc, 7))
    assert "improvement" in model.data(model.index(dec, 7))
    red = model.data(model.index(enc, 0), Qt.ItemDataRole.BackgroundRole).color()
    green = model.data(model.index(dec, 0), Qt.ItemDataRole.BackgroundRole).color()
    assert red.red() > red.green() and green.green() > green.red()
    assert float(model.data(model.index(enc, 4))) == pytest.approx(2.0, rel=0.05)
    assert "–" in model.data(model.index(enc, 5))  # the 95 % interval


def test_open_shows_the_stored_jobs(qtbot: QtBot, settings: AppSettings, history_db: Path) -> None:
    with History.open(history_db) as history:
        history.record(_run((0.001, 0.0011, 0.0009), (0.002, 0.0021, 0.0019), "2026-11-01"))
    hw = _history_window(qtbot, settings)
    hw.select_ids([1])
    hw.open_button.click()
    views = [v for v in hw.views if isinstance(v, StoredRunWindow)]
    assert len(views) == 1 and views[0].isVisible()
    assert views[0].model.rowCount() == 1
    assert views[0].model.result(0).cipher == "aes-256-ctr"
    assert views[0].tabs.count() == 3  # table, throughput and time charts


def test_delete_asks_first_and_removes(
    qtbot: QtBot, settings: AppSettings, history_db: Path, dialogs: Dialogs
) -> None:
    with History.open(history_db) as history:
        for day in ("2026-11-01", "2026-11-02"):
            history.record(_run((0.001, 0.0011, 0.0009), (0.002, 0.0021, 0.0019), day))
    hw = _history_window(qtbot, settings)
    hw.select_ids([1])
    dialogs.answer = dialogs.answer.No
    hw.delete_button.click()
    assert len(dialogs.questions) == 1 and "run 1" in dialogs.questions[0][1]
    assert hw.run_ids() == [2, 1] and _stored_ids(history_db) == [1, 2]
    dialogs.answer = dialogs.answer.Yes
    hw.select_ids([1])
    hw.delete_button.click()
    assert hw.run_ids() == [2] and _stored_ids(history_db) == [2]


def test_setting_off_stores_nothing(
    qtbot: QtBot, window: MainWindow, data: Path, history_db: Path, settings: AppSettings
) -> None:
    hw = open_history_window(window, settings)
    qtbot.addWidget(hw)
    assert hw.keep_action.isChecked()
    hw.keep_action.trigger()  # History > Keep a history of runs: off
    assert settings.keep_history is False
    assert AppSettings(settings.qsettings).keep_history is False  # remembered
    assert window.controller.set_input_file(str(data))
    window.selection_panel.set_selection(
        make_selection({"AES": ((256,), ("CTR",))}, ("cryptography",))
    )
    window.run_action.trigger()
    qtbot.waitUntil(lambda: not window.controller.running, timeout=TIMEOUT_MS)
    assert window.controller.model.rowCount() >= 1
    history_recorder().wait_for_done()
    qtbot.wait(50)
    assert not history_db.exists() or _stored_ids(history_db) == []
    assert hw.run_ids() == []


def test_environment_variable_stores_nothing(
    qtbot: QtBot,
    window: MainWindow,
    data: Path,
    history_db: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CIPHERBENCH_NO_HISTORY", "1")
    assert not history_recorder().record(_run((0.001,), (0.001,), "2026-11-01"), window)
    history_recorder().wait_for_done()
    assert not history_db.exists() or _stored_ids(history_db) == []


@pytest.mark.usefixtures("in_process_jobs")
def test_history_survives_a_restart(
    qtbot: QtBot, window: MainWindow, data: Path, history_db: Path, settings: AppSettings
) -> None:
    _run_once(qtbot, window, data, history_db)
    _run_once(qtbot, window, data, history_db)
    first = _history_window(qtbot, settings)
    assert first.run_ids() == [2, 1]
    first.close()
    first.deleteLater()
    again = _history_window(qtbot, AppSettings(settings.qsettings))  # a new window, same file
    assert again.run_ids() == [2, 1]


def test_export_then_import_refuses_a_duplicate(
    qtbot: QtBot,
    settings: AppSettings,
    history_db: Path,
    dialogs: Dialogs,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with History.open(history_db) as history:
        history.record(_run((0.001, 0.0011, 0.0009), (0.002, 0.0021, 0.0019), "2026-11-01"))
    hw = _history_window(qtbot, settings)
    hw.select_ids([1])
    out = tmp_path / "run1.json"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), ""))
    )
    hw.export_button.click()
    assert json.loads(out.read_text())["history"]["id"] == 1
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(out), ""))
    )
    hw.import_button.click()
    assert dialogs.warnings and "already in the history as run 1" in dialogs.warnings[-1][1]
    other = History.open(tmp_path / "other.sqlite3")
    with other:
        assert other.import_file(out) == 1  # the file is a valid export elsewhere
    assert hw.run_ids() == [1]


def test_window_fits_a_small_screen(qtbot: QtBot, settings: AppSettings) -> None:
    hw = _history_window(qtbot, settings)
    assert hw.width() <= 1366 and hw.height() <= 768
    assert hw.minimumSizeHint().width() <= 1366 and hw.minimumSizeHint().height() <= 700


def test_window_sizes_to_the_screen_and_keeps_where_and_state_in_sight(
    qtbot: QtBot, settings: AppSettings, history_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.gui.history import run_table

    with History.open(history_db) as history:
        history.record(_run((0.001, 0.0011, 0.0009), (0.002, 0.0021, 0.0019), "2026-11-01"))
    long_title = "a very long study title, " * 20
    monkeypatch.setattr(run_table, "what_was_run", lambda _s: long_title)
    hw = _history_window(qtbot, settings)
    screen = hw.screen().availableGeometry()
    assert hw.width() <= screen.width() and hw.height() <= screen.height()
    assert hw.width() >= screen.width() * 0.8  # most of it, not a fixed 1000x560
    qtbot.waitUntil(lambda: hw.table.viewport().width() > 0.7 * hw.width())
    assert hw.table.item(0, 4).text() == long_title
    assert hw.table.item(0, 4).toolTip() == long_title  # the whole of it on hover
    header, state = hw.table.horizontalHeader(), 6
    assert header.sectionViewportPosition(state) + header.sectionSize(state) <= (
        hw.table.viewport().width()
    )
    assert header.sectionSize(4) > header.sectionSize(5)  # the room left goes to the title


def _activated(qtbot: QtBot, view: Any) -> Any:
    """``view`` as the active window (a shortcut goes to the active window only)."""
    view.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is view)
    return view


def _closes_on(qtbot: QtBot, view: QWidget, close: Any) -> None:
    with qtbot.waitSignal(view.destroyed, timeout=60_000):
        close()


def test_run_and_comparison_windows_close_by_button_escape_and_ctrl_w(
    qtbot: QtBot, settings: AppSettings, history_db: Path
) -> None:
    with History.open(history_db) as history:
        history.record(_run((0.001, 0.0011, 0.0009), (0.002, 0.0021, 0.0019), "2026-11-01"))
        history.record(_run((0.002, 0.0021, 0.0019), (0.001, 0.0011, 0.0009), "2026-11-02"))
    hw = _history_window(qtbot, settings)

    def open_run() -> StoredRunWindow:
        hw.select_ids([1])
        hw.open_button.click()
        view = hw.views[-1]
        assert isinstance(view, StoredRunWindow) and view.isVisible()
        return _activated(qtbot, view)

    def open_comparison() -> ComparisonWindow:
        hw.comparison_window = None
        hw.select_ids([1, 2])
        hw.compare_button.click()
        qtbot.waitUntil(lambda: hw.comparison_window is not None, timeout=TIMEOUT_MS)
        view = hw.comparison_window
        assert view.isVisible()
        return _activated(qtbot, view)

    for open_view in (open_run, open_comparison):
        view = open_view()
        close = view.buttons.button(QDialogButtonBox.StandardButton.Close)
        assert close is not None and close.isVisible()
        _closes_on(qtbot, view, lambda v=close: qtbot.mouseClick(v, Qt.MouseButton.LeftButton))
        view = open_view()
        _closes_on(qtbot, view, lambda v=view: qtbot.keyClick(v, Qt.Key.Key_Escape))
        view = open_view()
        _closes_on(qtbot, view, lambda v=view: qtbot.keySequence(v, QKeySequence.StandardKey.Close))
    assert hw.isVisible()  # only the run and comparison windows closed


def test_a_study_finished_in_the_study_window_is_stored(
    qtbot: QtBot, settings: AppSettings, history_db: Path, dialogs: Dialogs
) -> None:
    from test_study_window import FakeStudyRun

    from app.gui.study.study_window import StudyWindow

    w = StudyWindow(run_factory=FakeStudyRun, settings=settings)
    qtbot.addWidget(w)
    set_study(w, "aes-key-sizes", "2KB, 4KB")
    w.run_action.trigger()
    qtbot.waitUntil(lambda: "Saved to history as run 1" in w.statusBar().currentMessage())
    with History.open(history_db) as history:
        (summary,) = history.list_runs()
    assert summary.kind == "study"
    w.controller.exported = True  # no question at teardown
    w.controller.cancel_and_wait()
    w.close()


@pytest.mark.usefixtures("in_process_transfers")
def test_a_transfer_is_stored_and_opens_as_a_table(
    qtbot: QtBot, settings: AppSettings, history_db: Path, dialogs: Dialogs
) -> None:
    from app.gui.transfer.transfer_window import TransferWindow

    w = TransferWindow(settings=settings)
    qtbot.addWidget(w)
    w.form.set_size("64 KB")
    w.form.set_ciphers(["aes-256-gcm"])
    w.form.repeat_spin.setValue(2)
    w.form.warmup_spin.setValue(0)
    w.run_button.click()
    saved = "Saved to history as run 1"
    qtbot.waitUntil(lambda: saved in w.statusBar().currentMessage(), timeout=60_000)
    hw = _history_window(qtbot, settings)
    assert hw.table.item(0, 3).text() == "transfer"
    hw.select_ids([1])
    hw.open_button.click()
    view = hw.views[-1]
    assert isinstance(view, StoredRunWindow)
    assert view.table.rowCount() == 1 and "aes-256-gcm" in view.table.item(0, 0).text()
    w.close()


def test_a_run_with_nothing_finished_is_not_stored(history_db: Path, qtbot: QtBot) -> None:
    empty = RunResult((), (), {}, {}, "2026-11-01", "2026-11-01", cancelled=True)
    assert not history_recorder().record(empty)
    some = dataclasses.replace(_run((0.001,), (0.001,), "2026-11-01"), cancelled=True)
    assert history_recorder().record(some)
    history_recorder().wait_for_done()
    qtbot.waitUntil(lambda: history_db.exists() and _stored_ids(history_db) == [1])
    with History.open(history_db) as history:
        assert history.summary(1).cancelled


def test_the_list_shows_an_imported_host_names_controls_not_obeys_them(qtbot: QtBot) -> None:
    """An imported export's host name forged a second line in the Machine cell."""
    from app.core.history.records import RunSummary
    from app.gui.history.run_table import HEADERS, RunTable

    table = RunTable()
    qtbot.addWidget(table)
    summary = RunSummary(
        7, "bench", "t", "2026-11-29T10:00:00+00:00", "2026-11-29T10:00:05+00:00",
        "2026-11-29T10:01:00+00:00", "evil\x1b]0;pwned\x07\nID  fake", None,
        ("aes-128-cbc",), ("new\nline.bin",), "imported", False, "0.1.0",
    )  # fmt: skip
    table.show_runs([summary])
    machine = table.item(0, HEADERS.index("Machine")).text()
    assert machine == "evil\\x1b]0;pwned\\x07\\x0aID  fake"
    assert not any(
        c in table.item(0, col).text() for col in range(len(HEADERS)) for c in "\n\x1b\x07"
    )
