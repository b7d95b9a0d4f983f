"""Results from several machines (or library versions) in one table, as benchstat pivots a key
into columns and OpenBenchmarking shows machines side by side.

One row per cipher entry and input, one column group per merged run (its *source*: a machine,
or one library version on a machine), each a median with its distribution-free 95 % interval
over that run's rounds (:mod:`app.core.document.intervals`). A second view divides each figure
by a *reference* entry's on the same machine and input (AES-128-GCM = 1, say), so that a phone
and a workstation compare by shape: that ratio is taken round by round where the two jobs ran
in the same rounds (a study's interleaved rounds: both saw the same moments of the machine),
and its interval is over those per-round ratios. What differs between the sources (CPU,
features, operating system, libraries, how the runs were measured) is listed beside the
tables, since a ratio of times cannot tell a faster machine from a different library.

    merge_results([MergeSource(...), ...], reference="aes-128-gcm") -> MergedResult

Bench runs and cipher studies merge so (both are jobs of an entry on an input:
:func:`mergeable`); runs of any other kind merge table by table
(:mod:`app.core.publish.merged_documents`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.bench.results import JobResult, RunResult
from app.core.bench.run_info import Environment
from app.core.document.estimate import CELL_RATE, Estimate, central_time, rate_estimate
from app.core.document.intervals import median, median_interval, minimum_values
from app.core.errors import UserError
from app.core.kinds import table
from app.core.study.figures import UNITS
from app.core.study.result import StudyResult
from app.core.text import counted

DIRECTIONS = ("encrypt", "decrypt")


def mergeable(result: object) -> bool:
    return isinstance(result, RunResult | StudyResult)


@dataclass(frozen=True)
class MergeSource:
    """One run to merge: its column group's ``label`` (unique), where it came from (a file, a
    history run), and the result."""

    label: str
    origin: str
    result: Any  # a bench run or a cipher study (:func:`mergeable`), or any kind's result
    # A file's digest, "intact", "changed" or "absent"; "new": just measured; "": stored run.
    integrity: str = ""

    @property
    def environment(self) -> Environment:
        return environment_of(self.result)

    @property
    def jobs(self) -> tuple[JobResult, ...]:
        jobs: tuple[JobResult, ...] = self.result.results
        return jobs

    @property
    def how_run(self) -> str:
        if not mergeable(self.result):  # another kind: its name and rounds
            rounds = getattr(self.result, "rounds", None)
            noun = table.kind_of(self.result).noun
            return noun if not isinstance(rounds, int) else f"{noun}, {counted(rounds, 'round')}"
        if isinstance(self.result, StudyResult):
            return f"study {self.result.study.name}: {self.result.rounds_text()}"
        jobs = self.result.results
        rounds = _span(len(r.round_samples("encrypt")) for r in jobs)
        reps = _span(len(x) for r in jobs for x in r.round_samples("encrypt"))
        if rounds in ("1", "no"):
            return f"bench: one worker per job, {reps} timed repetitions"
        return f"bench: {rounds} rounds of a fresh worker per job, {reps} timed repetitions each"


def environment_of(result: Any) -> Environment:
    """The machine ``result`` ran on (a kind declared as data keeps it as a plain mapping)."""
    env = result.environment
    return env if isinstance(env, Environment) else Environment.from_dict(env)


def _span(values: Iterable[int]) -> str:
    """``"6"``, ``"4-6"``, or ``"no"`` without values."""
    xs = sorted(set(values))
    return "no" if not xs else f"{xs[0]}" if len(xs) == 1 else f"{xs[0]}-{xs[-1]}"


@dataclass(frozen=True)
class MergedRow:
    """One entry on one input: each source's figure (``None``: that source lacks the job) and
    the same divided by the reference entry's on that source."""

    entry: str  # JobResult.label: "aes-256-gcm [cryptography]"
    input_label: str
    input_bytes: int
    cells: tuple[Estimate | None, ...]
    normalised: tuple[Estimate | None, ...]


