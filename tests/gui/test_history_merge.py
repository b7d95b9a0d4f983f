"""The History window's Merge and Run this on my machine: several runs (three machines) read in
a worker and shown as one table with a column group each, the normalised view with its
reference chooser, what differs and the sources, exported as Markdown; a transfer or a sweep in
the selection is explained, never silently ignored; a study from the history or from a file
runs here again with its definition (the Study window's worker), is stored, and is shown beside
the original, a file changed since it was written with a warning; Cancel stops it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import Dialogs
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot
from trend_factories import sweep

from app.core.history.store import History
from app.core.kinds import formats
from app.core.runtime.events import Finished, Progress
from app.core.study.definition import Study
from app.core.study.result import StudyResult
from app.core.study.steps import StudyStarted
from app.gui.history import history_tasks, rerun_here
from app.gui.history.history_window import HistoryWindow
from app.gui.history.merged_view import MergedWindow
from app.gui.recorder import history_recorder
from app.gui.settings import AppSettings
from tests.core.history.history_factories import (
    environment,
    study_result,
    transfer_run,
    transfer_study,
)

TIMEOUT_MS = 30_000
RUN_TIMEOUT_MS = 60_000  # a real study: eight worker processes on a loaded machine
CPUS = ("Laptop CPU", "Phone SoC", "Workstation CPU")
AES128, AES256 = "aes-128-cbc [pycryptodome]", "aes-256-cbc [pycryptodome]"


def machine_run(cpu: str, day: int, speed: float = 1.0) -> StudyResult:
    """The factory study as run on a machine with ``cpu``: every time divided by ``speed``."""
    base = study_result(started_at=f"2026-11-{day:02d}T10:00:00+00:00")
    jobs = tuple(
        replace(
            j,
            encrypt=replace(j.encrypt, samples_s=tuple(t / speed for t in j.encrypt.samples_s)),
            decrypt=replace(j.decrypt, samples_s=tuple(t / speed for t in j.decrypt.samples_s)),
        )
        for j in base.results
    )
    return replace(base, results=jobs, environment=environment(cpu_model=cpu))


def tiny(result: StudyResult) -> StudyResult:
    """``result`` with its study cut to one size and no extra rounds: eight quick jobs."""
    study = replace(result.study, max_rounds=2, sizes=result.study.sizes[:1], data_seed=7)
    jobs = tuple(j for j in result.results if j.input_label == study.sizes[0].label)
    return replace(result, study=study, results=jobs)


def record(db: Path, results: list[Any]) -> list[int]:
    with History.open(db) as history:
        return [history.record(r) for r in results]


def stored_count(db: Path) -> int:
    with History.open(db) as history:
        return history.count()


@pytest.fixture
def window(qtbot: QtBot, settings: AppSettings, dialogs: Dialogs) -> Iterator[HistoryWindow]:
    hw = HistoryWindow(settings=settings)
    qtbot.addWidget(hw)
    hw.show()
    yield hw
    hw.close()
    history_recorder().wait_for_done()


def click_merge(qtbot: QtBot, hw: HistoryWindow, ids: list[int]) -> list[threading.Thread]:
    """Select ``ids``, click Merge, wait for the reading to end; the threads it ran in."""
    threads: list[threading.Thread] = []
    merge = history_tasks.merge

    def merging(path: Path, run_ids: list[int]) -> Any:
        threads.append(threading.current_thread())
        return merge(path, run_ids)

    hw.refresh()
    hw.select_ids(ids)
    assert hw.merge_button.isEnabled()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(history_tasks, "merge", merging)
        hw.merge_button.click()
        qtbot.waitUntil(lambda: bool(threads) and not hw.runner.busy, timeout=TIMEOUT_MS)
    return threads


def headers(model: Any) -> list[str]:
    return [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]


def column(model: Any, col: int) -> list[str]:
    return [model.index(r, col).data() for r in range(model.rowCount())]


def test_three_machines_merge_into_three_column_groups(
    qtbot: QtBot, window: HistoryWindow, history_db: Path, dialogs: Dialogs, tmp_path: Path
) -> None:
    speeds = (1.0, 0.25, 2.0)
    runs = [
        machine_run(cpu, 2 + i, speed)
        for i, (cpu, speed) in enumerate(zip(CPUS, speeds, strict=True))
    ]
    ids = record(history_db, runs)
    threads = click_merge(qtbot, window, ids)
    assert threads[0] is not threading.main_thread()  # read in a worker
    assert window.merge_button.isEnabled()  # back once the worker is done
    w: MergedWindow = window.merged_window
    qtbot.addWidget(w)
    assert w.isVisible() and dialogs.warnings == [] and dialogs.notices == []
    # One row per entry and input, one column group per machine (named by its CPU: the three
    # runs were stored on one host), each median [95 % interval].
    assert headers(w.figures_model) == ["Entry", "Input", *(f"{c} (MB/s)" for c in CPUS)]
    assert column(w.figures_model, 0) == [AES128, AES256, AES128, AES256]
    assert column(w.figures_model, 1) == ["2 KB", "2 KB", "4 KB", "4 KB"]
    # 2,000 B in about 20 us; two rounds: too few for an interval.
    assert [column(w.figures_model, c)[0] for c in (2, 3, 4)] == [
        "99.8 [n/a]",
        "24.9 [n/a]",
        "200 [n/a]",
    ]
    # The normalised view: AES-128 = 1 on every machine, so the three agree by shape.
    assert [w.reference_box.itemData(i) for i in range(w.reference_box.count())] == [
        AES128,
        AES256,
    ]
    assert w.reference == AES128
    assert headers(w.normalised_model) == ["Entry", "Input", *(f"{c} (x)" for c in CPUS)]
    assert not w.normalised_view.isHidden() and w.no_reference_label.isHidden()
    for col in (2, 3, 4):
        assert column(w.normalised_model, col) == ["1.00 [1.00, 1.00]", "0.833 [n/a]"] * 2
    w.choose(reference=AES256)  # recomputed at once
    assert w.merged.reference == AES256
    assert column(w.normalised_model, 2) == ["1.20 [n/a]", "1.00 [1.00, 1.00]"] * 2
    w.choose(direction="decrypt", units="KB/s")
    assert headers(w.figures_model)[2] == "Laptop CPU (KB/s)"
    assert column(w.figures_model, 2)[0] == "110,803 [n/a]"  # 2,000 B in about 18 us
    # What differs: the CPU only; where each run came from.
    assert column(w.differences_model, 0) == ["CPU"]
    assert column(w.differences_model, 3) == ["Workstation CPU"]
    assert w.tabs.tabText(2) == "&What differs (1)"
    assert column(w.sources_model, 1) == [f"run {i}" for i in ids]
    assert w.width() <= 1366 and w.height() <= 768
    assert w.minimumSizeHint().height() <= 700
    # Export as Markdown: the save dialog offers the merged formats, the suffix follows it.
    offered: list[str] = []

    def save_name(_parent: Any, _title: str, _suggested: str, filters: str) -> tuple[str, str]:
        offered.extend(filters.split(";;"))
        return str(tmp_path / "merged"), next(f for f in offered if "(*.md)" in f)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
        w.export_button.click()
    assert list(formats.MERGED.file_filters()) == offered
    table = (tmp_path / "merged.md").read_text()
    header = next(line for line in table.splitlines() if line.startswith("| Entry | Input |"))
    assert header.count("(KB/s)") == 3 and "| Phone SoC (KB/s) |" in header
    assert f"Normalised to {AES256} = 1" in table
    assert w.statusBar().currentMessage() == f"Saved the merged runs to {tmp_path / 'merged.md'}"
    assert w.export_to(tmp_path / "no-such-folder" / "m.md") is None
    assert dialogs.warnings and dialogs.warnings[-1][0] == "Not exported"


def test_runs_that_cannot_be_merged_are_explained(
    qtbot: QtBot, window: HistoryWindow, history_db: Path, dialogs: Dialogs
) -> None:
    study, transfer, swept, loop = record(
        history_db, [machine_run(CPUS[0], 2), transfer_run(), sweep(), transfer_study()]
    )
    window.refresh()
    window.select_ids([study, transfer, swept])
    assert window.merge_button.isEnabled()  # a click says why, rather than nothing
    window.merge_button.click()
    assert not window.runner.busy and getattr(window, "merged_window", None) is None
    ((title, text),) = dialogs.notices
    assert title == "These runs cannot be merged"
    assert text.startswith(
        f"Run {transfer} is a transfer run and run {swept} is a sweep run: merging takes runs of"
    )
    assert "Deselect them and click Merge again." in text
    # A transfer study is a "study" in the list: told apart once read, in the worker.
    window.select_ids([study, loop])
    window.merge_button.click()
    qtbot.waitUntil(lambda: bool(dialogs.warnings), timeout=TIMEOUT_MS)
    assert dialogs.warnings == [
        (
            "These runs cannot be merged",
            f"Cannot put run {loop} (a transfer study) beside run {study} (a study): only runs "
            "of one kind go side by side (bench runs and cipher studies merge together)",
        )
    ]
    # Run this on my machine: a cipher study only.
    window.select_ids([transfer])
    assert not window.run_here_button.isEnabled()
    window.select_ids([loop])
    # Enabled once the merge's reading worker has finished (its end may be queued still).
    qtbot.waitUntil(window.run_here_button.isEnabled, timeout=TIMEOUT_MS)
    window.run_here_button.click()
    qtbot.waitUntil(lambda: len(dialogs.notices) == 2, timeout=TIMEOUT_MS)
    assert dialogs.notices[-1][1].startswith(f"Run {loop} is a transfer study: Run this on my")
    assert not window.rerunning


@pytest.mark.usefixtures("in_process_jobs")
@pytest.mark.slow
def test_run_this_on_my_machine_runs_the_study_here_and_shows_both(
    qtbot: QtBot, window: HistoryWindow, history_db: Path, dialogs: Dialogs
) -> None:
    original = tiny(machine_run("Other machine's CPU", 2))
    (run_id,) = record(history_db, [original])
    window.refresh()
    window.select_ids([run_id])
    assert window.run_here_button.isEnabled()
    window.run_here_button.click()
    qtbot.waitUntil(lambda: window.rerunning, timeout=TIMEOUT_MS)
    panel = window.rerun_here.panel
    assert panel is not None and panel.isVisible() and panel.cancel_button.isEnabled()
    assert not window.run_here_button.isEnabled() and not window.run_file_button.isEnabled()
    qtbot.waitUntil(
        lambda: getattr(window, "merged_window", None) is not None, timeout=RUN_TIMEOUT_MS
    )
    w: MergedWindow = window.merged_window
    qtbot.addWidget(w)
    assert dialogs.warnings == [], dialogs.warnings
    groups = headers(w.figures_model)[2:]
    assert len(groups) == 2 and groups[0] == "Other machine's CPU (MB/s)"
    assert column(w.figures_model, 0) == [AES128, AES256]
    assert all(cell != "-" for cell in column(w.figures_model, 3))  # every entry ran here
    assert column(w.sources_model, 1) == [f"run {run_id}", "this run"]
    assert not w.warning_label.isVisibleTo(w)
    # Stored, and listed: the same definition, run here.
    qtbot.waitUntil(lambda: window.table.rowCount() == 2, timeout=TIMEOUT_MS)
    assert window.statusBar().currentMessage() == (
        f"Ran AES-128 vs AES-256 here (2 cells), beside run {run_id}. Stored as run {run_id + 1}."
    )
    with History.open(history_db) as history:
        new_id = max(s.id for s in history.list_runs())
        new = history.load(new_id)
    assert new.summary.source == "here" and isinstance(new.result, StudyResult)
    assert new.result.study == original.study
    assert not new.result.cancelled and len(new.result.results) == 2
    qtbot.waitUntil(lambda: not window.rerunning, timeout=TIMEOUT_MS)
    assert not panel.isVisible()
    window.select_ids([run_id])
    qtbot.waitUntil(  # once the window's last worker has finished (its end may be queued)
        lambda: window.run_here_button.isEnabled() and window.run_file_button.isEnabled(),
        timeout=TIMEOUT_MS,
    )


class FakeStudyRun:
    """A study that ends at once with the factory's results (or, when ``hold``, when
    cancelled), measured on "This CPU"."""

    hold = False
    running = threading.Event()  # set once a run's events have started (cleared by a test)

    def __init__(self, study: Study) -> None:
        self.study = study
        self.files: tuple[Any, ...] = ()
        self._cancelled = self.cancel_event = threading.Event()

    def events(self) -> Iterator[Any]:
        type(self).running.set()
        yield Progress(0.0, "starting", StudyStarted((), self.study.rounds, 1), keep=True)
        if self.hold:
            self._cancelled.wait(TIMEOUT_MS / 1000)
        result = replace(
            tiny(machine_run("This CPU", 9)),
            study=self.study,
            cancelled=self._cancelled.is_set(),
        )
        yield Finished(result)

    def cancel(self) -> None:
        self._cancelled.set()


@pytest.fixture
def fake_window(qtbot: QtBot, settings: AppSettings, dialogs: Dialogs) -> Iterator[HistoryWindow]:
    hw = HistoryWindow(settings=settings, study_run_factory=FakeStudyRun)
    qtbot.addWidget(hw)
    hw.show()
    yield hw
    hw.close()
    history_recorder().wait_for_done()


def test_a_study_file_runs_here_and_a_changed_one_says_so(
    qtbot: QtBot, fake_window: HistoryWindow, history_db: Path, tmp_path: Path
) -> None:
    path = tmp_path / "lab.json"
    formats.save(tiny(machine_run("Lab CPU", 2)), path)
    doc = json.loads(path.read_text())
    doc["study"]["title"] = "edited by hand"  # the digest no longer matches
    path.write_text(json.dumps(doc))
    asked: list[str] = []

    def open_name(_parent: Any, _title: str, _folder: str, filters: str) -> tuple[str, str]:
        asked.append(filters)
        return str(path), filters

    assert fake_window.run_file_button.isEnabled()  # nothing selected: a file needs none
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(QFileDialog, "getOpenFileName", staticmethod(open_name))
        fake_window.run_file_button.click()
        qtbot.waitUntil(
            lambda: getattr(fake_window, "merged_window", None) is not None, timeout=TIMEOUT_MS
        )
    assert asked == ["CipherBench study (*.json)"]
    w: MergedWindow = fake_window.merged_window
    qtbot.addWidget(w)
    assert w.warning_label.isVisibleTo(w)
    assert w.warning_label.text().startswith("Warning: lab.json was changed after CipherBench")
    assert headers(w.figures_model)[2:] == ["Lab CPU (MB/s)", "This CPU (MB/s)"]
    assert column(w.sources_model, 1) == ["lab.json", "this run"]
    assert "CHANGED after it was written" in column(w.sources_model, 5)[0]
    # The new run is stored; the file is not imported.
    qtbot.waitUntil(lambda: fake_window.table.rowCount() == 1, timeout=TIMEOUT_MS)
    assert stored_count(history_db) == 1
    with History.open(history_db) as history:
        (summary,) = history.list_runs()
    assert summary.source == "here" and summary.title == "study tiny: edited by hand"


def test_cancel_stops_the_study_running_here(
    qtbot: QtBot,
    fake_window: HistoryWindow,
    history_db: Path,
    monkeypatch: pytest.MonkeyPatch,
    dialogs: Dialogs,
) -> None:
    monkeypatch.setattr(FakeStudyRun, "hold", True)
    monkeypatch.setattr(FakeStudyRun, "running", threading.Event())
    (run_id,) = record(history_db, [tiny(machine_run("Lab CPU", 2))])
    fake_window.refresh()
    fake_window.select_ids([run_id])
    fake_window.run_here_button.click()
    qtbot.waitUntil(lambda: fake_window.rerunning, timeout=TIMEOUT_MS)
    panel = fake_window.rerun_here.panel
    assert panel is not None
    qtbot.waitUntil(panel.isVisible, timeout=TIMEOUT_MS)
    # Cancelled once the run has started: a cancel before the pool thread starts it runs nothing
    # (tests/gui/test_worker.py), and a loaded machine can start it late.
    qtbot.waitUntil(FakeStudyRun.running.is_set, timeout=TIMEOUT_MS)
    panel.cancel_button.click()
    qtbot.waitUntil(lambda: not fake_window.rerunning, timeout=TIMEOUT_MS)
    assert getattr(fake_window, "merged_window", None) is None
    qtbot.waitUntil(lambda: fake_window.table.rowCount() == 2, timeout=TIMEOUT_MS)
    assert fake_window.statusBar().currentMessage() == (
        "Cancelled: nothing merged. The cells that finished are stored as a cancelled run. "
        "Stored as run 2."
    )
    assert not panel.isVisible() and dialogs.warnings == []
    # Closing while a study runs here stops it first, and the window closes once it has.
    fake_window.select_ids([run_id])  # the refresh may keep the new run selected beside it
    fake_window.run_here_button.click()
    qtbot.waitUntil(lambda: fake_window.rerunning, timeout=TIMEOUT_MS)
    fake_window.close()
    assert fake_window.isVisible()  # not yet: the worker is stopping
    qtbot.waitUntil(lambda: not fake_window.isVisible(), timeout=TIMEOUT_MS)
    assert dialogs.questions == []  # a program closing the window is not asked


def test_with_the_history_off_the_run_is_shown_and_not_stored(
    qtbot: QtBot, fake_window: HistoryWindow, settings: AppSettings, history_db: Path
) -> None:
    (run_id,) = record(history_db, [tiny(machine_run("Lab CPU", 2))])
    settings.keep_history = False
    fake_window.refresh()
    fake_window.select_ids([run_id])
    fake_window.run_here_button.click()
    qtbot.waitUntil(
        lambda: getattr(fake_window, "merged_window", None) is not None, timeout=TIMEOUT_MS
    )
    qtbot.addWidget(fake_window.merged_window)
    assert fake_window.statusBar().currentMessage() == (
        f"Ran AES-128 vs AES-256 here (2 cells), beside run {run_id}. "
        "Not stored: keeping a history of runs is off (History menu)."
    )
    qtbot.waitUntil(lambda: not fake_window.rerunning, timeout=TIMEOUT_MS)
    history_recorder().wait_for_done()
    assert stored_count(history_db) == 1


def test_a_received_file_naming_files_elsewhere_asks_before_reading_them(
    qtbot: QtBot, window: HistoryWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A colleague's export that names ~/.ssh/id_ed25519 is not run without a yes."""
    from tests.core.publish_factories import made_study

    path = tmp_path / "received.json"
    formats.save(made_study(files=(("id_ed25519", 400),)), path)  # names /data/id_ed25519
    asked: list[str] = []

    def no(_parent: Any, _title: str, text: str) -> bool:
        asked.append(text)
        return False

    monkeypatch.setattr(rerun_here, "ask_yes_no", no)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a: (str(path), a[-1])))
    window.run_file_button.click()
    qtbot.waitUntil(lambda: bool(asked), timeout=TIMEOUT_MS)
    assert "outside its folder (/data/id_ed25519)" in asked[0]
    qtbot.waitUntil(lambda: "Not run" in window.statusBar().currentMessage(), timeout=TIMEOUT_MS)
    assert not window.rerunning


