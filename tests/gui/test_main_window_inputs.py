"""Seed 002's workflow in the main window: several files at once, one run, one table and one
grouped chart with every input, results that accumulate across runs until Reset."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Dialogs
from gui_factories import drop_files, shown_window
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from app.gui.main.window import MainWindow
from app.gui.results.results_table import COLUMN_INDEX
from app.gui.selection import make_selection
from app.gui.settings import AppSettings

RUN_TIMEOUT_MS = 90_000

pytestmark = pytest.mark.slow  # the real window against the real engine


@pytest.fixture
def window(
    qtbot: QtBot, settings: AppSettings, dialogs: Dialogs, quick_jobs: None
) -> Iterator[MainWindow]:
    w = shown_window(qtbot, MainWindow(settings=settings))
    qtbot.waitUntil(lambda: w.tabs.ready, timeout=60_000)
    w.options_panel.repeat_spin.setValue(2)
    w.options_panel.warmup_spin.setValue(0)
    w.selection_panel.set_selection(
        make_selection({"AES": ((128, 256), ("ECB",))}, ("cryptography",))
    )
    yield w
    if w.controller.running:
        w.controller.cancel()
        qtbot.waitUntil(lambda: not w.controller.running, timeout=RUN_TIMEOUT_MS)
    w.close()


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    """A .txt, a .pdf-named and a .zip-named file, as seed 002 compares (contents differ)."""
    out = []
    for name, size in (("notes.txt", 20_000), ("paper.pdf", 26_000), ("archive.zip", 30_000)):
        path = tmp_path / name
        path.write_bytes(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
        out.append(path)
    return out


def _choose(monkeypatch: pytest.MonkeyPatch, w: MainWindow, paths: list[Path]) -> None:
    monkeypatch.setattr(
        QFileDialog,
        "getOpenFileNames",
        staticmethod(lambda *a, **k: ([str(p) for p in paths], "")),
    )
    w.input_panel.choose_button.click()


def _run(qtbot: QtBot, w: MainWindow) -> None:
    w.run_action.trigger()
    assert w.controller.running
    qtbot.waitUntil(lambda: not w.controller.running, timeout=RUN_TIMEOUT_MS)


def _inputs_in_table(w: MainWindow) -> list[str]:
    model = w.controller.model
    col = COLUMN_INDEX["Input"]
    return [model.data(model.index(r, col)) for r in range(model.rowCount())]


@pytest.mark.usefixtures("in_process_jobs")
def test_three_files_at_once_then_a_fourth_accumulate_in_one_table_chart_and_export(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    files: list[Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = window
    _choose(monkeypatch, w, files)
    assert w.input_panel.list.count() == 3
    assert w.input_panel.count_label.text() == "3 inputs"
    assert w.input_panel.name_label.text() == "archive.zip"  # the last one's details
    w.input_panel.list.setCurrentRow(1)
    assert w.input_panel.name_label.text() == "paper.pdf"

    _run(qtbot, w)
    assert dialogs.warnings == []
    inputs = _inputs_in_table(w)
    assert len(inputs) == 6  # 2 ciphers x 3 inputs
    assert {i.split(" (")[0] for i in inputs} == {"notes.txt", "paper.pdf", "archive.zip"}
    chart = w.tabs.input_chart
    chart.flush()
    assert chart.showing_data and "3 inputs" in chart._title.text()
    ticks = chart.plot.getAxis("bottom")._tickLevels[0]
    assert [t[1] for t in ticks] == ["notes.txt", "paper.pdf", "archive.zip"]
    assert len(chart.grouped.bars) == 2  # a bar series per cipher entry

    # a fourth file, dropped; the first three taken out of the list: a second run adds to it
    fourth = tmp_path / "slides.pptx"
    fourth.write_bytes(b"\x00" * 12_000)
    drop_files(w, [fourth])
    assert w.input_panel.list.count() == 4
    w.input_panel.list.selectAll()
    w.input_panel.list.item(3).setSelected(False)
    w.input_panel.remove_button.click()
    assert [i.name for i in w.input_panel.inputs] == ["slides.pptx"]
    _run(qtbot, w)
    assert len(_inputs_in_table(w)) == 8
    assert w.results_caption.text() == "Results (8 jobs)"
    chart.flush()
    assert "4 inputs" in chart._title.text()

    out = tmp_path / "all.json"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), ""))
    )
    w.export_action.trigger()
    data = json.loads(out.read_text())
    assert len(data["results"]) == 8
    assert {r["input_label"] for r in data["results"]} == {
        "notes.txt",
        "paper.pdf",
        "archive.zip",
        "slides.pptx",
    }
    assert len(data["options"]["inputs"]) == 4

    # the same cell again: kept apart as "(run 3)", never mixed with the first
    _run(qtbot, w)
    assert sum("(run 3)" in i for i in _inputs_in_table(w)) == 2

    # Reset empties the table, the chart and the list
    w.reset_action.trigger()
    assert w.controller.model.rowCount() == 0 and w.input_panel.list.count() == 0
    assert w.input_panel.name_label.text() == "no input yet"


def test_a_drop_of_several_files_adds_them_all_and_clear_empties_the_list(
    window: MainWindow, files: list[Path], dialogs: Dialogs, tmp_path: Path
) -> None:
    w = window
    drop_files(w, [*files, tmp_path / "missing.bin"])
    assert w.input_panel.list.count() == 3
    assert dialogs.warnings and "missing.bin" in dialogs.warnings[-1][1]
    drop_files(w, files[:1])  # already listed: refreshed, not doubled
    assert w.input_panel.list.count() == 3
    w.input_panel.clear_button.click()
    assert w.input_panel.list.count() == 0 and not w.input_panel.clear_button.isEnabled()


def test_random_data_of_several_sizes(qtbot: QtBot, window: MainWindow) -> None:
    w = window
    for size in ("16 KB", "32 KB", "16 KB"):
        w.input_panel.size_combo.setCurrentText(size)
        w.input_panel.generate_button.click()
        qtbot.waitUntil(lambda: not w.controller.busy, timeout=60_000)
    names = [i.name for i in w.input_panel.inputs]
    assert names == ["random 16 KB", "random 32 KB", "random 16 KB #2"]
    generated = [s.path for s in w.controller.inputs]
    w.input_panel.list.setCurrentRow(0)
    w.input_panel.list.item(0).setSelected(True)
    w.input_panel.remove_button.click()
    assert not Path(generated[0]).exists()  # generated data is deleted with its entry


def test_closing_mid_run_asks_first(qtbot: QtBot, window: MainWindow, files: list[Path]) -> None:
    w = window
    w.controller.add_input_files([str(p) for p in files])
    w.options_panel.repeat_spin.setValue(50)
    w.run_action.trigger()
    assert w.controller.running
    asked: list[str] = []

    def answer(reply: QMessageBox.StandardButton):  # type: ignore[no-untyped-def]
        def question(_parent: object, title: str, *_args: object) -> object:
            asked.append(title)
            return reply

        return staticmethod(question)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
        w.close_by_user()  # File > Quit
        assert asked == ["Stop the benchmark?"]
        assert w.isVisible() and w.controller.running  # No: nothing happened
        event = QCloseEvent()
        w.closeEvent(event)  # a program closing the window is not asked
        assert not event.isAccepted() and len(asked) == 1
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=RUN_TIMEOUT_MS)
    assert not w.controller.running


def test_quit_mid_run_stops_the_run_before_another_window_asks(
    qtbot: QtBot, window: MainWindow, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quit during a run: the run is cancelled first, then the Study window asks its own
    question (while it is open the run must not go on), and everything closes."""
    from app.gui.study.study_window import StudyWindow

    w = window
    w.study_action.trigger()
    study = w.study_window  # type: ignore[attr-defined]
    qtbot.addWidget(study)
    seen: list[tuple[str, bool]] = []

    def may_close(self: StudyWindow, event: object) -> bool:
        by_user = self.closed_by_user(event)  # type: ignore[arg-type]
        seen.append((w.status_label.text(), by_user))
        return True

    monkeypatch.setattr(StudyWindow, "_may_close", may_close)
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *_a: QMessageBox.StandardButton.Yes)
    )
    w.controller.add_input_files([str(p) for p in files])
    w.options_panel.repeat_spin.setValue(50)
    w.run_action.trigger()
    assert w.controller.running
    w.close_by_user()  # File > Quit, "Stop the benchmark?" answered Yes
    # asked after the run was told to stop, as the user's own close
    assert seen == [("Stopping the benchmark before closing…", True)]
    qtbot.waitUntil(lambda: not w.isVisible() and not study.isVisible(), timeout=RUN_TIMEOUT_MS)
    assert not w.controller.running


