"""One benchmark run at a time, for the main window: :class:`RunController` is the base of
:class:`~app.gui.main.controller.BenchmarkController`, which adds the inputs, starting a run,
Reset and the outputs.

It runs the jobs in a worker and turns the worker's events, which arrive in the GUI thread
through the ``_on_worker_*`` slots, into the results table's rows (:attr:`RunController.model`),
the progress and its own signals, which carry plain values. It keeps the runs since the last
Reset as one, holds the environment the results were measured on, and runs the controller's
background tasks in its pool. It opens no dialogs: it reports errors with ``error``
(dialog-worthy) and ``message`` (status bar).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from PySide6.QtCore import QElapsedTimer, QObject, QThreadPool, QTimer, Signal, Slot

from app.core.bench import events
from app.core.bench.accumulated import combine_bench_runs, relabel
from app.core.bench.jobs import Job
from app.core.bench.kept import FinishedJob
from app.core.bench.results import RunResult
from app.core.bench.session import RunSession
from app.core.runtime.events import Finished, Outcome, Progress
from app.gui.describe import capture_environment_text, sentence
from app.gui.main.bench_worker import BenchmarkWorker, RunFactory, default_run_factory
from app.gui.panels.progress_panel import ProgressInfo, format_duration
from app.gui.results.results_table import ResultsTableModel
from app.gui.results.run_claims import RunClaims
from app.gui.wiring import connect_handlers
from app.gui.worker import TaskRunner

TICK_MS = 250  # elapsed-time refresh while a run goes on


class RunController(QObject):
    """Runs, their results since the last Reset and the environment, without widgets."""

    running_changed = Signal(bool)
    busy_changed = Signal(bool)  # a file task (generate, save) is going on
    progress_changed = Signal(object)  # ProgressInfo
    job_started = Signal(str, object)  # the job that began: its label, its worker's memory
    # (bytes, about the most: :func:`app.core.bench.plan.expected_worker_bytes`)
    samples_added = Signal(object)  # list[MonitorSample] of the running job
    results_changed = Signal(list)  # every finished JobResult so far
    failures_changed = Signal(list)  # messages of failed jobs
    run_finished = Signal(object)  # RunResult
    environment_changed = Signal(str)
    message = Signal(str)  # status bar
    error = Signal(str, str)  # title, text: worth a dialog

    def __init__(
        self,
        run_factory: RunFactory = default_run_factory,
        pool: QThreadPool | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = ResultsTableModel(self)
        self._run_factory = run_factory
        self._runner = TaskRunner(pool, self)
        self._runner.busy_changed.connect(self.busy_changed)
        self._runs: list[RunResult] = []  # since the last Reset, each as it finished
        self._taken: set[tuple[str, str]] = set()  # (entry, input) cells shown so far
        self._worker: BenchmarkWorker | None = None
        self._jobs: list[Job] = []
        self._session = RunSession()
        self._last_run: RunResult | None = None
        self._run_no = 0  # runs started since the last Reset (1-based labels "(run N)")
        self._run_ended = False  # the worker reported the end of the run going on
        self._clock = QElapsedTimer()
        self._ticker = QTimer(self)
        self._ticker.setInterval(TICK_MS)
        self._ticker.timeout.connect(self._on_ticker_timeout)
        self.environment: Mapping[str, Any] | None = None
        self.processes = 1  # copies of each job at once; above 1 the factory takes processes=
        self.rounds = 1  # rounds of every job in fresh workers; above 1 the factory takes rounds=
        self.claims = RunClaims(self._runner, self)  # the last run's comparisons

    # --- state ----------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._worker is not None

    @property
    def busy(self) -> bool:
        return self._runner.busy

    @property
    def last_run(self) -> RunResult | None:
        """Every run since the last Reset as one (what the table shows and Export writes)."""
        return self._last_run

    @property
    def failures(self) -> list[str]:
        return list(self._session.failures)

    def has_secret(self, row: int) -> bool:
        """Whether the job in model row ``row`` kept its ciphertext (so it can be decrypted)."""
        job = self.finished_job(row)
        return job is not None and job.kept

    def finished_job(self, row: int) -> FinishedJob | None:
        """The job in model row ``row`` with its input and kept ciphertext, for "Save
        encrypted…"; None for no such row."""
        return self._session.finished_job(row)

    # --- running --------------------------------------------------------------------------------

    def _launch(self, jobs: list[Job]) -> None:
        factory = self._run_factory
        self._run_no += 1
        self._run_ended = False
        extra = {k: v for k, v in (("processes", self.processes), ("rounds", self.rounds)) if v > 1}
        worker = BenchmarkWorker(jobs, partial(factory, **extra) if extra else factory)
        self.claims.clear()
        connect_handlers(worker.signals, self, "worker")
        self._worker = worker
        self._jobs = list(jobs)
        from app.core.bench.plan import estimated_job_seconds

        self._session.begin(
            len(jobs),
            [estimated_job_seconds(j.library, j.input.size_bytes, j.options) for j in jobs],
        )
        self._clock.start()
        self._ticker.start()
        self.running_changed.emit(True)
        self._publish_progress()
        n = len(jobs)
        self.message.emit(f"Running {n} job{'s' if n != 1 else ''}…")
        self._runner.start(worker)

    def cancel(self) -> None:
        """Stop the run; the engine kills the running job's process within about a second."""
        if self._worker is None or self._session.cancelling:
            return
        self._session.cancelling = True
        self._worker.cancel()
        self.message.emit("Cancelling…")
        self._publish_progress()

    # --- worker slots ---------------------------------------------------------------------------

    @Slot(object)
    def _on_worker_kept(self, kept: list[Progress]) -> None:
        """The progress every one of which matters: a round's or a job's start, the monitor
        samples (gathered for the chart)."""
        samples = []
        for progress in kept:
            detail = progress.detail
            if isinstance(detail, events.JobSample):
                samples.append(detail.sample)
                continue
            if samples:  # a job's samples before the next one starts
                self.samples_added.emit(samples)
                samples = []
            if isinstance(detail, events.RoundStarted):
                self._round_started(detail)
            elif isinstance(detail, events.JobStarted):
                self._job_started(detail)
        if samples:
            self.samples_added.emit(samples)

    def _round_started(self, event: events.RoundStarted) -> None:
        self._session.round_started(len(self._jobs), event.rounds, event.round, len(event.order))
        self.message.emit(f"Round {event.round + 1} of {event.rounds}, in a random order")

    def _job_started(self, event: events.JobStarted) -> None:
        job = event.job
        label = f"{job.label}, {job.key_bits}-bit"
        self._session.job_started(label)
        self.job_started.emit(label, _expected_bytes(job))
        self._publish_progress()

    @Slot(object)
    def _on_worker_progressed(self, progress: Progress) -> None:
        if isinstance(progress.detail, events.JobProgress):
            self._session.job_progressed(progress.detail.phase, progress.detail.fraction)
            self._publish_progress()

    @Slot(object)
    def _on_worker_outcome(self, outcome: Outcome) -> None:
        if isinstance(outcome.value, events.JobFinished):
            self._job_finished(outcome.value)
        elif isinstance(outcome.value, events.JobFailed):
            self._job_failed(outcome.value)

    def _job_finished(self, event: events.JobFinished) -> None:
        # A cell measured in an earlier run keeps that row: this one is "<input> (run N)".
        (result,) = relabel([event.result], self._run_no, self._taken)
        self.model.add_result(result)
        self._session.job_finished(FinishedJob(result, self._jobs[event.index].input, event.secret))
        self.results_changed.emit(self.model.results())
        self._publish_progress()

    def _job_failed(self, event: events.JobFailed) -> None:
        self._session.job_failed(f"{event.job.label}: {event.message}")
        self.failures_changed.emit(self.failures)
        self.message.emit(f"A job failed: {event.job.label}: {event.message}")
        self._publish_progress()

    @Slot(object)
    def _on_worker_finished_run(self, finished: Finished) -> None:
        run: RunResult = finished.result
        self._run_ended = True
        self._runs.append(run)
        self._last_run = combine_bench_runs(self._runs, self.model.results())
        if run.environment:
            self._set_environment(run.environment)
        elapsed = format_duration(self._clock.elapsed() / 1000)
        n_ok, n_failed = len(run.results), len(run.failures)
        if run.cancelled:
            text = f"Cancelled after {elapsed}: {n_ok} of {len(self._jobs)} jobs finished."
        else:
            text = f"Finished {n_ok} job{'s' if n_ok != 1 else ''} in {elapsed}."
        if n_failed:
            text += f" {n_failed} failed (see above the table)."
        self.message.emit(text)
        self.run_finished.emit(run)  # this run alone: the history keeps each run
        if self._last_run is not None:
            self.claims.compare(self._last_run)

    @Slot(str)
    def _on_worker_failed(self, text: str) -> None:
        self.error.emit("The benchmark stopped", f"The benchmark stopped unexpectedly: {text}")

    @Slot()
    def _on_worker_finished(self) -> None:
        worker = self._worker
        self._worker = None
        self._ticker.stop()
        if worker is not None and worker.cancelled and not self._run_ended:
            self.message.emit("Cancelled before the first job started.")
        self._session.current_label = ""
        self._publish_progress()
        self.running_changed.emit(False)

    @Slot()
    def _on_ticker_timeout(self) -> None:
        self._publish_progress()

    def _publish_progress(self) -> None:
        elapsed = self._clock.elapsed() / 1000 if self._clock.isValid() else 0.0
        last = self._last_run
        p = self._session.progress(elapsed, self.running, last is not None and not last.cancelled)
        info = ProgressInfo(
            p.total_jobs, p.done_jobs, p.current_label, p.phase, p.fraction, elapsed,
            p.remaining_seconds, running=self.running, cancelling=p.cancelling, rounds=p.rounds,
            round_no=p.round_no, round_jobs=p.round_jobs, round_position=p.round_position,
        )  # fmt: skip
        self.progress_changed.emit(info)

    # --- environment ----------------------------------------------------------------------------

    def load_environment(self) -> None:
        """Capture the environment in the background for the Environment panel."""
        self._start_task(
            capture_environment_text, (), self._on_environment_task_resulted, quiet=True
        )

    @Slot(object)
    def _on_environment_task_resulted(self, value: tuple[dict, str]) -> None:
        if self.environment is None:  # a run's own capture wins
            self.environment = value[0]
            self.environment_changed.emit(value[1])

    def _set_environment(self, env: Mapping[str, Any]) -> None:
        self.environment = env
        try:
            from app.core.bench.environment import format_environment

            self.environment_changed.emit(format_environment(env))
        except Exception as exc:  # a display problem must not lose the run
            self.environment_changed.emit(f"(cannot show the environment: {exc})")

    # --- background tasks -----------------------------------------------------------------------

    def _start_task(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        on_result: Callable[[Any], None],
        quiet: bool = False,
    ) -> None:
        """Run ``fn(*args)`` in the pool. A quiet task (environment capture) does not make the
        window busy and reports failure in the environment panel, not in a dialog."""
        failed = self._on_quiet_task_failed if quiet else self._on_task_failed
        self._runner.run_task(fn, *args, on_result=on_result, on_failure=failed, busy=not quiet)

    @Slot(str)
    def _on_task_failed(self, text: str) -> None:
        self.error.emit("That did not work", sentence(text))

    @Slot(str)
    def _on_quiet_task_failed(self, text: str) -> None:
        self.environment_changed.emit(f"The environment could not be read: {text}")


def _expected_bytes(job: Job) -> int | None:
    """The most memory the worker of ``job`` is expected to hold, for the Memory & CPU chart's
    axis; None for a job that will not run (memory mode without the RAM for it: the engine
    refuses it at once)."""
    from app.core.bench.plan import expected_worker_bytes
    from app.core.bench.runner import memory_mode_shortfall

    if memory_mode_shortfall(job):
        return None
    return expected_worker_bytes(job)
