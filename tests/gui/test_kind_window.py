"""A kind made from its definition gets a window (Run menu), a form of its options, a run in a
worker with progress, its document, Export in every format of its document, and its run in the
History window: here the trial kind, key setup, with real workers (one round each)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_factories import shown_window
from pytestqt.qtbot import QtBot

from app.core.history.store import History
from app.core.kinds import table
from app.gui.document_view import DocumentView
from app.gui.history.history_window import HistoryWindow
from app.gui.history.run_view import StoredRunWindow
from app.gui.kind_window import KindWindow
from app.gui.settings import AppSettings

TIMEOUT_MS = 60_000


@pytest.fixture
def window(qtbot: QtBot) -> KindWindow:
    return shown_window(qtbot, KindWindow(table.named("keysetup")), size=None)


def test_a_run_shows_its_document_exports_and_is_stored(
    qtbot: QtBot, window: KindWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert window.fields["cipher"].text() == "aes-128-gcm"
    assert not window.export_button.isEnabled() and not window.cancel_button.isEnabled()
    window.fields["cipher"].setText("aes-128-ctr, aes-256-ctr")
    window.fields["library"].setText("cryptography")
    window.fields["rounds"].setText("1")
    window.run_button.click()
    assert window.running and not window.run_button.isEnabled()
    qtbot.waitUntil(lambda: window.result is not None and not window.running, timeout=TIMEOUT_MS)
    (shown,) = window.view.tables
    assert [shown.item(r, 0).text() for r in range(shown.rowCount())] == [
        "aes-128-ctr", "aes-256-ctr",
    ]  # fmt: skip
    # One round: the interval is over the samples of its one worker (the method says so).
    assert shown.item(0, 3).text().endswith("]") and shown.item(0, 4).text() == "1"
    from app.gui.recorder import history_recorder

    def stored() -> int:
        with History.open() as history:
            return history.count()

    qtbot.waitUntil(lambda: stored() == 1, timeout=TIMEOUT_MS)
    history_recorder().wait_for_done()
    target = tmp_path / "k.md"
    monkeypatch.setattr(
        "app.gui.file_filters.QFileDialog.getSaveFileName",
        lambda *a, **k: (str(target), "Markdown table for a paper, with Methods (*.md)"),
    )
    window.export_button.click()
    assert "aes-256-ctr" in target.read_text()


def test_a_wrong_option_is_said_in_the_status_line_by_its_field(window: KindWindow) -> None:
    window.fields["rounds"].setText("0")
    window.run_button.click()
    assert window.status.text() == "Failed: Rounds: 0 is not between 1 and 100"
    assert not window.running and window.progress.value() == 0


def test_a_run_that_measured_nothing_is_a_failure_not_kept(
    qtbot: QtBot, window: KindWindow
) -> None:
    from dataclasses import replace

    from app.core.runtime.envelope import EntryFailure
    from app.core.runtime.events import Finished
    from tests.core.keysetup.test_keysetup import made

    failed = replace(made(), results=(), failures=(EntryFailure("x", "y", "it broke"),))
    window._on_worker_finished_run(Finished(failed))
    assert window.status.text() == "Failed: every entry failed: it broke"
    assert window.result is None and not window.export_button.isEnabled()
    with History.open() as history:
        assert history.count() == 0


def test_the_history_window_opens_such_a_run_as_its_document(
    qtbot: QtBot, settings: AppSettings, history_db: Path
) -> None:
    from tests.core.keysetup.test_keysetup import made

    with History.open(history_db) as history:
        history.record(made())
    hw = HistoryWindow(settings=settings)
    qtbot.addWidget(hw)
    hw.show()
    hw.select_ids([1])
    hw.open_button.click()
    (view,) = [v for v in hw.views if isinstance(v, StoredRunWindow)]
    assert isinstance(view.document_view, DocumentView)
    assert view.table.item(0, 3).text() == "1.00 [1.00, 1.01]"


def test_cancel_stops_the_workers_and_keeps_the_rounds_done(
    qtbot: QtBot, window: KindWindow
) -> None:
    from leftovers import spawned_children

    window.fields["cipher"].setText("aes-128-ctr, aes-256-ctr, chacha20")
    window.fields["library"].setText("cryptography")
    window.fields["rounds"].setText("50")
    window.run_button.click()
    # Past the first of the 150 rounds (1/150 of the bar is 6.7 of its 1000): a cancel before
    # any round finished rightly keeps nothing ("Cancelled: nothing had finished."), which on
    # a loaded machine made this test wait for a result that never comes.
    qtbot.waitUntil(lambda: window.progress.value() >= 7, timeout=TIMEOUT_MS)
    window.cancel_button.click()
    # The worker is done before its last event reaches the window: wait for the result too.
    qtbot.waitUntil(lambda: window.result is not None and not window.running, timeout=TIMEOUT_MS)
    assert window.result.cancelled
    assert window.status.text().startswith("Cancelled")
    assert not spawned_children()


def test_an_option_with_choices_is_picked_from_a_list(qtbot: QtBot) -> None:
    w = KindWindow(table.named("profile"))
    qtbot.addWidget(w)
    field = w.fields["profiler"]
    assert field.text() == "py-spy"
    field.setText("perf")
    assert w.values()["profiler"] == "perf"
    field.setReadOnly(True)
    assert not field.isEnabled()


def test_a_run_that_fails_leaves_the_last_runs_tables(qtbot: QtBot, window: KindWindow) -> None:
    """A mistyped cipher wiped the tables of the run before it and disabled Export."""
    from app.core.runtime.events import Finished
    from tests.core.keysetup.test_keysetup import made

    window._on_worker_finished_run(Finished(made()))
    shown = window.result
    assert shown is not None and window.view.tables
    window.fields["cipher"].setText("aes-128-gcn")
    window.fields["rounds"].setText("1")
    window.run_button.click()
    qtbot.waitUntil(lambda: window.export_button.isEnabled(), timeout=TIMEOUT_MS)
    assert window.status.text().startswith("Failed: ") and "last run's" in window.status.text()
    assert window.result is shown and window.view.tables and not window.running


@pytest.mark.parametrize("close", ["button", "escape", "ctrl+w"])
def test_close_escape_and_ctrl_w_close_it(qtbot: QtBot, window: KindWindow, close: str) -> None:
    """The kinds' windows had no Close, and neither Esc nor Ctrl+W closed them."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QDialogButtonBox

    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    if close == "button":
        button = window.buttons.button(QDialogButtonBox.StandardButton.Close)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    elif close == "escape":
        qtbot.keyClick(window, Qt.Key.Key_Escape)
    else:
        qtbot.keyClick(window, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isVisible())
