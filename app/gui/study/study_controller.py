"""The Study window's controller: starts a study in a :class:`StudyWorker`, keeps the results
of every run until cleared, says what runs now and when it should end, exports.

Data flows one way: worker signal -> controller -> ``results_changed`` -> table and charts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

# Imported with the Study window, not by the history's first store in its worker thread: an
# import holds the GIL for its whole 20-30 ms, which the window waits out (measured: a 65 ms
# stall at the second run). Not in the recorder: the main window would start 0.3 s later.
import app.core.history.store
import app.core.study.export  # noqa: F401
from app.core.bench.accumulated import relabel
from app.core.bench.results import JobResult
from app.core.errors import UserError
from app.core.runtime.events import Finished, Outcome, Progress
from app.core.study import runner, steps
from app.core.study.definition import Study
from app.core.study.result import StudyResult
from app.core.study.transfer_result import TransferStudyResult
from app.gui.recorder import history_recorder
from app.gui.study.accumulate import combine_runs
from app.gui.study.study_worker import StudyRunLike, StudyWorker
from app.gui.tool_controller import ToolController

StudyRunFactory = Callable[[Study], StudyRunLike]
AnyStudyResult = StudyResult | TransferStudyResult
_DERIVED = ("fits", "comparisons", "speedups")  # StudyResult's cached, unit-free values
ETA_AFTER_S = 1.0  # before that, one step's start-up cost would make a wild guess


def default_study_run(study: Study) -> StudyRunLike:
    """The real engine (the ciphers' workers, or loopback transfers for a transfer study);
    raises ``UserError`` for an input that cannot be read."""
    if study.workload == "transfer":
        from app.core.study.transfer_runner import TransferStudyRun

        return TransferStudyRun(study)
    return runner.StudyRun(study)


def _analysed(result: AnyStudyResult) -> AnyStudyResult:
    """``result`` with its derived values computed (they are cached on it)."""
    for name in _DERIVED:
        getattr(result, name, None)  # a transfer study has no speed-ups
    return result


def _analysed_with_run(
    combined: AnyStudyResult, run: AnyStudyResult
) -> tuple[AnyStudyResult, AnyStudyResult]:
    """Every run so far analysed (what the window shows), and the run just finished (what the
    history stores) with that analysis when they hold the same results (the first run): the
    history stores comparisons already computed, and never computes them itself."""
    _analysed(combined)
    if combined.results == run.results:
        for name in _DERIVED:
            if name in combined.__dict__:
                run.__dict__[name] = combined.__dict__[name]
    return combined, run  # a later run: stored with its raw samples, not compared again


def format_eta(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class StudyController(ToolController):
    step_changed = Signal(str)  # "round 2 of 4: aes-128-cbc [pycryptodome] on 10 MB"
    progress_changed = Signal(float, str)  # overall fraction 0..1, "about 12 s left"
    results_changed = Signal()  # rows, charts and claims to redraw
    cell_failed = Signal(str)
    study_finished = Signal(object)  # the run's StudyResult
    failed = Signal(str)  # the engine raised
    analysed = Signal(object)  # every run as one StudyResult, fits and comparisons computed

    def __init__(
        self,
        run_factory: StudyRunFactory = default_study_run,
        parent: QObject | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(parent)
        self._run_factory = run_factory
        self._clock = clock
        self.units = "MB/s"
        self.runs: list[StudyResult] = []
        self.studies: list[Study] = []  # every study started since the last clear
        self._results: list[JobResult] = []  # every run's, relabelled, then the live run's
        self._live: list[JobResult] = []
        self._taken: set[tuple[str, str]] = set()
        self._inputs: list[str] = []  # files read, never to be overwritten by an export
        self._rounds = 1
        self._total = 1
        self._started = 0.0
        self.exported = True  # nothing to lose yet
        self.analysis: StudyResult | None = None  # the last combined result analysed
        self._analysing: StudyResult | None = None

    # --- state ---------------------------------------------------------------------------------

    @property
    def has_results(self) -> bool:
        return bool(self._results)

    @property
    def unexported(self) -> bool:
        """Results the user has not saved since they last changed."""
        return self.has_results and not self.exported

    def results(self) -> list[JobResult]:
        """Every row to show: finished runs, then the cells the running study finished."""
        return [*self._results, *self._live]

    def combined(self) -> StudyResult | None:
        """All finished runs as one result, in the chosen units (None before the first)."""
        return combine_runs(self.runs, self._results, self.units)

    # --- actions -------------------------------------------------------------------------------

    def start(self, study: Study) -> None:
        """Run ``study``; raises ``UserError`` at once for an input that cannot be read, or
        for a study of another workload than the results kept (a transfer's row and a
        cipher's do not share a table)."""
        if self.running:
            return
        kept = self.runs[-1].study.workload if self.runs else study.workload
        if kept != study.workload:
            raise UserError(
                f"The table holds a {kept} study's results, and this is a {study.workload} "
                "study: their rows do not mix. Export the results if you want to keep them, "
                "then Clear results and run again."
            )
        run = self._run_factory(study)
        self.studies.append(study)
        self._inputs.extend(f.path for f in getattr(run, "files", ()))
        self.units = study.units
        self._live = []
        self._total, self._rounds = 1, study.rounds
        self._started = self._clock()
        worker = StudyWorker(run)
        worker.signals.failed.connect(self.failed)
        self._start_worker(worker)

    def set_units(self, units: str) -> None:
        """Show every figure in ``units`` (the fits and comparisons do not change)."""
        if units == self.units:
            return
        self.units = units
        self.results_changed.emit()
        if self.analysis is not None and not self.running:
            self.analysis = self.analysis.in_units(units)  # analysed once: only shown anew
            self.analysed.emit(self.analysis)

    def clear(self) -> None:
        if self.running:
            return
        self.runs, self._results, self._live, self._taken = [], [], [], set()
        self.studies = []
        self.exported = True
        self.analysis = self._analysing = None
        self.results_changed.emit()
        self.analysed.emit(None)

    def export(self, path: str | Path) -> Path:
        """Write every run's results to ``path`` (.json, .csv, or what the engine offers);
        ``UserError`` naming the file when it cannot."""
        from app.core.kinds.formats import save

        combined = self.analysis or self.combined()
        if combined is None:
            raise ValueError("nothing to export")
        written = save(combined, path, inputs=self._inputs)
        self.exported = True
        return written

    def paper_source(self) -> tuple[object, list[str]] | None:
        combined = self.analysis or self.combined()
        return None if combined is None else (combined, list(self._inputs))

    def export_filters(self) -> dict[str, str]:
        """The save dialog's filters for the results shown (a study's or a transfer study's
        formats), the default first: ``{"HTML report with charts (*.html)": ".html", ...}``."""
        from app.core.kinds.formats import STUDY, kind_of

        combined = self.analysis or self.combined()
        return (STUDY if combined is None else kind_of(combined)).file_filters()

    # --- the worker's events ----------------------------------------------------------------------

    @Slot(object)
    def _on_worker_kept(self, kept: list[Progress]) -> None:
        """The study's start, each step's start, the rounds added: said in order."""
        for progress in kept:
            detail = progress.detail
            if isinstance(detail, steps.StudyStarted):
                self._total, self._rounds = max(1, detail.total_steps), detail.rounds
            elif isinstance(detail, steps.RoundsAdded):
                self._total = max(1, detail.total_steps)
            elif isinstance(detail, steps.StepStarted):
                self._step_started(detail)
        if kept:
            self._report_progress(kept[-1].fraction)

    def _step_started(self, ev: steps.StepStarted) -> None:
        cell = ev.cell
        if ev.round >= self._rounds > 1:
            where = f"extra round {ev.round + 1}, for claims not yet precise"
        elif self._rounds > 1:
            where = f"round {ev.round + 1} of {self._rounds}"
        else:
            where = f"step {ev.step + 1} of {self._total}"
        self.step_changed.emit(f"{where}: {cell.cipher_label} on {cell.input_label}")

    @Slot(object)
    def _on_worker_progressed(self, progress: Progress) -> None:
        self._report_progress(progress.fraction)

    def _report_progress(self, overall: float) -> None:
        """``overall``: the fraction of the whole study done, as the engine reckons it."""
        overall = max(0.0, min(1.0, overall))
        elapsed = self._clock() - self._started
        if overall <= 0 or elapsed < ETA_AFTER_S:
            eta = "estimating the time left…"
        else:
            eta = f"about {format_eta(elapsed * (1 - overall) / overall)} left"
        self.progress_changed.emit(overall, eta)

    @Slot(object)
    def _on_worker_outcome(self, outcome: Outcome) -> None:
        ev = outcome.value
        if isinstance(ev, steps.CellFinished):
            self._live.extend(relabel([ev.result], len(self.runs) + 1, set(self._taken)))
            self.results_changed.emit()
        elif isinstance(ev, steps.CellFailed):
            cell = ev.cell
            self.cell_failed.emit(f"{cell.cipher_label} on {cell.input_label}: {ev.message}")

    @Slot(object)
    def _on_worker_finished_run(self, finished: Finished) -> None:
        result = finished.result
        self.runs.append(result)
        self._results.extend(relabel(result.results, len(self.runs), self._taken))
        self._live = []
        if result.results or result.failures:
            self.exported = False
        self.results_changed.emit()
        self.study_finished.emit(result)
        self._analyse(result)

    def _analyse(self, run: AnyStudyResult) -> None:
        """Fits and comparisons off the GUI thread (many pairs take a while), then
        the finished run into the history, analysed: storing it does not compute them again
        beside the window's own analysis (measured: a 60 ms stall of the window)."""
        combined = self.combined()
        self._analysing = combined
        if combined is None:
            return

        def failed(text: str) -> None:
            self.failed.emit(text)
            self._record(run)

        self.runner.run_task(
            _analysed_with_run,
            combined,
            run,
            on_result=self._on_analysis_resulted,
            on_failure=failed,
        )

    def _record(self, run: AnyStudyResult) -> None:
        history_recorder().record(run, self.parent())  # off the GUI thread

    @Slot(object)
    def _on_analysis_resulted(self, both: tuple[AnyStudyResult, AnyStudyResult]) -> None:
        result, run = both
        self._record(run)
        if result is self._analysing:  # not one the user has since cleared or outrun
            self.analysis, self._analysing = result, None
            self.analysed.emit(result)

    @Slot(bool)
    def _on_runner_busy_changed(self, busy: bool) -> None:
        if not busy:
            self._live = []
        super()._on_runner_busy_changed(busy)
