"""The runs to merge (:mod:`app.core.publish.merge`), from exported files or from the history,
each with a label that tells it apart from the others: the host it ran on where the file says
(a history export does), else its CPU, else its file name or run id."""

from __future__ import annotations

import os
import platform
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.core.errors import UserError
from app.core.history.exchange import read_export
from app.core.history.records import StoredRun
from app.core.kinds import table
from app.core.publish.merge import MergeSource, environment_of, mergeable, source_labels

MAX_SOURCES = 64  # one column group each: more is no longer a table anyone reads


def _check_kinds(found: Sequence[tuple[str, Any, list[str | None]]]) -> None:
    """``UserError`` unless the runs are all bench runs and cipher studies (merged row by
    row) or all of one other kind (merged table by table)."""
    if all(mergeable(result) for _, result, _ in found):
        return
    rows = [table.kind_of(result) for _, result, _ in found]
    other = next((i for i, row in enumerate(rows) if row != rows[0]), None)
    if other is not None:
        raise UserError(
            f"cannot put {found[other][0]} ({rows[other].noun}) beside {found[0][0]} "
            f"({rows[0].noun}): only runs of one kind go side by side (bench runs and cipher "
            "studies merge together)"
        )


def _labelled(
    found: Sequence[tuple[str, Any, list[str | None]]],
    labels: Sequence[str],
    integrity: Sequence[str],
) -> list[MergeSource]:
    if len(found) > MAX_SOURCES:
        raise UserError(f"merge takes at most {MAX_SOURCES} runs, not {len(found)}")
    if labels and len(labels) != len(found):
        raise UserError(f"{len(labels)} labels given for {len(found)} runs: give one per run")
    software = _software_names([r for _, r, _ in found])
    candidates = [[*c[:2], sw, *c[2:]] for (_, _, c), sw in zip(found, software, strict=True)]
    names = list(labels) or source_labels(candidates)
    return [
        MergeSource(n, origin, r, state)
        for n, (origin, r, _), state in zip(names, found, integrity, strict=True)
    ]


def _software_names(results: Sequence[Any]) -> list[str | None]:
    """For runs of one machine with other library versions: ``"cryptography 45.0.1"`` (the
    packages whose versions differ between the runs), one per run; None where none differ."""
    packages = [dict(environment_of(r).packages) for r in results]
    names = [n for n in dict.fromkeys(k for p in packages for k in p) if n]
    differ = [n for n in names if len({p.get(n) for p in packages}) > 1]
    if not differ:
        return [None] * len(results)
    return [", ".join(f"{n} {p.get(n) or '-'}" for n in differ) for p in packages]


def _check_distinct(paths: Sequence[Path], run_ids: Sequence[int]) -> None:
    """``UserError`` for a file or run given twice: two equal column groups compare nothing."""
    for what, items in (("file", paths), ("run", run_ids)):
        twice = next((x for i, x in enumerate(items) if x in items[:i]), None)
        if twice is not None:
            raise UserError(f"{what} {twice} is given twice: merge each run once")


def merge_sources(
    paths: Sequence[str | Path] = (), runs: Sequence[StoredRun] = (), labels: Sequence[str] = ()
) -> list[MergeSource]:
    """Each exported JSON file (``bench``/``study --out x.json`` or ``history export``), then
    each stored run, as a source with a label of its own (``labels``, one per source, or
    chosen: see the module docstring). ``UserError`` naming the file or run that cannot be
    read or merged."""
    _check_distinct([Path(os.path.realpath(p)) for p in paths], [run.id for run in runs])
    found: list[tuple[str, Any, list[str | None]]] = []
    integrity: list[str] = []
    for path in paths:
        p = Path(path)
        _kind, _doc, result, meta = read_export(p)
        host = meta.get("hostname") if isinstance(meta.get("hostname"), str) else None
        found.append((p.name, result, [host, environment_of(result).cpu_model, p.stem]))
        integrity.append(str(meta.get("digest_state", "")))
    for run in runs:
        origin = f"run {run.id}"
        cpu = environment_of(run.result).cpu_model
        found.append((origin, run.result, [run.summary.hostname or None, cpu, origin]))
        integrity.append("")
    _check_kinds(found)
    return _labelled(found, labels, integrity)


def rerun_sources(
    original: Any, origin: str, host: str | None, integrity: str, new: Any
) -> list[MergeSource]:
    """An original run (from ``origin``, run on ``host`` where known, its file's digest state
    ``integrity``) and its rerun here, ``new``, as two labelled sources: by host name when they
    differ, else by CPU, else "original" and "rerun"."""
    labels = source_labels(
        [
            [host, environment_of(original).cpu_model, "original"],
            [platform.node() or None, environment_of(new).cpu_model, "rerun"],
        ]
    )
    return [
        MergeSource(labels[0], origin, original, integrity),
        MergeSource(labels[1], "this run", new, "new"),
    ]
