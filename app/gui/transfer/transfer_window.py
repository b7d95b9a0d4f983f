"""The Transfer window (Run > Loopback transfer…): send a file or generated data from a sender
process to a receiver process over 127.0.0.1, sealed in chunks with each chosen AEAD (or
plaintext), and compare total time, throughput, CPU and memory of both ends.

Non-modal; the main window keeps working. Closing it during a run cancels the run (the engine
kills both processes) and closes once the worker has stopped, so no process outlives it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QSplitter,
    QTabWidget,
    QWidget,
)

from app.core.kinds.formats import TRANSFER
from app.gui.form_tool_window import FormToolWindow
from app.gui.menus import add_menu
from app.gui.settings import AppSettings
from app.gui.tool_window import show_owned
from app.gui.transfer.load_chart import LoadChart
from app.gui.transfer.transfer_chart import TransferChart
from app.gui.transfer.transfer_controller import TransferController
from app.gui.transfer.transfer_form import TransferForm
from app.gui.transfer.transfer_table import TransferTableModel, TransferTableView
from app.gui.transfer.transfer_worker import TransferRequest


class TransferWindow(FormToolWindow):
    """The loopback transfer benchmark."""

    TITLE = "CipherBench – Loopback transfer"
    EXPORTED = "transfer"
    CONTROLLER = TransferController
    FORM = TransferForm
    RUN_TEXT = "Run transfer"
    READY = "Choose what to send and the ciphers, then Run. Both ends run on this machine."
    COLUMN_SIZES = (320, 1000)
    STOPPING = "Stopping the transfer before closing…"
    controller: TransferController
    form: TransferForm

    # --- building ------------------------------------------------------------------------------

    def _build_results(self) -> QWidget:
        self.chart = TransferChart()
        self.load_chart = LoadChart()
        self.charts = QTabWidget()
        self.charts.addTab(self.chart, "Throughput")
        self.charts.addTab(self.load_chart, "CPU and memory (every 50 ms)")
        self.model = TransferTableModel(self)
        self.table = TransferTableView()
        self.table.setModel(self.model)
        self.table.resizeColumnsToContents()  # the headers' widths until rows come
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.charts)
        right.addWidget(self.table)
        right.setSizes([330, 300])
        return right

    def _create_actions(self) -> None:
        action = self._action
        self.open_action = action("&Choose a file…", self._on_open_action_triggered, "Ctrl+O")
        self._run_actions("&Run transfer")
        self.close_action = action("C&lose", self.close, QKeySequence.StandardKey.Close)
        add_menu(
            self,
            "&Transfer",
            (self.open_action, self.run_action, self.cancel_action),
            (self.export_action, self.paper_action, self.close_action),
        )

    def _connect(self) -> None:
        self._connect_run()
        self.form.browse_requested.connect(self.open_action.trigger)
        self.chart.save_requested.connect(self._on_chart_save_requested)
        self.load_chart.save_requested.connect(self._on_chart_save_requested)
        self.controller.failed.connect(self._warn)

    # --- actions -------------------------------------------------------------------------------

    @Slot()
    def _on_open_action_triggered(self) -> None:
        if self.controller.running:
            return
        path, _ = QFileDialog.getOpenFileName(self, "Choose the file to send", self._folder())
        if path:
            self.form.set_file(path)

    def _starting(self, request: TransferRequest) -> None:
        if request.path is not None:
            self.settings.last_folder = str(Path(request.path).expanduser().parent)
        self.chart.clear()
        self.load_chart.clear()

    @Slot()
    def _on_export_action_triggered(self) -> None:
        name = "cipherbench-transfer.xlsx"
        self._export_as("Export the transfer", name, TRANSFER.file_filters(), ".xlsx")

    @Slot()
    def _on_chart_save_requested(self) -> None:
        self._save_chart(self._shown_chart(), "cipherbench-transfer", self._inputs())

    def save_chart_to(self, path: str) -> Path | None:
        """Save the chart shown as PNG, or SVG for ``.svg``; a warning when it cannot."""
        return self.write_chart(self._shown_chart(), path, self._inputs())

    def _shown_chart(self) -> TransferChart | LoadChart:
        shown = self.charts.currentWidget()
        return shown if isinstance(shown, LoadChart) else self.chart

    def _inputs(self) -> list[str]:
        sent = self.controller.sent_path
        return [sent] if sent else []

    # --- the controller's news -----------------------------------------------------------------

    @Slot()
    def _on_controller_results_changed(self) -> None:
        results = self.controller.results()
        self.model.set_results(results)
        self.chart.set_results(results)
        self.load_chart.set_results(results)
        self.table.resizeColumnsToContents()
        self._update_actions()

    def _update_actions(self) -> None:
        super()._update_actions()
        self.open_action.setEnabled(not self.controller.running)

    def _has_results_to_export(self) -> bool:
        """A finished (or cancelled) run with at least one cipher's result: a run that
        finished nothing would export an empty workbook."""
        run = self.controller.last_run
        return not self.controller.running and run is not None and bool(run.results)

    # --- dropping a file -----------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if urls and urls[0].isLocalFile() and not self.controller.running:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and not self.controller.running:
            self.form.set_file(urls[0].toLocalFile())
            event.acceptProposedAction()


def open_transfer_window(owner: QWidget, settings: AppSettings | None = None) -> TransferWindow:
    """Show the owner's Transfer window, made on first use (sharing ``settings``) and kept as
    ``owner.transfer_window``."""
    return show_owned(owner, "transfer_window", lambda: TransferWindow(settings=settings))
