"""Running a transfer study (``workload = "transfer"``, the loopback study): every cipher on every
input sent over TCP loopback by :func:`app.core.transfer.runner.transfer`, with the cipher
study's events (:mod:`app.core.study.steps`), so the command line and the window follow it the
same way:

    run = TransferStudyRun(study)
    for event in run.events():   # Progress (StudyStarted, StepStarted ...), Outcome (CellFinished
        ...                      # with a TransferResult, CellFailed), Finished(TransferStudyResult)
    run.cancel()                 # from any thread

Like a cipher study, it runs in rounds (``study.rounds``, each in a seeded random order of its
own): in each round a cell runs ``warmup + repeat / rounds`` transfers in a fresh receiver and
sender process (both killed whatever happens), so its claims rest on rounds; the cells of claims
not yet precise run further rounds up to ``max_rounds`` within ``time_budget_s``. A failed
transfer (a vanished file, a dead peer) fails its cell with the message and the rest goes on; a
cancel ends with the finished cells kept. Generated inputs are the cipher study's seeded bytes,
deleted at the end.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field, replace

from app.core.bench.inputs import check_unchanged
from app.core.bench.jobs import InputSpec
from app.core.bench.run_info import Environment, ToolInfo
from app.core.bench.stats import stability_warnings, summarize
from app.core.errors import Cancelled, UserError
from app.core.runtime.envelope import timestamp
from app.core.runtime.events import Event, Outcome, relayed
from app.core.runtime.rounds import round_order
from app.core.study.cell_pairs import unsettled_cells
from app.core.study.claims import Comparison, compare
from app.core.study.grid_run import GridRun
from app.core.study.result import StudyFailure
from app.core.study.steps import (
    Cell,
    CellFailed,
    CellFinished,
    RoundsAdded,
    StepStarted,
    StudyStarted,
)
from app.core.study.transfer_result import TransferStudyResult
from app.core.transfer.framing import PLAINTEXT, transfer_spec
from app.core.transfer.results import TransferResult
from app.core.transfer.runner import TransferFailed, TransferOptions, transfer


def transfer_label(cipher_id: str) -> str:
    """The label a transfer result of ``cipher_id`` carries ("aes-256-gcm (cryptography)")."""
    spec = transfer_spec(cipher_id)
    return PLAINTEXT if spec is None else f"{spec.id} ({spec.library})"


@dataclass
class _Grid:
    """What a transfer study run has so far: its cells and their (input, cipher), each cell's
    results per round, failed and finished cells, each cell's last duration, steps run."""

    cells: tuple[Cell, ...]
    pairs: list[tuple[InputSpec, str]]
    parts: dict[int, list[TransferResult]] = field(default_factory=dict)
    failed: dict[int, str] = field(default_factory=dict)
    done: dict[int, TransferResult] = field(default_factory=dict)
    last_s: dict[int, float] = field(default_factory=dict)
    step: int = 0


