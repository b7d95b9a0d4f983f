"""Results of several runs as one: what a window shows and exports until it is reset.

Qt-free. A cell (cipher entry x input) measured again in a later run keeps both results: the
later one's input is labelled ``"<input> (run N)"``, so no row, chart or comparison mixes runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from app.core.bench.results import JobResult, RunResult
from app.core.bench.run_info import InputSummary


def relabel(
    results: Iterable[JobResult], run_no: int, taken: set[tuple[str, str]]
) -> list[JobResult]:
    """``results`` of run ``run_no`` (1-based), inputs renamed where ``taken`` has the cell;
    the cells used are added to ``taken``."""
    out: list[JobResult] = []
    for r in results:
        if (r.label, r.input_label) in taken:
            r = replace(r, input_label=f"{r.input_label} (run {run_no})")
        taken.add((r.label, r.input_label))
        out.append(r)
    return out


def combine_bench_runs(runs: Sequence[RunResult], results: Sequence[JobResult]) -> RunResult | None:
    """One :class:`RunResult` over ``runs`` with their (relabelled) ``results``: every run's
    failures and inputs, the last run's options and environment, the first run's start and the
    last one's end; cancelled when any was. None without runs."""
    if not runs:
        return None
    last = runs[-1]
    inputs = {i: None for run in runs for i in (run.options.inputs or ())}
    inputs.update({InputSummary(r.input_label, r.input_bytes): None for r in results})
    return replace(
        last,
        results=tuple(results),
        failures=tuple(f for run in runs for f in run.failures),
        options=replace(last.options, inputs=tuple(inputs)),
        started_at=runs[0].started_at,
        cancelled=any(run.cancelled for run in runs),
    )
