"""What the main window imports in the pool after its first paint, so that no first use
stalls the GUI thread or holds the interpreter while the window paints: the charts (pyqtgraph
and numpy, about 0.6 s); the engine (its rounds driver, runner and psutil: 16 ms, which the
first run imported in a pool thread while the window drew the run's start); and what the end
of a run needs (platformdirs for the history's folder, 5 ms in the GUI thread; the history's
store, the claims, and the other kinds' results and the JSON export that storing a run reads,
14 ms more)."""

from __future__ import annotations

import importlib

MODULES = (
    "app.gui.results.charts",
    "app.core.bench.rounds",
    "platformdirs",
    "app.core.history.store",
    "app.core.study.cell_pairs",
    "app.core.study.claims",
    "app.core.export.json_export",
    "app.core.sweep.results",
    "app.core.transfer.results",
)


def import_later_modules() -> None:
    for name in MODULES:
        importlib.import_module(name)
