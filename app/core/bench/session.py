"""The state of one benchmark run as a front-end follows it, without Qt.

:class:`RunSession` counts jobs done out of the total, remembers the running job's label, phase
and progress, the failures and the finished jobs with what they kept (one per results-table row,
:class:`~app.core.bench.kept.FinishedJob`), and computes the overall fraction and an estimate of
the time left.
The GUI controller feeds it the engine's events and turns :meth:`RunSession.progress` into
widgets; the numbers are tested here without a window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.core.bench.kept import FinishedJob

MIN_FRACTION_FOR_ESTIMATE = 0.02  # below that an estimate of the time left is mostly noise
# A job's fraction moves in steps (a pass over the input at a time), and its first steps (the
# memory pass of a small job, set-up) can be quick: a rate measured over less than this
# promised 7 s for a 40-minute pyaes job.
MIN_SECONDS_FOR_ESTIMATE = 3.0
# The running job's own pace counts once it has done this much, for this long.
JOB_FRACTION_FOR_ESTIMATE = 0.05
MIN_JOB_SECONDS_FOR_ESTIMATE = 1.0


@dataclass(frozen=True)
class SessionProgress:
    """Where a run stands: ``fraction`` in [0, 1]; ``remaining_seconds`` None when unknown."""

    total_jobs: int
    done_jobs: int
    current_label: str
    phase: str
    fraction: float
    remaining_seconds: float | None
    cancelling: bool
    rounds: int = 1  # above 1, the jobs count each job once per round
    round_no: int = 0  # in rounds: the round going on (from 1), the jobs it runs (a job
    round_jobs: int = 0  # that failed is not run again) and the place of the running one
    round_position: int = 0


@dataclass
class RunSession:
    """Counts and labels of the run going on (or of the last one), and the jobs finished since
    the last :meth:`clear_results` with what they kept."""

    total_jobs: int = 0
    done_jobs: int = 0
    current_label: str = ""
    phase: str = ""
    job_fraction: float = 0.0
    cancelling: bool = False
    failures: list[str] = field(default_factory=list)
    finished_jobs: list[FinishedJob] = field(default_factory=list)
    planned_seconds: list[float | None] = field(default_factory=list)
    rounds: int = 1  # a run in rounds: each job runs once per round
    steps_started: int = 0  # workers started in a run in rounds
    round_no: int = 0  # the round going on, from 1
    round_jobs: int = 0  # the jobs it runs
    round_first: int = 0  # steps_started when it began
    # (elapsed seconds, fraction) at the running job's first progress: its own pace is measured
    # from there, not from the worker's start-up
    job_clock: tuple[float, float] | None = None

    def begin(self, total_jobs: int, planned_seconds: Sequence[float | None] = ()) -> None:
        """A run of ``total_jobs`` jobs starts (failures of an earlier run are kept until
        :meth:`clear_failures`). ``planned_seconds``: per job, in order, the time expected
        from the library's known speed (:func:`app.core.bench.plan.estimated_job_seconds`),
        None where not known."""
        self.total_jobs = total_jobs
        self.planned_seconds = list(planned_seconds)
        self.done_jobs = 0
        self.rounds = 1
        self.steps_started = 0
        self.round_no = self.round_jobs = self.round_first = 0
        self.current_label = ""
        self.phase = ""
        self.job_fraction = 0.0
        self.cancelling = False

    def reset(self) -> None:
        self.begin(0)
        self.clear_results()

    def clear_results(self) -> None:
        """Forget the failures and the finished jobs (their kept files are the caller's)."""
        self.failures.clear()
        self.finished_jobs.clear()

    def finished_job(self, row: int) -> FinishedJob | None:
        """The ``row``-th finished job (a results-table row); None for no such row."""
        return self.finished_jobs[row] if 0 <= row < len(self.finished_jobs) else None

    def round_started(self, jobs: int, rounds: int, round_no: int = 0, in_round: int = 0) -> None:
        """A run in rounds (``bench --rounds``) began round ``round_no`` (from 0) of ``rounds``
        with ``in_round`` of its ``jobs`` (a job that failed is not run again; 0: all of
        them): progress counts workers (each job once per round), those started and those
        the rounds left will start, and the merged results come only after the last round."""
        in_round = in_round or jobs
        self.total_jobs = self.steps_started + in_round * (rounds - round_no)
        self.planned_seconds = self.planned_seconds[:jobs] * rounds
        self.rounds = rounds
        self.round_no, self.round_jobs, self.round_first = (
            round_no + 1,
            in_round,
            self.steps_started,
        )

    def job_started(self, label: str) -> None:
        if self.rounds > 1:
            self.done_jobs = self.steps_started
            self.steps_started += 1
        self.current_label = label
        self.phase = ""
        self.job_fraction = 0.0
        self.job_clock = None

    def job_progressed(self, phase: str, fraction: float) -> None:
        self.phase = phase
        self.job_fraction = max(0.0, min(1.0, fraction))

    def job_finished(self, job: FinishedJob | None = None) -> None:
        """The running job ended; ``job``: its result and what it kept, when it succeeded."""
        if job is not None:
            self.finished_jobs.append(job)
        # In rounds, the merged results come after the last worker: never past the total.
        self.done_jobs = (
            min(self.done_jobs + 1, self.total_jobs) if self.rounds > 1 else (self.done_jobs + 1)
        )
        self.job_fraction = 0.0
        self.current_label = ""
        self.job_clock = None

    def job_failed(self, message: str) -> None:
        self.failures.append(message)
        self.job_finished()

    def progress(self, elapsed_seconds: float, running: bool, completed: bool) -> SessionProgress:
        """The progress after ``elapsed_seconds``; ``completed``: the run has ended and was not
        cancelled (the bar is then full even if some jobs failed)."""
        fraction = min(1.0, (self.done_jobs + self.job_fraction) / max(1, self.total_jobs))
        remaining = self._remaining(elapsed_seconds, fraction) if running else None
        if not running and completed:
            fraction = 1.0
        return SessionProgress(
            total_jobs=self.total_jobs,
            done_jobs=self.done_jobs,
            current_label=self.current_label,
            phase=self.phase,
            fraction=fraction,
            remaining_seconds=remaining,
            cancelling=self.cancelling and running,
            rounds=self.rounds,
            round_no=self.round_no,
            round_jobs=self.round_jobs,
            round_position=self.steps_started - self.round_first,
        )

    def _remaining(self, elapsed_seconds: float, fraction: float) -> float | None:
        """The rate measured so far, once enough of the run has been seen; while no job has
        finished, never less than the planned work still to do (when known)."""
        measured = None
        if fraction >= MIN_FRACTION_FOR_ESTIMATE and elapsed_seconds >= MIN_SECONDS_FOR_ESTIMATE:
            measured = elapsed_seconds * (1 - fraction) / fraction
        planned = self._planned_remaining()
        if planned is None or (self.done_jobs > 0 and measured is not None):
            estimate = measured
        else:
            estimate = planned if measured is None else max(planned, measured)
        return self._at_least_the_running_job(elapsed_seconds, estimate)

    def _at_least_the_running_job(self, elapsed: float, estimate: float | None) -> float | None:
        """Never less than what the running job still needs at its own pace: the run's average
        pace promised "0:01 left" while a last, longer job ran for seconds more. A job that has
        run longer than the estimate without a measurable fraction makes the time unknown."""
        f = self.job_fraction
        if not self.current_label or f <= 0.0:
            return estimate
        if self.job_clock is None:
            self.job_clock = (elapsed, f)
            return estimate
        ran, done = elapsed - self.job_clock[0], f - self.job_clock[1]
        if done >= JOB_FRACTION_FOR_ESTIMATE and ran >= MIN_JOB_SECONDS_FOR_ESTIMATE:
            job_left = ran * (1 - f) / done
            return job_left if estimate is None else max(estimate, job_left)
        if estimate is not None and done < JOB_FRACTION_FOR_ESTIMATE and ran > estimate:
            return None
        return estimate

    def _planned_remaining(self) -> float | None:
        plan = self.planned_seconds[self.done_jobs :]
        if not any(p is not None for p in plan):
            return None
        current = (plan[0] or 0.0) * (1 - self.job_fraction)
        return current + sum(p or 0.0 for p in plan[1:])
