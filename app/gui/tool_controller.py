"""What the Study and the Transfer windows' controllers share: one run at a time in a worker,
kept until it has finished, cancelled from the window, waited for when the program quits.

A subclass makes the worker, starts it with :meth:`ToolController._start_worker` and names
its handlers ``_on_worker_<signal>``; ``running_changed`` says when a run starts and ends.
:class:`StatusToolController` adds the progress, results and failure signals of a window
with one status line (the Message lengths and hardware and the Transfer windows).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import QObject, Signal, Slot

from app.gui.wiring import connect_handlers
from app.gui.worker import TaskRunner
from app.gui.worker_base import WorkerBase


class ToolController(QObject):
    """Base of a tool window's controller (what :class:`~app.gui.tool_window.ToolWindow`
    asks of it)."""

    running_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner = TaskRunner(parent=self)
        self.runner.busy_changed.connect(self._on_runner_busy_changed)
        self._worker: WorkerBase | None = None  # the run's, until it has finished

    @property
    def running(self) -> bool:
        return self.runner.busy

    def export(self, path: str | Path) -> Path:
        """Write the results to ``path``; ``UserError`` naming the file when it cannot."""
        raise NotImplementedError

    def paper_source(self) -> tuple[object, list[str]] | None:
        """The result *Export for a paper…* writes (the one Export writes) and the files the
        run read (never to be replaced); None without one."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Stop the run: the engine kills its running processes and still ends the run."""
        if self._worker is not None:
            self._worker.cancel()

    def cancel_and_wait(self, timeout_ms: int = 10_000) -> bool:
        """Cancel and block until the worker has stopped (closing, quitting)."""
        self.cancel()
        return self.runner.wait_for_done(timeout_ms)

    def _start_worker(self, worker: WorkerBase) -> None:
        """Run ``worker`` in the pool, its signals connected to the ``_on_worker_*`` handlers."""
        connect_handlers(worker.signals, self, "worker")
        self._worker = worker
        self.runner.start(worker, busy=True)

    @Slot(bool)
    def _on_runner_busy_changed(self, busy: bool) -> None:
        if not busy:
            self._worker = None
        self.running_changed.emit(busy)


class StatusToolController(ToolController):
    """Base of a :class:`~app.gui.form_tool_window.FormToolWindow`'s controller: it says how
    far a run is as a fraction and a sentence for the status line, and what failed as a title
    and a text worth a dialog. A subclass names what it runs in ``RUNS`` ("sweep")."""

    progress_changed = Signal(float, str)  # overall fraction 0..1, what runs now
    results_changed = Signal()  # the results shown changed: views to redraw
    run_finished = Signal(object)  # the run's result (also after a cancel)
    failed = Signal(str, str)  # title, text: worth a dialog

    RUNS: ClassVar[str]

    def start(self, request: Any) -> None:
        """Run ``request`` (the window's form's); ``UserError`` (before anything starts) for
        a request that cannot run."""
        raise NotImplementedError

    def _start_run(self, worker: WorkerBase, text: str) -> None:
        """Show the results as they are now (cleared) and ``text``, and run ``worker``."""
        self.results_changed.emit()
        self.progress_changed.emit(0.0, text)
        self._start_worker(worker)

    @Slot(str)
    def _on_worker_failed(self, text: str) -> None:
        self.progress_changed.emit(0.0, "Not run.")
        self.failed.emit(f"Cannot run the {self.RUNS}", text)