def test_key_setup_runs_merge_and_compare_side_by_side_and_export(
    qtbot: QtBot, window: HistoryWindow, history_db: Path, dialogs: Dialogs, tmp_path: Path
) -> None:
    from app.gui.history.merged_documents_view import MergedDocumentsWindow
    from tests.cli.test_merge_side_by_side import _runs

    ids = record(history_db, list(_runs()))
    click_merge(qtbot, window, ids)
    w = window.merged_window
    qtbot.addWidget(w)
    assert isinstance(w, MergedDocumentsWindow) and w.isVisible() and not dialogs.warnings
    shown = w.document_view.tables[0]
    assert [shown.horizontalHeaderItem(c).text() for c in (3, 4)] == [
        f"run {ids[0]}: Key setup (µs)",
        f"run {ids[1]}: Key setup (µs)",
    ]
    assert (shown.item(0, 3).text(), shown.item(0, 4).text()) == (
        "1.00 [1.00, 1.01]",
        "0.501 [0.500, 0.503]",
    )
    assert "Merged 2 runs: 1 table(s)" in window.statusBar().currentMessage()
    written = w.export_to(tmp_path / "side.adoc")
    assert written is not None and "0.501 [0.500, 0.503]" in written.read_text(encoding="utf-8")
    # Compare: the same tables, said to carry no verdict.
    window.select_ids(ids)
    window.compare_button.click()
    qtbot.waitUntil(lambda: window.merged_window is not w, timeout=TIMEOUT_MS)
    compared = window.merged_window
    qtbot.addWidget(compared)
    assert f"Run {ids[1]} beside run {ids[0]}, table by table, with no verdict" in (
        compared.header_label.text()
    )
    assert compared.document_view.tables[0].item(0, 4).text() == "0.501 [0.500, 0.503]"
