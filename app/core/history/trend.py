"""A run's series in the history and the steps in it: did an entry get slower or faster, and
what changed then? (``history trend``, the History window's *Trend*.)

:func:`series_of` finds the runs of one definition on one machine, oldest first; :func:`trend`
gives each entry's figure per run (the input over the median of its rounds' median times, with
its interval over rounds) and the steps found in that series, each with its size, its interval
and what changed in the environment between the runs either side. Sweeps and ladders are not
trended. The method (bottom-up segmentation, the Hodges-Lehmann shift widened by the noise
between runs, the 3 % threshold) and its measured power: ``docs/method.md``, *Trends*. The
values returned are in :mod:`app.core.history.trend_results`."""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from app.core.bench.results import JobResult, RunResult
from app.core.document.estimate import rate_estimate
from app.core.errors import UserError
from app.core.history.differences import differences
from app.core.history.records import RunSummary, StoredRun
from app.core.history.steps import CONFIDENCE, THRESHOLD, find_steps, run_noise
from app.core.history.trend_results import EntryTrend, EnvironmentChange, Point, Step, Trend
from app.core.units import MB

if TYPE_CHECKING:
    from app.core.history.store import History

TRENDABLE = ("bench", "study", "transfer")


# --- the series -----------------------------------------------------------------------------


def definition_of(stored: StoredRun) -> tuple[Any, ...]:
    """What the run measured (module doc), comparable with ``==``; ``UserError`` for a kind
    that has no trend (a sweep or a ladder)."""
    kind, result = stored.summary.kind, stored.result
    if kind not in TRENDABLE:
        noun = "sweeps and ladders" if kind == "sweep" else f"runs of kind {kind!r}"
        raise UserError(
            f"run {stored.id} is a {kind}: {noun} have no trend (their figures are curves); "
            "open them with `history show`, or compare two of them in an export"
        )
    study = getattr(result, "study", None)
    if study is not None:
        return (
            "study",
            study.name,
            study.workload,
            tuple((c.cipher_id, c.library) for c in study.ciphers),
            tuple((s.label, s.size_bytes) for s in study.sizes),
            tuple(study.files),
            study.key_bits,
            study.data_mode,
            study.chunk_bytes,
            study.data_seed,
            study.whole_program,
        )
    if isinstance(result, RunResult):
        entries = {(r.cipher, r.library) for r in result.results}
        entries |= {(f.cipher, f.library) for f in result.failures}
        options = result.options
        inputs = (
            tuple((i.label, i.size_bytes) for i in options.inputs)
            if options.inputs is not None
            else tuple(sorted({(r.input_label, r.input_bytes) for r in result.results}))
        )
        return ("bench", frozenset(entries), inputs, options.data_mode, options.chunk_bytes)
    from app.core.transfer.results import TransferRun

    if not isinstance(result, TransferRun):  # a kind's result of another type: no series
        raise UserError(f"run {stored.id} holds no {kind} CipherBench can trend")
    ciphers = {r.cipher_id for r in result.results} | {f.label for f in result.failures}
    chunk = result.options.get("chunk_bytes")
    return ("transfer", frozenset(ciphers), result.input_label, result.input_bytes, chunk)


def series_of(history: History, run_id: int) -> tuple[StoredRun, ...]:
    """Run ``run_id``'s series (module doc), oldest first; ``UserError`` for an unknown id or
    a kind that has no trend."""
    stored = history.load(run_id)
    wanted = definition_of(stored)
    s = stored.summary
    runs = [stored]
    for other in history.list_runs(kind=s.kind):
        if other.id == s.id or (other.hostname, other.cpu_model) != (s.hostname, s.cpu_model):
            continue
        if set(other.ciphers) != set(s.ciphers):  # cheap: no document read
            continue
        try:
            candidate = history.load(other.id)
        except UserError:
            continue  # a run that cannot be read back is not part of any series
        if definition_of(candidate) == wanted:
            runs.append(candidate)
    return tuple(sorted(runs, key=_when))


def trend_of(
    history: History,
    run_id: int,
    *,
    threshold: float = THRESHOLD,
    confidence: float = CONFIDENCE,
) -> Trend:
    """The trend of run ``run_id``'s series (:func:`series_of`, :func:`trend`)."""
    return trend(series_of(history, run_id), run_id, threshold=threshold, confidence=confidence)


def run_days(runs: Sequence[RunSummary]) -> list[float] | None:
    """Each run's start in days after the first's (the x of a chart over time); None when a
    run's start cannot be read."""
    times = [_timestamp(r.started_at) for r in runs]
    if not times or not all(math.isfinite(t) for t in times):
        return None
    return [(t - times[0]) / 86_400 for t in times]


def _when(run: StoredRun) -> tuple[float, int]:
    """Sort key: the start as a UTC timestamp (none: last), then the id."""
    return (_timestamp(run.summary.started_at), run.id)


def _timestamp(started_at: str) -> float:
    """An ISO time as a UTC timestamp (a time without a zone taken as UTC); inf unreadable."""
    try:
        when = datetime.fromisoformat(started_at)
    except (TypeError, ValueError):
        return math.inf
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


# --- the figures and the steps ----------------------------------------------------------------


@dataclass(frozen=True)
class _Job:
    entry: str
    input_bytes: int
    rounds: Mapping[str, tuple[tuple[float, ...], ...]]  # direction -> rounds of seconds


