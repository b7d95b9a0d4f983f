"""What a study run says, in the one vocabulary of a run (:mod:`app.core.runtime.events`), for
a cipher study (:mod:`app.core.study.runner`) and a transfer study
(:mod:`app.core.study.transfer_runner`) alike.

Order: a :class:`~app.core.runtime.events.Progress` with the :class:`StudyStarted`; per worker
one with its :class:`StepStarted`, then readings (``note``: the phase); one with a
:class:`RoundsAdded` when claims not yet precise get more rounds; an
:class:`~app.core.runtime.events.Outcome` of a :class:`CellFinished` when a cell (cipher entry
x input) has run all its rounds, or of a :class:`CellFailed`; finally a
:class:`~app.core.runtime.events.Finished` of the study's result, also after a cancel (partial
results kept, ``cancelled=True``). The progress that marks something (the start, a step, the
added rounds) is ``keep=True``: a front-end that shows only the latest reading still gets each.
``fraction`` is of the whole study as now planned; ``what`` the step as the command line shows
it ("[3/12] round 1/3 aes-128-cbc [pycryptodome] on 10 KB").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.core.runtime.events import Progress


@dataclass(frozen=True)
class Cell:
    """One cipher entry on one input: a row of the study's table."""

    index: int
    cipher_label: str  # "aes-128-cbc [pycryptodome]"
    input_label: str
    input_bytes: int


@dataclass(frozen=True)
class StudyStarted:
    cells: tuple[Cell, ...]
    rounds: int
    total_steps: int  # workers to run: cells x rounds


@dataclass(frozen=True)
class StepStarted:
    step: int  # 0 .. total_steps - 1
    round: int  # 0-based
    cell: Cell


@dataclass(frozen=True)
class RoundsAdded:
    """The claims not yet precise get another round: ``cells`` run again in round ``round``;
    ``total_steps`` is the workers of the whole run as now planned."""

    round: int  # 0-based
    cells: tuple[Cell, ...]
    total_steps: int


@dataclass(frozen=True)
class CellFinished:
    cell: Cell
    result: Any  # merged over the rounds: a JobResult, or a transfer study's TransferResult


@dataclass(frozen=True)
class CellFailed:
    cell: Cell
    message: str


class StudySteps:
    """Says a study's steps as :class:`Progress`, the fraction of the whole study computed
    from the steps done and planned."""

    def __init__(self) -> None:
        self.total = 1
        self.rounds = 1
        self.step = 0
        self.what = ""

    def started(self, event: StudyStarted) -> Progress:
        self.total, self.rounds = max(1, event.total_steps), event.rounds
        return Progress(0.0, "starting", event, keep=True)

    def added(self, event: RoundsAdded) -> Progress:
        self.total = max(1, event.total_steps)
        what = (
            f"round {event.round + 1}: {len(event.cells)} cell(s) again, for the claims not "
            "yet precise"
        )
        done = event.total_steps - len(event.cells)  # the new round's cells are still to come
        return Progress(done / self.total, what, event, keep=True)

    def step_started(self, event: StepStarted) -> Progress:
        self.step = event.step
        if event.round >= self.rounds:
            rnd = f"extra round {event.round + 1} "
        else:
            rnd = f"round {event.round + 1}/{self.rounds} " if self.rounds > 1 else ""
        cell = event.cell
        self.what = f"[{self.step + 1}/{self.total}] {rnd}{cell.cipher_label} on {cell.input_label}"
        return Progress(self._overall(0.0), self.what, event, "starting", keep=True)

    def progress(self, step: int, phase: str, fraction: float) -> Progress:
        """A reading of step ``step``: its ``phase`` and ``fraction`` done."""
        self.step = step
        return Progress(self._overall(fraction), self.what, None, phase)

    def _overall(self, fraction: float) -> float:
        return min(1.0, (self.step + max(0.0, min(1.0, fraction))) / self.total)
