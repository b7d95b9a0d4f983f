"""What the History window's status bar says once a comparison, a trend or a merge read in the
pool has come back: one sentence each, from the result. Plain text, no widgets."""

from __future__ import annotations

from typing import Any


def compared(comparison: Any) -> str:
    """Run B against run A (a :class:`~app.core.history.compare` comparison), in counts."""
    return (
        f"Run {comparison.run_b.id} against run {comparison.run_a.id}: "
        f"{comparison.improvements} improvement(s), {comparison.regressions} regression(s)."
    )


def no_series(trend: Any) -> str:
    """Why a run alone in its series shows no trend, and what would make one."""
    s = trend.runs[0]
    return (
        f"Run {s.id} has no series: no other {s.kind} with its definition on "
        f"{s.machine}. Run it again to see a trend."
    )


def series(trend: Any) -> str:
    """How many runs and steps a trend found."""
    return f"Run {trend.run_id}'s series: {len(trend.runs)} runs, {len(trend.steps)} step(s)."


def merged(sources: Any, merged: Any) -> str:
    """How many runs were merged into how many rows (or tables), and how many differences
    between them."""
    rows = getattr(merged, "rows", None)
    made = f"{len(rows)} rows" if rows is not None else f"{len(merged.document.tables)} table(s)"
    return (
        f"Merged {len(sources)} runs: {made}, {len(merged.differences)} difference(s) between them."
    )


def side_by_side(merged: Any) -> str:
    """The line above two runs compared table by table (a kind not compared job by job)."""
    a, b = merged.labels
    return (
        f"{b[:1].upper()}{b[1:]} beside {a}, table by table, with no verdict: only bench runs, "
        "studies and transfers are compared job by job."
    )
