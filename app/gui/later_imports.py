"""What the main window imports in the pool after its first paint, so that no first use
stalls the GUI thread or holds the interpreter while the window paints: the charts (pyqtgraph
and numpy, about 0.6 s) and what the end of a run needs (platformdirs for the history's
folder, 5 ms in the GUI thread; the history's store and the claims, most of the first
run's 74 ms of storing)."""

from __future__ import annotations

import importlib

MODULES = (
    "app.gui.results.charts",
    "platformdirs",
    "app.core.history.store",
    "app.core.study.cell_pairs",
    "app.core.study.claims",
)


def import_later_modules() -> None:
    for name in MODULES:
        importlib.import_module(name)
