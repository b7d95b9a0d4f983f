"""The window's controller: owns the input, the run, its results and the kept ciphertexts.

User actions arrive as method calls (``set_input_file``, ``start``, ``cancel``, ``reset``,
``export``, ``save_plaintext``, ...). Worker signals arrive in the GUI thread through the
``_on_worker_*`` slots; the controller updates :attr:`model` (the results table) and tells the
window through its own signals, which carry plain values. The controller opens no dialogs:
it reports errors with ``error`` (dialog-worthy) and ``message`` (status bar).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QElapsedTimer, QObject, QThreadPool, QTimer, Signal, Slot

from app.core.bench.accumulated import combine_bench_runs, relabel, unique_label
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
from app.core.bench.jobs import BenchOptions, InputSpec, Job
from app.core.bench.kept import FinishedJob
from app.core.bench.results import RunResult
from app.core.bench.session import RunSession
from app.core.ciphers.registry import CipherSpec
from app.core.errors import UserError
from app.core.runtime import scratch
from app.core.units import format_bytes, parse_size
from app.gui.describe import capture_environment_text, input_info, sentence
from app.gui.panels.progress_panel import ProgressInfo, format_duration
from app.gui.results.results_table import ResultsTableModel
from app.gui.results.run_claims import RunClaims
from app.gui.settings import AppSettings
from app.gui.wiring import connect_handlers
from app.gui.worker import BenchmarkWorker, RunFactory, TaskRunner, default_run_factory

TICK_MS = 250  # elapsed-time refresh while a run goes on


class BenchmarkController(QObject):
    """State and actions of the window, without widgets."""

    inputs_changed = Signal(list)  # list[InputInfo], in order
    recent_files_changed = Signal(list)
    running_changed = Signal(bool)
    busy_changed = Signal(bool)  # a file task (generate, save) is going on
    progress_changed = Signal(object)  # ProgressInfo
    job_started = Signal(str)  # label of the job that began
    samples_added = Signal(object)  # list[MonitorSample] of the running job
    results_changed = Signal(list)  # every finished JobResult so far
    failures_changed = Signal(list)  # messages of failed jobs
    run_finished = Signal(object)  # RunResult
    environment_changed = Signal(str)
    message = Signal(str)  # status bar
    error = Signal(str, str)  # title, text: worth a dialog

    def __init__(
        self,
        settings: AppSettings,
        run_factory: RunFactory = default_run_factory,
        pool: QThreadPool | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self.model = ResultsTableModel(self)
        self._run_factory = run_factory
        self._runner = TaskRunner(pool, self)
        self._runner.busy_changed.connect(self.busy_changed)
        self._inputs: list[InputSpec] = []
        self._runs: list[RunResult] = []  # since the last Reset, each as it finished
        self._taken: set[tuple[str, str]] = set()  # (entry, input) cells shown so far
        self._worker: BenchmarkWorker | None = None
        self._jobs: list[Job] = []
        self._session = RunSession()
        self._last_run: RunResult | None = None
        self._keep_dirs: list[str] = []  # one per input of each run that kept ciphertexts
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

    # --- state ------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._worker is not None

    @property
    def busy(self) -> bool:
        return self._runner.busy

    @property
    def inputs(self) -> list[InputSpec]:
        return list(self._inputs)

    @property
    def input(self) -> InputSpec | None:
        """The input added last (the default source of Encrypt file…); None without any."""
        return self._inputs[-1] if self._inputs else None

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

    # --- input ------------------------------------------------------------------------------

    def set_input_file(self, path: str) -> bool:
        """Add the file at ``path`` to the inputs (again: refreshed, as it may have changed).
        False (and an error) when it cannot be used."""
        return self.add_input_files([path]) == 1

    def add_input_files(self, paths: list[str]) -> int:
        """Add the files among ``paths`` that can be used; one error names those that cannot.
        Returns how many were added."""
        if self.running:
            self.message.emit("The inputs cannot change while a benchmark runs.")
            return 0
        from app.core.bench.inputs import inspect_file

        added: list[InputSpec] = []
        problems: list[str] = []
        for path in paths:
            try:
                added.append(inspect_file(path))
            except UserError as exc:
                problems.append(sentence(str(exc)))
                if path in self.settings.recent_files and not os.path.exists(path):
                    self.recent_files_changed.emit(self.settings.remove_recent_file(path))
        if added:
            fresh = {spec.path for spec in added}
            kept = [s for s in self._inputs if s.path not in fresh]
            for i, spec in enumerate(added):  # x/data.csv and y/data.csv: "data.csv (y)"
                others = {s.label for s in kept + added[:i]}
                parent = os.path.basename(os.path.dirname(spec.path))
                added[i] = replace(spec, label=unique_label(spec.label, others, parent))
            self._set_inputs(kept + added)
            self.settings.last_folder = os.path.dirname(added[-1].path)
            for spec in added:
                self.recent_files_changed.emit(self.settings.add_recent_file(spec.path))
            last = added[-1]
            more = f" and {len(added) - 1} more" if len(added) > 1 else ""
            self.message.emit(
                f"Input: {last.path} ({format_bytes(last.size_bytes)}){more}; "
                f"{len(self._inputs)} in the list"
            )
        if problems:
            title = "Cannot use this file" if len(paths) == 1 else "Some files cannot be used"
            self.error.emit(title, "\n".join(problems))
        return len(added)

    def remove_inputs(self, rows: list[int]) -> None:
        """Take the inputs at ``rows`` (of :attr:`inputs`) out of the list."""
        if self.running:
            return
        gone = set(rows)
        self._set_inputs([s for i, s in enumerate(self._inputs) if i not in gone])

    def clear_inputs(self) -> None:
        if not self.running:
            self._set_inputs([])

    def generate_input(self, size_text: str) -> None:
        """Write random data of ``size_text`` (e.g. ``'10 MB'``) in the background and add it to
        the inputs."""
        if self.running or self.busy:
            return
        try:
            size = parse_size(size_text.replace(" ", ""))
            if size <= 0:
                raise UserError("the size must be at least 1 byte")
        except UserError as exc:
            self.error.emit("Cannot generate data", sentence(str(exc)))
            return
        from app.core.bench.inputs import generated_input

        self.settings.generated_size = size_text
        self.message.emit(f"Writing {format_bytes(size, binary=False)} of random data…")
        self._start_task(generated_input, (size,), self._on_generate_task_resulted)

    def clear_recent_files(self) -> None:
        self.settings.clear_recent_files()
        self.recent_files_changed.emit([])

    def _set_inputs(self, specs: list[InputSpec]) -> None:
        """The inputs become ``specs``; generated data no longer listed is deleted."""
        kept = {s.path for s in specs}
        for old in self._inputs:
            if old.generated and old.path not in kept:
                from app.core.bench.inputs import cleanup_generated

                cleanup_generated(old)
        self._inputs = list(specs)
        self.inputs_changed.emit([input_info(s) for s in specs])

    @Slot(object)
    def _on_generate_task_resulted(self, spec: InputSpec) -> None:
        spec = replace(spec, label=unique_label(spec.label, {s.label for s in self._inputs}))
        self._set_inputs([*self._inputs, spec])
        self.message.emit(f"Input: {spec.label}, random data in {spec.path}")

    # --- running ----------------------------------------------------------------------------

    def start(self, specs: list[CipherSpec], options: BenchOptions, keep_ciphertext: bool) -> bool:
        """Plan and start a run. False (and an error) when it cannot start."""
        if self.running:
            return False
        if self.busy:
            self.message.emit("Wait until the file operation finishes.")
            return False
        if not self._inputs:
            self.error.emit(
                "No input", "Choose files, drop them on the window, or generate random data first."
            )
            return False
        if not specs:
            self.error.emit("No cipher", "Check at least one cipher, mode and library.")
            return False
        from app.core.bench.plan import make_jobs

        try:
            inputs = self._refreshed_inputs()
            jobs = []
            for spec in inputs:
                # A folder per input and run: the names inside repeat from one to the next.
                keep_dir = scratch.make_dir("kept-") if keep_ciphertext else None  # 0700
                if keep_dir is not None:
                    self._keep_dirs.append(keep_dir)
                jobs += make_jobs(specs, spec, options, keep_dir)
        except UserError as exc:
            self.error.emit("Cannot start the benchmark", sentence(str(exc)))
            return False
        self._session.failures.clear()
        self.failures_changed.emit([])
        self._launch(jobs)
        return True

    def _refreshed_inputs(self) -> list[InputSpec]:
        """The inputs as they are now. A file changed since it was chosen is used as it is now
        (the status bar says so); one that cannot be read any more leaves the list, and a
        ``UserError`` says which (the user runs again with the rest)."""
        from app.core.bench.inputs import inspect_file

        fresh_specs, gone = [], []
        for spec in self._inputs:
            if not spec.generated:
                try:
                    fresh = inspect_file(spec.path)
                except UserError as exc:
                    gone.append(sentence(str(exc)))
                    continue
                if (fresh.size_bytes, fresh.mtime_ns) != (spec.size_bytes, spec.mtime_ns):
                    self.message.emit(
                        f"{spec.label} changed since it was chosen; using it as it is now."
                    )
                    spec = fresh
            fresh_specs.append(spec)
        if fresh_specs != self._inputs:
            self._set_inputs(fresh_specs)
        if gone:
            left = "Run again to measure the others." if fresh_specs else ""
            gone.append(
                "It is no longer in the list."
                if len(gone) == 1
                else "They are no longer in the list."
            )
            raise UserError(" ".join([*gone, left]).strip())
        return fresh_specs

    def slow_run_note(self, specs: list[CipherSpec], options: BenchOptions) -> str | None:
        """A sentence when the chosen ciphers would take long on the inputs (pure Python
        libraries on large files), to confirm before :meth:`start`; None otherwise."""
        if not self._inputs:
            return None
        from app.core.bench.plan import slow_run_note

        total = sum(s.size_bytes for s in self._inputs)
        return slow_run_note([s.library for s in specs], total, options)

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

    def reset(self) -> None:
        """Forget results, kept ciphertexts and the inputs (generated data is deleted)."""
        if self.running or self.busy:
            return
        self._clear_results()
        self._set_inputs([])
        self._session.begin(0)
        self.message.emit("Reset: results cleared, choices back to their defaults.")

    def _clear_results(self) -> None:
        self.model.clear()
        self._session.clear_results()
        self._last_run = None
        self._runs.clear()
        self._taken.clear()
        self._run_no = 0
        self.claims.clear()
        self._remove_keep_dir()
        self.results_changed.emit([])
        self.failures_changed.emit([])

    def _remove_keep_dir(self) -> None:
        for folder in self._keep_dirs:
            scratch.remove(folder)
        self._keep_dirs.clear()

    # --- worker slots -----------------------------------------------------------------------

    @Slot(object)
    def _on_worker_run_started(self, event: RunStarted) -> None:
        self._session.total_jobs = event.total_jobs
        self._publish_progress()

    @Slot(object)
    def _on_worker_round_started(self, event: RoundStarted) -> None:
        self._session.round_started(len(self._jobs), event.rounds)
        self.message.emit(f"Round {event.round + 1} of {event.rounds}, in a random order")

    @Slot(object)
    def _on_worker_job_started(self, event: JobStarted) -> None:
        label = f"{event.job.label}, {event.job.key_bits}-bit"
        self._session.job_started(label)
        self.job_started.emit(label)
        self._publish_progress()

    @Slot(object)
    def _on_worker_progressed(self, event: JobProgress) -> None:
        self._session.job_progressed(event.phase, event.fraction)
        self._publish_progress()

    @Slot(object)
    def _on_worker_sampled(self, events: list[JobSample]) -> None:
        self.samples_added.emit([e.sample for e in events])

    @Slot(object)
    def _on_worker_resulted(self, event: JobFinished) -> None:
        # A cell measured in an earlier run keeps that row: this one is "<input> (run N)".
        (result,) = relabel([event.result], self._run_no, self._taken)
        self.model.add_result(result)
        self._session.job_finished(FinishedJob(result, self._jobs[event.index].input, event.secret))
        self.results_changed.emit(self.model.results())
        self._publish_progress()

    @Slot(object)
    def _on_worker_job_failed(self, event: JobFailed) -> None:
        self._session.job_failed(f"{event.job.label}: {event.message}")
        self.failures_changed.emit(self.failures)
        self.message.emit(f"A job failed: {event.job.label}: {event.message}")
        self._publish_progress()

    @Slot(object)
    def _on_worker_run_finished(self, event: RunFinished) -> None:
        run = event.run
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
            p.remaining_seconds, running=self.running, cancelling=p.cancelling,
        )  # fmt: skip
        self.progress_changed.emit(info)

    # --- environment ------------------------------------------------------------------------

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

    # --- outputs ----------------------------------------------------------------------------

    def export(self, path: str) -> Path | None:
        """Write the last run to ``path`` (.xlsx, .csv or .json). None (and an error) if not."""
        if self._last_run is None:
            self.error.emit("Nothing to export", "Run a benchmark first.")
            return None
        from app.core.kinds.formats import save

        try:
            written = save(self._last_run, path)
        except UserError as exc:
            self.error.emit("Export failed", sentence(str(exc)))
            return None
        except OSError as exc:
            self.error.emit("Export failed", f"Cannot write {path}: {exc.strerror or exc}")
            return None
        self.settings.last_folder = os.path.dirname(os.path.abspath(written))
        n = len(self._last_run.results)
        self.message.emit(f"Exported {n} result{'s' if n != 1 else ''} to {written}")
        return Path(written)

    def save_plaintext(self, row: int, path: str) -> None:
        """Decrypt job ``row``'s kept ciphertext into ``path`` (background)."""
        job = self._kept_job(row)
        if job is None:
            return
        from app.core.files.kept import decrypt_kept

        self.settings.last_folder = os.path.dirname(os.path.abspath(path))
        self.message.emit(f"Decrypting the ciphertext of {job.result.label}…")
        self._start_task(decrypt_kept, (job, path), self._on_save_plaintext_task_resulted)

    def _kept_job(self, row: int) -> FinishedJob | None:
        job = self.finished_job(row)
        if job is None:
            self.error.emit("Nothing selected", "Select a finished job in the table first.")
        elif not job.kept:
            self.error.emit(
                "Ciphertext not kept",
                f"{job.result.label} did not keep its ciphertext. Turn on “Keep each job's "
                "ciphertext” in the options and run again.",
            )
            return None
        return job

    @Slot(object)
    def _on_save_plaintext_task_resulted(self, path: Path) -> None:
        self.message.emit(f"Decrypted the ciphertext back to {path}")

    # --- background tasks -------------------------------------------------------------------

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

    # --- shutdown ---------------------------------------------------------------------------

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Cancel what runs, wait for the pool's threads, delete temporary files."""
        if self._worker is not None:
            self._worker.cancel()
        self._runner.wait_for_done(timeout_ms)
        self._ticker.stop()
        self._remove_keep_dir()
        from app.core.bench.inputs import cleanup_generated

        for spec in self._inputs:
            if spec.generated:
                with contextlib.suppress(OSError):
                    cleanup_generated(spec)
