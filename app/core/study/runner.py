"""Running a study: every cipher entry on every input, through the benchmark's isolated workers.

    run = StudyRun(study, files=[...], sizes=[...])   # None: the study's own
    for event in run.events():    # blocking, like BenchmarkRun.events(): Progress, Outcome
        ...                       # (app.core.study.steps), then Finished(StudyResult)
    run.cancel()                  # from any thread

Its events are a study's (:mod:`app.core.study.steps`): the steps as progress, each cell's
``CellFinished`` or ``CellFailed`` as an outcome, finally the :class:`StudyResult`, also after a
cancel (partial results kept, ``cancelled=True``).

A round runs every cell once, each job in a fresh worker with its warm-up and ``repeat /
rounds`` repetitions, in a random order of its own (seeded by the study's ``data_seed`` and the
round, so a rerun runs the same orders): no cell is always first or always after the same
neighbour, and a drift of the machine hits every cipher alike. After the study's ``rounds``,
the claims (:mod:`app.core.study.claims`) are computed from the rounds so far; the cells of
those not yet settled run further rounds, up to ``max_rounds``, while the next round fits in
``time_budget_s`` from the start. A cell's raw samples are merged over its rounds, each
round's share kept (``JobResult.rounds``), and its statistics computed again from them. The
memory pass runs in the first round only (memory does not drift, and the pass costs a full
round trip). A file that vanishes or changes fails its cells with a note; the rest goes on.
Generated inputs: :mod:`app.core.study.grid_run`.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import replace
from typing import Any

from app.core.bench.events import JobFailed, JobFinished, JobProgress, JobStarted, JobUpdate
from app.core.bench.inputs import check_unchanged
from app.core.bench.jobs import InputSpec, Job
from app.core.bench.plan import make_jobs
from app.core.bench.results import JobResult
from app.core.bench.rounds import later_round, merge_rounds
from app.core.bench.run_info import Environment, ToolInfo
from app.core.bench.runner import BenchmarkRun
from app.core.errors import UserError
from app.core.leak.job import STUDY_BUDGET_S, STUDY_LENGTH, LeakJob
from app.core.leak.result import LeakResult
from app.core.leak.run import entry_jobs, leak
from app.core.profile.definition import DEFAULT_RATE
from app.core.profile.result import ProfileResult
from app.core.profile.run import profile
from app.core.runtime.envelope import timestamp
from app.core.runtime.events import Event, Outcome, Progress, expanded, relayed
from app.core.runtime.rounds import round_order
from app.core.study.cell_pairs import job_claims, unsettled_cells
from app.core.study.definition import Study
from app.core.study.grid_run import GridRun
from app.core.study.result import StudyFailure, StudyResult
from app.core.study.steps import (
    Cell,
    CellFailed,
    CellFinished,
    RoundsAdded,
    StepStarted,
    StudyStarted,
    StudySteps,
)
from app.core.study.whole_program import ProgramTiming, measure_programs


def _last_step(
    events: Generator[Progress, None, Any], state: _Progress, name: str
) -> Generator[Event, None, Any]:
    """A kind's run after the study's rounds (its profile, its leak test), its progress
    reported as the last step's ("profile: round 1/6 ..."); its value, the kind's result."""
    step, steps = max(0, state.step - 1), state.steps
    return (
        yield from relayed(events, lambda e: steps.progress(step, f"{name}: {e.text}", e.fraction))
    )


class StudyRun(GridRun[StudyResult]):
    """One run of ``study``, every cipher entry on every input (module doc); made as
    :class:`GridRun`."""

    def _prepare(self) -> None:
        study = self.study
        self.entries = study.entries()
        self.specs = [spec for spec, _ in self.entries]
        # Check the whole plan (options, chunk sizes) before generating possibly gigabytes.
        options = study.bench_options()
        for size in self.sizes:
            make_jobs(self.specs, InputSpec("", size.label, size.size_bytes, 0, True), options)

    def _jobs(self, inputs: list[InputSpec]) -> tuple[list[Job], tuple[Cell, ...], list[int]]:
        """Every cell's job, its cell and its copy number (2, 3 ...: an entry chosen again)."""
        jobs: list[Job] = []
        copies: list[int] = []
        options = self.study.bench_options()
        for source in inputs:
            for spec, copy in self.entries:
                jobs.extend(make_jobs([spec], source, options))
                copies.append(copy)
        cells = tuple(
            Cell(i, job.label if copy == 1 else f"{job.label} #{copy}", job.input.label,
                 job.input.size_bytes)
            for i, (job, copy) in enumerate(zip(jobs, copies, strict=True))
        )  # fmt: skip
        return jobs, cells, copies

    def _run(
        self, inputs: list[InputSpec], started: str, env: dict[str, object]
    ) -> Generator[Event, None, StudyResult]:
        study = self.study
        jobs, cells, copies = self._jobs(inputs)
        state = _Progress(jobs, cells, copies, study, self.steps)
        yield self.steps.started(StudyStarted(cells, study.rounds, len(cells) * study.rounds))
        t0 = time.monotonic()
        wanted: set[int] | None = None  # None: every cell
        round_no = 0
        while not self.cancelled:
            todo = yield from state.still_runnable(wanted)
            if not todo:
                break
            rank = {i: k for k, i in enumerate(round_order(len(jobs), study.data_seed, round_no))}
            todo.sort(key=rank.__getitem__)
            cancelled = yield from self._run_round(state, round_no, todo)
            if cancelled or self.cancelled:
                break
            round_no += 1
            state.rounds_completed = round_no
            if round_no < study.rounds:
                continue
            wanted = self._more_rounds(state, round_no, time.monotonic() - t0)
            yield from state.finish(wanted)
            if not wanted:
                break
            again = tuple(cells[i] for i in sorted(wanted))
            yield self.steps.added(RoundsAdded(round_no, again, state.step + len(again)))
        result = self._result(state, started, env)
        if study.whole_program and not self.cancelled:
            try:
                programs = yield from self._whole_programs(state, inputs)
                result = replace(result, programs=programs)
            except UserError as exc:
                failed = StudyFailure("whole programs", "", str(exc))
                result = replace(result, failures=(*result.failures, failed))
        if study.profile and not self.cancelled:
            profiled = yield from self._profile(state, inputs)
            result = replace(result, profile=profiled, cancelled=self.cancelled)
        if study.leak and not self.cancelled:
            leaked = yield from self._leak(state)
            result = replace(result, leak=leaked, cancelled=self.cancelled)
        return result

    def _leak(self, state: _Progress) -> Generator[Event, None, LeakResult]:
        """Whether each entry's time depends on its message (:mod:`app.core.leak`, its
        defaults: fixed vs random 16-byte messages)."""
        specs = [s for s, copy in self.entries if copy == 1]
        seed = self.study.data_seed
        template = LeakJob("", "", 0, "fixed-random", STUDY_LENGTH, STUDY_BUDGET_S, seed)
        events = leak(entry_jobs((), specs, template), self.cancel_event)
        leaked: LeakResult = yield from _last_step(events, state, "leak")
        return leaked

    def _profile(
        self, state: _Progress, inputs: list[InputSpec]
    ) -> Generator[Event, None, ProfileResult]:
        """Where each entry's time goes on each input (:mod:`app.core.profile`), in the
        study's rounds."""
        specs = [s for s, copy in self.entries if copy == 1]
        rounds = max(1, self.study.rounds)
        base = self.study.bench_options()  # its data mode and chunks
        events = profile(specs, inputs, rounds, DEFAULT_RATE, self.cancel_event, base)
        profiled: ProfileResult = yield from _last_step(events, state, "profile")
        return profiled

    def _whole_programs(
        self, state: _Progress, inputs: list[InputSpec]
    ) -> Generator[Event, None, tuple[ProgramTiming, ...]]:
        """Each entry as a whole program on each input (:mod:`.whole_program`), reported as
        the last step's progress; ``UserError`` when a program fails."""
        entries = [(f"{s.id} [{s.library}]", s) for s, copy in self.entries if copy == 1]
        step = max(0, state.step - 1)
        programs = measure_programs(
            entries,
            [(i.label, i.path) for i in inputs],
            self.study.repeat,
            self.study.data_seed,
            lambda: self.cancelled,
        )
        timings: tuple[ProgramTiming, ...] = yield from relayed(
            programs,
            lambda p: self.steps.progress(step, f"whole programs {p[0]}/{p[1]}", p[0] / p[1]),
        )
        return timings

    def _more_rounds(self, state: _Progress, rounds_run: int, elapsed_s: float) -> set[int]:
        """The cells of the claims not yet settled, when another round of them fits in the
        study's ``max_rounds`` and ``time_budget_s``; else none."""
        study = self.study
        if not study.adaptive or rounds_run >= study.max_rounds:
            return set()
        claims_of = job_claims(study.margin_percent / 100, study.precision_percent / 100)
        # A cell already finished (all its claims were settled) runs no further round.
        wanted = unsettled_cells(state.round_results(), claims_of) - set(state.merged)
        expected_s = sum(state.last_duration_s.get(i, 0.0) for i in wanted)
        if elapsed_s + expected_s > study.time_budget_s:
            return set()
        return wanted

    def _result(self, state: _Progress, started: str, env: dict[str, object]) -> StudyResult:
        study, cells, failed = self.study, state.cells, state.failed
        results = tuple(state.result(i) for i in sorted(state.parts) if i not in failed)
        failures = tuple(
            StudyFailure(cells[i].cipher_label, cells[i].input_label, message)
            for i, message in sorted(failed.items())
        )
        return StudyResult(
            study=study,
            results=results,
            failures=failures,
            environment=Environment(env),
            rounds=study.rounds,
            rounds_completed=state.rounds_completed,
            repeat_per_round=study.repeat_per_round,
            started_at=started,
            finished_at=timestamp(),
            cancelled=self.cancelled,
            tool=ToolInfo.current(),
        )

    def _run_round(
        self, state: _Progress, round_no: int, todo: list[int]
    ) -> Generator[Event, None, bool]:
        """One round: the cells ``todo`` once, in that order, through the engine's isolated
        workers. Returns whether the round was cancelled."""
        round_jobs = [state.jobs[i] for i in todo]
        if round_no > 0:  # the memory pass runs in the first round only
            round_jobs = [later_round(job) for job in round_jobs]
        run = BenchmarkRun(round_jobs, environment=False, cancel=self.cancel_event)
        # Closing this generator (the consumer stopped) kills the running worker.
        ran = yield from expanded(run.job_events(), lambda ev: state.on_event(ev, round_no, todo))
        state.step += len(todo)
        return ran.cancelled


