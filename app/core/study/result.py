"""What a study produced: one merged job result per (cipher entry, input), its failures, the
machine and how it ran; the fits, comparisons and speed-ups derived from the raw samples.

Everything is frozen. The derived values are computed on first use and kept (``cached_property``
writes to the instance's ``__dict__``, which a frozen dataclass allows).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, Self

from app.core.bench.results import JobResult, RoundInfo
from app.core.bench.run_info import Environment, ToolInfo
from app.core.leak.result import LeakResult
from app.core.profile.result import ProfileResult
from app.core.study.cell_pairs import PairComparison, R, by_input, pair_comparisons
from app.core.study.definition import UNITS, Study
from app.core.study.result_derived import (
    CipherFit,
    Speedup,
    cipher_fits,
    program_comparisons,
    program_speedups,
    speedups,
)
from app.core.study.whole_program import ProgramTiming
from app.core.units import MIB

if TYPE_CHECKING:
    from app.core.transfer.results import TransferResult

_DERIVED = ("fits", "comparisons", "speedups")  # the cached values; none depends on the unit


def cipher_labels(results: Iterable[JobResult | TransferResult]) -> list[str]:
    """The entries' labels, each once, in the order they ran."""
    return list(dict.fromkeys(r.label for r in results))


def rate(result: JobResult, direction: str, units: str) -> float:
    """Throughput of ``direction`` ("encrypt" or "decrypt") from the median time, in ``units``
    (a key of ``UNITS``); 0 for a zero time."""
    median = getattr(result, direction).median_s
    return result.input_bytes / median / UNITS[units] if median > 0 else 0.0


def memory_mib(result: JobResult) -> float | None:
    """Peak resident memory above the worker's baseline, in MiB (None: not measured)."""
    above = result.memory_above_baseline_bytes
    return None if above is None else above / MIB


@dataclass(frozen=True)
class StudyFailure:
    """A cell of the grid that did not produce a result, and why."""

    cipher_label: str  # "aes-128-cbc [pycryptodome]"
    input_label: str
    message: str


@dataclass(frozen=True)
class StudyRecord(Generic[R]):
    """What the results of both kinds of study share (a cipher study's :class:`StudyResult`, a
    transfer study's ``TransferStudyResult``): the study, one result per cell in the order they
    ran, the failed cells, the machine, when it ran and whether it was cancelled; the JSON form
    of all that."""

    study: Study
    results: tuple[R, ...]
    failures: tuple[StudyFailure, ...]
    environment: Environment
    started_at: str
    finished_at: str
    cancelled: bool = False
    tool: ToolInfo = field(default_factory=ToolInfo)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tool", ToolInfo.of(self.tool))  # also from its JSON form

    @property
    def units(self) -> str:
        return self.study.units

    def by_input(self) -> dict[str, list[R]]:
        """Results grouped by input, in the order they ran."""
        return by_input(self.results)

    def cipher_labels(self) -> list[str]:
        return cipher_labels(self.results)

    def in_units(self, units: str) -> Self:
        """The same results reported in ``units``. The derived values (fits, comparisons ...)
        do not depend on the unit: those already computed (many pairs take a while) are kept."""
        if units == self.units:
            return self
        other = replace(self, study=replace(self.study, units=units))
        for name in _DERIVED:
            if name in self.__dict__:  # computed: cached_property keeps it there
                other.__dict__[name] = self.__dict__[name]
        return other

    def _record(self, how_run: Mapping[str, Any], derived: Mapping[str, Any]) -> dict[str, Any]:
        """The JSON form: the definition and unit, ``how_run``'s keys, the run's record and raw
        results, ``derived``'s keys, the paper's figures."""
        return {
            "study": self.study.to_dict(),
            "units": self.units,
            "unit_bytes_per_second": UNITS[self.units],
            **how_run,
            "tool": self.tool.to_dict(),
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "cancelled": self.cancelled,
            "environment": self.environment.to_dict(),
            "results": [r.to_dict() for r in self.results],
            "failures": [asdict(f) for f in self.failures],
            **derived,
            "published": [asdict(p) for p in self.study.published],
        }


