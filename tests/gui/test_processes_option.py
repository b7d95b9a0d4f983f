"""The Processes option (``bench --processes`` in the window): range, note above the core
count, kept in the settings, passed to the engine, and the aggregate column it fills."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import Dialogs
from gui_factories import job_result, shown_window
from jobs_here import run_isolated_briefly
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.bench import multicore
from app.core.bench.results import Aggregate
from app.gui.main.window import MainWindow
from app.gui.panels.options_panel import OptionsPanel
from app.gui.results.result_columns import AGGREGATE_HEADER
from app.gui.results.results_table import COLUMN_INDEX
from app.gui.selection import make_selection
from app.gui.settings import AppSettings

CORES = os.cpu_count() or 1


@pytest.fixture
def window(
    qtbot: QtBot, settings: AppSettings, dialogs: Dialogs, quick_jobs: None
) -> Iterator[MainWindow]:
    w = shown_window(qtbot, MainWindow(settings=settings), size=None)
    yield w
    if w.isVisible():
        w.close()
        qtbot.waitUntil(lambda: not w.isVisible(), timeout=60_000)


def test_range_default_and_a_note_above_the_core_count(qtbot: QtBot) -> None:
    panel = OptionsPanel()
    qtbot.addWidget(panel)
    spin = panel.processes_spin
    assert (spin.minimum(), spin.maximum(), spin.value()) == (1, 4 * CORES, 1)
    assert "openssl speed -multi" in spin.toolTip()
    assert panel.processes_note.isHidden()
    spin.setValue(CORES)
    assert panel.processes_note.isHidden()
    spin.setValue(CORES + 1)
    assert not panel.processes_note.isHidden()
    assert f"{CORES} core" in panel.processes_note.text()
    assert panel.processes() == CORES + 1
    panel.reset()
    assert panel.processes() == 1 and panel.processes_note.isHidden()


def test_processes_are_kept_in_the_settings(
    qtbot: QtBot, settings: AppSettings, dialogs: Dialogs
) -> None:
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    w.options_panel.processes_spin.setValue(2)
    w.save_settings()
    assert settings.options["processes"] == 2
    again = MainWindow(settings=settings)
    qtbot.addWidget(again)
    assert again.options_panel.processes() == 2
    settings.options = {**settings.options, "processes": "many"}  # a damaged file
    third = MainWindow(settings=settings)
    qtbot.addWidget(third)
    assert third.options_panel.processes() == 1


def test_the_aggregate_column_shows_only_with_an_aggregate(window: MainWindow) -> None:
    table, model = window.table, window.controller.model
    column = COLUMN_INDEX[AGGREGATE_HEADER]
    model.add_result(job_result())
    assert table.isColumnHidden(column)
    with_copies = replace(job_result(), aggregate=Aggregate(2, 3_900.5, 3_800.25))
    model.add_result(with_copies)
    assert not table.isColumnHidden(column)
    text = model.data(model.index(1, column))
    assert text == "3,900 / 3,800 (2 proc.)"
    tip = model.data(model.index(1, column), Qt.ItemDataRole.ToolTipRole)
    assert "MiB/s" in tip and "x one process" in tip
    assert model.data(model.index(0, column)) == "—"
    tsv = model.rows_as_tsv([0, 1]).splitlines()
    header = tsv[0].split("\t")
    i = header.index("Processes at once")
    assert header[i + 1 : i + 3] == [
        "Aggregate enc. throughput (MB/s)",
        "Aggregate dec. throughput (MB/s)",
    ]
    assert tsv[1].split("\t")[i : i + 3] == ["", "", ""]
    assert tsv[2].split("\t")[i : i + 3] == ["2", "3900.5", "3800.25"]
    # The user's choice still rules: hidden by the column menu, it stays hidden.
    table.set_hidden_columns([AGGREGATE_HEADER])
    assert table.isColumnHidden(column)
    table.set_hidden_columns(None)
    model.clear()
    assert table.isColumnHidden(column)


@pytest.mark.slow
def test_a_run_with_two_processes_shows_the_aggregate(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(multicore, "run_isolated", run_isolated_briefly)  # real, timed 5 ms
    data = tmp_path / "tiny.bin"
    data.write_bytes(os.urandom(32 * 1024))
    w = window
    assert w.controller.set_input_file(str(data))
    w.selection_panel.set_selection(make_selection({"AES": ((128,), ("CTR",))}, ("cryptography",)))
    w.options_panel.repeat_spin.setValue(1)
    w.options_panel.warmup_spin.setValue(0)
    w.options_panel.memory_check.setChecked(False)
    w.options_panel.processes_spin.setValue(2)
    w.run_action.trigger()
    assert w.controller.running and w.controller.processes == 2
    qtbot.waitUntil(lambda: not w.controller.running, timeout=90_000)
    assert dialogs.warnings == []
    model = w.controller.model
    assert model.rowCount() == 1
    result = model.result(0)
    assert result.aggregate is not None and result.aggregate.processes == 2
    column = COLUMN_INDEX[AGGREGATE_HEADER]
    assert not w.table.isColumnHidden(column)
    assert model.data(model.index(0, column)).endswith("(2 proc.)")
    assert w.controller.last_run is not None
    assert w.controller.last_run.results[0].aggregate == result.aggregate
