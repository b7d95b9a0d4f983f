"""Storing every run the windows finish in the history, off the GUI thread.

    history_recorder().record(result, window)   # RunResult, StudyResult, TransferRun...

One recorder serves the whole application. Nothing is stored when the window's setting "Keep a
history of runs" is off or ``CIPHERBENCH_NO_HISTORY`` is set. A run is stored a moment after it
ends (``STORE_DELAY_MS``), when the window has drawn the run's end: storing is Python work in a
pool thread, and sharing the interpreter with the window's repaint at that moment doubled the
window's longest stall (10-13 ms without it, 23-40 ms with it). The outcome ("Saved to history
as run 12", or why not) goes to ``window``'s status bar: a history problem never interrupts
with a dialog, and never loses the finished run's table.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QMainWindow, QWidget

from app.core.history.location import history_path, storing_disabled
from app.gui.settings import AppSettings
from app.gui.worker import TaskRunner

STATUS_MS = 8000
STORE_DELAY_MS = 300


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
        self._pending: list[tuple[Path, Any, QWidget | None]] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(STORE_DELAY_MS)
        self._timer.timeout.connect(self._start_pending)

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
        self._pending.append((history_path(), result, widget))
        if not self._timer.isActive():
            self._timer.start()
        return True

    def _start_pending(self) -> None:
        self._timer.stop()
        pending, self._pending = self._pending, []
        for path, result, widget in pending:
            self.runner.run_task(
                _store,
                path,
                result,
                on_result=partial(self._on_stored, window=widget),
                on_failure=partial(self._on_failed, window=widget),
            )

    def wait_for_done(self, timeout_ms: int = 10_000) -> bool:
        """Store what waits now, and wait until it is stored (tests, and before quitting)."""
        self._start_pending()
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


def wait_for_stores(timeout_ms: int = 10_000) -> bool:
    """Store every run still waiting, and wait until stored (when the window closes, between
    tests), without making a recorder when there is none."""
    if _shared is None or not shiboken6.isValid(_shared):
        return True
    return _shared.wait_for_done(timeout_ms)