@dataclass(frozen=True)
class MergedResult:
    sources: tuple[MergeSource, ...]
    rows: tuple[MergedRow, ...]
    units: str
    direction: str  # "encrypt" or "decrypt"
    reference: str | None  # the reference entry's label; None: no normalised view
    differences: tuple[tuple[str, tuple[str, ...]], ...]  # (what, each source's value)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(s.label for s in self.sources)

    def notes(self) -> list[str]:
        unit = self.units
        what = "Encryption" if self.direction == "encrypt" else "Decryption"
        out = [
            f"{what} throughput in {unit} (1 {unit[:-2]} = {UNITS[unit]:,} bytes per second): "
            f"for each source, {CELL_RATE}, with its "
            "distribution-free 95 % interval over those rounds in brackets "
            f"([n/a]: fewer than {minimum_values()} rounds).",
        ]
        if self.reference is not None:
            out.append(
                f"Normalised: each figure over {self.reference}'s on the same source and input "
                "(= 1); the median of per-round ratios where both ran in the same rounds, "
                "otherwise the ratio of the medians (no interval)."
            )
        if any(c is None for row in self.rows for c in row.cells):
            out.append("-: that source did not run this entry on this input.")
        return out


def merge_results(
    sources: Sequence[MergeSource],
    *,
    reference: str | None = None,
    units: str = "MB/s",
    direction: str = "encrypt",
) -> MergedResult:
    """The merged table of ``sources`` (at least two, labels unique). ``reference`` is a cipher
    id or an entry label ("aes-128-gcm" or "aes-128-gcm [cryptography]"); by default the first
    entry every source ran. ``UserError`` for a reference no source ran, or bad arguments."""
    check_sources(sources)
    if units not in UNITS:
        raise UserError(f"unknown unit {units!r}: choose one of {', '.join(UNITS)}")
    if direction not in DIRECTIONS:
        raise UserError(f"unknown direction {direction!r}: encrypt or decrypt")
    first: dict[_RowKey, JobResult] = {}  # each row's first job, in order met
    for source in sources:
        for job in source.jobs:
            first.setdefault(_row_key(job), job)
    index = [{_row_key(j): j for j in s.jobs} for s in sources]
    # The reference on each source and input, whatever its key size.
    refs = [{(j.label, _input_key(j)): j for j in reversed(s.jobs)} for s in sources]
    ref = _reference(reference, sources)
    scale = UNITS[units]
    entries = _distinct_names(first.values())
    rows = []
    for key, met in first.items():
        jobs = [by_key.get(key) for by_key in index]
        cells = tuple(
            rate_estimate(j.input_bytes, j.round_samples(direction), scale) if j else None
            for j in jobs
        )
        normalised = tuple(
            _ratio(job, by_ref.get((ref, _input_key(job))), direction) if ref and job else None
            for job, by_ref in zip(jobs, refs, strict=True)
        )
        entry, input_label = entries[key]
        rows.append(MergedRow(entry, input_label, met.input_bytes, cells, normalised))
    return MergedResult(
        tuple(sources), tuple(rows), units, direction, ref, tuple(differences(sources))
    )


def check_sources(sources: Sequence[MergeSource]) -> None:
    """``UserError`` unless there are two sources or more, each with a label of its own."""
    if len(sources) < 2:
        raise UserError("merge needs at least two runs")
    labels = [s.label for s in sources]
    if len(set(labels)) != len(labels):
        raise UserError(f"two merged runs have the same label: {', '.join(labels)}")


_RowKey = tuple[str, int, tuple[str, int]]


def _input_key(job: JobResult) -> tuple[str, int]:
    """An input as the same on every source: its label and size in bytes, generated data's
    label without its "random " (a bench names it "random 10 KB", a study "10 KB")."""
    return job.input_label.removeprefix("random "), job.input_bytes


def _row_key(job: JobResult) -> _RowKey:
    """One row per entry (with its key size: ``--key-bits`` of bf-* or rc4) and input."""
    return job.label, job.key_bits, _input_key(job)


