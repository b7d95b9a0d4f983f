"""The file dialogs' filters, the suffix a chosen filter gives a name typed without one, and
the Export of a result: ask where, save it, warn in one sentence when it cannot."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from app.core.errors import UserError
from app.core.kinds import formats
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


def ask_save_path(parent: QWidget, title: str, suggested: str, filters: dict[str, str]) -> str:
    """The file the user chose in a Save dialog, with the chosen filter's suffix ("": none)."""
    path, chosen = QFileDialog.getSaveFileName(parent, title, suggested, ";;".join(filters))
    return with_suffix(path, chosen, filters)


def save_or_warn(parent: QWidget, result: object, path: str | Path) -> Path | None:
    """``result`` written to ``path`` in the format its suffix names; None, after a warning
    in one sentence, when it cannot be."""
    try:
        return formats.save(result, path)
    except UserError as exc:
        QMessageBox.warning(parent, "Not exported", str(exc))
        return None
