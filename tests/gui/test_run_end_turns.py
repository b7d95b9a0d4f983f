"""The start and the end of a run are spread over several turns of the event loop, so that no
turn is long: the form's panels are enabled or disabled one per turn, and the history stores
the run a moment later."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.bench.results import RunResult
from app.core.history.store import History
from app.gui.main.window import MainWindow
from app.gui.recorder import STORE_DELAY_MS, history_recorder


def test_the_form_is_enabled_one_panel_per_turn(qtbot: QtBot, main_window: MainWindow) -> None:
    panels = (main_window.input_panel, main_window.selection_panel, main_window.options_panel)
    for panel in panels:
        panel.setEnabled(False)
    main_window._update_actions()  # as at a run's end
    main_window._update_actions()  # twice in one turn (a row selected too): still one panel
    assert [panel.isEnabled() for panel in panels] == [True, False, False]
    qtbot.waitUntil(lambda: all(panel.isEnabled() for panel in panels), timeout=2000)


def test_the_form_is_disabled_one_panel_per_turn(
    qtbot: QtBot, main_window: MainWindow, monkeypatch
) -> None:
    panels = (main_window.input_panel, main_window.selection_panel, main_window.options_panel)
    monkeypatch.setattr(type(main_window.controller), "running", property(lambda self: True))
    main_window._update_actions()  # as at a run's start
    assert [panel.isEnabled() for panel in panels] == [False, True, True]
    assert not main_window.run_action.isEnabled()  # the run's own controls at once
    qtbot.waitUntil(lambda: not any(panel.isEnabled() for panel in panels), timeout=2000)


def test_a_run_started_before_the_form_is_enabled_keeps_it_disabled(
    qtbot: QtBot, main_window: MainWindow, monkeypatch
) -> None:
    panels = (main_window.input_panel, main_window.selection_panel, main_window.options_panel)
    for panel in panels:
        panel.setEnabled(False)
    main_window._update_actions()
    monkeypatch.setattr(type(main_window.controller), "running", property(lambda self: True))
    main_window._update_actions()  # a new run started in between
    qtbot.wait(50)
    assert not any(panel.isEnabled() for panel in panels)


def _run(started: str) -> RunResult:
    from gui_factories import job_result

    return RunResult((job_result("a"),), (), {}, {}, started, started)


def test_a_run_is_stored_a_moment_after_it_ends(qtbot: QtBot, history_db: Path) -> None:
    recorder = history_recorder()
    assert recorder.record(_run("2026-11-01T10:00:00+00:00"))
    assert recorder._pending and recorder._timer.isActive()  # the window draws the end first
    assert recorder._timer.interval() == STORE_DELAY_MS
    with qtbot.waitSignal(recorder.recorded, timeout=10_000) as stored:
        pass
    assert stored.args == [1]
    with History.open(history_db) as history:
        assert [s.id for s in history.list_runs()] == [1]


def test_waiting_for_the_recorder_stores_what_waits_at_once(history_db: Path) -> None:
    recorder = history_recorder()
    first, second = _run("2026-11-01T10:00:00+00:00"), _run("2026-11-02T10:00:00+00:00")
    assert recorder.record(first) and recorder.record(second)
    assert recorder.wait_for_done(10_000)  # no waiting for the delay
    with History.open(history_db) as history:
        stored = sorted(s.started_at for s in history.list_runs())
    assert stored == [first.started_at, second.started_at]
