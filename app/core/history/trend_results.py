"""What a trend is, as :func:`app.core.history.trend.trend` returns it: the :class:`Trend` of a
run's series, an :class:`EntryTrend` per entry and direction with a :class:`Point` per run and
the :class:`Step` found, the :class:`EnvironmentChange` between consecutive runs; each with its
``to_dict`` and the sentences the front-ends print (:func:`quiet_sentence`,
:data:`NOTHING_CHANGED`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.document.estimate import Estimate
from app.core.history.records import RunSummary
from app.core.history.steps import CONFIDENCE, MIN_RUNS_FOR_STEPS, THRESHOLD


@dataclass(frozen=True)
class Point:
    """One run's figure for one entry and direction: the median throughput over its rounds
    (MB/s, 10^6 bytes per second) and its 95 % interval (``nan`` below 6 rounds)."""

    run_id: int
    throughput_mb_s: float
    low_mb_s: float
    high_mb_s: float
    rounds: int

    @property
    def has_interval(self) -> bool:
        return not (math.isnan(self.low_mb_s) or math.isnan(self.high_mb_s))

    def text(self) -> str:
        """``1,230 [1,210, 1,250]`` or ``1,230 [n/a]``, three significant digits."""
        ends = (self.low_mb_s, self.high_mb_s) if self.has_interval else None
        return Estimate(self.throughput_mb_s, ends, self.rounds).text()

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.run_id,
            "throughput_mb_s": self.throughput_mb_s,
            "ci_low_mb_s": self.low_mb_s,
            "ci_high_mb_s": self.high_mb_s,
            "rounds": self.rounds,
        }


@dataclass(frozen=True)
class Step:
    """A change in one entry's level between two runs of the series, beyond the noise.

    ``change`` is the throughput after over before, minus 1 (-0.07: 7 % slower), with its
    interval ``low``-``high`` (:mod:`.trend`); ``changes`` what differs in the environment between
    ``run_before`` and ``run_after`` (empty: nothing)."""

    position: int  # the index in the series' runs of the first run after the step
    run_before: int
    run_after: int
    change: float
    low: float
    high: float
    runs_before: int  # the runs each side of the comparison rests on
    runs_after: int
    rounds_before: int
    rounds_after: int
    changes: tuple[str, ...]

    @property
    def faster(self) -> bool:
        return self.change > 0

    def what_changed(self) -> str:
        """``cryptography 44.0.0 -> 45.0.0`` (several joined by ``; ``), or that nothing did."""
        return "; ".join(self.changes) or "nothing changed in the environment"

    def amount(self) -> str:
        """``-7.0 % [-9.1, -4.8]``: the change in throughput and its interval, in percent."""
        return f"{self.change * 100:+.1f} % [{self.low * 100:+.1f}, {self.high * 100:+.1f}]"

    def label(self) -> str:
        """``cryptography 44.0.0 -> 45.0.0: -7.0 % [-9.1, -4.8]``."""
        return f"{self.what_changed()}: {self.amount()}"

    def sentence(self, direction: str) -> str:
        """``step at run 6, encrypt: cryptography 44.0.0 -> 45.0.0: -7.0 % [-9.1, -4.8]``."""
        return f"step at run {self.run_after}, {direction}: {self.label()}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_before": self.run_before,
            "run_after": self.run_after,
            "change": self.change,
            "ci_low": self.low,
            "ci_high": self.high,
            "runs_before": self.runs_before,
            "runs_after": self.runs_after,
            "rounds_before": self.rounds_before,
            "rounds_after": self.rounds_after,
            "environment_changes": list(self.changes),
            "label": self.label(),
        }


@dataclass(frozen=True)
class EntryTrend:
    """One entry (cipher entry on one input) in one direction over the series: a point per run
    of the series (None where that run has no such job), and the steps found."""

    entry: str  # "aes-256-gcm [cryptography] on random 64 KB"
    direction: str  # "encrypt", "decrypt" or "transfer"
    points: tuple[Point | None, ...]
    steps: tuple[Step, ...]
    noise: float  # the spread of the runs' figures (0.012: 1.2 %); nan with too few runs

    def step_at(self, position: int) -> Step | None:
        return next((s for s in self.steps if s.position == position), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "direction": self.direction,
            "points": [None if p is None else p.to_dict() for p in self.points],
            "steps": [s.to_dict() for s in self.steps],
            "noise_between_runs": self.noise,
        }


@dataclass(frozen=True)
class EnvironmentChange:
    """What differs between two consecutive runs of the series (library versions, OS, ...)."""

    run_before: int
    run_after: int
    changes: tuple[str, ...]

    def sentence(self) -> str:
        """``run 5 -> 6: cryptography 44.0.0 -> 45.0.0``."""
        return f"run {self.run_before} -> {self.run_after}: " + "; ".join(self.changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_before": self.run_before,
            "run_after": self.run_after,
            "changes": list(self.changes),
        }


@dataclass(frozen=True)
class Trend:
    """The series of run ``run_id`` and every entry's figures and steps over it."""

    run_id: int
    kind: str
    runs: tuple[RunSummary, ...]  # the series, oldest first
    entries: tuple[EntryTrend, ...]  # by entry, then direction
    changes: tuple[EnvironmentChange, ...]  # between consecutive runs, where anything differs
    threshold: float = THRESHOLD
    confidence: float = CONFIDENCE

    @property
    def machine(self) -> str:
        return self.runs[0].machine

    @property
    def cpu_model(self) -> str | None:
        return self.runs[0].cpu_model

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(s for e in self.entries for s in e.steps)

    def entry_names(self) -> list[str]:
        """Each entry once, in order."""
        return list(dict.fromkeys(e.entry for e in self.entries))

    def of_entry(self, entry: str) -> tuple[EntryTrend, ...]:
        """The directions of ``entry``."""
        return tuple(e for e in self.entries if e.entry == entry)

    def method(self) -> str:
        """How the figures and the steps are found, in a few sentences."""
        level, threshold = f"{self.confidence * 100:g} %", f"{self.threshold * 100:g} %"
        return (
            "Figure: each run's median throughput over its rounds (MB/s = 10^6 bytes/s) with "
            f"its {level} interval over those rounds (none below 6 rounds). A step is marked "
            "where the runs after differ from the runs before by more than "
            f"{threshold} with the whole {level} interval, which covers the rounds and the "
            "noise between runs."
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.run_id,
            "kind": self.kind,
            "machine": self.machine,
            "cpu_model": self.cpu_model,
            "runs": [r.to_dict() for r in self.runs],
            "entries": [e.to_dict() for e in self.entries],
            "environment_changes": [c.to_dict() for c in self.changes],
            "threshold": self.threshold,
            "confidence": self.confidence,
            "method": self.method(),
        }


NOTHING_CHANGED = (
    "Nothing changed in the environment along the series (library versions, OpenSSL, "
    "Python, OS, CPU features, options)."
)


def quiet_sentence(directions: Sequence[EntryTrend]) -> str:
    """Why an entry (its ``directions``) has no step: the spread between runs it did not
    exceed, or too few runs to tell it."""
    spread = [f"{e.direction} {e.noise * 100:.1f} %" for e in directions if not math.isnan(e.noise)]
    if not spread:
        return (
            "No step can be told from the noise between runs: at least "
            f"{MIN_RUNS_FOR_STEPS} runs with the entry are needed."
        )
    return f"No step beyond the noise (spread between runs: {', '.join(spread)})."