def trend(
    runs: Sequence[StoredRun],
    run_id: int,
    *,
    threshold: float = THRESHOLD,
    confidence: float = CONFIDENCE,
) -> Trend:
    """The figures and steps of ``runs`` (a series, oldest first) for the run ``run_id``
    among them. Plain computation: no history needed (tests, imported series)."""
    if not runs:
        raise ValueError("a trend needs at least one run")
    jobs = _jobs_by_run(runs)
    keys: list[tuple[Any, ...]] = []
    first = next((i for i, r in enumerate(runs) if r.id == run_id), 0)
    for i in (first, *range(len(runs))):  # the asked run's entries first, then any others
        keys.extend(k for k in jobs[i] if k not in keys)
    entries: list[EntryTrend] = []
    for key in keys:
        present = [(i, run_jobs[key]) for i, run_jobs in enumerate(jobs) if key in run_jobs]
        name = present[0][1].entry
        for direction in present[0][1].rounds:
            entries.append(_entry_trend(runs, name, direction, present, threshold, confidence))
    changes = []
    for a, b in pairwise(runs):
        notes = environment_changes(a, b)
        if notes:
            changes.append(EnvironmentChange(a.id, b.id, notes))
    return Trend(
        run_id=run_id,
        kind=runs[0].summary.kind,
        runs=tuple(r.summary for r in runs),
        entries=tuple(entries),
        changes=tuple(changes),
        threshold=threshold,
        confidence=confidence,
    )


def _jobs_by_run(runs: Sequence[StoredRun]) -> list[dict[tuple[Any, ...], _Job]]:
    """Each run's jobs by entry key (cipher, library, key bits, copy, input). An entry's name
    carries its key size when another job of the series has the same name with another."""
    results = [tuple(getattr(r.result, "results", ())) for r in runs]
    bits: dict[str, set[int]] = {}
    for r in (r for rs in results for r in rs if isinstance(r, JobResult)):
        bits.setdefault(r.label, set()).add(r.key_bits)
    out: list[dict[tuple[Any, ...], _Job]] = []
    for rs in results:
        jobs: dict[tuple[Any, ...], _Job] = {}
        for r in rs:
            if isinstance(r, JobResult):
                name = r.label if len(bits[r.label]) == 1 else f"{r.label} {r.key_bits}-bit"
                key: tuple[Any, ...] = (r.cipher, r.library, r.key_bits, r.copy, r.input_label)
                directions = {d: r.round_samples(d) for d in ("encrypt", "decrypt")}
            else:  # a transfer
                name = r.label
                key = (r.cipher_id, r.library, 0, 1, r.input_label)
                directions = {"transfer": r.round_samples()}
            jobs.setdefault(key, _Job(f"{name} on {r.input_label}", r.input_bytes, directions))
        out.append(jobs)
    return out


def _entry_trend(
    runs: Sequence[StoredRun],
    name: str,
    direction: str,
    present: Sequence[tuple[int, _Job]],
    threshold: float,
    confidence: float,
) -> EntryTrend:
    points: list[Point | None] = [None] * len(runs)
    where: list[int] = []  # series index of each run with a usable figure
    values: list[list[float]] = []  # its rounds' log median times per byte
    for i, job in present:
        rounds = [r for r in job.rounds.get(direction, ()) if r]
        if job.input_bytes <= 0:
            continue
        # Per byte: a study's file may have grown between runs; its time alone would step.
        logs = [
            math.log(statistics.median(r) / job.input_bytes)
            for r in rounds
            if statistics.median(r) > 0
        ]
        if not logs:
            continue
        e = rate_estimate(job.input_bytes, tuple(rounds), MB)
        # A run's interval rests on its rounds; the repetitions of one worker give none here.
        low, high = e.interval if e.interval is not None and len(rounds) > 1 else (math.nan,) * 2
        points[i] = Point(runs[i].id, e.median, low, high, len(rounds))
        where.append(i)
        values.append(logs)
    found = find_steps(values, threshold=threshold, confidence=confidence)
    steps = []
    for b in found:
        before, after = runs[where[b.at - 1]], runs[where[b.at]]
        steps.append(
            Step(
                position=where[b.at],
                run_before=before.id,
                run_after=after.id,
                # b.* are log ratios of times, after over before: throughput goes the other way
                change=math.expm1(-b.estimate),
                low=math.expm1(-b.high),
                high=math.expm1(-b.low),
                runs_before=b.runs_before,
                runs_after=b.runs_after,
                rounds_before=b.values_before,
                rounds_after=b.values_after,
                changes=environment_changes(before, after),
            )
        )
    figures = [statistics.median(v) for v in values]
    return EntryTrend(name, direction, tuple(points), tuple(steps), math.expm1(run_noise(figures)))


def environment_changes(a: StoredRun, b: StoredRun) -> tuple[str, ...]:
    """What differs between runs ``a`` and ``b`` (:func:`differences`) in a few words each,
    without the run numbers: ``cryptography 44.0.0 -> 45.0.0``. Whether a run was imported or
    cancelled is left out: neither is a change of the machine or its software."""
    out: list[str] = []
    for note in differences(a, b):
        if " was imported " in note or " was cancelled" in note:
            continue
        # "software differs (run 5 -> run 6): x 1 -> 2; y 3 -> 4": the items
        match = re.match(r"^[^(]*\(run \d+ -> run \d+\): (.*)$", note)
        if match:
            out.extend(match.group(1).split("; "))
        else:  # "different operating systems: A (run 5) and B (run 6)": A -> B
            out.append(re.sub(r" \(run \d+\) and (.*) \(run \d+\)$", r" -> \1", note))
    return tuple(out)
