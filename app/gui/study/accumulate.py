"""Results of several study runs as one: what the window shows and exports until cleared.

Qt-free. A cell (cipher entry x input) measured again in a later run keeps both results: the
later one's input is labelled ``"<input> (run N)"``, so no row, fit or comparison mixes runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from app.core.bench.results import JobResult
from app.core.study.result import StudyFailure, StudyResult


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


def combine_runs(
    runs: Sequence[StudyResult], results: Sequence[JobResult], units: str
) -> StudyResult | None:
    """One ``StudyResult`` over ``runs`` with the (relabelled) ``results``, reported in
    ``units``: the last run's study and method, the first run's start. None without runs."""
    if not runs:
        return None
    last = runs[-1]
    failures: list[StudyFailure] = [f for run in runs for f in run.failures]
    return replace(
        last,
        study=replace(last.study, units=units),
        results=tuple(results),
        failures=tuple(failures),
        started_at=runs[0].started_at,
        cancelled=any(run.cancelled for run in runs),
    )
