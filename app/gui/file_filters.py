"""The file dialogs' filters, and the suffix a chosen filter gives a name typed without one."""

from __future__ import annotations

from pathlib import Path

# Benchmark results (the main window's Export).
RESULT_FILTERS = {
    "Excel workbook with charts (*.xlsx)": ".xlsx",
    "CSV, one row per job (*.csv)": ".csv",
    "JSON, everything with raw samples (*.json)": ".json",
}
# Every chart the windows draw.
CHART_FILTERS = {"PNG image (*.png)": ".png", "SVG vector image (*.svg)": ".svg"}


def with_suffix(path: str, selected_filter: str, filters: dict[str, str]) -> str:
    """``path`` with the extension of the chosen filter when the user typed none."""
    if not path or Path(path).suffix.lower() in filters.values():
        return path
    return path + filters.get(selected_filter, next(iter(filters.values())))
