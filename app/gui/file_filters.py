"""The file dialogs' filters, and the suffix a chosen filter gives a name typed without one."""

from __future__ import annotations

from pathlib import Path

from app.core.kinds.formats import BENCH

# Benchmark results (the main window's Export): the engine's table of formats.
RESULT_FILTERS = BENCH.file_filters()
# Every chart the windows draw.
CHART_FILTERS = {"PNG image (*.png)": ".png", "SVG vector image (*.svg)": ".svg"}


def with_suffix(path: str, selected_filter: str, filters: dict[str, str]) -> str:
    """``path`` with the extension of the chosen filter when the user typed none; a name
    ending in the last part of the chosen one (``p.json`` with *speedscope profile
    (*.speedscope.json)*) gets the whole of it, not another format of that ending."""
    name = Path(path).name.lower()
    chosen = filters.get(selected_filter, "")
    last = "." + chosen.rsplit(".", 1)[-1]
    if path and chosen and name.endswith(last) and not name.endswith(chosen):
        return path[: -len(last)] + chosen
    if not path or any(name.endswith(suffix) for suffix in filters.values()):
        return path
    return path + (chosen or next(iter(filters.values())))
