"""Results of several runs as one: what a window shows and exports until it is reset.

Qt-free. A cell (cipher entry x input) measured again in a later run keeps both results: the
later one's input is labelled ``"<input> (run N)"``, so no row, chart or comparison mixes runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields, replace

from app.core.bench.results import JobResult, RunResult
from app.core.bench.run_info import InputSummary, RunOptions


def unique_label(label: str, taken: set[str], qualifier: str = "") -> str:
    """``label``, or the first of ``"label (qualifier)"`` (a file's folder), ``"label #2"``,
    ``"label #3"`` ... that ``taken`` does not hold."""
    if label not in taken:
        return label
    if qualifier and f"{label} ({qualifier})" not in taken:
        return f"{label} ({qualifier})"
    n = 2
    while f"{label} #{n}" in taken:
        n += 1
    return f"{label} #{n}"


def relabel(
    results: Iterable[JobResult], run_no: int, taken: set[tuple[str, str]]
) -> list[JobResult]:
    """``results`` of run ``run_no`` (1-based), inputs renamed where ``taken`` has the cell;
    the cells used are added to ``taken``."""
    out: list[JobResult] = []
    for r in results:
        if (r.label, r.input_label) in taken:
            labels = {i for entry, i in taken if entry == r.label}
            r = replace(r, input_label=unique_label(f"{r.input_label} (run {run_no})", labels))
        taken.add((r.label, r.input_label))
        out.append(r)
    return out


def combine_bench_runs(runs: Sequence[RunResult], results: Sequence[JobResult]) -> RunResult | None:
    """One :class:`RunResult` over ``runs`` with their (relabelled) ``results``: every run's
    failures, the inputs of the results, the options the runs shared, the last run's
    environment, the first run's start and the last one's end; cancelled when the last run
    was (``extra`` counts the runs and the cancelled ones). None without runs."""
    if not runs:
        return None
    last = runs[-1]
    inputs = {InputSummary(r.input_label, r.input_bytes): None for r in results}
    # An option that differed between the runs is "not recorded" (each result's samples
    # still say how many repetitions it had); the runs and the cancelled ones are counted.
    differing = {
        f.name: None
        for f in fields(RunOptions)
        if f.name not in ("inputs", "extra")
        and len({getattr(run.options, f.name) for run in runs}) > 1
    }
    extra = dict(last.options.extra)
    if len(runs) > 1:
        extra["runs"] = len(runs)
        extra["cancelled_runs"] = sum(run.cancelled for run in runs)
    return replace(
        last,
        results=tuple(results),
        failures=tuple(f for run in runs for f in run.failures),
        options=replace(last.options, inputs=tuple(inputs), extra=extra, **differing),
        started_at=runs[0].started_at,
        cancelled=last.cancelled,
    )
