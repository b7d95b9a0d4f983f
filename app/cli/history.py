"""``history``: the runs stored so far, on the command line.

    python main.py history list [--json]        # one run per line: id, date, machine, input,
                                                # ciphers
    python main.py history show ID              # the table, as bench/study/transfer print it
    python main.py history compare A B [--json] # per job: ratio of medians, 95 % CI, verdict
    python main.py history trend ID [--entry T] # the run's series over time, steps marked
    python main.py history export ID --out F    # the run as JSON (plus its host name)
    python main.py history import F             # a bench/study/transfer --out file or an export
    python main.py history delete ID
    python main.py history path                 # where the database is

``bench``, ``study`` and ``transfer`` store every finished run (``saved to history as run 12``
on stderr, unless ``--quiet``); ``--no-history`` or ``CIPHERBENCH_NO_HISTORY=1`` stores nothing.
A run cancelled with Ctrl-C writes no results and stores nothing either. A history that cannot
store (a newer version's, a full disk) gives a warning, never a failed benchmark; it can still
be listed, shown and exported. The tables printed are made in :mod:`app.cli.history_format`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from typing import Any

from app.cli.history_format import format_comparison, format_list, format_run, format_trend
from app.cli.outputs import check_outputs, is_folder, write_outputs
from app.cli.storing import warn
from app.core.errors import UserError
from app.core.kinds import table
from app.core.text import display_text

PROG = "cipherbench"

# --- the command ----------------------------------------------------------------------------------


def add_actions(p: argparse.ArgumentParser) -> None:
    """``history``'s actions, each a command of its own (list, show, compare, ...)."""
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    actions.required = True
    a = actions.add_parser("list", help="one run per line: id, date, machine, input, ciphers")
    a.add_argument("--kind", choices=table.stored_names(), help="only runs of this kind")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=cmd_list)
    a = actions.add_parser("show", help="a run's table, as it was printed")
    a.add_argument("id", type=_run_id, metavar="ID")
    a.set_defaults(handler=cmd_show)
    a = actions.add_parser("compare", help="run B against run A, job by job, with 95 %% CIs")
    a.add_argument("a", type=_run_id, metavar="ID_A", help="the baseline")
    a.add_argument("b", type=_run_id, metavar="ID_B")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=cmd_compare)
    _add_trend(actions)
    _add_export(actions)
    a = actions.add_parser("import", help="store a bench/study/transfer JSON or an export")
    a.add_argument("file", metavar="F.json")
    a.set_defaults(handler=cmd_import)
    a = actions.add_parser("delete", help="remove a run")
    a.add_argument("id", type=_run_id, metavar="ID")
    a.set_defaults(handler=cmd_delete)
    a = actions.add_parser("path", help="where the history database is")
    a.set_defaults(handler=cmd_path)


def _add_trend(actions: Any) -> None:
    """``history trend ID [--entry TEXT] [--json]``."""
    a = actions.add_parser(
        "trend",
        help="a run's series (same definition, same machine) over time, steps beyond the "
        "noise marked with what changed",
        description="Every run of the same kind and definition on the same machine, oldest "
        "first: per entry and direction, each run's median throughput with its 95 % interval "
        "over the rounds; a step is marked where the runs after differ from the runs before "
        "by more than 3 % (the whole 95 % interval, which covers the noise between runs), "
        "labelled with what changed in the environment (library versions, OS, CPU).",
    )
    a.add_argument("id", type=_run_id, metavar="ID")
    a.add_argument(
        "--entry",
        metavar="TEXT",
        help="only the entries whose name holds TEXT (e.g. aes-256-gcm, cryptography, 64 KB)",
    )
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=cmd_trend)


def _add_export(actions: Any) -> None:
    """``history export ID --out F``."""
    a = actions.add_parser(
        "export", help="write a run as JSON (importable elsewhere), or .xlsx/.csv/.html"
    )
    a.add_argument("id", type=_run_id, metavar="ID")
    a.add_argument(
        "--out",
        required=True,
        metavar="F.json",
        help="the file to write: .json (importable), or any format of the run's kind "
        "(.xlsx, .csv; .html for a study); or a folder (ending in /): the paper set, every "
        "table and figure for a paper and methods.txt",
    )
    a.set_defaults(handler=cmd_export)


