"""The main window in rounds: the Rounds option runs every job again in fresh workers (the real
engine), the progress counts the workers, and the Comparisons tab states each claim with its
interval, direction and rounds; with one round it says why no claim can be made."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Dialogs
from pytestqt.qtbot import QtBot

from app.gui.main.window import MainWindow
from app.gui.selection import make_selection
from app.gui.settings import AppSettings

TIMEOUT_MS = 60_000


@pytest.fixture
def window(
    qtbot: QtBot, settings: AppSettings, dialogs: Dialogs, quick_jobs: None
) -> Iterator[MainWindow]:
    settings.keep_history = False
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    yield w
    w.close()


def _run(qtbot: QtBot, w: MainWindow, folder: Path, rounds: int) -> None:
    """AES-128 and AES-256 in CTR mode on ``folder/data.bin`` (20 KB) in ``rounds`` rounds."""
    path = folder / "data.bin"
    path.write_bytes(b"x" * 20_000)
    assert w.controller.set_input_file(str(path))
    aes = make_selection({"AES": ((128, 256), ("CTR",))}, ("cryptography",))
    w.selection_panel.set_selection(aes)
    o = w.options_panel
    o.repeat_spin.setValue(4)
    o.warmup_spin.setValue(0)
    o.memory_check.setChecked(False)
    o.keep_check.setChecked(False)
    o.rounds_spin.setValue(rounds)
    w.run_action.trigger()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=TIMEOUT_MS)
    assert w.controller.model.rowCount() == 2, w.controller.failures


@pytest.mark.usefixtures("in_process_jobs")
def test_rounds_give_the_comparisons_their_intervals(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    _run(qtbot, window, tmp_path, rounds=4)
    run = window.controller.last_run
    assert run is not None and all(len(r.rounds) == 4 for r in run.results)
    assert window.progress_panel.bar.value() == window.progress_panel.bar.maximum()
    # the bar counts each job once per round, and says so beside "2 jobs measured"
    assert window.progress_panel.bar.format() == "8 of 8 job rounds done"
    panel = window.comparisons_panel
    qtbot.waitUntil(lambda: "95 % CI" in panel.text.toPlainText(), timeout=TIMEOUT_MS)
    text = panel.text.toPlainText()
    assert text.startswith("On data.bin:")
    # One claim per direction, decided or not ("encrypts 3 % faster", "... when encrypting").
    assert "encrypt" in text and "decrypt" in text and "4 rounds" in text
    assert "intervals over the rounds" in panel.note.text()
    assert window.tabs.tabText(window.tabs.indexOf(panel)) == "Comparisons"
    assert window.options_panel.to_dict()["rounds"] == 4


@pytest.mark.usefixtures("in_process_jobs")
def test_one_round_says_why_no_claim_is_made(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    _run(qtbot, window, tmp_path, rounds=1)
    panel = window.comparisons_panel
    qtbot.waitUntil(lambda: "in 1 round a side, too few to show" in panel.text.toPlainText())
    assert "A comparison needs 4 rounds or more" in panel.note.text()
    assert "6 also give each figure of the table its 95 % interval" in panel.note.text()
    # One click to verdicts: the same run again in 6 rounds.
    assert panel.rerun_button.isVisibleTo(panel)
    assert panel.rerun_button.text() == "Run again in 6 rounds for verdicts"
    panel.rerun_button.click()
    assert window.options_panel.rounds() == 6
    qtbot.waitUntil(lambda: "6 rounds" in panel.text.toPlainText(), timeout=TIMEOUT_MS)
    assert not panel.rerun_button.isVisibleTo(panel)
    assert "the inputs of runs with fewer have none" in panel.note.text()  # run 1 stays


def test_the_running_job_is_named_by_its_round_and_its_place_in_it() -> None:
    """Two jobs in four rounds, the second failing in round 1 (a failed job is not run again):
    the label and the count follow the rounds as they are run, not jobs x rounds."""
    from app.core.bench.session import RunSession
    from app.gui.panels.progress_panel import ProgressInfo

    session = RunSession()
    session.begin(2)
    seen: list[tuple[str, str]] = []

    def shown() -> ProgressInfo:
        p = session.progress(1.0, running=True, completed=False)
        return ProgressInfo(
            p.total_jobs, p.done_jobs, p.current_label, p.phase, p.fraction, 1.0, None,
            rounds=p.rounds, round_no=p.round_no, round_jobs=p.round_jobs,
            round_position=p.round_position,
        )  # fmt: skip

    for round_no, order in enumerate(((0, 1), (0,), (0,), (0,))):
        session.round_started(2, 4, round_no, len(order))
        for job in order:
            session.job_started("aes" if job == 0 else "bf")
            seen.append((shown().current(), shown().counted()))
            session.job_failed("bf: failed") if job == 1 else session.job_finished()
    assert seen == [
        ("Round 1 of 4, job 1 of 2", "0 of 8 job rounds done"),
        ("Round 1 of 4, job 2 of 2", "1 of 8 job rounds done"),
        ("Round 2 of 4, job 1 of 1", "2 of 5 job rounds done"),
        ("Round 3 of 4, job 1 of 1", "3 of 5 job rounds done"),
        ("Round 4 of 4, job 1 of 1", "4 of 5 job rounds done"),
    ]
    final = session.progress(9.0, running=False, completed=True)
    assert (final.done_jobs, final.total_jobs, final.fraction) == (5, 5, 1.0)
    single = ProgressInfo(4, 2, "aes", "", 0.5, 1.0, None)
    assert (single.current(), single.counted()) == ("Job 3 of 4", "2 of 4 jobs done")
