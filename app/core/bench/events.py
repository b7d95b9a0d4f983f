"""Events the engine yields while a run goes on. Frozen: safe to hand to another thread.

Order for a run: ``RunStarted``, then per job ``JobStarted``, any number of ``JobProgress`` and
``MonitorSample``, then ``JobFinished`` or ``JobFailed``; finally ``RunFinished`` (also after a
cancel, with ``cancelled=True``). A run in rounds adds ``RoundStarted`` before each round and
sends each job's ``JobFinished`` (merged) after the last round.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.bench.jobs import Job
from app.core.bench.kept import JobSecret
from app.core.bench.results import JobResult, MonitorSample, RunResult


@dataclass(frozen=True)
class RunStarted:
    total_jobs: int


@dataclass(frozen=True)
class JobEvent:
    """An event of one job; ``index`` is its place in the run's jobs."""

    index: int


@dataclass(frozen=True)
class JobStarted(JobEvent):
    job: Job


@dataclass(frozen=True)
class JobProgress(JobEvent):
    phase: str  # "memory pass", "warm-up", "encrypt", "decrypt", "verify"
    fraction: float  # of this job, 0..1
    message: str = ""


@dataclass(frozen=True)
class JobSample(JobEvent):
    sample: MonitorSample


@dataclass(frozen=True)
class JobFinished(JobEvent):
    result: JobResult
    # Only when the job kept its ciphertext (GUI "save ciphertext"). Never exported or logged.
    secret: JobSecret | None = None


@dataclass(frozen=True)
class JobFailed(JobEvent):
    job: Job
    message: str


@dataclass(frozen=True)
class RoundStarted:
    """A run in rounds (:mod:`app.core.bench.rounds`): round ``round`` (0-based) of ``rounds``
    begins, with these jobs in this order."""

    round: int
    rounds: int
    order: tuple[int, ...]  # job indices


@dataclass(frozen=True)
class RunFinished:
    run: RunResult


Event = (
    RunStarted
    | RoundStarted
    | JobStarted
    | JobProgress
    | JobSample
    | JobFinished
    | JobFailed
    | RunFinished
)
