"""Keeping runs, from the History window: delete the selected runs (asked first, No by
default), import a run exported as JSON, export the selected run as JSON or in its kind's
formats. Each is one quick SQLite statement, done at once; a problem is said in a dialog."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QStatusBar

from app.core.errors import UserError
from app.core.history.store import History
from app.gui.file_filters import with_suffix
from app.gui.history.history_texts import export_filters
from app.gui.history.run_table import RunTable
from app.gui.questions import ask_yes_no
from app.gui.settings import AppSettings

SAID_MS = 8000


class _Host(Protocol):
    settings: AppSettings
    table: RunTable

    def open_history(self) -> History: ...

    def refresh(self) -> None: ...

    def statusBar(self) -> QStatusBar: ...


def delete_selected(window: QMainWindow, host: _Host) -> None:
    ids = host.table.selected_ids()
    if not ids:
        return
    which = ", ".join(str(i) for i in ids)
    question = (
        f"Delete run{'s' if len(ids) > 1 else ''} {which} from the history? This cannot be undone."
    )
    if not ask_yes_no(window, "Delete from the history", question):
        return
    try:
        with host.open_history() as history:
            for run_id in ids:
                history.delete(run_id)
    except UserError as exc:
        QMessageBox.warning(window, "Cannot delete", str(exc))
    host.refresh()
    host.statusBar().showMessage(f"Deleted run(s) {which}.", SAID_MS)


def import_run(window: QMainWindow, host: _Host) -> None:
    path, _ = QFileDialog.getOpenFileName(
        window, "Import a run", host.settings.last_folder, "CipherBench JSON (*.json)"
    )
    if not path:
        return
    try:
        with host.open_history() as history:
            run_id = history.import_file(path)
    except UserError as exc:
        QMessageBox.warning(window, "Not imported", str(exc))
        return
    host.settings.last_folder = str(Path(path).parent)
    host.refresh()
    host.table.select_ids([run_id])
    host.statusBar().showMessage(f"Imported as run {run_id}.", SAID_MS)


def export_selected(window: QMainWindow, host: _Host) -> None:
    ids = host.table.selected_ids()
    if len(ids) != 1:
        return
    suggested = str(Path(host.settings.last_folder) / f"cipherbench-run-{ids[0]}.json")
    filters = export_filters(host.table.selected_kind())
    path, chosen = QFileDialog.getSaveFileName(
        window, "Export the run", suggested, ";;".join(filters)
    )
    path = with_suffix(path, chosen, filters)
    if not path:
        return
    try:
        with host.open_history() as history:
            written = history.export(ids[0], path)
    except UserError as exc:
        QMessageBox.warning(window, "Not exported", str(exc))
        return
    host.settings.last_folder = str(written.parent)
    host.statusBar().showMessage(f"Exported run {ids[0]} to {written}", SAID_MS)
