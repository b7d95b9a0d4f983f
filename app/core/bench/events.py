"""What a benchmark run says, in the one vocabulary of a run (:mod:`app.core.runtime.events`).
Frozen: safe to hand to another thread.

Order for a run (``BenchmarkRun.events()``, ``RoundsRun.events()``): per job a
:class:`~app.core.runtime.events.Progress` whose ``detail`` is its :class:`JobStarted`, then
any number with a :class:`JobProgress` (a reading: only the latest matters) or a
:class:`JobSample` (the live memory and CPU charts: every one matters), then an
:class:`~app.core.runtime.events.Outcome` of its :class:`JobFinished` or :class:`JobFailed`;
finally a :class:`~app.core.runtime.events.Finished` of the :class:`RunResult` (also after a
cancel, ``run.cancelled``). A run in rounds adds a Progress with a :class:`RoundStarted` before
each round, says a :class:`JobFailed` at once and each job's :class:`JobFinished` (merged) after
the last round. The progress that marks something (a job's or a round's start, a sample) is
``keep=True``: a front-end that coalesces progress delivers every one of those
(``app.gui.worker.ProgressWorker``'s ``kept`` signal).

Inside the engine a run of jobs (``BenchmarkRun.job_events()``, the isolated worker, the copies)
yields the typed records themselves (:data:`JobUpdate`); :class:`RunSteps` says them in the one
vocabulary, with the fraction of the whole run and what runs now ("job 2/6 round 1/3:
aes-128-ctr [pyaes]").
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.bench.jobs import Job
from app.core.bench.kept import JobSecret
from app.core.bench.results import JobResult, MonitorSample
from app.core.runtime.events import Outcome, Progress


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


JobUpdate = JobStarted | JobProgress | JobSample | JobFinished | JobFailed
"""What a run of jobs yields inside the engine (its worker processes' reports)."""


class RunSteps:
    """Says a run's job events in the one vocabulary: each job one step of ``steps`` (jobs x
    rounds), ``what`` the job that runs now as the command line's progress bar shows it
    ("job 2/6 round 1/3: aes-128-ctr [pyaes]"), ``note`` its phase, ``fraction`` of the whole
    run."""

    def __init__(self, steps: int) -> None:
        self.steps = max(1, steps)
        self.step = -1  # the running job's step, 0-based
        self.where = ""  # "round 1/3: " in a run in rounds
        self.what = ""
        self.note = ""  # the running job's phase
        self.fraction = 0.0

    def round(self, event: RoundStarted) -> Progress:
        self.where = f"round {event.round + 1}/{event.rounds}: "
        return Progress(self.fraction, self.where.rstrip(": "), event, keep=True)

    def event(self, event: JobUpdate) -> Progress | Outcome:
        if isinstance(event, JobFinished | JobFailed):
            self.fraction = min(1.0, (self.step + 1) / self.steps)
            return Outcome(event)
        if isinstance(event, JobStarted):
            self.step += 1
            self.what = f"job {self.step + 1}/{self.steps} {self.where}{event.job.label}"
            self.fraction, self.note = self.step / self.steps, "starting"
            return Progress(self.fraction, self.what, event, self.note, keep=True)
        if isinstance(event, JobProgress):
            self.fraction, self.note = (self.step + event.fraction) / self.steps, event.phase
            return Progress(self.fraction, self.what, event, self.note)
        return Progress(self.fraction, self.what, event, self.note, keep=True)  # a sample
