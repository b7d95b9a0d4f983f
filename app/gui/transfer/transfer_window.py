"""The Transfer window (Run > Loopback transfer…): send a file or generated data from a sender
process to a receiver process over 127.0.0.1, sealed in chunks with each chosen AEAD (or
plaintext), and compare total time, throughput, CPU and memory of both ends.

Non-modal; the main window keeps working. Closing it during a run cancels the run (the engine
kills both processes) and closes once the worker has stopped, so no process outlives it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import UserError
from app.core.safe_files import check_output
from app.core.text import display_text
from app.core.transfer.results import TransferRun
from app.gui.describe import sentence
from app.gui.panels.progress_panel import LazyProgressBar
from app.gui.panels.wheel_guard import guard_wheel
from app.gui.settings import AppSettings
from app.gui.transfer.transfer_chart import TransferChart
from app.gui.transfer.transfer_controller import TransferController
from app.gui.transfer.transfer_form import TransferForm
from app.gui.transfer.transfer_table import TransferTableModel, TransferTableView

EXPORT_FILTERS = {
    "Excel workbook with a chart (*.xlsx)": ".xlsx",
    "CSV, one row per cipher (*.csv)": ".csv",
    "JSON, everything with raw samples (*.json)": ".json",
}
CHART_FILTERS = {"PNG image (*.png)": ".png", "SVG vector image (*.svg)": ".svg"}
WAIT_ON_QUIT_MS = 10_000


class TransferWindow(QMainWindow):
    """The loopback transfer benchmark; ``settings`` (the main window's) gives the folder
    file dialogs start in."""

    def __init__(self, parent: QWidget | None = None, settings: AppSettings | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("CipherBench – Loopback transfer")
        self.settings = settings or AppSettings()
        self.controller = TransferController(self)
        self._close_requested = False
        self._build()
        self._create_actions()
        self._connect()
        self.setAcceptDrops(True)
        self._fit_to_screen()
        self._update_actions()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._on_app_about_to_quit)

    # --- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.form = TransferForm()
        self.run_button = QPushButton("Run transfer")
        self.run_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.export_button = QPushButton("Export…")
        self.progress = LazyProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.status_label = QLabel(
            "Choose what to send and the ciphers, then Run. Both ends run on this machine."
        )
        self.status_label.setWordWrap(True)
        # Text that changes while a run goes on must not change a size hint (a relayout).
        lines = self.status_label.fontMetrics().lineSpacing()
        self.status_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.status_label.setFixedHeight(3 * lines + 2)
        left = QWidget()
        column = QVBoxLayout(left)
        column.addWidget(self.form, 1)
        row = QHBoxLayout()
        for button in (self.run_button, self.cancel_button, self.export_button):
            row.addWidget(button)
        column.addLayout(row)
        column.addWidget(self.progress)
        column.addWidget(self.status_label)
        self.left_scroll = QScrollArea()
        self.left_scroll.setWidget(left)
        self.left_scroll.setWidgetResizable(True)
        self.left_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        bar = self.left_scroll.verticalScrollBar().sizeHint().width()
        self.left_scroll.setMinimumWidth(left.minimumSizeHint().width() + bar + 4)
        self._wheel_guard = guard_wheel(left)

        self.chart = TransferChart()
        self.model = TransferTableModel(self)
        self.table = TransferTableView()
        self.table.setModel(self.model)
        self.table.resizeColumnsToContents()  # the headers' widths until rows come
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.chart)
        right.addWidget(self.table)
        right.setSizes([330, 300])
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.left_scroll)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([320, 1000])
        self.setCentralWidget(self.splitter)

    def _fit_to_screen(self) -> None:
        """Most of the screen, never more (1366x768 included)."""
        screen = self.screen().availableGeometry() if self.screen() else None
        if screen is None or screen.width() <= 0:
            self.resize(1240, 700)
            return
        self.resize(min(1440, round(screen.width() * 0.96)), min(900, round(screen.height() * 0.9)))

    def _create_actions(self) -> None:
        def action(text: str, slot: Any, shortcut: Any = None) -> QAction:
            a = QAction(text, self)
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            a.triggered.connect(slot)
            self.addAction(a)
            return a

        self.open_action = action("&Choose a file…", self._on_open_action_triggered, "Ctrl+O")
        self.run_action = action("&Run transfer", self._on_run_action_triggered, "Ctrl+R")
        self.cancel_action = action("&Cancel", self.controller.cancel, Qt.Key.Key_Escape)
        self.export_action = action("&Export…", self._on_export_action_triggered, "Ctrl+E")
        self.close_action = action("C&lose", self.close, QKeySequence.StandardKey.Close)
        menu = self.menuBar().addMenu("&Transfer")
        for a in (self.open_action, self.run_action, self.cancel_action):
            menu.addAction(a)
        menu.addSeparator()
        for a in (self.export_action, self.close_action):
            menu.addAction(a)

    def _connect(self) -> None:
        self.run_button.clicked.connect(self.run_action.trigger)
        self.cancel_button.clicked.connect(self.cancel_action.trigger)
        self.export_button.clicked.connect(self.export_action.trigger)
        self.form.browse_requested.connect(self.open_action.trigger)
        self.chart.save_requested.connect(self._on_chart_save_requested)
        c = self.controller
        c.running_changed.connect(self._on_controller_running_changed)
        c.progress_changed.connect(self._on_controller_progress_changed)
        c.results_changed.connect(self._on_controller_results_changed)
        c.failed.connect(self._warn)
        c.run_finished.connect(self._on_controller_run_finished)

    # --- actions -------------------------------------------------------------------------------

    @Slot()
    def _on_open_action_triggered(self) -> None:
        if self.controller.running:
            return
        path, _ = QFileDialog.getOpenFileName(self, "Choose the file to send", self._folder())
        if path:
            self.form.set_file(path)

    @Slot()
    def _on_run_action_triggered(self) -> None:
        if self.controller.running:
            return
        try:
            request = self.form.request()
        except UserError as exc:
            self._warn("Cannot run the transfer", str(exc))
            return
        if request.path is not None:
            self.settings.last_folder = str(Path(request.path).expanduser().parent)
        self.chart.clear()
        self.progress.setValue(0)
        self.controller.start(request)

    @Slot()
    def _on_export_action_triggered(self) -> None:
        if not self._has_results_to_export():
            return
        suggested = str(Path(self._folder()) / "cipherbench-transfer.xlsx")
        path, chosen = QFileDialog.getSaveFileName(
            self, "Export the transfer", suggested, ";;".join(EXPORT_FILTERS)
        )
        if not path:
            return
        if not Path(path).suffix:
            path += EXPORT_FILTERS.get(chosen, ".xlsx")
        self.export_to(path)

    def export_to(self, path: str) -> Path | None:
        """Write the last run to ``path``; a warning in one sentence when it cannot."""
        try:
            written = self.controller.export(path)
        except UserError as exc:
            self._warn("Cannot export", str(exc))
            return None
        self.settings.last_folder = str(written.parent)
        self.statusBar().showMessage(display_text(f"Saved the transfer to {written}"), 8000)
        return written

    @Slot()
    def _on_chart_save_requested(self) -> None:
        suggested = str(Path(self._folder()) / "cipherbench-transfer.png")
        path, chosen = QFileDialog.getSaveFileName(
            self, "Save chart", suggested, ";;".join(CHART_FILTERS)
        )
        if path:
            if not Path(path).suffix:
                path += CHART_FILTERS.get(chosen, ".png")
            self.save_chart_to(path)

    def save_chart_to(self, path: str) -> Path | None:
        """Save the chart as PNG, or SVG for ``.svg``; a warning when it cannot."""
        try:
            sent = self.controller.sent_path
            check_output(path, force=True, inputs=[sent] if sent else [])
            written = self.chart.save(path)
        except UserError as exc:
            self._warn("Cannot save the chart", str(exc))
            return None
        except OSError as exc:
            self._warn("Cannot save the chart", f"cannot write {path}: {exc.strerror or exc}")
            return None
        self.settings.last_folder = str(written.parent)
        self.statusBar().showMessage(display_text(f"Saved the chart to {written}"), 8000)
        return written

    def _folder(self) -> str:
        return self.settings.last_folder

    # --- the controller's news -----------------------------------------------------------------

    @Slot(bool)
    def _on_controller_running_changed(self, running: bool) -> None:
        self._update_actions()
        if not running and self._close_requested:
            self.close()

    @Slot(float, str)
    def _on_controller_progress_changed(self, fraction: float, text: str) -> None:
        self.progress.setValue(round(fraction * 1000))
        self.status_label.setText(display_text(text))

    @Slot()
    def _on_controller_results_changed(self) -> None:
        results = self.controller.results()
        self.model.set_results(results)
        self.chart.set_results(results)
        self.table.resizeColumnsToContents()
        self._update_actions()

    @Slot(object)
    def _on_controller_run_finished(self, _run: TransferRun) -> None:
        self._update_actions()

    def _update_actions(self) -> None:
        running = self.controller.running
        self.run_action.setEnabled(not running)
        self.open_action.setEnabled(not running)
        self.cancel_action.setEnabled(running)
        self.export_action.setEnabled(self._has_results_to_export())
        for button, act in (
            (self.run_button, self.run_action),
            (self.cancel_button, self.cancel_action),
            (self.export_button, self.export_action),
        ):
            button.setEnabled(act.isEnabled())
        self.form.setEnabled(not running)

    def _has_results_to_export(self) -> bool:
        """A finished (or cancelled) run with at least one cipher's result: a run that
        finished nothing would export an empty workbook."""
        run = self.controller.last_run
        return not self.controller.running and run is not None and bool(run.results)

    def _warn(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, display_text(sentence(text)))

    # --- dropping a file, closing --------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if urls and urls[0].isLocalFile() and not self.controller.running:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and not self.controller.running:
            self.form.set_file(urls[0].toLocalFile())
            event.acceptProposedAction()

    def closeEvent(self, event: QCloseEvent) -> None:
        """A running transfer is cancelled first; the window closes once it has stopped."""
        if self.controller.running:
            self._close_requested = True
            self.controller.cancel()
            self.status_label.setText("Stopping the transfer before closing…")
            event.ignore()
            return
        self._close_requested = False
        super().closeEvent(event)

    @Slot()
    def _on_app_about_to_quit(self) -> None:
        self.controller.cancel_and_wait(WAIT_ON_QUIT_MS)


def open_transfer_window(owner: QWidget, settings: AppSettings | None = None) -> TransferWindow:
    """Show the owner's Transfer window, made on first use (sharing ``settings``) and kept as
    ``owner.transfer_window``."""
    window = getattr(owner, "transfer_window", None)
    if window is None:
        window = TransferWindow(settings=settings)
        owner.transfer_window = window  # type: ignore[attr-defined]
    window.show()
    window.raise_()
    window.activateWindow()
    return window
