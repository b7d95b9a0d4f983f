"""The main window's worker: a list of benchmark jobs through the engine
(:class:`~app.core.bench.rounds.RoundsRun`) in a pool thread, its events (the one vocabulary,
:mod:`app.core.bench.events`) relayed by the one worker (:class:`~app.gui.worker.ProgressWorker`):
readings coalesced to the latest, a job's or a round's start and every monitor sample kept."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

from app.core.bench.jobs import Job
from app.gui.worker import PROGRESS_INTERVAL_S, ProgressWorker

RunFactory = Callable[[list[Job], threading.Event], Iterator[Any]]
"""The events of a run of these jobs that stops once that event is set."""


def default_run_factory(
    jobs: list[Job], cancel: threading.Event, processes: int = 1, rounds: int = 1
) -> Iterator[Any]:
    """The real engine (imported lazily: the window opens without waiting for it);
    ``processes`` copies of each job at once above 1 (``bench --processes``), ``rounds`` of
    every job in fresh workers (``bench --rounds``)."""
    from app.core.bench.rounds import RoundsRun

    return RoundsRun(jobs, rounds=rounds, processes=processes, cancel=cancel).events()


class BenchmarkWorker(ProgressWorker):
    """Runs a list of jobs through the engine (``run_factory(jobs, cancel)``) in a pool
    thread; a cancel before it starts runs nothing."""

    RUN_WHEN_CANCELLED = False

    def __init__(
        self,
        jobs: list[Job],
        run_factory: RunFactory = default_run_factory,
        *,
        min_interval_s: float = PROGRESS_INTERVAL_S,
    ) -> None:
        jobs = list(jobs)
        super().__init__(lambda cancel: run_factory(jobs, cancel), min_interval_s=min_interval_s)