def test_save_chart_with_no_results_says_so(window: MainWindow, dialogs: Dialogs) -> None:
    window.save_chart_action.trigger()
    assert dialogs.warnings[-1][0] == "Nothing to save"


def test_the_memory_chart_says_how_to_see_another_job(
    qtbot: QtBot, window: MainWindow, files: list[Path]
) -> None:
    w = window
    w.controller.add_input_files([str(files[0])])
    _run(qtbot, w)
    w.table.selectRow(0)
    w.tabs.monitor_chart.flush()
    title = w.tabs.monitor_chart.memory_plot.titleLabel.text
    assert "select a row of the table to see another job" in title


@pytest.mark.usefixtures("in_process_jobs")
def test_kept_ciphertexts_of_every_input_and_run_stay_apart(
    qtbot: QtBot, window: MainWindow, files: list[Path], tmp_path: Path
) -> None:
    """Two inputs in one run, then a run without keeping, then one with: every row that kept
    its ciphertext decrypts back to its own input."""
    from app.core.files.kept import decrypt_kept

    w = window
    w.options_panel.keep_check.setChecked(True)
    w.controller.add_input_files([str(p) for p in files[:2]])
    _run(qtbot, w)
    w.options_panel.keep_check.setChecked(False)
    _run(qtbot, w)
    w.options_panel.keep_check.setChecked(True)
    w.controller.remove_inputs([1])
    _run(qtbot, w)
    rows = w.controller.model.rowCount()
    assert rows == 4 + 4 + 2
    by_name = {p.name: p.read_bytes() for p in files}
    kept = [r for r in range(rows) if w.controller.has_secret(r)]
    assert len(kept) == 6
    for row in kept:
        job = w.controller.finished_job(row)
        assert job is not None
        out = tmp_path / f"plain-{row}"
        decrypt_kept(job, out)
        assert out.read_bytes() == by_name[Path(job.input.path).name], row


def test_files_of_the_same_name_and_generated_data_get_labels_of_their_own(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    w = window
    paths = []
    for folder in ("x", "y"):
        (tmp_path / folder).mkdir()
        paths.append(tmp_path / folder / "data.csv")
        paths[-1].write_bytes(folder.encode() * 5000)
    w.controller.add_input_files([str(p) for p in paths])
    assert [i.name for i in w.input_panel.inputs] == ["data.csv", "data.csv (y)"]
    for _ in range(3):
        w.input_panel.size_combo.setCurrentText("16 KB")
        w.input_panel.generate_button.click()
        qtbot.waitUntil(lambda: not w.controller.busy, timeout=60_000)
    assert [i.name for i in w.input_panel.inputs][2:] == [
        "random 16 KB",
        "random 16 KB #2",
        "random 16 KB #3",
    ]
