"""The study's worker: drives ``StudyRun.events()`` in a pool thread, as ``BenchmarkWorker``
drives a benchmark run, and relays each event as a signal.

Progress (``StepProgress``, up to 20 per second per worker from the engine) is coalesced to
the latest value and emitted at most once per ``min_interval_s``; the other events go out as
they come, after what was pending, so the order is kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.core.study.runner import (
    CellFailed,
    CellFinished,
    RoundsAdded,
    StepProgress,
    StepStarted,
    StudyFinished,
    StudyStarted,
)
from app.gui.worker import PROGRESS_INTERVAL_S, RunLike, WorkerBase, emit_signal

# What the worker needs from ``app.core.study.runner.StudyRun``: the same as from a benchmark run.
StudyRunLike = RunLike


class StudyWorkerSignals(QObject):
    """Signals of :class:`StudyWorker`; every payload is a frozen study event."""

    started = Signal()
    study_started = Signal(object)  # StudyStarted
    step_started = Signal(object)  # StepStarted
    rounds_added = Signal(object)  # RoundsAdded
    progressed = Signal(object)  # StepProgress (the latest one)
    cell_finished = Signal(object)  # CellFinished
    cell_failed = Signal(object)  # CellFailed
    study_finished = Signal(object)  # StudyFinished
    failed = Signal(str)  # the engine raised
    finished = Signal()  # always last


_SIGNAL_FOR = {
    StudyStarted: "study_started",
    StepStarted: "step_started",
    RoundsAdded: "rounds_added",
    CellFinished: "cell_finished",
    CellFailed: "cell_failed",
    StudyFinished: "study_finished",
}


class StudyWorker(WorkerBase):
    """Runs one study in a pool thread. ``cancel()`` from any thread: the engine kills the
    running job's process and still ends with ``StudyFinished`` (partial results kept)."""

    signals: StudyWorkerSignals

    def __init__(
        self,
        run: StudyRunLike,
        *,
        min_interval_s: float = PROGRESS_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(StudyWorkerSignals())
        self._run = run
        self._interval = min_interval_s
        self._clock = clock
        self._pending: StepProgress | None = None
        self._last_emit = float("-inf")
        self.progress_emits = 0  # for tests: how many `progressed` went out

    def cancel(self) -> None:
        super().cancel()
        self._run.cancel()

    def work(self) -> None:
        events = self._run.events()
        try:
            for event in events:
                self._dispatch(event)
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()  # a generator: kills the running job's process
        self._flush()

    def report_result(self, value: Any) -> None:
        pass  # results went out as events

    def report_failure(self, exc: BaseException) -> None:
        self._flush()
        super().report_failure(exc)

    def _dispatch(self, event: Any) -> None:
        if isinstance(event, StepProgress):
            self._pending = event
            if self._clock() - self._last_emit >= self._interval:
                self._flush()
            return
        self._flush()
        name = _SIGNAL_FOR.get(type(event))
        if name is not None:
            emit_signal(self.signals, name, event)

    def _flush(self) -> None:
        if self._pending is not None:
            progress, self._pending = self._pending, None
            self.progress_emits += 1
            emit_signal(self.signals, "progressed", progress)
        self._last_emit = self._clock()
