"""The chart tabs under the results table, built after the window's first paint.

The charts (pyqtgraph and numpy: about 0.6 s of imports) are built after the window's first
paint, or when first needed; until then their tabs hold a placeholder. The last tab is the
Environment panel.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QTabWidget, QWidget

from app.core.bench.results import JobResult
from app.gui.label import Label
from app.gui.later_imports import import_later_modules
from app.gui.worker import TaskRunner, TaskWorker

if TYPE_CHECKING:
    from app.gui.results.charts import ThroughputChart, TimingChart
    from app.gui.results.input_chart import InputChart
    from app.gui.results.monitor_chart import MonitorChart
    from app.gui.results.throttled_chart import ThrottledChart

CHART_TABS = (
    ("throughput", "Throughput"),
    ("by_input", "By input"),
    ("timing", "Times"),
    ("monitor", "Memory && CPU"),
)
FILE_STEMS = {
    "throughput": "throughput",
    "by_input": "by-input",
    "timing": "times",
    "monitor": "memory-cpu",
}


class ChartTabs(QTabWidget):
    """Throughput, By input, Times, Memory & CPU and ``environment_panel``. ``results()`` gives the
    results so far, shown by a chart built after they arrived."""

    chart_save_requested = Signal(object)  # the ThrottledChart whose Save button was pressed

    def __init__(
        self,
        environment_panel: QWidget,
        results: Callable[[], list[JobResult]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._results = results
        self._charts: dict[str, ThrottledChart] = {}
        self._runner = TaskRunner(parent=self)
        self._loader: TaskWorker | None = None
        for _key, title in CHART_TABS:
            loading = Label("Loading the charts…")
            loading.setAlignment(Qt.AlignmentFlag.AlignCenter)
            loading.setEnabled(False)
            self.addTab(loading, title)
        self.addTab(environment_panel, "Environment")

    @property
    def throughput_chart(self) -> ThroughputChart:
        return self.charts()["throughput"]  # type: ignore[return-value]

    @property
    def input_chart(self) -> InputChart:
        return self.charts()["by_input"]  # type: ignore[return-value]

    @property
    def timing_chart(self) -> TimingChart:
        return self.charts()["timing"]  # type: ignore[return-value]

    @property
    def monitor_chart(self) -> MonitorChart:
        return self.charts()["monitor"]  # type: ignore[return-value]

    @property
    def ready(self) -> bool:
        return len(self._charts) == len(CHART_TABS)

    def charts(self) -> dict[str, ThrottledChart]:
        """Build every chart tab not built yet (now), and return them by key."""
        for key, _title in CHART_TABS:
            if key not in self._charts:
                self._build_chart(key)
        return self._charts

    def current_chart(self) -> ThrottledChart:
        """The chart on show, or the throughput chart when another tab is."""
        charts = self.charts()
        widget = self.currentWidget()
        return widget if widget in charts.values() else charts["throughput"]  # type: ignore[return-value]

    def file_stem(self, chart: ThrottledChart) -> str:
        """A file name (without extension) for a picture of ``chart``."""
        key = next((k for k, c in self._charts.items() if c is chart), "monitor")
        return FILE_STEMS[key]

    def start_loading(self) -> None:
        """Import pyqtgraph and numpy in the pool (the window stays responsive), then build
        the chart widgets here, in the GUI thread, one per event-loop turn (40-70 ms each), so
        the window never freezes for the sum. Once only."""
        if self._charts or self._loader is not None:
            return
        self._loader = self._runner.run_task(
            import_later_modules, on_finished=self._on_loader_finished
        )

    def _build_chart(self, key: str) -> None:
        """Replace the placeholder tab of chart ``key`` by the chart, with the data so far."""
        from app.gui.results.charts import ThroughputChart, TimingChart
        from app.gui.results.input_chart import InputChart
        from app.gui.results.monitor_chart import MonitorChart

        chart: ThrottledChart = {
            "throughput": ThroughputChart,
            "by_input": InputChart,
            "timing": TimingChart,
            "monitor": MonitorChart,
        }[key]()
        index = [k for k, _ in CHART_TABS].index(key)
        current = self.currentIndex()
        placeholder = self.widget(index)
        self.removeTab(index)
        self.insertTab(index, chart, CHART_TABS[index][1])
        self.setCurrentIndex(current)
        if placeholder is not None:
            placeholder.deleteLater()
        chart.save_requested.connect(self._on_chart_save_requested)
        self._charts[key] = chart
        results = self._results()
        if results and key != "monitor":
            chart.set_results(results)  # type: ignore[attr-defined]

    @Slot()
    def _on_chart_save_requested(self) -> None:
        chart = self.sender()
        if chart in self._charts.values():
            self.chart_save_requested.emit(chart)

    @Slot()
    def _on_loader_finished(self) -> None:
        missing = [key for key, _ in CHART_TABS if key not in self._charts]
        if missing:
            self._build_chart(missing[0])
        if len(missing) > 1:
            QTimer.singleShot(0, self, self._on_loader_finished)
        elif missing:
            # Start-up is over: Qt, pyqtgraph and numpy left ~90,000 long-lived objects that
            # every full garbage collection would walk again (35 ms idle, over 100 ms on a busy
            # machine), in the middle of a run. Freezing them keeps collections short.
            gc.freeze()
