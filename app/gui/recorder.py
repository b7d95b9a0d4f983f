"""Storing every run the windows finish in the history, off the GUI thread.

    history_recorder().record(result, window)   # RunResult, StudyResult, TransferRun...

One recorder serves the whole application. Nothing is stored when the window's setting "Keep a
history of runs" is off or ``CIPHERBENCH_NO_HISTORY`` is set. The outcome ("Saved to history
as run 12", or why not) goes to ``window``'s status bar: a history problem never interrupts
with a dialog, and never loses the finished run's table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMainWindow, QWidget

from app.core.history.location import history_path, storing_disabled
from app.gui.settings import AppSettings
from app.gui.worker import TaskRunner

STATUS_MS = 8000


def _store(path: Path, result: Any) -> tuple[int, str | None]:
    from app.core.history.store import History

    with History.open(path) as history:
        return history.record(result), history.warning


class HistoryRecorder(QObject):
    """Stores results in a worker; ``recorded(id)`` after each, ``failed(text)`` when not."""

    recorded = Signal(int)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner = TaskRunner(parent=self)

    def enabled(self, window: QWidget | None = None) -> bool:
        """Whether a run finished in ``window`` is stored (its settings, else the app's)."""
        settings = getattr(window, "settings", None)
        if not isinstance(settings, AppSettings):
            settings = AppSettings()
        return settings.keep_history and not storing_disabled()

    def record(self, result: Any, window: QObject | None = None) -> bool:
        """Store ``result`` (a cancelled one too: it is marked so) unless storing is off or
        nothing finished; False when it is not stored."""
        widget = window if isinstance(window, QWidget) else None
        if not self.enabled(widget):
            return False
        if not getattr(result, "results", ()) and not getattr(result, "failures", ()):
            return False  # cancelled before any job finished: nothing worth a row
        # The path now, on the GUI thread: the worker must not depend on later changes.
        self.runner.run_task(
            _store,
            history_path(),
            result,
            on_result=lambda out: self._on_stored(out, widget),
            on_failure=lambda text: self._on_failed(text, widget),
        )
        return True

    def wait_for_done(self, timeout_ms: int = 10_000) -> bool:
        return self.runner.wait_for_done(timeout_ms)

    def _on_stored(self, out: tuple[int, str | None], window: QWidget | None) -> None:
        run_id, warning = out
        text = f"Saved to history as run {run_id}."
        if warning:
            text += f" Note: {warning}"
        _status(window, text)
        self.recorded.emit(run_id)

    def _on_failed(self, text: str, window: QWidget | None) -> None:
        _status(window, f"The run was not stored in the history: {text}")
        self.failed.emit(text)


def _status(window: QWidget | None, text: str) -> None:
    if isinstance(window, QMainWindow) and shiboken6.isValid(window):
        window.statusBar().showMessage(text, STATUS_MS)


_shared: HistoryRecorder | None = None


def history_recorder() -> HistoryRecorder:
    """The application's recorder, made on first use."""
    global _shared
    if _shared is None or not shiboken6.isValid(_shared):
        _shared = HistoryRecorder()
    return _shared
