"""The Study window: choose a preset or a .toml study, change its sizes, repetitions, rounds and
units or give files (dialog or drop), run it, watch curves against size fill in, read the
paper-style table, the fits and the comparisons, export.

Results accumulate over runs until cleared; clearing or closing with results not exported asks
first. Closing while a study runs cancels it and closes once the worker has stopped, so no
worker process outlives the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QWidget,
)

from app.core.errors import UserError
from app.core.study.definition import Study
from app.core.study.grid_cost import grid_cost
from app.core.study.result import StudyResult
from app.core.text import display_text
from app.core.transfer.results import TransferResult
from app.gui.menus import add_menu
from app.gui.questions import ask_yes_no
from app.gui.screen_fit import ScreenFit
from app.gui.settings import AppSettings
from app.gui.study.study_chart import QUANTITIES, StudyChart, paper_values
from app.gui.study.study_controller import StudyController, StudyRunFactory, default_study_run
from app.gui.study.study_form import StudyForm
from app.gui.study.study_table import StudyTableModel, StudyTableView
from app.gui.study.study_text import claims_text
from app.gui.tool_window import ToolWindow, show_owned
from app.gui.transfer.load_chart import LoadChart
from app.gui.user_close import UserClose


class StudyWindow(UserClose, ToolWindow):
    """Study mode; ``presets``, ``run_factory`` and ``settings`` (the main window's, for the
    last folder) are replaceable for tests."""

    TITLE = "CipherBench – Study"
    EXPORTED = "study"
    SCREEN_FIT = ScreenFit(1600, 1000, 0.94, 0.92, 1280, 720)
    controller: StudyController

    def __init__(
        self,
        presets: list[Study] | None = None,
        run_factory: StudyRunFactory = default_study_run,
        parent: QWidget | None = None,
        settings: AppSettings | None = None,
    ) -> None:
        super().__init__(parent, settings)
        if presets is None:
            from app.core.study.presets import presets as shipped

            presets = shipped()
        self._presets = presets
        self._discard_agreed = False
        self._setup(StudyController(run_factory, parent=self))

    # --- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.form = StudyForm(self._presets)
        self.run_button = QPushButton("Run study")
        self.cancel_button = QPushButton("Cancel")
        self.export_button = QPushButton("Export…")
        self.paper_button = QPushButton("Export for a paper…")
        self.clear_button = QPushButton("Clear results")
        self.progress = self._progress_bar()
        # Two lines of step, one of ETA, whatever they say (they change ten times a second).
        self.step_label = self._status_line(2)
        self.step_label.setText("Ready.")
        self.eta_label = self._status_line(1)
        self.eta_label.setWordWrap(False)
        footer = self._footer(
            [
                (self.run_button, self.cancel_button),
                (self.export_button, self.paper_button),
                (self.clear_button,),
            ],
            self.progress,
            self.step_label,
            self.eta_label,
        )
        self._build_results()
        self._set_columns(self.form, self.results_splitter, [380, 900], footer)

    def _build_results(self) -> None:
        """Charts above; the table and the claims in tabs below, in a splitter."""
        self.charts = {key: StudyChart(key) for key in QUANTITIES}
        self.chart_tabs = QTabWidget()
        for key, chart in self.charts.items():
            self.chart_tabs.addTab(
                chart, {"time": "Time", "throughput": "Throughput"}.get(key, "Memory")
            )
        # A study of transfers: both ends every 50 ms (its tab is shown when it has some)
        self.load_chart = LoadChart()
        self.model = StudyTableModel(self)
        self.table = StudyTableView()
        self.table.setModel(self.model)
        self.claims = QPlainTextEdit()
        self.claims.setReadOnly(True)
        self.claims.setPlainText(claims_text(None))
        self.result_tabs = QTabWidget()
        self.result_tabs.addTab(self.table, "Table")
        self.result_tabs.addTab(self.claims, "Fits and comparisons")
        self.results_splitter = QSplitter(Qt.Orientation.Vertical)
        self.results_splitter.addWidget(self.chart_tabs)
        self.results_splitter.addWidget(self.result_tabs)
        self.results_splitter.setSizes([380, 300])

    def _create_actions(self) -> None:
        action = self._action
        self._run_actions("&Run study")
        self.clear_action = action("C&lear results", self._on_clear_action_triggered)
        self.save_definition_action = action(
            "&Save study as…", self._on_save_definition_action_triggered, "Ctrl+S"
        )
        self.add_files_action = action("&Add files…", self.form.inputs.add_button.click, "Ctrl+O")
        self.close_action = action("&Close", self.close_by_user, QKeySequence.StandardKey.Close)
        add_menu(
            self,
            "&Study",
            (self.add_files_action, self.run_action, self.cancel_action),
            (
                self.save_definition_action,
                self.export_action,
                self.paper_action,
                self.clear_action,
                self.close_action,
            ),
        )

    def _connect(self) -> None:
        self._connect_run(
            (self.paper_button, self.paper_action), (self.clear_button, self.clear_action)
        )
        self.form.units_changed.connect(self.controller.set_units)
        self.form.error.connect(self._warn)
        for chart in (*self.charts.values(), self.load_chart):
            chart.save_requested.connect(self._on_chart_save_requested)
        self.controller.step_changed.connect(self.step_label.setText)

    # --- actions -------------------------------------------------------------------------------

    @Slot()
    def _on_chart_save_requested(self) -> None:
        """A chart's *Save chart…*: that chart, named after the study and what it draws."""
        chart = self.sender()
        key = next((k for k, c in self.charts.items() if c is chart), "load")
        source = self.controller.paper_source()
        name = source[0].study.name if source is not None else "study"  # type: ignore[attr-defined]
        inputs = source[1] if source is not None else []
        self._save_chart(chart, f"cipherbench-{name}-{key}", inputs)

    @Slot()
    def _on_run_action_triggered(self) -> None:
        if self.controller.running:
            return
        try:
            study = self.form.study()
            cost = grid_cost(study)
            if cost.long and not ask_yes_no(
                self, "Run it?", f"{cost.sentence()[0].upper()}{cost.sentence()[1:]}."
            ):
                self.statusBar().showMessage("Not run: nothing was measured.")
                return
            self.controller.start(study)
        except UserError as exc:
            self._warn("Cannot run the study", str(exc))
            return
        self.progress.setValue(0)
        self.step_label.setText("Starting…")
        self.eta_label.setText("")

    @Slot()
    def _on_export_action_triggered(self) -> None:
        if self.controller.running or not self.controller.has_results:
            return
        filters = self.controller.export_filters()
        name = (self.controller.runs[-1].study.name if self.controller.runs else "study") + next(
            iter(filters.values())
        )
        path = self._save_path("Export the study", str(Path(self._folder()) / name), filters)
        if path:
            self.export_to(path)

    def _on_save_definition_action_triggered(self) -> None:
        """The grid as set in the form, as a .toml someone else can run (`study FILE.toml`)."""
        try:
            study = self.form.study()
        except UserError as exc:
            self._warn("Cannot save the study", str(exc))
            return
        suggested = str(Path(self._folder()) / f"{study.name}.toml")
        path, _ = QFileDialog.getSaveFileName(
            self, "Save the study", suggested, "Study definitions (*.toml)"
        )
        if path:
            self.save_definition_to(path if path.lower().endswith(".toml") else path + ".toml")

    def save_definition_to(self, path: str) -> Path | None:
        """Save the form's study to ``path``; a warning in one sentence when it cannot."""
        from app.core.study.presets import save_study

        try:
            written = save_study(self.form.study(), path)
        except UserError as exc:
            self._warn("Cannot save the study", str(exc))
            return None
        return self._saved(written, "the study definition")

    @Slot()
    def _on_clear_action_triggered(self) -> None:
        if self.controller.running or not self.controller.has_results:
            return
        if self.controller.unexported and not self._ask(
            "Clear the results?", "The results have not been exported. Clear them anyway?"
        ):
            return
        self._on_clear_confirmed()

    def _on_clear_confirmed(self) -> None:
        self.controller.clear()
        for chart in self.charts.values():
            chart.clear()
        self.load_chart.clear()
        self._update_actions()

    # --- the controller's news ----------------------------------------------------------------

    @Slot(float, str)
    def _on_controller_progress_changed(self, fraction: float, eta: str) -> None:
        self.progress.setValue(round(fraction * 1000))
        self.eta_label.setText(eta)

    @Slot()
    def _on_controller_results_changed(self) -> None:
        results, units = self.controller.results(), self.controller.units
        self.model.set_results(results, units)
        by_input = self._by_input(results)
        for chart in self.charts.values():
            chart.set_results(results, units, by_input)
        rows: list[Any] = list(results)  # a study of transfers' rows are TransferResults
        transfers = [r for r in rows if isinstance(r, TransferResult)]
        self.load_chart.set_results(transfers)
        shown = self.chart_tabs.indexOf(self.load_chart) >= 0
        if transfers and not shown:
            self.chart_tabs.addTab(self.load_chart, "CPU and memory (every 50 ms)")
        elif not transfers and shown:
            self.chart_tabs.removeTab(self.chart_tabs.indexOf(self.load_chart))
        self._update_actions()

    def _by_input(self, results: Sequence[Any]) -> bool:
        """Grouped bars per input: a study of files (or file slots), or of one input."""
        inputs = {r.input_label for r in results}
        studies = self.controller.studies
        generated = {s.label for study in studies for s in study.sizes}
        slots = any(study.file_slots for study in studies)
        return len(inputs) == 1 or slots or any(i not in generated for i in inputs)

    @Slot(object)
    def _on_controller_analysed(self, result: StudyResult | None) -> None:
        self.claims.setPlainText(claims_text(result))
        shown = result.in_units(self.controller.units) if isinstance(result, StudyResult) else None
        for key, chart in self.charts.items():
            chart.set_paper(paper_values(shown, key) if shown is not None else [])

    @Slot(str)
    def _on_controller_cell_failed(self, text: str) -> None:
        self.statusBar().showMessage(display_text(f"Failed: {text}"), 10_000)

    @Slot(object)
    def _on_controller_study_finished(self, result: StudyResult) -> None:
        if result.cancelled:
            self.step_label.setText("Cancelled; the finished cells are kept.")
        else:
            self.progress.setValue(1000)
            failed = f", {len(result.failures)} failed" if result.failures else ""
            self.step_label.setText(f"Done: {len(result.results)} cells{failed}.")
        self.eta_label.setText("")

    @Slot(str)
    def _on_controller_failed(self, text: str) -> None:
        self._warn("The study stopped", text)

    def _update_actions(self) -> None:
        running = self.controller.running
        has = self.controller.has_results
        self.run_action.setEnabled(not running)
        self.cancel_action.setEnabled(running)
        self.export_action.setEnabled(has and not running)
        self.paper_action.setEnabled(self._can_export_for_paper())
        self.clear_action.setEnabled(has and not running)
        self.form.setEnabled(not running)

    # --- dropping files, closing ------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if not self.controller.running and _local_files(event):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = _local_files(event)
        if paths and not self.controller.running:
            self.form.inputs.add_files(paths)
            event.acceptProposedAction()

    def _may_close(self, event: QCloseEvent) -> bool:
        """The user closing (window button, Close, File > Quit in the main window) is asked
        before results that were not exported are lost; a program closing the window
        (SIGTERM, a session ending) is not, since nobody may be there to answer. A running
        study is cancelled first either way."""
        c = self.controller
        if self.closed_by_user(event) and (c.unexported or c.running) and not self._discard_agreed:
            what = "stop the running study and " if c.running else ""
            if not self._ask(
                "Close the study?",
                f"Closing will {what}discard the results that have not been exported. Close?",
            ):
                return False
            self._discard_agreed = True
        return True

    def _closing(self, event: QCloseEvent) -> None:
        if self._discard_agreed or not self.closed_by_user(event):
            self._on_clear_confirmed()
        self._discard_agreed = False


def _local_files(event: QDragEnterEvent | QDropEvent) -> list[str]:
    mime = event.mimeData()
    if not mime.hasUrls():
        return []
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile()]


def open_study_window(owner: QWidget, settings: AppSettings | None = None) -> StudyWindow:
    """Show the owner's Study window, made on first use (sharing ``settings``) and kept as
    ``owner.study_window``."""
    return show_owned(owner, "study_window", lambda: StudyWindow(settings=settings))
