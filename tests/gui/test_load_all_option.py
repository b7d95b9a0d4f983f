"""The window's load-all memory option (app/core/bench/load_all.py): chosen under the memory
pass, kept in the saved options, its figures in the Memory cell's tooltip."""

from __future__ import annotations

from dataclasses import replace

from factories import job_result
from pytestqt.qtbot import QtBot

from app.core.bench.jobs import LOAD_ALL
from app.core.bench.results import WorkloadMemory
from app.gui.panels.options_panel import OptionsPanel
from app.gui.results import result_columns


def test_load_all_runs_only_with_the_memory_pass_and_is_remembered(qtbot: QtBot) -> None:
    panel = OptionsPanel()
    qtbot.addWidget(panel)
    assert panel.options().memory_workload == "" and panel.load_all_check.isEnabled()
    panel.load_all_check.setChecked(True)
    assert panel.options().memory_workload == LOAD_ALL
    panel.memory_check.setChecked(False)
    assert not panel.load_all_check.isEnabled() and panel.options().memory_workload == ""
    panel.memory_check.setChecked(True)
    saved = panel.to_dict()
    other = OptionsPanel()
    qtbot.addWidget(other)
    other.from_dict(saved)
    assert other.options().memory_workload == LOAD_ALL
    other.reset()
    assert other.options().memory_workload == ""


def test_the_memory_tooltip_gives_the_load_all_figures_by_direction() -> None:
    (memory,) = [c for c in result_columns.COLUMNS if c.header.startswith("Memory above")]
    r = replace(
        job_result(),
        workload_memory=WorkloadMemory(LOAD_ALL, 3 << 20, 3 << 20, 3 << 20, 2 << 20),
    )
    assert memory.cell_tip is not None
    tip = memory.cell_tip(r)
    assert "load-all program" in tip and "encrypt: 3.00 MiB / 3.00 MiB" in tip
    assert "decrypt: 3.00 MiB / 2.00 MiB" in tip
    assert "load-all" not in memory.cell_tip(job_result())
