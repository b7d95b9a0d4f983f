"""The engine's entry point: run a list of jobs, one worker process each, as a stream of events.

    run = BenchmarkRun(jobs)
    for event in run.events():   # blocking; the CLI, the tests and the GUI worker all do this
        ...                      # Progress, Outcome (app.core.bench.events), then Finished
    run.cancel()                 # from any thread; the generator ends within about a second

The last event is always ``Finished`` with the :class:`RunResult` (``run.cancelled`` tells
whether it was cut short), unless the consumer stops iterating, in which case the running
worker is killed. :meth:`BenchmarkRun.job_events` is the same run as the engine's typed job
events, the result its return value: what a run in rounds and a study build on.
"""

from __future__ import annotations

import threading
from collections.abc import Generator
from dataclasses import replace
from typing import Any

import psutil

from app.core.bench.events import (
    JobFailed,
    JobFinished,
    JobProgress,
    JobStarted,
    JobUpdate,
    RunSteps,
)
from app.core.bench.isolation import run_isolated
from app.core.bench.jobs import Job
from app.core.bench.multicore import MIN_OVERLAP, run_copies
from app.core.bench.plan import expected_worker_bytes
from app.core.bench.results import JobResult, RunResult
from app.core.bench.run_info import Environment, RunOptions, ToolInfo
from app.core.errors import Cancelled
from app.core.runtime.envelope import EntryFailure, timestamp
from app.core.runtime.events import Event, Finished, relayed
from app.core.units import format_bytes


def memory_mode_shortfall(job: Job, available: int | None = None) -> str | None:
    """A message when a memory-mode job cannot fit in free RAM; None when it can."""
    if job.options.data_mode != "memory":
        return None
    need = expected_worker_bytes(job)
    free = psutil.virtual_memory().available if available is None else available
    if need > free:
        return (
            f"memory mode needs about {format_bytes(need)} for "
            f"{format_bytes(job.input.size_bytes)}, only {format_bytes(free)} is free; "
            "use the stream data mode"
        )
    return None


class BenchmarkRun:
    def __init__(
        self,
        jobs: list[Job],
        *,
        environment: bool = True,
        processes: int = 1,
        cancel: threading.Event | None = None,
    ) -> None:
        """``processes`` above 1: after each job, run that many copies of it at once and attach
        their :class:`~app.core.bench.results.Aggregate` to its result (see multicore).
        ``cancel``: an event to share with a driver of several runs (setting it cancels)."""
        if processes < 1:
            raise ValueError("processes must be at least 1")
        self.jobs = list(jobs)
        self.processes = processes
        self._cancel = cancel if cancel is not None else threading.Event()
        self._want_environment = environment

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def events(self) -> Generator[Event, None, None]:
        """The run in the one vocabulary (module doc)."""
        run = yield from relayed(self.job_events(), RunSteps(len(self.jobs)).event)
        yield Finished(run)

    def job_events(self) -> Generator[JobUpdate, None, RunResult]:
        """The run as the engine's job events; (``yield from``'s value) its result."""
        started = timestamp()
        environment: dict[str, Any] = {}
        if self._want_environment:
            from app.core.bench.environment import capture_environment

            environment = capture_environment()
        results: list[JobResult] = []
        failures: list[EntryFailure] = []
        cancelled = False
        try:
            for index, job in enumerate(self.jobs):
                if self._cancel.is_set():
                    raise Cancelled()
                yield JobStarted(index, job)
                shortfall = memory_mode_shortfall(job)
                if shortfall:
                    failures.append(EntryFailure(job.cipher_id, job.library, shortfall))
                    yield JobFailed(index, job, shortfall)
                    continue
                for event in run_isolated(job, index, self._cancel):
                    if isinstance(event, JobProgress) and self.processes > 1:
                        event = replace(event, fraction=event.fraction / 2)  # copies: 2nd half
                    if isinstance(event, JobFinished) and self.processes > 1:
                        event = yield from self._with_aggregate(job, event)
                    if isinstance(event, JobFinished):
                        results.append(event.result)
                    elif isinstance(event, JobFailed):
                        failures.append(EntryFailure(job.cipher_id, job.library, event.message))
                    yield event
        except Cancelled:
            cancelled = True
        options = (
            RunOptions.of_run(self.jobs[0].options, [job.input for job in self.jobs])
            if self.jobs
            else RunOptions()
        )
        return RunResult(
            results=tuple(results),
            failures=tuple(failures),
            environment=Environment(environment),
            options=options,
            started_at=started,
            finished_at=timestamp(),
            cancelled=cancelled,
            tool=ToolInfo.current(),
        )

    def _with_aggregate(
        self, job: Job, finished: JobFinished
    ) -> Generator[JobUpdate, None, JobFinished | JobFailed]:
        """Run the copies of a finished job; its event with the aggregate, or a failure."""
        outcome = yield from run_copies(job, finished.index, self.processes, self._cancel)
        if isinstance(outcome, str):
            return JobFailed(finished.index, job, f"with {self.processes} processes, {outcome}")
        aggregate, together = outcome
        warnings = finished.result.warnings
        if together < MIN_OVERLAP:
            warnings += (
                f"the {self.processes} processes were timed together only {together:.0%} of "
                "the time: the aggregate understates what the cores do at once (use a larger "
                "input or more --repeat)",
            )
        result = replace(finished.result, aggregate=aggregate, warnings=warnings)
        return replace(finished, result=result)
