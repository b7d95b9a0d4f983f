"""The History window: every stored run, newest first; open one as it was, delete, compare
two side by side, import and export JSON. Opened from Run > History… (Ctrl+H).

The list, delete, import and export are single quick SQLite statements, done at once; opening
the comparison (a claim per job and direction, on each run's rounds) runs in a worker.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import UserError
from app.core.formats import BY_NAME, IMPORTABLE_JSON
from app.core.history.location import history_path, storing_disabled
from app.core.history.records import RunSummary
from app.core.history.store import History
from app.gui.file_filters import with_suffix
from app.gui.history.recorder import history_recorder
from app.gui.settings import AppSettings
from app.gui.worker import TaskRunner, TaskWorker

HEADERS = ("Id", "Date", "Machine", "Kind", "What was run", "Where", "State")
WHAT_COLUMN = HEADERS.index("What was run")
KIND_COLUMN = HEADERS.index("Kind")
ID_ROLE = Qt.ItemDataRole.UserRole + 1


def export_filters(kind: str) -> dict[str, str]:
    """The Export dialog's filters for a run of ``kind``: the importable JSON first, then the
    other formats of its kind (app.core.formats)."""
    filters = {f"{IMPORTABLE_JSON} (*.json)": ".json"}
    if kind in BY_NAME:
        filters.update({k: v for k, v in BY_NAME[kind].file_filters().items() if v != ".json"})
    return filters


def what_was_run(s: RunSummary) -> str:
    """The title, then the ciphers and inputs (a few of each)."""

    def few(items: tuple[str, ...]) -> str:
        return ", ".join(items[:4]) + (f" +{len(items) - 4}" if len(items) > 4 else "")

    parts = [s.title] if s.title else []
    if s.ciphers and not all(c in s.title for c in s.ciphers):  # a title names a few only
        parts.append(few(s.ciphers))
    if s.inputs and not all(i in s.title for i in s.inputs):
        parts.append("on " + few(s.inputs))
    return "; ".join(parts)


def _compare(path: Path, id_a: int, id_b: int) -> Any:
    from app.core.history.compare import compare_runs

    with History.open(path) as history:
        return compare_runs(history.load(id_a), history.load(id_b))


class HistoryWindow(QMainWindow):
    """The stored runs of the history at ``path`` (default: the one runs are stored in)."""

    def __init__(
        self,
        settings: AppSettings | None = None,
        path: str | Path | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("History — CipherBench")
        self.settings = settings or AppSettings()
        self.path = Path(path) if path is not None else history_path()
        self.runner = TaskRunner(parent=self)
        self.views: list[QWidget] = []  # the open run and comparison windows
        self._warned = False
        self._build()
        self._build_menu()
        history_recorder().recorded.connect(self._on_recorder_recorded)
        self.refresh()
        self._fit_to_screen()

    # --- building ---------------------------------------------------------------------------

    def _build(self) -> None:
        central = QWidget()
        layout = QVBoxLayout(central)
        self.warning_label = QLabel()
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet("color: #a04000;")
        self.warning_label.hide()
        layout.addWidget(self.warning_label)
        self.table = QTableWidget(0, len(HEADERS))
        self.table.setHorizontalHeaderLabels(HEADERS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # "What was run" takes the room left (its full text in the tooltip), so a long title
        # never pushes Where and State out of sight.
        header.setSectionResizeMode(WHAT_COLUMN, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.table.doubleClicked.connect(self._on_open_clicked)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        layout.addWidget(self.table, 1)
        buttons = QHBoxLayout()
        self.open_button = QPushButton("&Open")
        self.compare_button = QPushButton("&Compare")
        self.delete_button = QPushButton("&Delete…")
        self.import_button = QPushButton("&Import…")
        self.export_button = QPushButton("E&xport…")
        self.open_button.setToolTip("Show the selected run's table and charts as they were")
        self.compare_button.setToolTip(
            "Select exactly two runs: per job, the ratio of times with a 95 % interval"
        )
        for b, slot in (
            (self.open_button, self._on_open_clicked),
            (self.compare_button, self._on_compare_clicked),
            (self.delete_button, self._on_delete_clicked),
            (self.import_button, self._on_import_clicked),
            (self.export_button, self._on_export_clicked),
        ):
            b.clicked.connect(slot)
            buttons.addWidget(b)
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
        refresh = QAction("&Refresh", self)
        refresh.setShortcut(QKeySequence(QKeySequence.StandardKey.Refresh))
        refresh.triggered.connect(self.refresh)
        close = QAction("&Close", self)
        close.setShortcut(QKeySequence(QKeySequence.StandardKey.Close))
        close.triggered.connect(self.close)
        menu.addAction(self.keep_action)
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
        chosen = set(self.selected_ids())
        try:
            with self._open() as history:
                runs = list(reversed(history.list_runs()))
        except UserError as exc:
            self.statusBar().showMessage(f"Could not read the history: {exc}", 10_000)
            runs = []
        self.table.setRowCount(len(runs))
        for row, s in enumerate(runs):
            cells = (
                str(s.id),
                s.date_text(),
                s.machine,
                s.kind,
                what_was_run(s),
                "imported" if s.source == "imported" else "here",
                "cancelled" if s.cancelled else "complete",
            )
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(ID_ROLE, s.id)
                if col == WHAT_COLUMN:
                    item.setToolTip(text)
                self.table.setItem(row, col, item)
        for col in range(len(HEADERS)):
            if col != WHAT_COLUMN:  # stretched: it takes what the others leave
                self.table.resizeColumnToContents(col)
        for row, s in enumerate(runs):
            if s.id in chosen:
                self.table.selectRow(row)
        self.statusBar().showMessage(f"{len(runs)} run(s) in {self.path}")
        self._update_buttons()

    def run_ids(self) -> list[int]:
        """The ids listed, top to bottom (newest first)."""
        return [self._id_at(r) for r in range(self.table.rowCount())]

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.table.selectionModel().selectedRows()})

    def selected_ids(self) -> list[int]:
        return [self._id_at(r) for r in self.selected_rows()]

    def _kind_at(self, row: int) -> str:
        item = self.table.item(row, KIND_COLUMN)
        return item.text() if item is not None else ""

    def _id_at(self, row: int) -> int:
        item = self.table.item(row, 0)
        assert item is not None  # every listed row has its id cell
        run_id: int = item.data(ID_ROLE)
        return run_id

    def select_ids(self, ids: list[int]) -> None:
        self.table.clearSelection()
        mode = self.table.selectionMode()
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        for row, run_id in enumerate(self.run_ids()):
            if run_id in ids:
                self.table.selectRow(row)
        self.table.setSelectionMode(mode)

    def _update_buttons(self) -> None:
        n = len(self.selected_ids())
        self.open_button.setEnabled(n == 1)
        self.export_button.setEnabled(n == 1)
        self.delete_button.setEnabled(n >= 1)
        self.compare_button.setEnabled(n == 2 and not self.runner.busy)

    # --- actions ----------------------------------------------------------------------------

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
        worker = TaskWorker(_compare, self.path, a, b)
        worker.signals.resulted.connect(self._on_compare_resulted)
        worker.signals.failed.connect(self._on_compare_failed)
        worker.signals.finished.connect(self._update_buttons)
        self.statusBar().showMessage(f"Comparing run {b} with run {a}…")
        self.runner.start(worker, busy=True)
        self._update_buttons()

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

    @Slot(str)
    def _on_compare_failed(self, text: str) -> None:
        self.statusBar().showMessage(f"Could not compare: {text}", 10_000)

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
        filters = export_filters(self._kind_at(self.selected_rows()[0]))
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

    @Slot(int)
    def _on_recorder_recorded(self, _run_id: int) -> None:
        self.refresh()

    def _show(self, view: QWidget) -> None:
        self.views = [v for v in self.views if shiboken6.isValid(v) and v.isVisible()]
        self.views.append(view)
        view.show()
        view.raise_()

    def closeEvent(self, event: Any) -> None:
        self.runner.wait_for_done(10_000)  # a comparison in flight: no signal into a dead window
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
