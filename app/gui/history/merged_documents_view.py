"""Runs of a kind without rows of entry and input (key setup, sweep, profile, ...) merged or
compared: their document side by side (:mod:`app.core.publish.merged_documents`) shown as any
document is, with an Export button for every format of it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QDialogButtonBox, QPushButton, QWidget

from app.core.kinds import formats
from app.core.publish.merge import MergeSource
from app.core.publish.merged_documents import MergedDocuments
from app.core.text import display_text
from app.gui.document_view import DocumentView
from app.gui.file_filters import ask_save_path, save_or_warn
from app.gui.history.merged_view import MergedWindow
from app.gui.history.run_view import HistoryViewWindow
from app.gui.label import Label
from app.gui.menus import add_close_controls
from app.gui.screen_fit import ScreenFit, fit_to_screen
from app.gui.settings import AppSettings


def describe(merged: MergedDocuments, header: str = "") -> str:
    """The line above the tables: which column is which run."""
    names = [s.label if s.label == s.origin else f"{s.label} ({s.origin})" for s in merged.sources]
    return (
        header or f"{len(merged.sources)} runs side by side, a column each: {', '.join(names)}."
    ) + " Each figure is as its run measured it, with its 95 % interval in brackets."


class MergedDocumentsWindow(HistoryViewWindow):
    """A non-modal window of ``merged``; ``header`` says what it is (default: the runs)."""

    def __init__(
        self,
        merged: MergedDocuments,
        *,
        header: str = "",
        settings: AppSettings | None = None,
        parent: QWidget | None = None,
    ) -> None:
        labels = ", ".join(merged.labels)
        super().__init__(
            f"Side by side: {labels} — CipherBench history", describe(merged, header), parent
        )
        self.merged = merged
        self.settings = settings or AppSettings()
        self.document_view = DocumentView()
        self.document_view.set_document(merged.document)
        self.column.addWidget(self.document_view, 1)
        self.status = Label()
        self.column.addWidget(self.status)
        self.buttons = add_close_controls(self, self.column)
        self.export_button = QPushButton("E&xport…")
        self.export_button.setToolTip(
            "Write these tables as " + formats.kind_of(merged).help_text()
        )
        self.buttons.addButton(self.export_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.export_button.clicked.connect(self._on_export_button_clicked)
        fit_to_screen(self, ScreenFit(1200, 720, 0.9, 0.85, 1000, 600))

    @Slot()
    def _on_export_button_clicked(self) -> None:
        suggested = str(Path(self.settings.last_folder) / "cipherbench-side-by-side.html")
        filters = formats.kind_of(self.merged).file_filters()
        path = ask_save_path(self, "Export the runs side by side", suggested, filters)
        if path:
            self.export_to(path)

    def export_to(self, path: str | Path) -> Path | None:
        """Write the tables to ``path``; a warning in one sentence when it cannot."""
        written = save_or_warn(self, self.merged, path)
        if written is None:
            return None
        self.settings.last_folder = str(written.parent)
        self.status.setText(display_text(f"Saved to {written}"))
        return written


def merged_window(
    sources: Sequence[MergeSource],
    merged: Any,
    *,
    warnings: Sequence[str] = (),
    header: str = "",
    settings: AppSettings | None = None,
    parent: QWidget | None = None,
) -> QWidget:
    """The window of ``merged``: rows of entry and input (:class:`MergedWindow`, with the
    files' ``warnings``), or runs' tables side by side under ``header``."""
    if isinstance(merged, MergedDocuments):
        return MergedDocumentsWindow(merged, header=header, settings=settings, parent=parent)
    return MergedWindow(sources, merged, warnings=warnings, settings=settings, parent=parent)
