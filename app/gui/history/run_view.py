"""One stored run, read-only, as it was shown: a bench or study run's jobs in the main
window's results table with its throughput and time charts; a transfer's ciphers in a table; a
sweep or a ladder as the Message lengths and hardware window shows it (chart, tables and the
sentences the command line prints)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.bench.results import JobResult
from app.core.history.records import StoredRun
from app.core.kinds import table
from app.core.text import visible_text
from app.core.units import format_seconds
from app.gui.label import Label
from app.gui.menus import add_close_controls
from app.gui.results.results_table import (
    ResultsSortProxyModel,
    ResultsTableModel,
    ResultsTableView,
)

TRANSFER_HEADERS = ("Cipher", "Input", "Chunk (bytes)", "Chunks", "Median time", "MB/s", "Runs")


def describe(stored: StoredRun) -> str:
    """The line above the table: which run, when, where, and whether it was cut short."""
    s = stored.summary
    where = "imported" if s.source == "imported" else "run here"
    text = f"Run {s.id} ({s.kind}, {where}): {s.title}. {s.date_text()} on {s.machine}."
    if s.cancelled:
        text += " Cancelled: only the jobs that finished before are stored."
    return text


def failures_text(result: Any) -> str:
    """The failed jobs of a run, one per line ("" when none)."""
    lines = []
    for f in getattr(result, "failures", ()):
        who = (
            getattr(f, "cipher_label", None)
            or getattr(f, "cipher", None)
            or getattr(f, "label", None)  # a sweep's entry, a transfer's cipher (NamedFailure)
            or "?"
        )
        lines.append(f"Failed: {who}: {f.message}")
    return "\n".join(lines)


class HistoryViewWindow(QWidget):
    """A non-modal, read-only window of the history, deleted when closed: titled ``title``,
    ``header`` (wrapped, ``header_label``) at the top of ``column``, then what a subclass adds
    and last its :func:`~app.gui.menus.add_close_controls`."""

    def __init__(self, title: str, header: str, parent: QWidget | None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(title)
        self.column = QVBoxLayout(self)
        self.header_label = Label(header)
        self.header_label.setWordWrap(True)
        self.column.addWidget(self.header_label)


class StoredRunWindow(HistoryViewWindow):
    """A non-modal, read-only view of one stored run."""

    def __init__(self, stored: StoredRun, parent: QWidget | None = None) -> None:
        super().__init__(f"Run {stored.id} — CipherBench history", describe(stored), parent)
        self.stored = stored
        layout = self.column
        failed = failures_text(stored.result)
        if failed:
            failed_label = Label(failed)
            failed_label.setWordWrap(True)
            layout.addWidget(failed_label)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs, 1)
        results = tuple(getattr(stored.result, "results", ()))
        self.table: QTableWidget | QTableView
        if stored.summary.kind == "transfer":
            self.table = _transfer_table(results)
            self.tabs.addTab(self.table, "Table")
        elif stored.summary.kind == "sweep":
            self._add_sweep(stored.result)
        elif stored.summary.kind not in ("bench", "study"):  # made from its definition
            self._add_document(stored.result)
        else:
            self.table = self._job_table(results)
            self.tabs.addTab(self.table, "Table")
            self._add_charts(results)
        self.buttons = add_close_controls(self, layout)
        self.resize(1100, 600)

    def _job_table(self, results: tuple[JobResult, ...]) -> ResultsTableView:
        self.model = ResultsTableModel(self)
        for r in results:
            self.model.add_result(r)
        proxy = ResultsSortProxyModel(self)
        proxy.setSourceModel(self.model)
        view = ResultsTableView()
        view.setModel(proxy)
        view.fit_columns()
        return view

    def _add_document(self, result: Any) -> None:
        """A kind made from its definition: its document, as its own window shows it."""
        from app.gui.document_view import DocumentView
        from app.gui.kind_views import extra_view

        self.document_view = DocumentView()
        self.document_view.set_document(table.kind_of(result).document_of(result))
        self.table = (self.document_view.tables or [QTableWidget()])[0]
        self.tabs.addTab(self.document_view, "Tables")
        extra = extra_view(table.kind_of(result).name)  # a profile's flame graph
        if extra is not None:
            title, view = extra
            view.set_result(result)
            self.tabs.addTab(view, title)

    def _add_sweep(self, result: Any) -> None:
        """The Message lengths and hardware window's view: the chart above the tables and
        the sentences."""
        from app.gui.results.sweep_view import result_view  # pyqtgraph: on use

        self.sweep_view = result_view(result)
        self.table = self.sweep_view.table
        name = "Ladder" if result.kind == "ladder" else "Sweep"
        self.tabs.addTab(self.sweep_view, name)

    def _add_charts(self, results: tuple[JobResult, ...]) -> None:
        from app.gui.results.charts import ThroughputChart, TimingChart  # pyqtgraph: on use

        for chart, name in ((ThroughputChart(), "Throughput"), (TimingChart(), "Time")):
            chart.set_results(results)
            self.tabs.addTab(chart, name)


def _transfer_table(results: tuple[Any, ...]) -> QTableWidget:
    table = QTableWidget(len(results), len(TRANSFER_HEADERS))
    table.setHorizontalHeaderLabels(TRANSFER_HEADERS)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    for row, r in enumerate(results):
        cells = (
            r.label,
            r.input_label,
            f"{r.chunk_bytes:,}",
            f"{r.chunks:,}",
            format_seconds(r.timing.median_s),
            f"{r.throughput_mb_s:,.1f}",
            str(len(r.runs)),
        )
        for col, text in enumerate(cells):
            table.setItem(row, col, QTableWidgetItem(visible_text(text)))
    table.resizeColumnsToContents()
    return table
