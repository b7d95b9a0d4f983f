"""What a study produced: one merged job result per (cipher entry, input), its failures, the
machine and how it ran; the fits, comparisons and speed-ups derived from the raw samples.

Everything is frozen. The derived values are computed on first use and kept (``cached_property``
writes to the instance's ``__dict__``, which a frozen dataclass allows).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from app.core.bench.results import JobResult
from app.core.bench.run_info import Environment
from app.core.study.analysis import Comparison, LinearFit, compare, fit_time_vs_size, speedup
from app.core.study.definition import UNITS, Study
from app.core.units import MIB

if TYPE_CHECKING:
    from app.core.transfer.results import TransferResult

DIRECTIONS = ("encrypt", "decrypt")
# A bootstrap draws resamples x (n_a + n_b) values (numpy: about 30 ns each here). Tiny inputs
# repeat until 0.1 s and collect thousands of samples, where 2000 resamples would take 0.6 s
# per pair; their intervals are narrow anyway, so fewer resamples (the method names how many)
# bound the work to about 0.1 s a pair.
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_MIN_RESAMPLES = 200
BOOTSTRAP_BUDGET = 4_000_000  # resampled values per comparison
VERBS = {"encrypt": "encrypts", "decrypt": "decrypts"}
_DERIVED = ("fits", "comparisons", "speedups")  # the cached values; none depends on the unit


R = TypeVar("R", bound="JobResult | TransferResult")


def by_input(results: Iterable[R]) -> dict[str, list[R]]:
    """``results`` (a study's jobs or transfers) grouped by input, in the order they ran."""
    groups: dict[str, list[R]] = {}
    for r in results:
        groups.setdefault(r.input_label, []).append(r)
    return groups


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
class CipherFit:
    """``time = fixed cost + size / throughput`` for one cipher entry and direction."""

    cipher_label: str
    direction: str  # "encrypt" or "decrypt"
    fit: LinearFit | None  # None: fewer than two sizes


@dataclass(frozen=True)
class PairComparison:
    """Two cipher entries on one input, one direction, from their raw samples."""

    input_label: str
    direction: str
    comparison: Comparison

    def sentence(self) -> str:
        return self.comparison.sentence(what=VERBS[self.direction])


@dataclass(frozen=True)
class Speedup:
    """Seed 003's speed-up factor: how many times faster than the slowest entry on the input
    (median encryption time of the slowest / this entry's)."""

    input_label: str
    cipher_label: str
    baseline_label: str
    factor: float


@dataclass(frozen=True)
class StudyResult:
    """A study's results. ``rounds`` is how it was run: 1 is one job after another; k > 1 is
    k interleaved rounds of the whole grid, each job's samples merged over the rounds."""

    study: Study
    results: tuple[JobResult, ...]
    failures: tuple[StudyFailure, ...]
    environment: Environment
    rounds: int
    rounds_completed: int
    repeat_per_round: int
    started_at: str
    finished_at: str
    cancelled: bool = False
    tool: dict[str, Any] = field(default_factory=dict)

    @property
    def interleaved(self) -> bool:
        return self.rounds > 1

    @property
    def units(self) -> str:
        return self.study.units

    def how_run(self) -> str:
        """One sentence on how the jobs were run, for reports and comparisons."""
        if not self.interleaved:
            return (
                f"one job after another, {self.repeat_per_round} timed repetitions each "
                f"after {self.study.warmup} warm-up"
            )
        done = (
            f"{self.rounds_completed} of {self.rounds}"
            if self.rounds_completed < self.rounds
            else str(self.rounds)
        )
        return (
            f"interleaved: {done} rounds over the whole grid (A, B, C, A, B, C, ...), each job "
            f"in a fresh worker with {self.study.warmup} warm-up and {self.repeat_per_round} "
            "timed repetitions per round, samples merged over the rounds"
        )

    # --- lookups -------------------------------------------------------------------------------

    def result_for(self, cipher_label: str, input_label: str) -> JobResult | None:
        for r in self.results:
            if r.label == cipher_label and r.input_label == input_label:
                return r
        return None

    def by_input(self) -> dict[str, list[JobResult]]:
        """Results grouped by input, in the order they ran."""
        return by_input(self.results)

    def cipher_labels(self) -> list[str]:
        return cipher_labels(self.results)

    def in_units(self, units: str) -> StudyResult:
        """The same results reported in ``units``. The fits, comparisons and speed-ups do not
        depend on the unit: those already computed (a bootstrap takes a while) are kept."""
        if units == self.units:
            return self
        other = replace(self, study=replace(self.study, units=units))
        for name in _DERIVED:
            if name in self.__dict__:  # computed: cached_property keeps it there
                other.__dict__[name] = self.__dict__[name]
        return other

    # --- derived -------------------------------------------------------------------------------

    @cached_property
    def fits(self) -> tuple[CipherFit, ...]:
        """Per cipher entry and direction, the least-squares line of median time on size."""
        out: list[CipherFit] = []
        for label in self.cipher_labels():
            mine = [r for r in self.results if r.label == label]
            for direction in DIRECTIONS:
                points = [(r.input_bytes, getattr(r, direction).median_s) for r in mine]
                try:
                    fit = fit_time_vs_size(points)
                except ValueError:
                    fit = None
                out.append(CipherFit(label, direction, fit))
        return tuple(out)

    @cached_property
    def comparisons(self) -> tuple[PairComparison, ...]:
        """For each input, each pair of cipher entries, encryption and decryption."""
        out: list[PairComparison] = []
        for input_label, results in self.by_input().items():
            for a, b in itertools.combinations(results, 2):
                for direction in DIRECTIONS:
                    sa, sb = getattr(a, direction).samples_s, getattr(b, direction).samples_s
                    try:
                        c = compare(a.label, sa, b.label, sb, resamples=_resamples(sa, sb))
                    except ValueError:  # a zero-time sample: nothing to compare
                        continue
                    out.append(PairComparison(input_label, direction, c))
        return tuple(out)

    @cached_property
    def speedups(self) -> tuple[Speedup, ...]:
        """Per input with two entries or more, each entry's factor against the slowest."""
        out: list[Speedup] = []
        for input_label, results in self.by_input().items():
            timed = [r for r in results if r.encrypt.median_s > 0]
            if len(timed) < 2:
                continue
            slowest = max(timed, key=lambda r: r.encrypt.median_s)
            for r in timed:
                factor = speedup(slowest.encrypt.median_s, r.encrypt.median_s)
                out.append(Speedup(input_label, r.label, slowest.label, factor))
        return tuple(out)

    def to_dict(self, *, bootstrap: bool = True) -> dict[str, Any]:
        """Everything, for JSON: the definition, how it ran, raw results, the derived values.
        ``bootstrap=False`` leaves the comparisons out unless already computed (up to a second
        of bootstrap; a reader recomputes them from the raw samples: the history does)."""
        compared = bootstrap or "comparisons" in self.__dict__
        return {
            "study": self.study.to_dict(),
            "units": self.units,
            "unit_bytes_per_second": UNITS[self.units],
            "how_run": {
                "interleaved": self.interleaved,
                "rounds": self.rounds,
                "rounds_completed": self.rounds_completed,
                "repeat_per_round": self.repeat_per_round,
                "warmup_per_worker": self.study.warmup,
                "description": self.how_run(),
            },
            "tool": self.tool,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "cancelled": self.cancelled,
            "environment": self.environment.to_dict(),
            "results": [r.to_dict() for r in self.results],
            "failures": [asdict(f) for f in self.failures],
            "fits": [
                {
                    "cipher": f.cipher_label,
                    "direction": f.direction,
                    "fit": None if f.fit is None else asdict(f.fit),
                }
                for f in self.fits
            ],
            "comparisons": [
                {
                    "input": p.input_label,
                    "direction": p.direction,
                    **asdict(p.comparison),
                    "significant": p.comparison.significant,
                    "sentence": p.sentence(),
                }
                for p in (self.comparisons if compared else ())
            ],
            "comparisons_computed": compared,
            "speedups": [asdict(s) for s in self.speedups],
            "published": [asdict(p) for p in self.study.published],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StudyResult:
        """Inverse of :meth:`to_dict` (a study's JSON export loads back as objects); the fits,
        comparisons and speed-ups are derived again, as they were (the bootstrap is seeded).
        Raises ``UserError`` for a malformed definition, ``KeyError``, ``TypeError`` or
        ``ValueError`` for other malformed records."""
        how = data["how_run"]
        return cls(
            study=Study.from_dict(data["study"]),
            results=tuple(JobResult.from_dict(r) for r in data["results"]),
            failures=tuple(StudyFailure(**f) for f in data["failures"]),
            environment=Environment.from_dict(data["environment"]),
            rounds=int(how["rounds"]),
            rounds_completed=int(how["rounds_completed"]),
            repeat_per_round=int(how["repeat_per_round"]),
            started_at=data["started_at"],
            finished_at=data["finished_at"],
            cancelled=bool(data.get("cancelled", False)),
            tool=dict(data.get("tool", {})),
        )


def _resamples(samples_a: tuple[float, ...], samples_b: tuple[float, ...]) -> int:
    n = len(samples_a) + len(samples_b)
    return max(BOOTSTRAP_MIN_RESAMPLES, min(BOOTSTRAP_RESAMPLES, BOOTSTRAP_BUDGET // max(1, n)))