def _distinct_names(jobs: Iterable[JobResult]) -> dict[_RowKey, tuple[str, str]]:
    """Each row's entry and input names: the key size added where one entry ran with
    several, the size in bytes where one input name stands for several sizes; an input named
    as the first source to run it names it (every row of one input reads alike)."""
    jobs = list(jobs)
    bits: dict[str, set[int]] = {}
    sizes: dict[str, set[int]] = {}
    named: dict[tuple[str, int], str] = {}
    for j in jobs:
        bits.setdefault(j.label, set()).add(j.key_bits)
        sizes.setdefault(_input_key(j)[0], set()).add(j.input_bytes)
        named.setdefault(_input_key(j), j.input_label)
    out = {}
    for j in jobs:
        entry = j.label if len(bits[j.label]) == 1 else f"{j.label} {j.key_bits}-bit"
        name, size = _input_key(j)
        shown = named[name, size] if len(sizes[name]) == 1 else f"{name} ({size:,} bytes)"
        out[_row_key(j)] = (entry, shown)
    return out


def _reference(wanted: str | None, sources: Sequence[MergeSource]) -> str | None:
    """The reference entry's label: ``wanted`` (an id or a label) or the first entry every
    source ran; ``None`` when no entry is common to all and none was asked for."""
    ran = [{j.label for j in s.jobs} for s in sources]
    common = [j.label for j in sources[0].jobs if all(j.label in r for r in ran)]
    if wanted is None:
        return common[0] if common else None
    matches = [label for label in dict.fromkeys(common) if wanted in (label, label.split(" [")[0])]
    if not matches:
        raise UserError(
            f"no entry {wanted!r} ran in every merged run: choose one of "
            + (", ".join(dict.fromkeys(common)) or "(none is common to all)")
        )
    return matches[0]


def _ratio(job: JobResult, ref: JobResult | None, direction: str) -> Estimate | None:
    """``job``'s throughput over ``ref``'s (the reference on the same source and input)."""
    if ref is None:
        return None
    mine, theirs = job.round_samples(direction), ref.round_samples(direction)
    if job is ref:
        return Estimate(1.0, (1.0, 1.0), len(mine))
    size_ratio = job.input_bytes / ref.input_bytes
    # Throughput ratio = time(ref) / time(job) for the same input size.
    if len(mine) == len(theirs) and len(mine) > 1 and len(job.rounds) == len(ref.rounds):
        pairs = [median(t) / median(m) * size_ratio for m, t in zip(mine, theirs, strict=True)]
        return Estimate(median(pairs), median_interval(pairs), len(pairs))
    flat_mine = [x for r in mine for x in r]
    flat_ref = [x for r in theirs for x in r]
    if not flat_mine or not flat_ref:
        return None
    return Estimate(central_time(theirs) / central_time(mine) * size_ratio, None, 1)


# --- what differs between the sources ---------------------------------------------------------


def differences(sources: Sequence[MergeSource]) -> list[tuple[str, tuple[str, ...]]]:
    """``(what, each source's value)`` for every property of the machines, their software and
    how the runs were measured that is not the same in all sources."""
    envs = [s.environment for s in sources]
    props: dict[str, list[str]] = {
        "CPU": [e.cpu_model or "?" for e in envs],
        "Logical cores": [str(e.logical_cores or "?") for e in envs],
        "CPU crypto features": [_features(e) for e in envs],
        "Operating system": [e.os_platform or "?" for e in envs],
        "Python": [e.python_version or "?" for e in envs],
        "OpenSSL": [str(e.get("openssl_version") or "?") for e in envs],
        "CipherBench": [e.cipherbench_version or "?" for e in envs],
    }
    for name in dict.fromkeys(n for e in envs for n in e.packages):
        props[name] = [str(e.packages.get(name) or "-") for e in envs]
    props["How run"] = [s.how_run for s in sources]
    return [(what, tuple(values)) for what, values in props.items() if len(set(values)) > 1]


def _features(env: Environment) -> str:
    on = sorted(k for k, v in env.cpu_features.items() if v)
    return ", ".join(on) or "none recorded"


def source_labels(candidates: Sequence[Sequence[str | None]]) -> list[str]:
    """A unique column-group label for each source from its candidate names, best first (the
    host name, the CPU, the file name): the first kind of name that tells every source apart;
    otherwise the first name each has, with its place in the list to tell equal ones apart."""
    depth = max((len(c) for c in candidates), default=0)
    for level in range(depth):
        names = [c[level] if level < len(c) else None for c in candidates]
        if all(names) and len(set(names)) == len(names):
            return [str(n) for n in names]
    firsts = [next((n for n in c if n), "run") for c in candidates]
    return [f"{name} ({i})" for i, name in enumerate(firsts, 1)]
