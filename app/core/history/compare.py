"""Two stored runs compared job by job: did the same cipher on the same input get faster?

Jobs are matched by cipher entry (id, library, key size) and input label; a job left over is
matched by input size instead (generated inputs named differently, a renamed file). For each
direction (encrypt, decrypt; a transfer's whole time) the figure is the **ratio of times, run
B over run A** (below 1: B is faster) with a 95 % interval, by the claims' statistics
(:mod:`app.core.study.claims`): each run's rounds of the job (a study's rounds, each a fresh
worker; one round for a plain bench) are the unit of evidence, so the interval covers what
varies between workers and moments, not only the repetitions inside one worker. A job that ran
in one round on either side gets no interval ("too few rounds": a single worker cannot show how
much another would differ); run a study, or ``bench --rounds``, to compare runs with a verdict.
Verdicts: an improvement (B faster beyond the 1 % margin, the whole interval), a regression,
"equal within 1 %", or no clear difference. Notes say when the machines, the libraries or the
options differ, which a ratio cannot tell apart from code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.bench.results import JobResult
from app.core.document.estimate import central_time
from app.core.errors import UserError
from app.core.history.differences import differences
from app.core.history.merging import merge_sources
from app.core.history.records import RunSummary, StoredRun
from app.core.kinds import table
from app.core.publish.merged_documents import MergedDocuments, merge_documents
from app.core.study import claims

IMPROVEMENT = "improvement"
REGRESSION = "regression"
EQUAL = "equal within the margin"
NO_DIFFERENCE = "no clear difference"
NO_INTERVAL = "too few rounds"  # fewer than 4 on a side: no interval, no verdict
NOT_COMPARABLE = "not comparable"  # a zero or missing time


@dataclass(frozen=True)
class DirectionComparison:
    """One direction of one job: ``ratio`` = run B's time over run A's (the claims'
    Hodges-Lehmann ratio over the rounds) and its interval; the medians are the pooled ones."""

    direction: str  # "encrypt", "decrypt" or "transfer"
    median_a_s: float
    median_b_s: float
    ratio: float
    low: float  # nan: no interval
    high: float
    n_a: int
    n_b: int
    confidence: float
    verdict: str  # IMPROVEMENT, REGRESSION, EQUAL, NO_DIFFERENCE, NO_INTERVAL, NOT_COMPARABLE
    method: str
    rounds_a: int = 1
    rounds_b: int = 1
    margin: float = claims.DEFAULT_MARGIN

    @property
    def significant(self) -> bool:
        return self.verdict in (IMPROVEMENT, REGRESSION)

    @property
    def percent_time_change(self) -> float:
        """How much more (positive) or less (negative) time run B took, in percent."""
        return (self.ratio - 1.0) * 100.0

    def sentence(self, a: str = "run A", b: str = "run B") -> str:
        level = f"{self.confidence * 100:g} %"
        if self.verdict == NOT_COMPARABLE:
            return f"{self.direction}: not comparable ({self.method})"
        change = self.percent_time_change
        amount = f"{abs(change):.1f} % {'less' if change < 0 else 'more'} time"
        evidence = (
            f"{self.rounds_a} and {self.rounds_b} rounds, {self.n_a:,} and {self.n_b:,} samples"
        )
        if self.verdict == NO_INTERVAL:
            return (
                f"{self.direction}: {b} took {amount} than {a} (ratio {self.ratio:.3f}); too "
                f"few rounds for a {level} interval ({evidence}; at least "
                f"{claims.MIN_ROUNDS_FOR_INTERVAL} a side needed)"
            )
        interval = f"ratio {self.ratio:.3f}, {level} CI {self.low:.3f}-{self.high:.3f}; {evidence}"
        if self.verdict == EQUAL:
            return (
                f"{self.direction}: {a} and {b} equally fast within "
                f"{self.margin * 100:g} % ({interval})"
            )
        if self.verdict == NO_DIFFERENCE:
            return f"{self.direction}: no clear difference between {a} and {b} ({interval})"
        return f"{self.direction}: {b} took {amount} than {a} ({interval}): {self.verdict}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "direction": self.direction,
            "median_a_s": self.median_a_s,
            "median_b_s": self.median_b_s,
            "ratio": self.ratio,
            "ci_low": self.low,
            "ci_high": self.high,
            "confidence": self.confidence,
            "n_a": self.n_a,
            "n_b": self.n_b,
            "rounds_a": self.rounds_a,
            "rounds_b": self.rounds_b,
            "margin": self.margin,
            "significant": self.significant,
            "verdict": self.verdict,
            "method": self.method,
        }


@dataclass(frozen=True)
class JobComparison:
    """One job found in both runs."""

    cipher_label: str  # "aes-256-gcm [cryptography]"
    input_a: str
    input_b: str  # differs from input_a when matched by size
    input_bytes: int
    directions: tuple[DirectionComparison, ...]

    @property
    def label(self) -> str:
        inputs = (
            self.input_a if self.input_a == self.input_b else f"{self.input_a} / {self.input_b}"
        )
        return f"{self.cipher_label} on {inputs}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "cipher": self.cipher_label,
            "input_a": self.input_a,
            "input_b": self.input_b,
            "input_bytes": self.input_bytes,
            "directions": [d.to_dict() for d in self.directions],
        }


@dataclass(frozen=True)
class RunComparison:
    """Run B against run A: matched jobs, jobs only in one, and notes on what else differs."""

    run_a: RunSummary
    run_b: RunSummary
    jobs: tuple[JobComparison, ...]
    only_in_a: tuple[str, ...]  # "cipher on input" of jobs run A has and run B has not
    only_in_b: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def improvements(self) -> int:
        return sum(d.verdict == IMPROVEMENT for j in self.jobs for d in j.directions)

    @property
    def regressions(self) -> int:
        return sum(d.verdict == REGRESSION for j in self.jobs for d in j.directions)

    def sentences(self) -> list[str]:
        """The comparison in plain words: a headline, one line per job and direction, notes."""
        a, b = f"run {self.run_a.id}", f"run {self.run_b.id}"
        lines = [
            f"{b} against {a}: {len(self.jobs)} job(s) in both, {self.improvements} "
            f"improvement(s), {self.regressions} regression(s)."
        ]
        for job in self.jobs:
            lines.extend(f"{job.label}, {d.sentence(a, b)}" for d in job.directions)
        lines.extend(f"Only in {a}: {label}" for label in self.only_in_a)
        lines.extend(f"Only in {b}: {label}" for label in self.only_in_b)
        lines.extend(f"Note: {n}" for n in self.notes)
        return lines

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_a": self.run_a.to_dict(),
            "run_b": self.run_b.to_dict(),
            "ratio": "time in run B / time in run A, Hodges-Lehmann over pairs of round medians "
            "(below 1: B is faster)",
            "jobs": [j.to_dict() for j in self.jobs],
            "only_in_a": list(self.only_in_a),
            "only_in_b": list(self.only_in_b),
            "notes": list(self.notes),
            "improvements": self.improvements,
            "regressions": self.regressions,
        }


@dataclass(frozen=True)
class _Job:
    key: tuple[str, str, int]  # cipher id, library, key bits
    label: str
    input_label: str
    input_bytes: int
    samples: Mapping[str, Sequence[Sequence[float]]]  # direction -> rounds of seconds


BY_JOB = ("bench", "study", "transfer")  # the kinds compared job by job, with verdicts


def compare(a: StoredRun, b: StoredRun) -> RunComparison | MergedDocuments:
    """Run ``b`` against run ``a``: job by job with verdicts (:func:`compare_runs`) for bench
    runs, studies and transfers; runs of another kind (a sweep, a key setup, ...) side by side
    table by table, each figure with its own interval and no verdict. ``UserError`` for runs
    of two kinds."""
    from app.core.sweep.results import SweepResult

    runs = (a, b)
    if all(r.summary.kind in BY_JOB and not isinstance(r.result, SweepResult) for r in runs):
        return compare_runs(a, b)
    if a.id == b.id:
        raise UserError(f"run {a.id} is given twice: compare two runs")
    return merge_documents(merge_sources(runs=runs, labels=[f"run {r.id}" for r in runs]))


def compare_runs(a: StoredRun, b: StoredRun, *, confidence: float = 0.95) -> RunComparison:
    """Run ``b`` against run ``a`` (the baseline). ``UserError`` for a sweep or a ladder."""
    from app.core.sweep.results import SweepResult

    if isinstance(a.result, SweepResult) or isinstance(b.result, SweepResult):
        raise UserError(
            "sweeps and ladders are not compared yet; open each, or export both (.xlsx, .csv)"
        )
    for run in (a, b):
        if run.summary.kind not in BY_JOB:
            raise UserError(
                f"run {run.id} is {table.named(run.summary.kind).noun}: runs of its kind are "
                "not compared job by job yet; show each (history show), or export both"
            )
    jobs_a, jobs_b = _jobs(a), _jobs(b)
    pairs, left_a, left_b = _match(jobs_a, jobs_b)
    compared = tuple(_compare_job(x, y, confidence) for x, y in pairs)
    notes = differences(a, b)
    notes += [
        f"{x.label}: matched by size ({x.input_bytes:,} bytes): {x.input_label!r} in run "
        f"{a.id}, {y.input_label!r} in run {b.id}"
        for x, y in pairs
        if x.input_label != y.input_label
    ]
    return RunComparison(
        run_a=a.summary,
        run_b=b.summary,
        jobs=compared,
        only_in_a=tuple(f"{j.label} on {j.input_label}" for j in left_a),
        only_in_b=tuple(f"{j.label} on {j.input_label}" for j in left_b),
        notes=tuple(notes),
    )


def _jobs(run: StoredRun) -> list[_Job]:
    result: Any = run.result
    if not all(isinstance(r, JobResult) for r in result.results):  # transfers (or a study of)
        return [
            _Job(
                (t.cipher_id, t.library or "", 0),
                t.label,
                t.input_label,
                t.input_bytes,
                {"transfer": t.round_samples()},
            )
            for t in result.results
        ]
    results: Sequence[JobResult] = result.results
    bits: dict[str, set[int]] = {}
    for r in results:
        bits.setdefault(r.label, set()).add(r.key_bits)
    return [
        _Job(
            (r.cipher, r.library, r.key_bits),
            r.label if len(bits[r.label]) == 1 else f"{r.label} {r.key_bits}-bit",
            r.input_label,
            r.input_bytes,
            {"encrypt": r.round_samples("encrypt"), "decrypt": r.round_samples("decrypt")},
        )
        for r in results
    ]


def _match(
    jobs_a: list[_Job], jobs_b: list[_Job]
) -> tuple[list[tuple[_Job, _Job]], list[_Job], list[_Job]]:
    """Pairs by (entry, input label), then the rest by (entry, input size); the leftovers."""
    pairs: list[tuple[_Job, _Job]] = []
    left_b = list(jobs_b)
    left_a: list[_Job] = []
    for same in (
        lambda x, y: x.key == y.key and x.input_label == y.input_label,
        lambda x, y: x.key == y.key and x.input_bytes == y.input_bytes,
    ):
        left_a, todo = [], left_a or list(jobs_a)
        for x in todo:
            y = next((y for y in left_b if same(x, y)), None)
            if y is None:
                left_a.append(x)
            else:
                left_b.remove(y)
                pairs.append((x, y))
        if not left_a:
            break
    order = {id(x): i for i, x in enumerate(jobs_a)}
    pairs.sort(key=lambda p: order[id(p[0])])
    return pairs, left_a, left_b


def _compare_job(x: _Job, y: _Job, confidence: float) -> JobComparison:
    out = []
    for direction, samples_a in x.samples.items():
        samples_b = y.samples.get(direction, ())
        out.append(_compare_direction(direction, samples_a, samples_b, confidence))
    return JobComparison(x.label, x.input_label, y.input_label, x.input_bytes, tuple(out))


def _compare_direction(
    direction: str,
    a: Sequence[Sequence[float]],
    b: Sequence[Sequence[float]],
    confidence: float,
) -> DirectionComparison:
    flat_a = [x for r in a for x in r]
    flat_b = [x for r in b for x in r]
    # The cell's one time, as every table prints it: the median of the rounds' medians.
    median_a = central_time(a) if flat_a else 0.0
    median_b = central_time(b) if flat_b else 0.0
    try:
        # compare(A, ..., B, ...) gives time B / time A: run B's time over run A's.
        c = claims.compare("A", a, "B", b, direction=direction, confidence=confidence)
    except ValueError as exc:
        nan = float("nan")
        return DirectionComparison(
            direction, median_a, median_b, nan, nan, nan, len(flat_a), len(flat_b), confidence,
            NOT_COMPARABLE, str(exc), len(a), len(b),
        )  # fmt: skip
    verdict = {
        claims.TOO_FEW_ROUNDS: NO_INTERVAL,
        claims.UNDECIDED: NO_DIFFERENCE,
        claims.EQUAL: EQUAL,
        claims.FASTER: REGRESSION,  # A (the baseline) faster: B regressed
        claims.SLOWER: IMPROVEMENT,
    }[c.verdict]
    return DirectionComparison(
        direction, median_a, median_b, c.ratio, c.low, c.high, c.n_a, c.n_b, confidence,
        verdict, c.method, c.rounds_a, c.rounds_b, c.margin,
    )  # fmt: skip