def record_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a :class:`StudyRecord` but its results, read back from its JSON form."""
    return {
        "study": Study.from_dict(data["study"]),
        "failures": tuple(StudyFailure(**f) for f in data["failures"]),
        "environment": Environment.from_dict(data["environment"]),
        "started_at": data["started_at"],
        "finished_at": data["finished_at"],
        "cancelled": bool(data.get("cancelled", False)),
        "tool": ToolInfo.of(data.get("tool")),
    }


@dataclass(frozen=True)
class StudyResult(StudyRecord[JobResult]):
    """A study's results. ``rounds`` is how it was run: 1 is one job after another; k > 1 is
    k interleaved rounds of the whole grid, each job's samples merged over the rounds. The
    fields of its own are keyword-only."""

    rounds: int = field(kw_only=True)
    rounds_completed: int = field(kw_only=True)
    repeat_per_round: int = field(kw_only=True)
    # Each entry as a whole program, and the interpreter's start (study.whole_program).
    programs: tuple[ProgramTiming, ...] = field(default=(), kw_only=True)
    # Where each entry's time goes (study.profile): None when the study ran no profile.
    profile: ProfileResult | None = field(default=None, kw_only=True)
    # Whether each entry's time depends on its data (study.leak): None when not tested.
    leak: LeakResult | None = field(default=None, kw_only=True)

    @property
    def interleaved(self) -> bool:
        return self.rounds > 1

    def how_run(self) -> str:
        """One sentence on how the jobs were run, for reports and comparisons."""
        study = self.study
        if not self.interleaved:
            return (
                f"one job after another, {self.repeat_per_round} timed repetitions each "
                f"after {study.warmup} warm-up"
            )
        extra = (
            f", then up to {study.max_rounds} for the cells of claims not yet within "
            f"±{study.precision_percent:g} % (a budget of {study.time_budget_s:g} s)"
            if study.adaptive
            else ""
        )
        return (
            f"{self.rounds_text()}: the whole grid {self.rounds} times{extra}, each round "
            f"in a random order of its own, each job in a fresh worker with {study.warmup} "
            f"warm-up and {self.repeat_per_round} timed repetitions per round, samples merged "
            "over the rounds and each round's share kept"
        )

    def rounds_text(self) -> str:
        """ "6 rounds", "14 rounds (6, then more for 5 cells)", "2 of 6 rounds" (cancelled)."""
        if not self.interleaved:
            return "one round, not interleaved"
        done = self.rounds_completed
        if done < self.rounds:
            return f"{done} of {self.rounds} interleaved rounds"
        if done == self.rounds:
            return f"{done} interleaved rounds"
        extended = sum(1 for r in self.results if len(r.rounds) > self.rounds)
        return f"up to {done} interleaved rounds ({self.rounds}, then more for {extended} cells)"

    # --- lookups -------------------------------------------------------------------------------

    def result_for(self, cipher_label: str, input_label: str) -> JobResult | None:
        for r in self.results:
            if r.label == cipher_label and r.input_label == input_label:
                return r
        return None

    # --- derived -------------------------------------------------------------------------------

    @cached_property
    def fits(self) -> tuple[CipherFit, ...]:
        """Per cipher entry and direction, the least-squares line of median time on size."""
        return cipher_fits(self.results)

    @cached_property
    def comparisons(self) -> tuple[PairComparison, ...]:
        """For each input, each pair of cipher entries, encryption and decryption, with the
        study's margin and precision target; each rests on the entries' rounds."""
        return tuple(
            pair_comparisons(
                self.results,
                margin=self.study.margin_percent / 100,
                target=self.study.precision_percent / 100,
            )
        )

    @cached_property
    def program_comparisons(self) -> tuple[PairComparison, ...]:
        """Per input, each pair of whole programs (each repetition a fresh process: the unit
        of evidence), with the study's margin: what a claim about programs rests on."""
        margin, target = self.study.margin_percent / 100, self.study.precision_percent / 100
        return program_comparisons(self.programs, margin=margin, target=target)

    @cached_property
    def program_speedups(self) -> tuple[Speedup, ...]:
        """Per input, each whole program's factor against the slowest program on it, from the
        repetitions (each a fresh process); empty without :attr:`programs`."""
        return program_speedups(self.programs, self.study.baseline)

    @property
    def startup_s(self) -> float | None:
        """The interpreter's start alone (``python -c pass``), median; None: not measured."""
        start = [p for p in self.programs if not p.input_label]
        return start[0].median_s if start else None

    @cached_property
    def speedups(self) -> tuple[Speedup, ...]:
        """Per input with two entries or more, each entry's factor against the study's
        baseline entry (the paper's 1x), or the slowest without one."""
        return speedups(self.results, self.study.baseline)

    def to_dict(self, *, compare: bool = True) -> dict[str, Any]:
        """Everything, for JSON: the definition, how it ran, raw results, the derived values.
        ``compare=False`` leaves the comparisons out unless already computed (a study of many
        pairs takes a while; a reader recomputes them from the raw samples: the history does)."""
        compared = compare or "comparisons" in self.__dict__
        how_run = {
            "interleaved": self.interleaved,
            "rounds": self.rounds,
            "rounds_completed": self.rounds_completed,
            "repeat_per_round": self.repeat_per_round,
            "warmup_per_worker": self.study.warmup,
            "description": self.how_run(),
        }
        fits = [
            {
                "cipher": f.cipher_label,
                "direction": f.direction,
                "fit": None if f.fit is None else asdict(f.fit),
                "interval_over_rounds": None if f.interval is None else asdict(f.interval),
            }
            for f in self.fits
        ]
        return self._record(
            {"how_run": how_run},
            {
                "fits": fits,
                "comparisons": [p.to_dict() for p in (self.comparisons if compared else ())],
                "comparisons_computed": compared,
                "speedups": [asdict(s) for s in self.speedups],
                "whole_program": [p.to_dict() for p in self.programs],
                "whole_program_speedups": [asdict(s) for s in self.program_speedups],
                "profile": None if self.profile is None else self.profile.to_dict(),
                "leak": None if self.leak is None else self.leak.to_dict(),
            },
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StudyResult:
        """Inverse of :meth:`to_dict` (a study's JSON export loads back as objects); the fits,
        comparisons and speed-ups are derived again, as they were (they are deterministic).
        Raises ``UserError`` for a malformed definition, ``KeyError``, ``TypeError`` or
        ``ValueError`` for other malformed records."""
        how = data["how_run"]
        rounds, per_round = int(how["rounds_completed"]), int(how["repeat_per_round"])
        return cls(
            **record_fields(data),
            results=tuple(
                _with_rounds(JobResult.from_dict(r), rounds, per_round) for r in data["results"]
            ),
            rounds=int(how["rounds"]),
            rounds_completed=rounds,
            repeat_per_round=per_round,
            programs=tuple(ProgramTiming.from_dict(p) for p in data.get("whole_program", ())),
            profile=ProfileResult.from_dict(data["profile"]) if data.get("profile") else None,
            leak=LeakResult.from_dict(data["leak"]) if data.get("leak") else None,
        )


def _with_rounds(result: JobResult, rounds: int, per_round: int) -> JobResult:
    """A result from a study written before each round's share was kept: its rounds again
    when they can be told (every round gave ``per_round`` samples in each direction, in
    order), so its claims rest on rounds as a new study's do; otherwise as it is (one round)."""
    n = rounds * per_round
    if result.rounds or rounds < 2:
        return result
    if len(result.encrypt.samples_s) != n or len(result.decrypt.samples_s) != n:
        return result
    info = tuple(RoundInfo(i, 0, per_round, per_round, result.cpu_percent) for i in range(rounds))
    return result.with_rounds(info)