class _Progress:
    """What a study run has so far: each cell's results per round (and where in the round
    each ran), failed cells, finished cells, steps, each cell's last duration."""

    def __init__(
        self,
        jobs: list[Job],
        cells: tuple[Cell, ...],
        copies: list[int],
        study: Study,
        steps: StudySteps,
    ) -> None:
        self.jobs = jobs
        self.steps = steps
        self.cells = cells
        self.copies = copies
        self.study = study
        self.parts: dict[int, list[JobResult]] = {}
        self.places: dict[int, list[tuple[int, int]]] = {}
        self.merged: dict[int, JobResult] = {}  # the cells that ran every round they will
        self.failed: dict[int, str] = {}
        self.rounds_completed = 0
        self.step = 0
        self.started_at: dict[int, float] = {}
        self.last_duration_s: dict[int, float] = {}

    def still_runnable(self, wanted: set[int] | None) -> Generator[Event, None, list[int]]:
        """The cells to run this round (of ``wanted``; None: all); a file that vanished or
        changed fails its cells."""
        todo: list[int] = []
        for i, job in enumerate(self.jobs):
            if i in self.failed or i in self.merged or (wanted is not None and i not in wanted):
                continue
            if not job.input.generated:
                try:
                    check_unchanged(job.input)
                except UserError as exc:
                    self.failed[i] = str(exc)
                    yield Outcome(CellFailed(self.cells[i], str(exc)))
                    continue
            todo.append(i)
        return todo

    def result(self, i: int) -> JobResult:
        """Cell ``i``'s rounds merged: as its ``CellFinished`` said, or those it ran before
        a cancel."""
        merged = self.merged.get(i)
        if merged is not None:
            return merged
        return replace(merge_rounds(self.parts[i], self.places[i]), copy=self.copies[i])

    def round_results(self) -> dict[int, JobResult]:
        """Every cell that has results and has not failed, merged over its rounds so far."""
        return {i: self.result(i) for i in self.parts if i not in self.failed}

    def finish(self, going_on: set[int]) -> Generator[Event, None, None]:
        """``CellFinished`` for every cell with results that runs no further round."""
        for i in sorted(self.parts):
            if i in self.failed or i in self.merged or i in going_on:
                continue
            self.merged[i] = self.result(i)
            yield Outcome(CellFinished(self.cells[i], self.merged[i]))

    def on_event(
        self, ev: JobUpdate, round_no: int, todo: list[int]
    ) -> Generator[Event, None, None]:
        """Translate one engine event of this round into study events."""
        if isinstance(ev, JobStarted):
            self.started_at[todo[ev.index]] = time.monotonic()
            cell = self.cells[todo[ev.index]]
            yield self.steps.step_started(StepStarted(self.step + ev.index, round_no, cell))
        elif isinstance(ev, JobProgress):
            yield self.steps.progress(self.step + ev.index, ev.phase, ev.fraction)
        elif isinstance(ev, JobFinished):
            i = todo[ev.index]
            self.parts.setdefault(i, []).append(ev.result)
            self.places.setdefault(i, []).append((round_no, ev.index))
            started = self.started_at.get(i)
            if started is not None:
                self.last_duration_s[i] = time.monotonic() - started
        elif isinstance(ev, JobFailed):
            i = todo[ev.index]
            self.failed[i] = ev.message
            self.parts.pop(i, None)
            self.places.pop(i, None)
            yield Outcome(CellFailed(self.cells[i], ev.message))
