"""Results of several study runs as one: what the window shows and exports until cleared.

Qt-free. A cell (cipher entry x input) measured again in a later run keeps both results: the
later one's input is labelled ``"<input> (run N)"``, so no row, fit or comparison mixes runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.core.bench.results import JobResult
from app.core.study.result import StudyFailure, StudyResult


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
