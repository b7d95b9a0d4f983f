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
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QMainWindow,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import UserError
from app.core.history.location import history_path
from app.core.history.store import History
from app.gui.history import history_status, history_tasks, keeping_runs
from app.gui.history.history_buttons import add_buttons
from app.gui.history.history_menu import add_menu
from app.gui.history.history_status import side_by_side
from app.gui.history.history_texts import merge_refusal
from app.gui.history.rerun_here import RerunHere
from app.gui.history.run_table import RunTable
from app.gui.label import Label
from app.gui.questions import ask_yes_no
from app.gui.recorder import history_recorder
from app.gui.screen_fit import ScreenFit, fit_to_screen
from app.gui.settings import AppSettings
from app.gui.user_close import UserClose
from app.gui.worker import TaskRunner

if TYPE_CHECKING:
    from app.gui.study.study_controller import StudyRunFactory


STATUS_MS = 10_000


class HistoryWindow(UserClose, QMainWindow):
    """The stored runs of the history at ``path`` (default: the one runs are stored in)."""

    # made by add_buttons (history_buttons.BUTTONS)
    open_button: QPushButton
    compare_button: QPushButton
    trend_button: QPushButton
    merge_button: QPushButton
    run_here_button: QPushButton
    run_file_button: QPushButton
    delete_button: QPushButton
    import_button: QPushButton
    export_button: QPushButton

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
        self.rerun_here = RerunHere(self, study_run_factory)
        self._build()
        self._build_menu()
        history_recorder().recorded.connect(self._on_recorder_recorded)
        # A worker's own `finished` reaches the window before the runner forgets it: the
        # buttons follow the runner instead, so Compare and Trend come back when it is done.
        self.runner.busy_changed.connect(self._on_runner_busy_changed)
        self.refresh()
        fit_to_screen(self, ScreenFit(1440, 900, 0.9, 0.85, 1200, 680))

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
        self.table.itemSelectionChanged.connect(self.update_buttons)
        layout.addWidget(self.table, 1)
        add_buttons(self, layout)
        self.setCentralWidget(central)

    def _build_menu(self) -> None:
        self.keep_action, self.run_file_action = add_menu(
            self,
            keep=self.settings.keep_history,
            run_file_tip=self.run_file_button.toolTip(),
            on_keep_toggled=self._on_keep_toggled,
            on_run_file=self._on_run_file_clicked,
            on_refresh=self.refresh,
            on_close=self.close_by_user,
        )

    # --- the list ---------------------------------------------------------------------------

    def open_history(self) -> History:
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
            with self.open_history() as history:
                runs = list(reversed(history.list_runs()))
        except UserError as exc:
            self.statusBar().showMessage(f"Could not read the history: {exc}", 10_000)
            runs = []
        self.table.show_runs(runs)
        self.statusBar().showMessage(f"{len(runs)} run(s) in {self.path}")
        self.update_buttons()

    def run_ids(self) -> list[int]:
        """The ids listed, top to bottom (newest first)."""
        return self.table.run_ids()

    def selected_ids(self) -> list[int]:
        return self.table.selected_ids()

    def select_ids(self, ids: list[int]) -> None:
        self.table.select_ids(ids)

    def update_buttons(self) -> None:
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
        return self.rerun_here.running

    # --- actions ----------------------------------------------------------------------------

    def run_task(
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
            on_finished=self.update_buttons,
            busy=True,
        )
        self.update_buttons()

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
            with self.open_history() as history:
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
        self.run_task(
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

        if hasattr(comparison, "document"):  # a kind not compared job by job: side by side
            self.show_merged(comparison.sources, comparison, header=side_by_side(comparison))
            self.statusBar().clearMessage()
            return

        self.comparison_window = ComparisonWindow(comparison, self)
        self._show(self.comparison_window)
        self.statusBar().showMessage(history_status.compared(comparison), 10_000)

    @Slot()
    def _on_trend_clicked(self) -> None:
        ids = self.selected_ids()
        if len(ids) != 1 or self.runner.busy:
            return
        self.statusBar().showMessage(f"Reading run {ids[0]}'s series…")
        self.run_task(
            history_tasks.trend,
            self.path,
            ids[0],
            done=self._on_trend_resulted,
            failed=self._said("No trend"),
        )

    @Slot(object)
    def _on_trend_resulted(self, trend: Any) -> None:
        if len(trend.runs) == 1:
            self.statusBar().showMessage(history_status.no_series(trend), 10_000)
            return
        from app.gui.history.trend_view import TrendWindow

        self.trend_window = TrendWindow(trend, self)
        self._show(self.trend_window)
        self.statusBar().showMessage(history_status.series(trend), 10_000)

    # --- merging ----------------------------------------------------------------------------

    @Slot()
    def _on_merge_clicked(self) -> None:
        rows = self.table.selected_rows()
        if len(rows) < 2 or self.runner.busy:
            return
        refusal = merge_refusal([(self.table.id_at(r), self.table.kind_at(r)) for r in rows])
        if refusal:
            QMessageBox.information(self, "These runs cannot be merged", refusal)
            return
        ids = sorted(self.table.id_at(r) for r in rows)  # oldest first: the columns in time order
        self.statusBar().showMessage(f"Reading {len(ids)} runs to merge…")
        self.run_task(
            history_tasks.merge,
            self.path,
            ids,
            done=self._on_merge_resulted,
            failed=self._on_merge_failed,
        )

    @Slot(object)
    def _on_merge_resulted(self, out: tuple[Any, Any]) -> None:
        sources, merged = out
        self.show_merged(sources, merged)
        self.statusBar().showMessage(history_status.merged(sources, merged), 10_000)

    @Slot(str)
    def _on_merge_failed(self, text: str) -> None:
        self.statusBar().clearMessage()
        QMessageBox.warning(self, "These runs cannot be merged", text[:1].upper() + text[1:])

    def show_merged(
        self, sources: Any, merged: Any, warnings: Sequence[str] = (), header: str = ""
    ) -> None:
        """The window of ``merged``: rows of entry and input, or runs' tables side by side."""
        from app.gui.history.merged_documents_view import merged_window

        self.merged_window = merged_window(
            sources, merged, warnings=warnings, header=header, settings=self.settings, parent=self
        )
        self._show(self.merged_window)

    # --- running a study here again -----------------------------------------------------------

    @Slot()
    def _on_run_here_clicked(self) -> None:
        ids = self.selected_ids()
        if len(ids) == 1 and not self.runner.busy and not self.rerunning:
            self.rerun_here.run_stored(ids[0])

    @Slot()
    def _on_run_file_clicked(self) -> None:
        if not self.runner.busy and not self.rerunning:
            self.rerun_here.run_file()

    def insert_below_table(self, widget: QWidget) -> None:
        """Place ``widget`` between the list and the buttons (the progress of a run here)."""
        self._layout.insertWidget(self._layout.indexOf(self.table) + 1, widget)

    @Slot()
    def _on_delete_clicked(self) -> None:
        keeping_runs.delete_selected(self, self)

    @Slot()
    def _on_import_clicked(self) -> None:
        keeping_runs.import_run(self, self)

    @Slot()
    def _on_export_clicked(self) -> None:
        keeping_runs.export_selected(self, self)

    @Slot(bool)
    def _on_keep_toggled(self, keep: bool) -> None:
        self.settings.keep_history = keep
        self.statusBar().showMessage(
            "Runs are stored in the history." if keep else "Runs are no longer stored.", 8000
        )

    @Slot(bool)
    def _on_runner_busy_changed(self, _busy: bool) -> None:
        self.update_buttons()

    @Slot(int)
    def _on_recorder_recorded(self, run_id: int) -> None:
        self.refresh()
        said = self.rerun_here.stored_as(run_id)
        if said is not None:  # the run just made here: said again, with its id
            self.statusBar().showMessage(said, STATUS_MS)

    def _show(self, view: QWidget) -> None:
        self.views = [v for v in self.views if shiboken6.isValid(v) and v.isVisible()]
        self.views.append(view)
        view.show()
        view.raise_()

    def closeEvent(self, event: QCloseEvent) -> None:
        """A study running here is stopped first (the user closing is asked), and the window
        closes once its worker has stopped, so no worker process outlives it."""
        if self.rerunning:
            by_user = self.closed_by_user(event)
            if by_user and not ask_yes_no(
                self, "Stop the study?", "A study is running on this machine. Stop it and close?"
            ):
                event.ignore()
                return
            self.rerun_here.close_requested = True
            self.rerun_here.cancel()
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
