"""The Study window: the form, files (dialog and drop), runs accumulating into the table,
charts and comparisons, cancel, closing with results not exported, export."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import factories
import psutil
import pytest
from conftest import Dialogs
from gui_factories import drop_files, set_study
from leftovers import outlived, spawned_children
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLabel, QMessageBox
from pytestqt.qtbot import QtBot

from app.core.bench.results import RoundInfo
from app.core.bench.run_info import Environment
from app.core.runtime.events import Finished, Outcome
from app.core.study.definition import Study, parse_sizes, study_with
from app.core.study.presets import find_study, presets, save_study
from app.core.study.result import StudyResult
from app.core.study.steps import Cell, CellFinished, StepStarted, StudyStarted, StudySteps
from app.gui.study.study_controller import format_eta
from app.gui.study.study_window import StudyWindow
from app.gui.study.study_worker import StudyWorker

TIMEOUT_MS = 60_000  # a deadline for each condition: only a failure waits it out


class FakeStudyRun:
    """Every cell at once with times proportional to size; ``block`` keeps reporting progress
    on the first step until cancelled."""

    def __init__(self, study: Study, block: bool = False, progress: int = 3) -> None:
        self.study = study
        self.block = block
        self.progress = progress
        self.files: list[Any] = []
        self.cancel_event = self.cancelled = threading.Event()

    def cancel(self) -> None:
        self.cancelled.set()

    def events(self) -> Iterator[Any]:
        study = self.study
        inputs = [(s.label, s.size_bytes) for s in study.sizes]
        inputs += [(Path(f).name, Path(f).stat().st_size) for f in study.files]
        cells = tuple(
            Cell(i, f"{spec.id} [{spec.library}]", label, size)
            for i, (spec, (label, size)) in enumerate(
                (spec, inp) for inp in inputs for spec in study.specs()
            )
        )
        steps = StudySteps()
        yield steps.started(StudyStarted(cells, study.rounds, len(cells) * study.rounds))
        results = []
        for step, cell in enumerate(cells):
            yield steps.step_started(StepStarted(step, 0, cell))
            for k in range(self.progress):
                yield steps.progress(step, "encrypt", k / self.progress)
            while self.block and not self.cancelled.is_set():
                yield steps.progress(step, "encrypt", 0.5)
                time.sleep(0.001)
            if self.cancelled.is_set():
                break
            result = _result(cell, speed=1e8 * (1 + cell.index % len(study.specs())))
            results.append(result)
            yield Outcome(CellFinished(cell, result))
        yield Finished(_study_result(study, results, self.cancelled.is_set()))


def _result(cell: Cell, speed: float) -> Any:
    cipher, _, library = cell.cipher_label.partition(" [")
    base = cell.input_bytes / speed
    rounds = tuple(RoundInfo(i, 0, 1, 1, 99.0) for i in range(5))  # each sample a round
    return factories.job_result(
        rounds=rounds,
        cipher=cipher,
        library=library.rstrip("]"),
        input_label=cell.input_label,
        input_bytes=cell.input_bytes,
        enc_s=[base * f for f in (1.0, 1.01, 0.99, 1.02, 0.98)],
        dec_s=[base * f * 1.1 for f in (1.0, 1.01, 0.99, 1.02, 0.98)],
    )


def _study_result(study: Study, results: list[Any], cancelled: bool) -> StudyResult:
    return StudyResult(
        study=study,
        results=tuple(results),
        failures=(),
        environment=Environment({}),
        rounds=study.rounds,
        rounds_completed=0 if cancelled else study.rounds,
        repeat_per_round=study.repeat_per_round,
        started_at="t0",
        finished_at="t1",
        cancelled=cancelled,
    )


@pytest.fixture
def window(qtbot: QtBot, dialogs: Dialogs) -> Iterator[StudyWindow]:
    w = StudyWindow(run_factory=FakeStudyRun)
    qtbot.addWidget(w)
    set_study(w, "aes-key-sizes", "2KB, 4KB, 400KB")
    yield w
    w.controller.exported = True  # no question at teardown
    w.controller.cancel_and_wait()
    w.close()


def _run(qtbot: QtBot, w: StudyWindow) -> None:
    w.run_action.trigger()
    qtbot.waitUntil(
        lambda: not w.controller.running and w.controller.analysis is not None,
        timeout=TIMEOUT_MS,
    )
    for chart in w.charts.values():
        chart.flush()


def test_a_preset_loads_into_the_form(qtbot: QtBot, dialogs: Dialogs) -> None:
    w = StudyWindow(run_factory=FakeStudyRun)
    qtbot.addWidget(w)
    w.form.choose("classic-ciphers")
    f = w.form
    assert f.sizes_edit.text().startswith("108 KB, 184 KB")
    assert (f.repeat_spin.value(), f.rounds_spin.value(), f.units) == (12, 6, "KB/s")
    assert "des" in f.ciphers_label.text() and "memory" in f.mode_label.text()
    f.sizes_edit.setText("2KB, 1 MiB")
    f.repeat_spin.setValue(4)
    f.units_combo.setCurrentText("MiB/s")
    study = f.study()
    assert [s.label for s in study.sizes] == ["2 KB", "1 MiB"]
    assert (study.repeat, study.rounds, study.units) == (4, 6, "MiB/s")
    assert study.ciphers == find_study("classic-ciphers").ciphers


def test_bad_sizes_say_so_and_run_nothing(
    qtbot: QtBot, window: StudyWindow, dialogs: Dialogs
) -> None:
    window.form.sizes_edit.setText("2KB, lots")
    window.run_action.trigger()
    assert not window.controller.running
    assert len(dialogs.warnings) == 1 and "lots" in dialogs.warnings[0][1]


def test_a_grid_of_hours_asks_first_and_no_runs_nothing(
    qtbot: QtBot, window: StudyWindow, dialogs: Dialogs
) -> None:
    window.form.sizes_edit.setText("1 GiB, 2 GiB, 4 GiB")
    window.form.repeat_spin.setValue(200)
    dialogs.answer = QMessageBox.StandardButton.No
    window.run_action.trigger()
    assert not window.controller.running and not window.controller.has_results
    assert len(dialogs.questions) == 1 and "at least" in dialogs.questions[0][1]
    assert "nothing was measured" in window.statusBar().currentMessage()
    window.form.sizes_edit.setText("2KB")  # a short grid runs without a question
    _run(qtbot, window)
    assert len(dialogs.questions) == 1


def test_files_from_the_dialog_replace_the_sizes_and_can_be_removed(
    qtbot: QtBot, window: StudyWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = []
    for name in ("a.txt", "b.pdf", "c.zip"):
        (tmp_path / name).write_bytes(b"x" * 3000)
        paths.append(str(tmp_path / name))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(lambda *a, **k: (paths, "")))
    inputs = window.form.inputs
    inputs.add_button.click()
    inputs.add_button.click()  # the same files again: listed once
    assert inputs.paths() == paths
    assert not window.form.sizes_edit.isEnabled()
    study = window.form.study()
    assert study.files == tuple(paths) and study.sizes == ()
    inputs.list.item(1).setSelected(True)
    inputs.remove_button.click()
    assert inputs.paths() == [paths[0], paths[2]]
    inputs.clear_button.click()
    assert inputs.paths() == [] and window.form.sizes_edit.isEnabled()


def test_dropping_several_files_adds_them(window: StudyWindow, tmp_path: Path) -> None:
    paths = []
    for name in ("one.bin", "two.bin"):
        (tmp_path / name).write_bytes(b"y" * 100)
        paths.append(str(tmp_path / name))
    drop_files(window, [*map(Path, paths), tmp_path])  # a folder too
    assert window.form.inputs.paths() == paths


def test_a_run_fills_the_table_the_charts_and_the_comparisons(
    qtbot: QtBot, window: StudyWindow
) -> None:
    steps: list[str] = []
    window.controller.step_changed.connect(steps.append)
    _run(qtbot, window)
    w = window
    assert w.model.rowCount() == 9  # 3 ciphers x 3 sizes
    assert steps[0] == "step 1 of 9: aes-128-cbc [pycryptodome] on 2 KB"
    assert w.progress.value() == 1000 and w.step_label.text() == "Done: 9 cells."
    for chart in w.charts.values():
        assert len(chart.curves) == 3 and chart.showing_data
        assert chart.log_x  # 2 KB to 400 KB spans two decades
        xs, _ys = chart.curves["aes-128-cbc [pycryptodome]"].getOriginalDataset()
        assert list(xs) == pytest.approx([0.002, 0.004, 0.4])  # MB
        assert not chart.plot_widget.grab().isNull()  # painted log axes: no numpy warning
    text = w.claims.toPlainText()
    assert "time = " in text and "R² = " in text
    assert "% slower than" in text and "95 % CI" in text  # the fake's first cipher is slowest
    assert w.export_action.isEnabled() and w.run_action.isEnabled()


def test_results_accumulate_over_runs_until_cleared(
    qtbot: QtBot, window: StudyWindow, dialogs: Dialogs
) -> None:
    _run(qtbot, window)
    window.form.sizes_edit.setText("4KB, 1MB")
    _run(qtbot, window)
    inputs = [window.model.result(r).input_label for r in range(window.model.rowCount())]
    assert window.model.rowCount() == 15
    assert inputs.count("4 KB") == 3 and inputs.count("4 KB (run 2)") == 3
    assert "1 MB" in inputs
    dialogs.answer = QMessageBox.StandardButton.No
    window.clear_action.trigger()
    assert len(dialogs.questions) == 1 and window.model.rowCount() == 15
    dialogs.answer = QMessageBox.StandardButton.Yes
    window.clear_action.trigger()
    assert window.model.rowCount() == 0 and not window.controller.has_results
    assert window.charts["time"].curves == {}


def test_changing_the_units_relabels_the_table_and_keeps_the_analysis(
    qtbot: QtBot, window: StudyWindow
) -> None:
    _run(qtbot, window)
    before = window.controller.analysis
    assert before is not None and "comparisons" in before.__dict__
    rate = 8  # Algorithm, Library, Input, Size, Enc. time, Enc. IQR, Dec. time, Dec. IQR, Enc. rate
    assert window.model.headerData(rate, Qt.Orientation.Horizontal) == "Enc. MB/s"
    mbs = window.model.data(window.model.index(0, rate))
    window.form.units_combo.setCurrentText("KB/s")
    assert window.model.headerData(rate, Qt.Orientation.Horizontal) == "Enc. KB/s"
    kbs = window.model.data(window.model.index(0, rate))
    assert float(kbs.replace(",", "")) == pytest.approx(float(mbs) * 1000, rel=1e-3)
    after = window.controller.analysis
    assert after is not None and after.units == "KB/s" and "comparisons" in after.__dict__
    assert "KB/s" in window.claims.toPlainText()


def test_export_writes_json_and_then_closing_does_not_ask(
    qtbot: QtBot, window: StudyWindow, tmp_path: Path, dialogs: Dialogs
) -> None:
    _run(qtbot, window)
    assert window.controller.unexported
    written = window.export_to(str(tmp_path / "study.json"))
    assert written == tmp_path / "study.json"
    doc = json.loads(written.read_text(encoding="utf-8"))
    assert doc["format"] == "cipherbench-study" and len(doc["results"]) == 9
    assert doc["comparisons"] and doc["units"] == "MB/s"
    assert window.export_to(str(tmp_path / "study.txt")) is None  # one clear sentence
    assert "not supported" in dialogs.warnings[-1][1]
    window.show()
    window.close_action.trigger()
    assert dialogs.questions == [] and not window.isVisible()


def test_exports_start_in_and_remember_the_apps_last_folder(
    qtbot: QtBot, settings: Any, tmp_path: Path, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch
) -> None:
    start, elsewhere = tmp_path / "start", tmp_path / "elsewhere"
    start.mkdir()
    elsewhere.mkdir()
    settings.last_folder = str(start)
    w = StudyWindow(run_factory=FakeStudyRun, settings=settings)
    qtbot.addWidget(w)
    set_study(w, "aes-key-sizes", "2KB")
    _run(qtbot, w)
    offered: list[str] = []

    def save_as(_parent: object, _title: str, suggested: str, *args: object) -> tuple[str, str]:
        offered.append(suggested)
        return str(elsewhere / Path(suggested).name), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    w.export_action.trigger()
    assert Path(offered[-1]).parent == start
    assert settings.last_folder == str(elsewhere)  # the main window starts there too
    w.save_definition_action.trigger()
    assert Path(offered[-1]).parent == elsewhere
    w.close()


def test_the_study_window_shares_the_main_windows_settings(
    main_window: Any, settings: Any, dialogs: Dialogs
) -> None:
    main = main_window
    main.study_action.trigger()
    assert main.study_window.settings is settings
    main.study_window.close()
    main.close()


def test_closing_with_results_not_exported_asks(
    qtbot: QtBot, window: StudyWindow, dialogs: Dialogs
) -> None:
    _run(qtbot, window)
    window.show()
    dialogs.answer = QMessageBox.StandardButton.No
    window.close_action.trigger()
    assert window.isVisible() and len(dialogs.questions) == 1
    dialogs.answer = QMessageBox.StandardButton.Yes
    window.close_action.trigger()
    assert not window.isVisible() and not window.controller.has_results


def test_a_program_closing_the_window_does_not_wait_for_an_answer(
    qtbot: QtBot, window: StudyWindow, dialogs: Dialogs
) -> None:
    """SIGTERM closes the windows with close(): nobody may be there to answer a question."""
    _run(qtbot, window)
    window.show()
    window.close()
    assert dialogs.questions == [] and not window.isVisible()


def test_closing_while_running_cancels_and_closes_when_stopped(
    qtbot: QtBot, dialogs: Dialogs
) -> None:
    w = StudyWindow(run_factory=lambda s: FakeStudyRun(s, block=True))
    qtbot.addWidget(w)
    w.form.sizes_edit.setText("2KB")
    w.show()
    w.run_action.trigger()
    qtbot.waitUntil(lambda: "aes-128-cbc" in w.step_label.text(), timeout=TIMEOUT_MS)
    assert w.controller.running and not w.form.isEnabled()
    w.close_action.trigger()
    assert dialogs.questions  # running: asks before discarding
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=TIMEOUT_MS)
    assert not w.controller.running


def test_cancel_stops_the_real_engine_within_a_second_and_leaves_no_worker(
    qtbot: QtBot, dialogs: Dialogs
) -> None:
    w = StudyWindow()
    qtbot.addWidget(w)
    # repeat 1000: long enough to be still running when cancelled
    set_study(w, "aes-key-sizes", "2KB, 4KB", repeat=1000)
    w.run_action.trigger()
    qtbot.waitUntil(lambda: bool(_worker_processes()), timeout=TIMEOUT_MS)
    children = _worker_processes()
    started = time.perf_counter()
    w.cancel_action.trigger()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=TIMEOUT_MS)
    assert time.perf_counter() - started < 1.0
    assert w.step_label.text().startswith("Cancelled")
    left = outlived(children, 0)  # at once: the cancel waited for them
    assert not left, [(c.pid, c.name(), c.cmdline(), c.create_time() - time.time()) for c in left]
    w.controller.exported = True
    w.close()


def _worker_processes() -> list[psutil.Process]:
    return spawned_children(recursive=False)


def test_the_worker_throttles_progress(qtbot: QtBot) -> None:
    study = find_study("aes-key-sizes")
    worker = StudyWorker(FakeStudyRun(study, progress=20_000), min_interval_s=0.05)
    got: list[Any] = []
    worker.signals.outcome.connect(got.append)
    with qtbot.waitSignal(worker.signals.finished, timeout=TIMEOUT_MS):
        worker.run()
    assert len(got) == 9
    assert worker.progress_emits < 200  # 180 000 progress events


def test_the_eta_reads_in_plain_units() -> None:
    assert [format_eta(s) for s in (4.4, 75, 3700)] == ["4 s", "1 min 15 s", "1 h 01 min"]


def test_repetitions_say_they_are_a_total_over_the_rounds(qtbot: QtBot, dialogs: Dialogs) -> None:
    """The field is the total of all rounds (the study splits it), which its label did not say
    (issue 20)."""
    w = StudyWindow(run_factory=FakeStudyRun)
    qtbot.addWidget(w)
    f = w.form
    f.choose("classic-ciphers")  # 12 repetitions in 6 rounds
    labels = [label.text() for label in f.findChildren(QLabel)]
    assert "Total repetitions" in labels and "Repetitions" not in labels
    assert "in all, over all rounds" in f.repeat_spin.toolTip()
    assert f.per_round_label.text() == "= 2 per round"
    f.rounds_spin.setValue(5)
    assert f.per_round_label.text() == "= 3 per round"  # rounded up, as the study does
    assert f.study().repeat_per_round == 3
    f.rounds_spin.setValue(1)
    assert f.per_round_label.text() == "(one round)"


def test_every_preset_loads_into_the_form(qtbot: QtBot, dialogs: Dialogs) -> None:
    w = StudyWindow(run_factory=FakeStudyRun)
    qtbot.addWidget(w)
    for study in presets():
        w.form.choose(study.name)
        assert w.form.study().ciphers == study.ciphers


def test_the_main_window_opens_the_study_window_with_ctrl_shift_s(
    qtbot: QtBot, settings: Any, dialogs: Dialogs
) -> None:
    from app.gui.main.window import MainWindow

    main = MainWindow(settings=settings)
    qtbot.addWidget(main)
    assert main.study_action.shortcut().toString() == "Ctrl+Shift+S"
    main.study_action.trigger()
    study_window = main.study_window
    assert isinstance(study_window, StudyWindow) and study_window.isVisible()
    main.study_action.trigger()
    assert main.study_window is study_window  # one window, raised again
    study_window.close()
    main.close()


def test_export_offers_what_the_engine_writes(
    window: StudyWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.kinds import formats

    filters = window.controller.export_filters()
    tables = [".html", ".xlsx", ".csv", ".json", ".md", ".tex"]
    assert list(filters.values()) == [*tables, ".svg", ".pdf", ".adoc"]
    assert "HTML report with charts (*.html)" in filters  # the report first
    # A format added to the engine's table is offered at once.
    extra = formats.Format(".txt", "Plain text", "tests.core.test_formats:write_txt")
    study = dataclasses.replace(formats.STUDY, formats=(*formats.STUDY.formats, extra))
    monkeypatch.setattr(formats, "STUDY", study)
    assert window.controller.export_filters()["Plain text (*.txt)"] == ".txt"


def test_a_study_file_opens_into_the_form(
    window: StudyWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = study_with(find_study("gcm-vs-chacha"), sizes=parse_sizes("3KB, 5KB"), repeat=3)
    path = save_study(dataclasses.replace(mine, name="my-grid"), tmp_path / "my-grid.toml")
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), ""))
    )
    window.form.open_button.click()
    assert window.form.base is not None and window.form.base.name == "my-grid"
    assert window.form.sizes_edit.text() == "3 KB, 5 KB" and window.form.repeat_spin.value() == 3
    assert "stream" in window.form.mode_label.text()


def test_the_grid_as_set_saves_as_a_toml_that_runs_again(
    window: StudyWindow, tmp_path: Path, dialogs: Dialogs
) -> None:
    window.form.units_combo.setCurrentText("MiB/s")
    path = window.save_definition_to(str(tmp_path / "mine.toml"))
    assert path is not None and dialogs.warnings == []
    again = find_study(str(path))
    assert [s.label for s in again.sizes] == ["2 KB", "4 KB", "400 KB"]
    assert (again.repeat, again.rounds, again.units) == (2, 1, "MiB/s")
    assert again.ciphers == find_study("aes-key-sizes").ciphers
    assert window.save_definition_to(str(tmp_path / "mine.txt")) is None
    assert "toml" in dialogs.warnings[-1][1]


def test_opening_a_study_file_that_cannot_be_used_says_why(
    window: StudyWindow, tmp_path: Path, dialogs: Dialogs
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nsizes = ["1 KB"]\n[[cipher]]\nid = "no-such-cipher"\n')
    before = window.form.preset_combo.count()
    assert not window.form.open_study(str(bad))
    assert len(dialogs.warnings) == 1 and "no-such-cipher" in dialogs.warnings[0][1]
    assert window.form.preset_combo.count() == before


# --- what keeps the window responsive (benchmarks/bench_gui_study.py measures it) ------------


def test_a_chart_on_a_hidden_tab_waits_until_shown(qtbot: QtBot, window: StudyWindow) -> None:
    window.show()
    qtbot.waitExposed(window)
    window.chart_tabs.setCurrentWidget(window.charts["time"])
    _run(qtbot, window)  # flushes every chart: all drawn
    memory = window.charts["memory"]
    before = memory.redraw_count
    window.form.sizes_edit.setText("8KB")
    window.run_action.trigger()
    qtbot.waitUntil(lambda: not window.controller.running, timeout=TIMEOUT_MS)
    qtbot.wait(300)  # several redraw ticks
    assert memory.redraw_count == before and window.charts["time"].redraw_count > 0
    window.chart_tabs.setCurrentWidget(memory)
    qtbot.waitUntil(lambda: memory.redraw_count > before, timeout=TIMEOUT_MS)
    assert len(memory._drawn["aes-128-cbc [pycryptodome]"]) == 4  # 2, 4, 400 KB, then 8 KB


def test_the_table_fits_its_columns_to_their_text(qtbot: QtBot, window: StudyWindow) -> None:
    _run(qtbot, window)
    view, model = window.table, window.model
    metrics = view.fontMetrics()
    for column in range(model.columnCount()):
        texts = [model.data(model.index(row, column)) for row in range(model.rowCount())]
        widest = max(metrics.horizontalAdvance(t) for t in texts)
        assert view.columnWidth(column) >= widest


def test_progress_text_does_not_change_the_layout(qtbot: QtBot, window: StudyWindow) -> None:
    """A label whose size hint follows its text re-lays the window out ten times a second."""
    for label in (window.step_label, window.eta_label):
        height = label.height()
        hint = label.sizeHint().height()
        label.setText("a much longer text than before " * 8)
        assert label.height() == height and label.maximumHeight() == label.minimumHeight()
        assert label.sizeHint().height() >= 0 and hint >= 0


# --- seed 004: a transfer study in the window --------------------------------------------------


def test_seed_004_runs_real_transfers_into_the_table_charts_and_claims(
    qtbot: QtBot, dialogs: Dialogs, tmp_path: Path
) -> None:
    w = StudyWindow()
    qtbot.addWidget(w)
    set_study(w, "gcm-vs-chacha", "10KB, 100KB", rounds=2)
    w.form.budget_spin.setValue(0)
    _run(qtbot, w)
    model = w.model
    assert model.rowCount() == 6  # 3 ciphers (with the plaintext baseline) x 2 sizes
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers[:4] == ["Cipher", "Input", "Size (bytes)", "Total time"]
    assert "Receiver MiB" in headers and "MiB/s" in headers  # the paper's unit (seed 004)
    assert {model.result(r).label for r in range(6)} == {
        "aes-256-gcm (cryptography)",
        "chacha20-poly1305 (cryptography)",
        "none",
    }
    chart = w.charts["throughput"]
    assert len(chart.curves) == 3 and chart._title.text() == "Transfer throughput against size"
    w.load_chart.flush()  # both ends every 50 ms: its tab appears with transfers
    assert w.chart_tabs.indexOf(w.load_chart) >= 0
    assert "first byte sent to the last byte" in w.claims.toPlainText()
    claims = w.claims.toPlainText()
    assert "2 rounds, 2 and 2 samples" in claims  # the comparisons, on their rounds
    assert "transfer" in claims.split("2 rounds, 2 and 2 samples")[0].splitlines()[-1]
    assert "The paper's published figures" in w.claims.toPlainText()
    out = tmp_path / "t.html"
    w.controller.export(out)
    assert out.read_text().count("<svg") == 4
    assert not _worker_processes()
    # A cipher study's rows cannot join a transfer study's table.
    w.form.choose("aes-key-sizes")
    w.form.sizes_edit.setText("2KB")
    w.run_action.trigger()
    assert not w.controller.running and "Clear results and run again" in dialogs.warnings[-1][1]
    w.controller.exported = True
    w.close()


@pytest.mark.usefixtures("in_process_jobs")
def test_the_papers_values_are_drawn_on_the_charts_where_the_study_ran_them(
    qtbot: QtBot, dialogs: Dialogs, tmp_path: Path
) -> None:
    w = StudyWindow()
    qtbot.addWidget(w)
    set_study(w, "aes-key-sizes", "1MB", rounds=2)  # the paper's 1 MB row of Table 2
    w.form.budget_spin.setValue(0)
    _run(qtbot, w)

    def drawn(key: str) -> list[tuple[float, float]]:
        xs, ys = w.charts[key].paper.getData()
        return [] if xs is None else list(zip(xs.tolist(), ys.tolist(), strict=True))

    # One input: grouped bars, as the papers draw a comparison of one file. Table 2's three
    # encryption times on 1 MB, in ms, one on each entry's bar (the paper's 0.0414 s anomaly too).
    chart = w.charts["time"]
    assert chart.by_input and len(chart.grouped.bars) == 3
    centres = [float(bar.opts["x"][0]) for bar in chart.grouped.bars.values()]
    assert sorted((round(x, 3), round(y, 1)) for x, y in drawn("time")) == [
        (round(centres[0], 3), 41.4),  # aes-128-cbc
        (round(centres[1], 3), 2.6),
        (round(centres[2], 3), 2.7),
    ]
    assert drawn("throughput") == []  # the paper published no throughput
    # Each chart's Save chart… saves that chart (the button did nothing in this window)
    from PySide6.QtWidgets import QFileDialog

    out = tmp_path / "time.png"
    patch = pytest.MonkeyPatch()
    patch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    try:
        chart.flush()
        chart._save.click()
    finally:
        patch.undo()
    assert out.read_bytes().startswith(b"\x89PNG") and str(out) in w.statusBar().currentMessage()
    w.controller.clear()
    for chart in w.charts.values():
        chart.clear()
        chart.flush()
    assert drawn("time") == []


@pytest.mark.parametrize("by_input", [True, False])
def test_the_charts_legend_never_covers_the_plot(qtbot: QtBot, by_input: bool) -> None:
    """Over the plot, the legend hid the paper's AES-128 value in its corner."""
    from app.gui.study.study_chart import StudyChart

    chart = StudyChart("time")
    qtbot.addWidget(chart)
    chart.resize(840, 330)
    chart.show()
    results = [
        factories.job_result(cipher=c, key_bits=b, input_label="1 MB", input_bytes=10**6)
        for c, b in (("aes-128-cbc", 128), ("aes-192-cbc", 192), ("aes-256-cbc", 256))
    ]
    chart.set_results(results, "MB/s", by_input=by_input)
    chart.set_paper([(results[0].label, "1 MB", 41.0)])
    qtbot.waitUntil(lambda: len(chart.legend.items) == 4)  # three entries, the paper
    chart.plot.layout.activate()
    legend = chart.legend.sceneBoundingRect()
    plot = chart.plot.getViewBox().sceneBoundingRect()
    assert legend.height() > 0 and not legend.intersects(plot)
