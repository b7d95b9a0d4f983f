"""What the History window reads or computes in the pool (never in the GUI thread): each a
plain function of the history's path, its result handed back to the window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.history.store import History


def compare(path: Path, id_a: int, id_b: int) -> Any:
    from app.core.history.compare import compare

    with History.open(path) as history:
        return compare(history.load(id_a), history.load(id_b))


def trend(path: Path, run_id: int) -> Any:
    from app.core.history.trend import trend_of

    with History.open(path) as history:
        return trend_of(history, run_id)


def merge(path: Path, ids: list[int]) -> Any:
    """``(sources, merged)``: the runs ``ids`` labelled and merged, row by row or table by
    table (``UserError`` naming a run that cannot be merged with the others: a transfer study
    is only told apart from a cipher study once read)."""
    from app.core.history.merging import merge_sources
    from app.core.publish.merge import mergeable
    from app.core.publish.merged_documents import merge_runs
    from app.gui.history.merged_view import shared_units

    with History.open(path) as history:
        runs = [history.load(run_id) for run_id in ids]
    sources = merge_sources(runs=runs)
    rows = all(mergeable(s.result) for s in sources)
    return sources, merge_runs(sources, units=shared_units(sources) if rows else None)


def load(path: Path, run_id: int) -> Any:
    with History.open(path) as history:
        return history.load(run_id)


def read_export_file(path: str) -> Any:
    """``(path, kind, result, history section)`` of an exported run (nothing is imported)."""
    from app.core.history.exchange import read_export

    kind, _doc, result, meta = read_export(Path(path))
    return path, kind, result, meta
