"""``merge``: results from several machines (or library versions) in one table.

    python main.py merge A.json B.json ... [--run ID ...] [--label NAME ...]
                         [--reference ID] [--units MB/s] [--direction encrypt|decrypt]
                         [--out PATH ...]

Each input is a ``--out x.json`` file of any command or a ``history export``; ``--run`` takes
runs from this machine's history. Bench runs and cipher studies: prints the merged table and
the normalised one (each figure over the reference entry's on the same machine) fitted to the
terminal, then what differs between the machines. Runs of one other kind (key setup, sweep,
...): each table of theirs with one column per run. ``--out`` writes .html, .xlsx, .md, .tex,
.adoc, .csv or .json. Exit codes: 0, 2 bad input.
"""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.outputs import check_outputs, write_outputs
from app.cli.report import terminal_width
from app.cli.run_outputs import add_out_option
from app.core.document.terminal import fitted_table, render, wrapped
from app.core.errors import UserError
from app.core.kinds import formats


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``merge``'s arguments (its name and help: :func:`app.cli.main._commands`)."""
    from app.core.study.figures import UNITS

    p.add_argument("files", nargs="*", metavar="FILE", help="an exported run (.json)")
    p.add_argument(
        "--run", action="append", type=int, default=[], metavar="ID", help="a history run id"
    )
    p.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="NAME",
        help="a column group's name, one per run in order (default: host, CPU or file name)",
    )
    p.add_argument(
        "--reference",
        metavar="ID",
        help="the entry each machine's figures are divided by, e.g. aes-128-gcm "
        "(default: the first entry every run has)",
    )
    p.add_argument("--units", choices=list(UNITS), help="default MB/s")
    p.add_argument("--direction", choices=["encrypt", "decrypt"], help="default encrypt")
    add_out_option(
        p,
        formats.MERGED,
        "the merged tables (runs of a kind other than bench and study: their own tables side "
        "by side, in the same suffixes)",
    )


def cmd_merge(args: argparse.Namespace) -> int:
    from app.core.history.merging import merge_sources
    from app.core.history.store import History
    from app.core.publish.merge import MergedResult
    from app.core.publish.merged_documents import merge_runs

    if len(args.files) + len(args.run) < 2:
        raise UserError("merge needs at least two runs (files or --run IDs)")
    check_outputs(formats.MERGED, args.out, inputs=args.files)
    runs = []
    if args.run:
        with History.open() as history:
            runs = [history.load(run_id) for run_id in args.run]
    sources = merge_sources(args.files, runs, args.label)
    merged = merge_runs(
        sources, reference=args.reference, units=args.units, direction=args.direction
    )
    if isinstance(merged, MergedResult):
        print(format_merged(merged, terminal_width()))
    else:
        print(render(merged.document, terminal_width()))
    write_outputs(merged, args.out, args.files)
    return 0


def format_merged(merged: Any, width: int | None = 80) -> str:
    from app.core.publish.merge_writers import (
        differences_rows,
        figures_table,
        normalised_table,
        sources_section,
    )

    lines: list[str] = []
    for line in sources_section(merged.sources).lines:
        lines += wrapped(line, width, "    ")
    for table in (figures_table(merged), normalised_table(merged)):
        if table is None:
            continue
        rows = [list(table.headers), *table.text_rows()]
        lines += ["", table.caption, fitted_table(rows, width)]
        for note in table.notes:
            lines += wrapped(note, width)
    lines += ["", "What differs between the runs:"]
    if not merged.differences:
        lines.append("  nothing recorded: the same machine and software")
    for row in differences_rows(merged):
        lines += wrapped(
            f"  {row[0]}: "
            + "; ".join(f"{n}: {v}" for n, v in zip(merged.labels, row[1:], strict=True)),
            width,
            "    ",
        )
    return "\n".join(lines)
