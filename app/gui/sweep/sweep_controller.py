"""The Message lengths and hardware window's controller: plans and starts a
:class:`SweepWorker`, keeps the last sweep and the last ladder, says how far a run is, exports
the one shown, stores each finished run in the history.

Data flows one way: worker signal -> controller -> ``results_changed`` -> tables and charts.
The controller opens no dialogs; ``failed`` carries what is worth one.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Slot

from app.core.runtime.events import Finished, Progress
from app.core.sweep.results import LADDER, SWEEP, SweepResult
from app.gui.recorder import history_recorder
from app.gui.sweep.sweep_worker import SweepRequest, SweepWorker, plan
from app.gui.tool_controller import StatusToolController


def done_text(result: SweepResult) -> str:
    """What a finished (or cancelled) run says in the status line."""
    n = len(result.entries)
    if result.kind == LADDER:
        counted = f"{n} step{'s' if n != 1 else ''}"
    else:
        counted = f"{n} entr{'ies' if n != 1 else 'y'}"
    if result.cancelled:
        return f"Cancelled; {counted} had finished a round before that."
    failed = f", {len(result.failures)} failed" if result.failures else ""
    elapsed = result.options.get("elapsed_s")
    took = f" in {elapsed:,.1f} s" if isinstance(elapsed, int | float) else ""
    return f"Done: {counted}{failed}{took}."


class SweepController(StatusToolController):
    """``results_changed``: the shown kind's result changed; ``run_finished`` carries a
    :class:`SweepResult`."""

    RUNS = "sweep"

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._last: dict[str, SweepResult] = {}  # the last run of each kind
        self.kind = SWEEP  # the kind the window shows (and exports)

    def result(self, kind: str | None = None) -> SweepResult | None:
        """The last run of ``kind`` (default: the kind shown), None before one finished."""
        return self._last.get(kind or self.kind)

    # --- actions -------------------------------------------------------------------------------

    def show_kind(self, kind: str) -> None:
        """Show (and export) the last sweep or the last ladder."""
        if kind not in (SWEEP, LADDER) or kind == self.kind:
            return
        self.kind = kind
        if not self.running:  # the status of the run shown, not of the other kind's
            result = self.result()
            if result is None:
                self.progress_changed.emit(0.0, "Not run.")
            else:
                self.progress_changed.emit(0.0 if result.cancelled else 1.0, done_text(result))
        self.results_changed.emit()

    def start(self, request: SweepRequest) -> None:
        """Plan ``request`` and run it; ``UserError`` (before anything starts) for a choice
        that cannot run."""
        if self.running:
            return
        sweep = plan(request)
        self._last.pop(sweep.kind, None)
        self.kind = sweep.kind
        self._start_run(SweepWorker(sweep), "Starting the first worker process…")

    def export(self, path: str | Path) -> Path:
        """Write the run shown to ``path`` (.html, .xlsx, .csv or .json); ``UserError`` when it
        cannot, ``ValueError`` when there is nothing to write."""
        from app.core.kinds.formats import save

        result = self.result()
        if result is None:
            raise ValueError("nothing to export")
        return save(result, path)

    def paper_source(self) -> tuple[object, list[str]] | None:
        """The run shown, as Export writes it."""
        result = self.result()
        return None if result is None or not result.entries else (result, [])

    # --- the worker's events -------------------------------------------------------------------

    @Slot(object)
    def _on_worker_progressed(self, p: Progress) -> None:
        self.progress_changed.emit(p.fraction, p.text)

    @Slot(object)
    def _on_worker_finished_run(self, event: Finished) -> None:
        result: SweepResult = event.result
        self._last[result.kind] = result
        self.kind = result.kind
        self.progress_changed.emit(0.0 if result.cancelled else 1.0, done_text(result))
        self.results_changed.emit()
        self.run_finished.emit(result)
        history_recorder().record(result, self.parent())  # off the GUI thread
        if result.failures:
            lines = "\n".join(
                f"{f.label}: {f.message.splitlines()[0]}" for f in result.failures if f.message
            )
            self.failed.emit("An entry failed", f"What went wrong, per entry:\n{lines}")
