"""The study's worker: the app's one event relay, driving a run's stream
(:class:`~app.gui.worker.RunWorker`) over ``StudyRun.events()``, with its signals and which
event goes to which. Progress (``StepProgress``, up to 20 per second per worker from the
engine) is coalesced to the latest value and emitted at most once per ``min_interval_s``, as a
benchmark's is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from PySide6.QtCore import Signal

from app.core.study import runner
from app.gui.worker import PROGRESS_INTERVAL_S, RunLike, RunWorker
from app.gui.worker_base import WorkerSignals

# What the worker needs from ``app.core.study.runner.StudyRun``: the same as from a benchmark run.
StudyRunLike = RunLike


class StudyWorkerSignals(WorkerSignals):
    """Signals of :class:`StudyWorker`; every payload is a frozen study event."""

    study_started = Signal(object)  # StudyStarted
    step_started = Signal(object)  # StepStarted
    rounds_added = Signal(object)  # RoundsAdded
    progressed = Signal(object)  # StepProgress (the latest one)
    cell_finished = Signal(object)  # CellFinished
    cell_failed = Signal(object)  # CellFailed
    study_finished = Signal(object)  # StudyFinished


class StudyWorker(RunWorker):
    """Runs one study in a pool thread. ``cancel()`` from any thread: the engine kills the
    running job's process and still ends with ``StudyFinished`` (partial results kept)."""

    signals: StudyWorkerSignals
    ROUTES: ClassVar[Mapping[type, str]] = {
        runner.StudyStarted: "study_started",
        runner.StepStarted: "step_started",
        runner.RoundsAdded: "rounds_added",
        runner.StepProgress: "progressed",
        runner.CellFinished: "cell_finished",
        runner.CellFailed: "cell_failed",
        runner.StudyFinished: "study_finished",
    }
    LATEST = (runner.StepProgress,)

    def __init__(self, run: StudyRunLike, *, min_interval_s: float = PROGRESS_INTERVAL_S) -> None:
        super().__init__(StudyWorkerSignals(), lambda: run, min_interval_s=min_interval_s)
