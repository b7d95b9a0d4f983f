"""The main window's worker: a list of benchmark jobs through the engine
(:class:`~app.core.bench.rounds.RoundsRun`) in a pool thread, each of the engine's events
relayed on its own signal through the one throttled relay (:class:`~app.gui.worker.RunWorker`):
progress coalesced to the latest, monitor samples batched."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from PySide6.QtCore import Signal

from app.core.bench.events import (
    JobFailed,
    JobFinished,
    JobProgress,
    JobSample,
    JobStarted,
    RoundStarted,
    RunFinished,
    RunStarted,
)
from app.core.bench.jobs import Job
from app.gui.worker import PROGRESS_INTERVAL_S, RunLike, RunWorker
from app.gui.worker_base import WorkerSignals

RunFactory = Callable[[list[Job]], RunLike]


def default_run_factory(jobs: list[Job], processes: int = 1, rounds: int = 1) -> RunLike:
    """The real engine (imported lazily: the window opens without waiting for it);
    ``processes`` copies of each job at once above 1 (``bench --processes``), ``rounds`` of
    every job in fresh workers (``bench --rounds``)."""
    from app.core.bench.rounds import RoundsRun

    return RoundsRun(jobs, rounds=rounds, processes=processes)


class BenchmarkWorkerSignals(WorkerSignals):
    """Signals of :class:`BenchmarkWorker`; every payload is a frozen engine event
    (``failed``: the worker itself broke, the engine raised)."""

    run_started = Signal(object)  # RunStarted
    job_started = Signal(object)  # JobStarted
    round_started = Signal(object)  # RoundStarted (a run in rounds)
    progressed = Signal(object)  # JobProgress (the latest one)
    sampled = Signal(object)  # list[JobSample] since the last emit
    resulted = Signal(object)  # JobFinished
    job_failed = Signal(object)  # JobFailed
    run_finished = Signal(object)  # RunFinished


class BenchmarkWorker(RunWorker):
    """Runs a list of jobs through the engine (``run_factory(jobs)``) in a pool thread."""

    signals: BenchmarkWorkerSignals
    ROUTES: ClassVar[Mapping[type, str]] = {
        RunStarted: "run_started",
        JobStarted: "job_started",
        RoundStarted: "round_started",
        JobProgress: "progressed",
        JobSample: "sampled",
        JobFinished: "resulted",
        JobFailed: "job_failed",
        RunFinished: "run_finished",
    }
    LATEST = (JobProgress,)
    BATCHED = (JobSample,)

    def __init__(
        self,
        jobs: list[Job],
        run_factory: RunFactory = default_run_factory,
        *,
        min_interval_s: float = PROGRESS_INTERVAL_S,
    ) -> None:
        jobs = list(jobs)
        super().__init__(
            BenchmarkWorkerSignals(), lambda: run_factory(jobs), min_interval_s=min_interval_s
        )
