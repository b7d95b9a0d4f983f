"""The History window: every stored run, newest first; open one as it was, delete, compare
two side by side, see one's series over time (Trend), merge several (machines, library
versions) into one table, run a cipher study here again (from the history or from an exported
file) and see it beside the original, import and export JSON. Opened from Run > History…
(Ctrl+H).

The list, delete, import and export are single quick SQLite statements, done at once; opening
the comparison (a claim per job and direction, on each run's rounds), the trend (the series'
documents read and each entry's steps sought), the merge (every run's samples read) and reading
a study to run again run in a worker. A study run here again runs in the Study window's own
worker (:mod:`app.gui.history.rerun_panel`), with its progress in a row above the buttons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import UserError
from app.core.history.location import history_path, storing_disabled
from app.core.history.store import History
from app.gui.file_filters import with_suffix
from app.gui.history import history_tasks
from app.gui.history.history_texts import (
    MERGEABLE_KINDS,
    export_filters,
    merge_refusal,
    not_a_cipher_study,
)
from app.gui.history.run_table import RunTable
from app.gui.label import Label
from app.gui.questions import ask_yes_no
from app.gui.recorder import history_recorder
from app.gui.settings import AppSettings
from app.gui.worker import TaskRunner

if TYPE_CHECKING:
    from app.core.study.result import StudyResult
    from app.gui.history.rerun_panel import Rerun, RerunPanel
    from app.gui.study.study_controller import StudyRunFactory


STATUS_MS = 10_000


class HistoryWindow(QMainWindow):
    """The stored runs of the history at ``path`` (default: the one runs are stored in)."""

    def __init__(
        self,
        settings: AppSettings | None = None,
        path: str | Path | None = None,
        parent: QWidget | None = None,
        study_run_factory: StudyRunFactory | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("History — CipherBench")
        self.settings = settings or AppSettings()
        self.path = Path(path) if path is not None else history_path()
        self.runner = TaskRunner(parent=self)
        self.views: list[QWidget] = []  # the open run, comparison, trend and merged windows
        self._warned = False
        self._study_run_factory = study_run_factory  # None: the real engine
        self._rerun: RerunPanel | None = None  # made on the first Run this on my machine
        self._close_requested = False  # closing once the study running here has stopped
        self._user_closing = False  # the Close action, not a program closing the window
        self._rerun_status: str | None = None  # said again with the new run's id once stored
        self._build()
        self._build_menu()
        history_recorder().recorded.connect(self._on_recorder_recorded)
        # A worker's own `finished` reaches the window before the runner forgets it: the
        # buttons follow the runner instead, so Compare and Trend come back when it is done.
        self.runner.busy_changed.connect(self._on_runner_busy_changed)
        self.refresh()
        self._fit_to_screen()

    # --- building ---------------------------------------------------------------------------

    def _build(self) -> None:
        central = QWidget()
        layout = QVBoxLayout(central)
        self._layout = layout
        self.warning_label = Label()
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet("color: #a04000;")
        self.warning_label.hide()
        layout.addWidget(self.warning_label)
        self.table = RunTable()
        self.table.doubleClicked.connect(self._on_open_clicked)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        layout.addWidget(self.table, 1)
        self.open_button = QPushButton("&Open")
        self.compare_button = QPushButton("&Compare")
        self.trend_button = QPushButton("&Trend")
        self.merge_button = QPushButton("&Merge")
        self.run_here_button = QPushButton("&Run this on my machine")
        self.run_file_button = QPushButton("Run a study &file here…")
        self.delete_button = QPushButton("&Delete…")
        self.import_button = QPushButton("&Import…")
        self.export_button = QPushButton("E&xport…")
        self.open_button.setToolTip("Show the selected run's table and charts as they were")
        self.compare_button.setToolTip(
            "Select exactly two runs: per job, the ratio of times with a 95 % interval"
        )
        self.trend_button.setToolTip(
            "The selected run's series (the same definition on the same machine) over time: "
            "each entry's throughput, steps beyond the noise marked with what changed"
        )
        self.merge_button.setToolTip(
            "Select two or more bench runs or cipher studies (machines, library versions): one "
            "table with a column group per run, median [95 % interval], a view normalised to "
            "a reference entry, and what differs between the machines"
        )
        self.run_here_button.setToolTip(
            "Run the selected cipher study on this machine with exactly its definition "
            "(ciphers, sizes, rounds, repetitions, data seed), store it, and show it merged "
            "with the original"
        )
        self.run_file_button.setToolTip(
            "Run the cipher study in an exported JSON file (study --out x.json, or a history "
            "export) on this machine as defined, and show it merged with the original; the "
            "file itself is not imported"
        )
        # Two rows, so that the window fits a narrow screen: looking at runs and running one
        # here above, keeping them (delete, import, export) below.
        for row in (
            (
                (self.open_button, self._on_open_clicked),
                (self.compare_button, self._on_compare_clicked),
                (self.trend_button, self._on_trend_clicked),
                (self.merge_button, self._on_merge_clicked),
                None,
                (self.run_here_button, self._on_run_here_clicked),
                (self.run_file_button, self._on_run_file_clicked),
            ),
            (
                (self.delete_button, self._on_delete_clicked),
                (self.import_button, self._on_import_clicked),
                (self.export_button, self._on_export_clicked),
            ),
        ):
            buttons = QHBoxLayout()
            for pair in row:
                if pair is None:
                    buttons.addSpacing(16)
                    continue
                button, slot = pair
                button.clicked.connect(slot)
                buttons.addWidget(button)
            buttons.addStretch(1)
            layout.addLayout(buttons)
        self.setCentralWidget(central)

    def _fit_to_screen(self) -> None:
        """Most of the screen, never more (1366x768 included)."""
        screen = self.screen().availableGeometry() if self.screen() else None
        if screen is None or screen.width() <= 0:
            self.resize(1200, 680)
            return
        self.resize(min(1440, round(screen.width() * 0.9)), min(900, round(screen.height() * 0.85)))

    def _build_menu(self) -> None:
        menu = self.menuBar().addMenu("&History")
        self.keep_action = QAction("&Keep a history of runs", self)
        self.keep_action.setCheckable(True)
        self.keep_action.setChecked(self.settings.keep_history)
        tip = "Store every benchmark, study and transfer this window runs"
        if storing_disabled():
            tip += " (CIPHERBENCH_NO_HISTORY is set: nothing is stored while it is)"
        self.keep_action.setStatusTip(tip)
        self.keep_action.toggled.connect(self._on_keep_toggled)
        self.run_file_action = QAction("Run a study &file here…", self)
        self.run_file_action.setStatusTip(self.run_file_button.toolTip())
        self.run_file_action.triggered.connect(self._on_run_file_clicked)
        refresh = QAction("&Refresh", self)
        refresh.setShortcut(QKeySequence(QKeySequence.StandardKey.Refresh))
        refresh.triggered.connect(self.refresh)
        close = QAction("&Close", self)
        close.setShortcut(QKeySequence(QKeySequence.StandardKey.Close))
        close.triggered.connect(self._on_close_action_triggered)
        menu.addAction(self.keep_action)
        menu.addSeparator()
        menu.addAction(self.run_file_action)
        menu.addSeparator()
        menu.addAction(refresh)
        menu.addAction(close)

    # --- the list ---------------------------------------------------------------------------

    def _open(self) -> History:
        history = History.open(self.path)
        if history.warning and not self._warned:
            self._warned = True  # once: it stays above the table
            self.warning_label.setText(history.warning)
            self.warning_label.show()
        return history

    @Slot()
    def refresh(self) -> None:
        """Read the list of runs again, keeping the selection where the runs still exist."""
        try:
            with self._open() as history:
                runs = list(reversed(history.list_runs()))
        except UserError as exc:
            self.statusBar().showMessage(f"Could not read the history: {exc}", 10_000)
            runs = []
        self.table.show_runs(runs)
        self.statusBar().showMessage(f"{len(runs)} run(s) in {self.path}")
        self._update_buttons()

    def run_ids(self) -> list[int]:
        """The ids listed, top to bottom (newest first)."""
        return self.table.run_ids()

    def selected_ids(self) -> list[int]:
        return self.table.selected_ids()

    def select_ids(self, ids: list[int]) -> None:
        self.table.select_ids(ids)

    def _update_buttons(self) -> None:
        n = len(self.selected_ids())
        self.open_button.setEnabled(n == 1)
        self.export_button.setEnabled(n == 1)
        self.delete_button.setEnabled(n >= 1)
        self.compare_button.setEnabled(n == 2 and not self.runner.busy)
        self.trend_button.setEnabled(
            n == 1 and not self.runner.busy and self.table.selected_kind() != "sweep"
        )
        # Enabled with a transfer or a sweep selected too: a click says why they cannot be.
        self.merge_button.setEnabled(n >= 2 and not self.runner.busy)
        free = not self.runner.busy and not self.rerunning
        self.run_here_button.setEnabled(n == 1 and free and self.table.selected_kind() == "study")
        self.run_file_button.setEnabled(free)
        self.run_file_action.setEnabled(free)

    @property
    def rerunning(self) -> bool:
        """Whether a study runs here (Run this on my machine)."""
        return self._rerun is not None and self._rerun.running

    # --- actions ----------------------------------------------------------------------------

    def _task(
        self,
        fn: Callable[..., Any],
        *args: Any,
        done: Callable[[Any], object],
        failed: Callable[[str], object],
    ) -> None:
        """Read or compute in the pool (the window busy meanwhile); the buttons follow."""
        self.runner.run_task(
            fn,
            *args,
            on_result=done,
            on_failure=failed,
            on_finished=self._update_buttons,
            busy=True,
        )
        self._update_buttons()

    def _said(self, prefix: str) -> Callable[[str], None]:
        """A failure shown in the status bar after ``prefix``."""
        return lambda text: self.statusBar().showMessage(f"{prefix}: {text}", STATUS_MS)

    @Slot()
    def _on_open_clicked(self) -> None:
        ids = self.selected_ids()
        if len(ids) != 1:
            return
        from app.gui.history.run_view import StoredRunWindow

        try:
            with self._open() as history:
                stored = history.load(ids[0])
        except UserError as exc:
            QMessageBox.warning(self, "Cannot open the run", str(exc))
            return
        self._show(StoredRunWindow(stored, self))

    @Slot()
    def _on_compare_clicked(self) -> None:
        ids = self.selected_ids()
        if len(ids) != 2 or self.runner.busy:
            return
        a, b = sorted(ids)  # the older run is the baseline
        self.statusBar().showMessage(f"Comparing run {b} with run {a}…")
        self._task(
            history_tasks.compare,
            self.path,
            a,
            b,
            done=self._on_compare_resulted,
            failed=self._said("Could not compare"),
        )

    @Slot(object)
    def _on_compare_resulted(self, comparison: Any) -> None:
        from app.gui.history.comparison_view import ComparisonWindow

        self.comparison_window = ComparisonWindow(comparison, self)
        self._show(self.comparison_window)
        self.statusBar().showMessage(
            f"Run {comparison.run_b.id} against run {comparison.run_a.id}: "
            f"{comparison.improvements} improvement(s), {comparison.regressions} regression(s).",
            10_000,
        )

    @Slot()
    def _on_trend_clicked(self) -> None:
        ids = self.selected_ids()
        if len(ids) != 1 or self.runner.busy:
            return
        self.statusBar().showMessage(f"Reading run {ids[0]}'s series…")
        self._task(
            history_tasks.trend,
            self.path,
            ids[0],
            done=self._on_trend_resulted,
            failed=self._said("No trend"),
        )

    @Slot(object)
    def _on_trend_resulted(self, trend: Any) -> None:
        s = trend.runs[0]
        if len(trend.runs) == 1:
            self.statusBar().showMessage(
                f"Run {s.id} has no series: no other {s.kind} with its definition on "
                f"{s.machine}. Run it again to see a trend.",
                10_000,
            )
            return
        from app.gui.history.trend_view import TrendWindow

        self.trend_window = TrendWindow(trend, self)
        self._show(self.trend_window)
        self.statusBar().showMessage(
            f"Run {trend.run_id}'s series: {len(trend.runs)} runs, {len(trend.steps)} step(s).",
            10_000,
        )

    # --- merging ----------------------------------------------------------------------------

    @Slot()
    def _on_merge_clicked(self) -> None:
        rows = self.table.selected_rows()
        if len(rows) < 2 or self.runner.busy:
            return
        refused = [
            (self.table.id_at(r), k)
            for r in rows
            if (k := self.table.kind_at(r)) not in MERGEABLE_KINDS
        ]
        if refused:
            QMessageBox.information(
                self, "These runs cannot be merged", merge_refusal(sorted(refused))
            )
            return
        ids = sorted(self.table.id_at(r) for r in rows)  # oldest first: the columns in time order
        self.statusBar().showMessage(f"Reading {len(ids)} runs to merge…")
        self._task(
            history_tasks.merge,
            self.path,
            ids,
            done=self._on_merge_resulted,
            failed=self._on_merge_failed,
        )

    @Slot(object)
    def _on_merge_resulted(self, out: tuple[Any, Any]) -> None:
        sources, merged = out
        self._show_merged(sources, merged)
        self.statusBar().showMessage(
            f"Merged {len(sources)} runs: {len(merged.rows)} rows, "
            f"{len(merged.differences)} difference(s) between them.",
            10_000,
        )

    @Slot(str)
    def _on_merge_failed(self, text: str) -> None:
        self.statusBar().clearMessage()
        QMessageBox.warning(self, "These runs cannot be merged", text[:1].upper() + text[1:])

    def _show_merged(self, sources: Any, merged: Any, warnings: Sequence[str] = ()) -> None:
        from app.gui.history.merged_view import MergedWindow

        self.merged_window = MergedWindow(
            sources, merged, warnings=warnings, settings=self.settings, parent=self
        )
        self._show(self.merged_window)

    # --- running a study here again -----------------------------------------------------------

    @Slot()
    def _on_run_here_clicked(self) -> None:
        ids = self.selected_ids()
        if len(ids) != 1 or self.runner.busy or self.rerunning:
            return
        self.statusBar().showMessage(f"Reading run {ids[0]}…")
        self._task(
            history_tasks.load,
            self.path,
            ids[0],
            done=self._on_run_here_loaded,
            failed=self._on_rerun_failed,
        )

    @Slot(object)
    def _on_run_here_loaded(self, stored: Any) -> None:
        from app.core.study.result import StudyResult
        from app.gui.history.rerun_panel import Rerun

        if not isinstance(stored.result, StudyResult):
            QMessageBox.information(
                self, "Cannot run it here", not_a_cipher_study(f"Run {stored.id}", "study")
            )
            return
        self._start_rerun(Rerun(stored.result, f"run {stored.id}", stored.summary.hostname))

    @Slot()
    def _on_run_file_clicked(self) -> None:
        if self.runner.busy or self.rerunning:
            return
        path, _ = QFileDialog.getOpenFileName(
            self, "Run a study file here", self.settings.last_folder, "CipherBench study (*.json)"
        )
        if not path:
            return
        self.settings.last_folder = str(Path(path).parent)
        self.statusBar().showMessage(f"Reading {path}…")
        self._task(
            history_tasks.read_export_file,
            path,
            done=self._on_study_file_read,
            failed=self._on_rerun_failed,
        )

    @Slot(object)
    def _on_study_file_read(self, out: tuple[str, str, Any, dict[str, Any]]) -> None:
        from app.core.study.result import StudyResult
        from app.gui.history.rerun_panel import Rerun

        path, kind, result, meta = out
        name = Path(path).name
        if not isinstance(result, StudyResult):
            QMessageBox.information(self, "Cannot run it here", not_a_cipher_study(name, kind))
            return
        from app.core.study.grid_cost import files_outside, grid_cost, outside_sentence

        outside = files_outside(result.study, Path(path).parent)
        asks = [outside_sentence(name, outside)] if outside else []
        cost = grid_cost(result.study)
        asks += [cost.sentence()] if cost.long else []
        for text in asks:
            if not ask_yes_no(self, "Run it here?", f"{text[0].upper()}{text[1:]}. Run it?"):
                self.statusBar().showMessage("Not run: nothing was measured.")
                return
        host = meta.get("hostname")
        integrity = str(meta.get("digest_state", ""))
        self._start_rerun(Rerun(result, name, host if isinstance(host, str) else None, integrity))

    def _rerun_panel(self) -> RerunPanel:
        """The progress row of a study running here, made on first use (it brings the Study
        window's controller: not imported before it is needed)."""
        if self._rerun is None:
            from app.gui.history.rerun_panel import RerunPanel

            factory = self._study_run_factory
            self._rerun = RerunPanel(self) if factory is None else RerunPanel(self, factory)
            below_table = self._layout.indexOf(self.table) + 1
            self._layout.insertWidget(below_table, self._rerun)  # above the buttons
            self._rerun.finished.connect(self._on_rerun_finished)
            self._rerun.failed.connect(self._on_rerun_failed)
            self._rerun.running_changed.connect(self._on_rerun_running_changed)
        return self._rerun

    def _start_rerun(self, rerun: Rerun) -> None:
        try:
            self._rerun_panel().start(rerun)
        except UserError as exc:
            self.statusBar().clearMessage()
            QMessageBox.warning(self, "Cannot run the study here", str(exc))
            return
        self.statusBar().showMessage(f"Running {rerun.name} ({rerun.origin}) on this machine…")
        self._update_buttons()

    @Slot(object, object)
    def _on_rerun_finished(self, rerun: Rerun, new: StudyResult) -> None:
        from app.gui.history.rerun_panel import failure_lines, rerun_sources

        stored = history_recorder().enabled(self) and bool(new.results or new.failures)
        if new.cancelled:
            text = "Cancelled: nothing merged."
            if stored:
                text += " The cells that finished are stored as a cancelled run."
        else:
            sources = rerun_sources(rerun, new)
            self._show_merged(sources, None, rerun.warnings() + failure_lines(new))
            text = f"Ran {rerun.name} here ({len(new.results)} cells), beside {rerun.origin}."
            if storing_disabled():
                text += " Not stored: CIPHERBENCH_NO_HISTORY is set."
            elif not stored:
                text += " Not stored: keeping a history of runs is off (History menu)."
        # The recorder stores the run after this (analysed first): its id is added then.
        self._rerun_status = text if stored else None
        self.statusBar().showMessage(text, STATUS_MS)

    @Slot(str)
    def _on_rerun_failed(self, text: str) -> None:
        self.statusBar().clearMessage()
        QMessageBox.warning(self, "Cannot run the study here", text)

    @Slot(bool)
    def _on_rerun_running_changed(self, running: bool) -> None:
        self._update_buttons()
        if not running and self._close_requested:
            self._close_requested = False
            self.close()

    @Slot()
    def _on_delete_clicked(self) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        which = ", ".join(str(i) for i in ids)
        answer = QMessageBox.question(
            self,
            "Delete from the history",
            f"Delete run{'s' if len(ids) > 1 else ''} {which} from the history? "
            "This cannot be undone.",
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            with self._open() as history:
                for run_id in ids:
                    history.delete(run_id)
        except UserError as exc:
            QMessageBox.warning(self, "Cannot delete", str(exc))
        self.refresh()
        self.statusBar().showMessage(f"Deleted run(s) {which}.", 8000)

    @Slot()
    def _on_import_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Import a run", self.settings.last_folder, "CipherBench JSON (*.json)"
        )
        if not path:
            return
        try:
            with self._open() as history:
                run_id = history.import_file(path)
        except UserError as exc:
            QMessageBox.warning(self, "Not imported", str(exc))
            return
        self.settings.last_folder = str(Path(path).parent)
        self.refresh()
        self.select_ids([run_id])
        self.statusBar().showMessage(f"Imported as run {run_id}.", 8000)

    @Slot()
    def _on_export_clicked(self) -> None:
        ids = self.selected_ids()
        if len(ids) != 1:
            return
        suggested = str(Path(self.settings.last_folder) / f"cipherbench-run-{ids[0]}.json")
        filters = export_filters(self.table.selected_kind())
        path, chosen = QFileDialog.getSaveFileName(
            self, "Export the run", suggested, ";;".join(filters)
        )
        path = with_suffix(path, chosen, filters)
        if not path:
            return
        try:
            with self._open() as history:
                written = history.export(ids[0], path)
        except UserError as exc:
            QMessageBox.warning(self, "Not exported", str(exc))
            return
        self.settings.last_folder = str(written.parent)
        self.statusBar().showMessage(f"Exported run {ids[0]} to {written}", 8000)

    @Slot(bool)
    def _on_keep_toggled(self, keep: bool) -> None:
        self.settings.keep_history = keep
        self.statusBar().showMessage(
            "Runs are stored in the history." if keep else "Runs are no longer stored.", 8000
        )

    @Slot(bool)
    def _on_runner_busy_changed(self, _busy: bool) -> None:
        self._update_buttons()

    @Slot(int)
    def _on_recorder_recorded(self, run_id: int) -> None:
        self.refresh()
        if self._rerun_status is not None:  # the run just made here: said again, with its id
            text, self._rerun_status = self._rerun_status, None
            self.statusBar().showMessage(f"{text} Stored as run {run_id}.", STATUS_MS)

    def _show(self, view: QWidget) -> None:
        self.views = [v for v in self.views if shiboken6.isValid(v) and v.isVisible()]
        self.views.append(view)
        view.show()
        view.raise_()

    @Slot()
    def _on_close_action_triggered(self) -> None:
        self._user_closing = True
        try:
            self.close()
        finally:
            self._user_closing = False

    def closeEvent(self, event: QCloseEvent) -> None:
        """A study running here is stopped first (the user closing is asked), and the window
        closes once its worker has stopped, so no worker process outlives it."""
        if self.rerunning and self._rerun is not None:
            by_user = event.spontaneous() or self._user_closing
            if by_user and not ask_yes_no(
                self, "Stop the study?", "A study is running on this machine. Stop it and close?"
            ):
                event.ignore()
                return
            self._close_requested = True
            self._rerun.cancel()
            event.ignore()  # closes when the worker has stopped
            return
        if self.runner.busy:
            self.runner.wait_for_done(10_000)  # reading in flight: no signal into a dead window
        super().closeEvent(event)


def open_history_window(owner: QWidget, settings: AppSettings | None = None) -> HistoryWindow:
    """Show the owner's History window, made on first use and kept as ``owner.history_window``."""
    window = getattr(owner, "history_window", None)
    if window is None:
        window = HistoryWindow(settings=settings)
        owner.history_window = window  # type: ignore[attr-defined]
    else:
        window.refresh()
    window.show()
    window.raise_()
    window.activateWindow()
    return window
