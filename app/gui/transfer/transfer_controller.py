"""The Transfer window's controller: starts a :class:`TransferWorker`, keeps the last run's
results, says how far it is, exports.

Data flows one way: worker signal -> controller -> ``results_changed`` -> table and chart. The
controller opens no dialogs; ``failed`` carries what is worth one.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Slot

from app.core.runtime.envelope import NamedFailure
from app.core.runtime.events import Finished, Outcome, Progress
from app.core.transfer.results import TransferResult, TransferRun
from app.gui.recorder import history_recorder
from app.gui.tool_controller import StatusToolController
from app.gui.transfer.transfer_worker import TransferRequest, TransferWorker


class TransferController(StatusToolController):
    """``results_changed``: rows and bars to redraw; ``run_finished`` carries a
    :class:`TransferRun` (none when a cancel came while the input was generated: nothing
    ran)."""

    RUNS = "transfer"

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._results: list[TransferResult] = []
        self._failures: list[NamedFailure] = []
        self._path: str | None = None  # the file sent: never overwritten by an export
        self.last_run: TransferRun | None = None

    def results(self) -> list[TransferResult]:
        """The ciphers of the running (or last) run that finished."""
        return list(self._results)

    @property
    def sent_path(self) -> str | None:
        """The file the last run sent (None: generated data); never to be overwritten."""
        return self._path

    # --- actions -------------------------------------------------------------------------------

    def start(self, request: TransferRequest) -> None:
        if self.running:
            return
        self._results, self._failures, self.last_run = [], [], None
        self._path = request.path
        self._start_run(TransferWorker(request), "Starting…")

    def export(self, path: str | Path) -> Path:
        """Write the last run to ``path`` (.json, .csv or .xlsx); ``UserError`` when it
        cannot, ``ValueError`` when there is nothing to write."""
        from app.core.kinds.formats import save

        if self.last_run is None:
            raise ValueError("nothing to export")
        inputs = [self._path] if self._path else []
        return save(self.last_run, path, inputs=inputs)

    def paper_source(self) -> tuple[object, list[str]] | None:
        run = self.last_run
        if run is None or not run.results:
            return None
        return run, [self._path] if self._path else []

    # --- the worker's events -------------------------------------------------------------------

    @Slot(object)
    def _on_worker_progressed(self, p: Progress) -> None:
        self.progress_changed.emit(p.fraction, p.text)

    @Slot(object)
    def _on_worker_outcome(self, event: Outcome) -> None:
        if isinstance(event.value, NamedFailure):
            self._failures.append(event.value)
            return
        self._results.append(event.value)
        self.results_changed.emit()

    @Slot(object)
    def _on_worker_finished_run(self, event: Finished) -> None:
        run: TransferRun | None = event.result
        if run is None:  # cancelled while the input was generated: nothing ran
            self.progress_changed.emit(0.0, "Cancelled while generating the input; nothing ran.")
            return
        self.last_run = run
        n = len(run.results)
        ciphers = f"{n} cipher{'s' if n != 1 else ''}"
        if run.cancelled:
            text = (
                f"Cancelled; {ciphers} finished before that."
                if n
                else "Cancelled before any cipher finished."
            )
        else:
            failed = f", {len(run.failures)} failed" if run.failures else ""
            text = (
                f"Done: {ciphers} on {run.input_label}{failed}. Every chunk authenticated, "
                "both ends' digests equal."
            )
        self.progress_changed.emit(1.0 if not run.cancelled else 0.0, text)
        self.run_finished.emit(run)
        history_recorder().record(run, self.parent())  # off the GUI thread
        if self._failures:
            lines = "\n".join(f"{f.label}: {f.message}" for f in self._failures)
            self.failed.emit("A transfer failed", f"What went wrong, per cipher:\n{lines}")
