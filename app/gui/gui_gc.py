"""Python's cyclic garbage collector, run in the GUI thread only.

An automatic collection runs in whichever thread allocates at that moment: a pool thread
storing a run in the history can then destroy a chart's Qt graphics items while the GUI thread
is inside Qt (closing the window), and the two wait on each other for good (seen in the tests:
``LegendItem.removeItem`` in the GUI thread, ``json_safe`` in the recorder's thread). As
pyqtgraph's ``GarbageCollector`` does, automatic collection is switched off and the GUI thread
collects on a timer, each generation when its count is over Python's own threshold.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 1000


class GuiThreadCollector(QObject):
    """While alive and started: no automatic collection; the GUI thread collects each second."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._threshold = gc.get_threshold()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.check)

    def start(self) -> None:
        gc.disable()
        self._timer.start(INTERVAL_MS)

    def stop(self) -> None:
        """Automatic collection again (a test's teardown)."""
        self._timer.stop()
        gc.enable()

    def check(self) -> None:
        counts = gc.get_count()
        for generation in range(3):
            if counts[generation] <= self._threshold[generation]:
                break
            gc.collect(generation)


def collect_in_gui_thread(parent: QObject) -> GuiThreadCollector:
    """Start collecting in the GUI thread only, for as long as ``parent`` lives."""
    collector = GuiThreadCollector(parent)
    collector.start()
    return collector