def _run_id(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        shown = text if len(text) <= 24 else text[:20] + "..."
        if text.isascii() and text.isdigit():  # more digits than Python converts: no run
            raise UserError(
                f"there is no run {shown} ({len(text):,} digits) in the history"
            ) from None
        raise argparse.ArgumentTypeError(f"not a run id: {shown!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a run id: {value} (ids start at 1)")
    return value


def _open(*, changes: bool = False) -> Any:
    """The history, its warning shown, unless ``changes`` are to be made to a read-only
    history: then the error that follows says the same, once."""
    from app.core.history.store import History

    history = History.open()
    if not (changes and history.read_only):
        warn(history.warning)
    return history


def _width() -> int:
    return max(60, shutil.get_terminal_size((80, 24)).columns) if sys.stdout.isatty() else 80


def cmd_path(args: argparse.Namespace) -> int:
    from app.core.history.location import history_path, storing_disabled

    print(display_text(str(history_path())))
    if storing_disabled():
        print("note: CIPHERBENCH_NO_HISTORY is set: nothing is stored", file=sys.stderr)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    with _open() as history:
        runs = history.list_runs(kind=args.kind)
        path = history.path
    if args.json:
        print(json.dumps([r.to_dict() for r in runs], indent=2, ensure_ascii=False))
        return 0
    if not runs:
        print(display_text(f"no runs in the history yet ({path})"), file=sys.stderr)
        return 0
    print(display_text("\n".join(format_list(runs, _width()))))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    with _open() as history:
        stored = history.load(args.id)
    s = stored.summary
    where = "stored here" if s.source == "here" else "imported"
    lines = textwrap.wrap(
        f"Run {s.id}: {s.kind}, {s.date_text()}, machine {s.machine}"
        + (f" ({s.cpu_model})" if s.cpu_model and s.cpu_model != s.machine else "")
        + f", {where}; {s.title}",
        _width(),
        break_on_hyphens=False,
    )
    print(display_text("\n".join(lines)))
    print(format_run(s.kind, stored.result, _width()))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from app.core.history.compare import compare
    from app.core.publish.merged_documents import MergedDocuments

    with _open() as history:
        a, b = history.load(args.a), history.load(args.b)
    comparison = compare(a, b)
    if isinstance(comparison, MergedDocuments):  # a kind not compared job by job
        from app.core.document.jsonfile import render as json_text
        from app.core.document.terminal import render

        if args.json:
            print(json_text(comparison.document), end="")
            return 0
        said = (
            f"Run {b.id} beside run {a.id}, table by table, with no verdict: only bench runs, "
            "studies and transfers are compared job by job. Each figure has its own 95 % "
            "interval."
        )
        print(display_text("\n".join([*textwrap.wrap(said, _width()), ""])))
        print(display_text(render(comparison.document, _width())))
        return 0
    if args.json:
        from app.core.export.json_export import json_safe

        print(json.dumps(json_safe(comparison.to_dict()), indent=2, ensure_ascii=False))
    else:
        print(display_text("\n".join(format_comparison(comparison, _width()))))
    return 0


def cmd_trend(args: argparse.Namespace) -> int:
    from app.core.history.trend import trend_of

    with _open() as history:
        trend = trend_of(history, args.id)
    entries = trend.entries
    if args.entry:
        wanted = args.entry.casefold()
        entries = tuple(e for e in entries if wanted in e.entry.casefold())
        if not entries:
            raise UserError(
                f"no entry of run {args.id}'s series holds {args.entry!r}; its entries: "
                + ", ".join(trend.entry_names())
            )
    if args.json:
        from app.core.export.json_export import json_safe

        doc = {**trend.to_dict(), "entries": [e.to_dict() for e in entries]}
        print(json.dumps(json_safe(doc), indent=2, ensure_ascii=False))
        return 0
    if len(trend.runs) == 1:
        s = trend.runs[0]
        print(
            display_text(
                f"run {s.id} has no series: no other {s.kind} with its definition on "
                f"{s.machine}; run it again, then `history trend {s.id}`"
            ),
            file=sys.stderr,
        )
        return 0
    print(display_text("\n".join(format_trend(trend, entries, _width()))))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    with _open() as history:
        if is_folder(args.out):  # the paper set of a stored run, as the run's --out FOLDER/
            result = history.load(args.id).result
            check_outputs(table.kind_of(result).files, [args.out])
            write_outputs(result, [args.out])
            return 0
        path = history.export(args.id, args.out)
    print(display_text(f"wrote {path}"), file=sys.stderr)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    with _open(changes=True) as history:
        run_id = history.import_file(args.file)
        title = history.summary(run_id).title
    print(display_text(f"imported as run {run_id}: {title}"))
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    with _open(changes=True) as history:
        history.delete(args.id)
    print(f"deleted run {args.id}", file=sys.stderr)
    return 0