class TransferStudyRun(GridRun[TransferStudyResult]):
    """One run of a transfer study (module doc); made as
    :class:`~app.core.study.grid_run.GridRun`."""

    SCRATCH_PREFIX = "transfer-study-"

    def _prepare(self) -> None:
        study = self.study
        self.ciphers = [c.cipher_id for c in study.ciphers]
        self.options = TransferOptions(
            chunk_bytes=study.chunk_bytes, repeat=study.repeat_per_round, warmup=study.warmup
        )
        self.options.check()

    def events(self) -> Generator[Event, None, None]:
        try:
            yield from super().events()
        finally:
            self.cancel()  # a closed generator stops the running cell's processes

    def _run(
        self, inputs: list[InputSpec], started: str, env: dict[str, object]
    ) -> Generator[Event, None, TransferStudyResult]:
        study = self.study
        pairs = [(source, c) for source in inputs for c in self.ciphers]
        cells = tuple(
            Cell(i, transfer_label(c), source.label, source.size_bytes)
            for i, (source, c) in enumerate(pairs)
        )
        yield self.steps.started(StudyStarted(cells, study.rounds, len(cells) * study.rounds))
        grid = _Grid(cells, pairs)
        t0, round_no = time.monotonic(), 0
        todo = list(range(len(cells)))
        while todo and not self.cancelled:
            rank = {i: k for k, i in enumerate(round_order(len(cells), study.data_seed, round_no))}
            todo.sort(key=rank.__getitem__)
            yield from self._round(grid, todo, round_no)
            if self.cancelled:
                break
            round_no += 1
            if round_no < study.rounds:
                todo = [i for i in range(len(cells)) if i not in grid.failed]
                continue
            todo = yield from self._settle(grid, round_no, t0)
        return self._result(grid, started, env, round_no)

    def _round(self, grid: _Grid, todo: list[int], round_no: int) -> Generator[Event, None, None]:
        """One round: the cells ``todo`` once, in that order (stopping at a cancel)."""
        for i in todo:
            if self.cancelled:
                break
            cell = grid.cells[i]
            yield self.steps.step_started(StepStarted(grid.step, round_no, cell))
            began = time.monotonic()
            outcome = yield from self._cell(replace(cell, index=grid.step), *grid.pairs[i])
            grid.last_s[i] = time.monotonic() - began
            grid.step += 1
            if isinstance(outcome, TransferResult):
                grid.parts.setdefault(i, []).append(outcome)
            elif outcome is not None:
                grid.failed[i] = outcome
                grid.parts.pop(i, None)
                yield Outcome(CellFailed(cell, outcome))

    def _settle(self, grid: _Grid, round_no: int, t0: float) -> Generator[Event, None, list[int]]:
        """After the study's rounds: each cell's rounds merged, ``CellFinished`` for the cells
        that run no further round; the cells that do (``RoundsAdded``), if any."""
        merged = {i: merge_transfers(p) for i, p in grid.parts.items() if i not in grid.failed}
        todo = self._more_rounds(merged, grid.done, round_no, grid.last_s, time.monotonic() - t0)
        for i in sorted(merged):
            if i not in todo and i not in grid.done:
                grid.done[i] = merged[i]
                yield Outcome(CellFinished(grid.cells[i], grid.done[i]))
        if todo:
            again = tuple(grid.cells[i] for i in todo)
            yield self.steps.added(RoundsAdded(round_no, again, grid.step + len(again)))
        return todo

    def _result(
        self, grid: _Grid, started: str, env: dict[str, object], rounds_completed: int
    ) -> TransferStudyResult:
        """The study's result: each cell's rounds merged (those run before a cancel too)."""
        cells = grid.cells
        results = [grid.done.get(i) or merge_transfers(grid.parts[i]) for i in sorted(grid.parts)]
        failures = [
            StudyFailure(cells[i].cipher_label, cells[i].input_label, m)
            for i, m in sorted(grid.failed.items())
        ]
        return TransferStudyResult(
            study=self.study,
            results=tuple(r for r in results if r is not None),
            failures=tuple(failures),
            environment=Environment(env),
            started_at=started,
            finished_at=timestamp(),
            cancelled=self.cancelled,
            tool=ToolInfo.current(),
            rounds_completed=rounds_completed,
        )

    def _more_rounds(
        self,
        merged: dict[int, TransferResult],
        done: dict[int, TransferResult],
        rounds_run: int,
        last_s: dict[int, float],
        elapsed_s: float,
    ) -> list[int]:
        """The cells of the claims not yet settled, when another round of them fits in the
        study's ``max_rounds`` and ``time_budget_s``; else none."""
        study = self.study
        if not study.adaptive or rounds_run >= study.max_rounds:
            return []
        m, t = study.margin_percent / 100, study.precision_percent / 100

        def claims_of(a: TransferResult, b: TransferResult) -> list[Comparison]:
            ra, rb = a.round_samples(), b.round_samples()
            c = compare(a.label, ra, b.label, rb, direction="transfer", margin=m, target=t)
            return [c]

        wanted = unsettled_cells(merged, claims_of) - set(done)
        if elapsed_s + sum(last_s.get(i, 0.0) for i in wanted) > study.time_budget_s:
            return []
        return sorted(wanted)

    def _cell(
        self, cell: Cell, source: InputSpec, cipher_id: str
    ) -> Generator[Event, None, TransferResult | str | None]:
        """Run one cell, relaying its progress; its result, a failure message, or None when
        cancelled. Closing it stops the cell's two processes."""
        try:
            check_unchanged(source)
            runs = transfer(
                source.path, cipher_id, self.options, input_label=source.label,
                cancel=self.cancel_event,
            )  # fmt: skip
            return (
                yield from relayed(
                    runs, lambda p: self.steps.progress(cell.index, "transfer", p[0] / p[1])
                )
            )
        except Cancelled:
            return None
        except (TransferFailed, UserError, OSError) as exc:
            return getattr(exc, "strerror", None) or str(exc)
        except Exception as exc:  # a bug must fail its cell, never stop the study
            return f"internal error: {type(exc).__name__}: {exc}"


def merge_transfers(parts: Sequence[TransferResult]) -> TransferResult:
    """One cell's rounds as one result: runs and warm-ups concatenated, the statistics
    computed again, each round's share in ``round_sizes``."""
    first = parts[0]
    runs = tuple(r for p in parts for r in p.runs)
    warmups = tuple(w for p in parts for w in p.warmups)
    timing = summarize(
        [r.total_seconds for r in runs],
        first.input_bytes,
        [w for p in parts for w in p.timing.warmup_s],
        [len(p.runs) for p in parts],
    )
    return replace(
        first,
        runs=runs,
        warmups=warmups,
        timing=timing,
        warnings=tuple(stability_warnings(timing, "transfer")),
        round_sizes=tuple(len(p.runs) for p in parts),
    )
