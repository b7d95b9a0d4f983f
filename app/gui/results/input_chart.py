"""The main window's By input tab: a group of bars per input, a bar per cipher entry, as seed
002 draws AES against Blowfish on a .txt, a .pdf and a .zip. One quantity at a time (encryption
or decryption throughput or time, chosen above the chart); a log scale when the largest bar is
:data:`LOG_RATIO` times the smallest or more, and the title says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QComboBox, QWidget

from app.core.bench.results import JobResult
from app.gui.results.chart_style import OKABE_ITO
from app.gui.results.grouped_bars import GroupedBars
from app.gui.results.throttled_chart import OnePlotChart

LOG_RATIO = 20.0  # bars further apart than this are drawn on a log scale
COLORS = [c for name, c in OKABE_ITO.items() if name != "yellow"] + ["#000000"]

# (title, axis label, value of a result)
INPUT_QUANTITIES: tuple[tuple[str, str, Callable[[JobResult], float]], ...] = (
    (
        "Encryption throughput",
        "Throughput (MB/s, 10^6 bytes/s)",
        lambda r: r.encrypt.throughput_mb_s,
    ),
    (
        "Decryption throughput",
        "Throughput (MB/s, 10^6 bytes/s)",
        lambda r: r.decrypt.throughput_mb_s,
    ),
    ("Encryption time", "Median time (ms)", lambda r: r.encrypt.median_s * 1e3),
    ("Decryption time", "Median time (ms)", lambda r: r.decrypt.median_s * 1e3),
)


class InputChart(OnePlotChart):
    """Grouped bars by input of the quantity chosen in ``quantity_combo``."""

    grid = (False, True)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "By input",
            "Bars grouped by input appear here as jobs finish. Choose several files (or "
            "generate several sizes) to compare the inputs, as seed 002 compares file types.",
            parent,
        )
        self.quantity_combo = QComboBox()
        for title, _axis, _value in INPUT_QUANTITIES:
            self.quantity_combo.addItem(title)
        self.quantity_combo.setToolTip("The quantity the bars show")
        self.quantity_combo.currentIndexChanged.connect(self._on_quantity_changed)
        self._header.addWidget(self.quantity_combo)
        self._finish_header(self.plot_widget)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.setLabel("bottom", "Input")
        self.legend = self.plot.addLegend(offset=(-10, 10))
        self.grouped = GroupedBars(self.plot, self.legend, COLORS)
        self._results: list[JobResult] = []
        self._show_data(False)
        self._apply_palette()

    @property
    def log_scale(self) -> bool:
        return self.grouped.log_scale

    def set_results(self, results: Sequence[JobResult]) -> None:
        self._results = list(results)
        self._schedule()

    def clear(self) -> None:
        self.set_results([])

    def _on_quantity_changed(self, _index: int) -> None:
        self._schedule()

    def _redraw(self) -> None:
        self._show_data(bool(self._results))
        if not self._results:
            self.grouped.clear()
            return
        title, axis, value = INPUT_QUANTITIES[self.quantity_combo.currentIndex()]
        inputs = list(dict.fromkeys(r.input_label for r in self._results))
        entries = list(dict.fromkeys(r.label for r in self._results))
        values = {(r.label, r.input_label): value(r) for r in self._results}
        height = self.grouped.draw(values, entries, inputs, log_ratio=LOG_RATIO)
        shown = [v for v in values.values() if v > 0]
        # Room above the tallest bar for the legend (top right), which would hide it.
        top = max((height(v) for v in shown), default=1.0)
        self.plot.setYRange(-0.06 * top, top * (1.25 + 0.1 * len(entries)), padding=0)
        self.plot.setXRange(-0.5, len(inputs) - 0.5, padding=0.02)
        spread = max(shown) / min(shown) if shown else 1.0
        log = self.grouped.log_scale
        note = f" (log scale: the bars differ by {spread:,.0f}x)" if log else ""
        n = len(inputs)
        self._title.setText(f"{title} by input ({n} input{'s' if n != 1 else ''}){note}")
        self.plot.setLabel("left", axis + (" (log)" if self.grouped.log_scale else ""))
