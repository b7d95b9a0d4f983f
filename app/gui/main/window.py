"""The CipherBench main window: panels on the left, progress, results and charts on the right.

The window wires widgets to :class:`BenchmarkController`: user actions become controller calls
(after any file dialog), controller signals become widget updates. It computes nothing itself.
The File menu's handlers (saving, Encrypt and Decrypt) are in its base,
:class:`~app.gui.main.file_actions.FileActions`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer, Slot
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from app.core.bench.results import RunResult
from app.core.errors import UserError
from app.gui.describe import sentence
from app.gui.dialogs.about_dialog import show_about_dialog
from app.gui.main.actions import ActionHandlers, install_actions
from app.gui.main.bench_worker import RunFactory, default_run_factory
from app.gui.main.controller import BenchmarkController
from app.gui.main.file_actions import FileActions
from app.gui.main.layout import build_widgets
from app.gui.main.window_settings import restore_window_settings, save_window_settings
from app.gui.panels.progress_panel import ProgressInfo
from app.gui.paper_export import PaperExporter, has_paper_set
from app.gui.questions import ask_yes_no
from app.gui.recorder import history_recorder
from app.gui.settings import AppSettings
from app.gui.user_close import UserClose
from app.gui.wiring import connect_handlers

CLOSE_FALLBACK_MS = 5000  # close anyway if a cancelled run has not ended by then


class MainWindow(UserClose, FileActions):
    """Titled "CipherBench". ``settings`` and ``run_factory`` are replaceable for tests."""

    def __init__(
        self,
        settings: AppSettings | None = None,
        run_factory: RunFactory = default_run_factory,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("CipherBench")
        self.setAcceptDrops(True)
        self.settings = settings or AppSettings()
        self.controller = BenchmarkController(self.settings, run_factory, parent=self)
        self.paper_exporter = PaperExporter(self)
        self._close_requested = False
        self._others_closed = False
        self.crypt_dialog: QDialog | None = None  # the open Encrypt / Decrypt dialog
        self._form_timer = QTimer(self)  # the form's next panel, in a turn of its own
        self._form_timer.setSingleShot(True)
        self._form_timer.setInterval(1)
        self._form_timer.timeout.connect(self._update_actions)
        build_widgets(self)
        self.tabs.chart_save_requested.connect(self._on_tabs_chart_save_requested)
        self.table.columns_changed.connect(self._on_table_columns_changed)
        install_actions(self, self._action_handlers())
        self._connect_controller()
        restore_window_settings(self)
        self._update_actions()
        self.controller.load_environment()

    # --- construction -----------------------------------------------------------------------

    def _action_handlers(self) -> ActionHandlers:
        return ActionHandlers(
            open=self._on_open_action_triggered,
            export=self._on_export_action_triggered,
            export_paper=self._on_paper_action_triggered,
            encrypt_file=self._on_encrypt_file_action_triggered,
            decrypt_file=self._on_decrypt_file_action_triggered,
            save_encrypted=self._on_save_encrypted_action_triggered,
            save_plaintext=self._on_save_plaintext_action_triggered,
            save_chart=self._on_save_chart_action_triggered,
            run=self._on_run_action_triggered,
            cancel=self._on_cancel_action_triggered,
            reset=self._on_reset_action_triggered,
            about=self._on_about_action_triggered,
            quit=self.close_by_user,
            table_selection_changed=self._on_table_selection_changed,
        )

    def _connect_controller(self) -> None:
        c = self.controller
        connect_handlers(c, self, "controller")  # first: a handler runs before the slots below
        c.inputs_changed.connect(self.input_panel.set_inputs)
        c.inputs_changed.connect(lambda _infos: self._update_actions())
        c.recent_files_changed.connect(self.input_panel.set_recent_files)
        c.busy_changed.connect(lambda _busy: self._update_actions())
        c.failures_changed.connect(self.progress_panel.set_failures)
        c.run_finished.connect(lambda run: history_recorder().record(run, self))
        c.environment_changed.connect(self.environment_panel.set_text)
        c.message.connect(self.show_status)
        c.error.connect(self.show_error)
        self.paper_exporter.written.connect(self._on_paper_exporter_written)
        self.paper_exporter.failed.connect(self.show_error)
        self.paper_exporter.busy_changed.connect(lambda _busy: self._update_actions())

    # --- charts, built after the first paint -----------------------------------------------

    def paintEvent(self, event: Any) -> None:
        super().paintEvent(event)
        self.tabs.start_loading()

    # --- settings ---------------------------------------------------------------------------

    def save_settings(self) -> None:
        save_window_settings(self)

    # --- feedback ---------------------------------------------------------------------------

    @Slot(str)
    def show_status(self, text: str) -> None:
        self.status_label.setText(text)
        self.status_label.setToolTip(text)

    @Slot(str, str)
    def show_error(self, title: str, text: str) -> None:
        """A warning dialog; the status bar keeps the text after it closes."""
        self.show_status(text)
        QMessageBox.warning(self, title, text)

    def _update_actions(self) -> None:
        c = self.controller
        running, busy = c.running, c.busy
        idle = not running and not busy
        self.run_action.setEnabled(idle)
        self.run_button.setEnabled(idle)
        self.cancel_action.setEnabled(running)
        self.cancel_button.setEnabled(running)
        self.reset_action.setEnabled(idle)
        self.reset_button.setEnabled(idle)
        self.open_action.setEnabled(not running)
        self._set_form_enabled(idle)
        can_export = not running and c.last_run is not None
        self.export_action.setEnabled(can_export)
        self.export_button.setEnabled(can_export)
        self.paper_action.setEnabled(
            can_export and not self.paper_exporter.busy and has_paper_set(c.last_run)
        )
        self.encrypt_file_action.setEnabled(idle)
        self.decrypt_file_action.setEnabled(idle)
        row = self._selected_row()
        can_encrypt = idle and row is not None and c.finished_job(row) is not None
        for widget in (self.save_encrypted_action, self.save_encrypted_button):
            widget.setEnabled(can_encrypt)
        can_decrypt = idle and row is not None and c.has_secret(row)
        for widget in (self.save_plaintext_action, self.save_plaintext_button):
            widget.setEnabled(can_decrypt)
        self.copy_button.setEnabled(row is not None)

    def _set_form_enabled(self, enabled: bool) -> None:
        """The form's three panels enabled or disabled one per turn of the event loop: the
        whole form repainting in the turn a run starts or ends was the window's longest
        stall (15-30 ms). The run's options are taken before, so a panel still enabled for a
        millisecond changes nothing; each turn reads the state again."""
        if self._form_timer.isActive():
            return  # one panel a turn: the timer's turn changes the next
        panels = (self.input_panel, self.selection_panel, self.options_panel)
        pending = [p for p in panels if p.isEnabledTo(self) != enabled]
        if pending:
            pending[0].setEnabled(enabled)
        if len(pending) > 1:  # after this turn's repaint (1 ms: the repaint is posted first)
            self._form_timer.start()

    def _selected_row(self) -> int | None:
        rows = self.table.selected_source_rows()
        return rows[0] if rows else None

    # --- user actions -----------------------------------------------------------------------

    @Slot()
    def _on_run_action_triggered(self) -> None:
        if self.controller.running or self.controller.busy:
            return
        try:
            options = self.options_panel.options()
        except UserError as exc:
            self.show_error("Check the options", sentence(str(exc)))
            return
        specs = self.selection_panel.specs()
        note = self.controller.slow_run_note(specs, options)
        if note is not None and not self._confirm_slow_run(note):
            self.show_status("Not started. Fewer repetitions or a smaller input take less time.")
            return
        self.save_settings()
        self.controller.processes = self.options_panel.processes()
        self.controller.rounds = self.options_panel.rounds()
        self.controller.start(specs, options, self.options_panel.keep_ciphertext())

    @Slot(int)
    def run_again_in_rounds(self, rounds: int) -> None:
        """The Comparisons tab's button after a run too short for claims: Rounds set to
        ``rounds``, then Run (the chosen ciphers on the listed inputs)."""
        if self.controller.running or self.controller.busy:
            return
        self.options_panel.rounds_spin.setValue(rounds)
        self._on_run_action_triggered()

    def _confirm_slow_run(self, note: str) -> bool:
        return ask_yes_no(
            self,
            "A long run",
            f"{note}.\n\nThe progress bar shows the time left; Cancel stops the run "
            "at any moment.\n\nStart it?",
        )

    @Slot()
    def _on_cancel_action_triggered(self) -> None:
        self.controller.cancel()

    @Slot()
    def _on_reset_action_triggered(self) -> None:
        if self.controller.running or self.controller.busy:
            return
        self.controller.reset()
        self.selection_panel.reset()
        self.options_panel.reset()
        self.progress_panel.reset()
        for chart in (self.tabs.throughput_chart, self.tabs.timing_chart, self.tabs.input_chart):
            chart.clear()  # the axes switch to log by themselves again
        self.tabs.monitor_chart.clear()

    @Slot()
    def _on_about_action_triggered(self) -> None:
        show_about_dialog(self)

    # --- controller signals -----------------------------------------------------------------

    @Slot(bool)
    def _on_controller_running_changed(self, running: bool) -> None:
        self._update_actions()
        if running:
            if self.tabs.currentWidget() is self.environment_panel:
                self.tabs.setCurrentWidget(self.tabs.throughput_chart)  # something that moves
        else:
            self.tabs.monitor_chart.run_ended()
            if self._close_requested:
                QTimer.singleShot(0, self, self.close)

    @Slot(str, object)
    def _on_controller_job_started(self, label: str, expected_bytes: int | None) -> None:
        self.tabs.monitor_chart.start_job(label, expected_bytes)

    @Slot(object)
    def _on_controller_samples_added(self, samples: list) -> None:
        self.tabs.monitor_chart.add_samples(samples)

    @Slot(object)
    def _on_controller_progress_changed(self, info: ProgressInfo) -> None:
        self.progress_panel.set_progress(info)

    @Slot(list)
    def _on_controller_results_changed(self, results: list) -> None:
        self.tabs.throughput_chart.set_results(results)
        self.tabs.input_chart.set_results(results)
        self.tabs.timing_chart.set_results(results)
        n = len(results)
        self.results_caption.setText(
            f"Results ({n} job{'s' if n != 1 else ''})" if n else "Results"
        )
        if n:
            self.table.request_fit()
        if n <= 1:  # cleared (Reset, a new run) or the first row: from the left again
            self.table.scroll_to_start()
        self._update_actions()

    @Slot(object)
    def _on_controller_run_finished(self, run: RunResult) -> None:
        n = len(run.results)
        if run.cancelled:
            self.progress_panel.set_finished_text(
                f"Cancelled. {n} job{'s' if n != 1 else ''} finished before that."
            )
        else:
            self.progress_panel.set_finished_text(
                f"Done: {n} job{'s' if n != 1 else ''} measured and verified. Export them, or "
                "select a row to save its data encrypted, or its plaintext."
            )
        self.table.request_fit()

    @Slot(list)
    def _on_table_columns_changed(self, hidden: list) -> None:
        self.settings.hidden_columns = hidden

    @Slot()
    def _on_table_selection_changed(self) -> None:
        self._update_actions()
        row = self._selected_row()
        if row is not None and not self.controller.running:
            r = self.controller.model.result(row)
            label = f"{r.cipher} [{r.library}], {r.key_bits}-bit"
            self.tabs.monitor_chart.set_samples(label, r.monitor, r.baseline_rss_bytes)

    # --- Qt events --------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if any(url.isLocalFile() for url in urls) and not self.controller.running:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.controller.add_input_files(paths)

    def closeEvent(self, event: QCloseEvent) -> None:
        """During a run: the user (close button, Quit) is asked first; a program closing the
        window (SIGTERM, a session ending) is not, as nobody may be there to answer. Then the
        run is cancelled, the window stays until it has ended (within about a second) and
        closes. A fallback timer closes anyway if the engine does not answer. The program's
        other windows close with it (:meth:`_close_other_windows`)."""
        by_user = self.closed_by_user(event)
        if self.controller.running and not self._close_requested:
            if by_user and not ask_yes_no(
                self,
                "Stop the benchmark?",
                "A benchmark is running. Closing stops it, and the results that were not "
                "exported are gone from the window. Stop it and close?",
            ):
                event.ignore()
                return
            self._close_requested = True  # stop the run first: another window may ask a
            self.controller.cancel()  # question of its own meanwhile
            self.show_status("Stopping the benchmark before closing…")
            QTimer.singleShot(CLOSE_FALLBACK_MS, self, self._force_close)
            self._close_other_windows(by_user)  # a run ending meanwhile closes this one
            event.ignore()
            return
        self._close_other_windows(by_user)
        dialog = self.crypt_dialog
        if dialog is not None:
            dialog.close()  # cancels its work, if any
        self.save_settings()
        self.controller.shutdown()  # waits for the pool, the dialog's work included
        if dialog is not None:
            from app.gui.dialogs.decrypt_dialog import DecryptDialog

            if isinstance(dialog, DecryptDialog):
                dialog.remove_temporary_files()  # a cancelled one would do it only later
        event.accept()

    def _close_other_windows(self, by_user: bool) -> None:
        """Quitting closes the program's other windows too (History, Study, Transfer and
        Sweep, which have no parent, and the kinds' windows, which are this window's), once:
        each as the user would close it when the user quits (so it may ask before results are
        dropped), each stopping what it runs first and closing when that has stopped. A window
        closes what it owns itself (History its views, a window its dialogs). One whose
        question is answered No stays open, and the program with it."""
        if self._others_closed:
            return
        self._others_closed = True
        for widget in QApplication.topLevelWidgets():
            if widget is self or not widget.isVisible() or not isinstance(widget, QMainWindow):
                continue
            if widget.parent() not in (None, self):
                continue  # another window's own (a view of History's): its owner closes it
            if by_user and isinstance(widget, UserClose):
                widget.close_by_user()
            else:
                widget.close()

    def _force_close(self) -> None:
        # _close_requested is set, so closeEvent now shuts down (waiting at most a few seconds)
        if self.isVisible():
            self.close()
