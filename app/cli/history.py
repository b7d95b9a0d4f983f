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
be listed, shown and exported.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from app.cli.outputs import check_outputs, is_folder, write_outputs
from app.cli.storing import warn
from app.core.document.numbers import seconds_text
from app.core.errors import UserError
from app.core.kinds import table
from app.core.text import display_text

PROG = "cipherbench"
_VERDICTS = {  # the comparison's verdicts, short enough for an 80-column table
    "improvement": "faster",
    "regression": "SLOWER",
    "equal within the margin": "equal (1 %)",
    "no clear difference": "undecided",
    "too few rounds": "too few rounds",
    "not comparable": "not comparable",
}


# --- the command ----------------------------------------------------------------------------------


def register(sub: Any) -> None:
    """Add the ``history`` command to the subparsers ``sub`` of the main parser."""
    p = sub.add_parser(
        "history",
        help="the runs stored so far: list, show, compare, trend, export, import, delete",
        description="Every finished bench, study and transfer is stored in a database in your "
        "data folder (CIPHERBENCH_HISTORY=FILE uses another). List, show and compare the runs, "
        "or move them between machines as JSON.",
    )
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
    a = actions.add_parser("import", help="store a bench/study/transfer JSON or an export")
    a.add_argument("file", metavar="F.json")
    a.set_defaults(handler=cmd_import)
    a = actions.add_parser("delete", help="remove a run")
    a.add_argument("id", type=_run_id, metavar="ID")
    a.set_defaults(handler=cmd_delete)
    a = actions.add_parser("path", help="where the history database is")
    a.set_defaults(handler=cmd_path)


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


def format_list(runs: Sequence[Any], width: int = 80) -> list[str]:
    """One line per run: id, local date, machine, kind, inputs, ciphers; no line over
    ``width``. Several inputs read ``a.txt, b.pdf +2`` (a long name keeps its end, its
    extension), several ciphers ``aes-128-cbc, aes-192-cbc +1``."""
    id_width = max(2, *(len(str(r.id)) for r in runs))
    machine_width = min(16, max(7, *(len(r.machine) for r in runs)))
    if width - (id_width + machine_width + 32) < 30:  # a narrow terminal: a shorter machine
        machine_width = 7
    # What is left after KIND goes to the inputs and the ciphers: the inputs take what they
    # need if the ciphers fit beside them, else at least half.
    room = width - (id_width + machine_width + 32) - 2
    ciphers_need = max(len(_flags(r) + ", ".join(r.ciphers)) for r in runs)
    input_room = max(8, room // 2, room - ciphers_need)
    inputs = [_some(r.inputs, input_room, _clip_middle) or "-" for r in runs]
    input_width = max(5, *(len(text) for text in inputs))
    head = (
        f"{'ID':>{id_width}}  {'DATE':<16}  {'MACHINE':<{machine_width}}  {'KIND':<8}  "
        f"{'INPUT':<{input_width}}  CIPHERS"
    )
    lines = [head[:width]]
    for r, input_text in zip(runs, inputs, strict=True):
        machine = _clip(r.machine, machine_width)
        start = f"{r.id:>{id_width}}  {r.date_text():<16}  {machine:<{machine_width}}  "
        start += f"{r.kind:<8}  {input_text:<{input_width}}  "
        flags = _flags(r)
        ciphers = flags + _some(r.ciphers, width - len(start) - len(flags), _clip)
        lines.append((start + ciphers)[:width].rstrip())
    return lines


def _flags(run: Any) -> str:
    return ("(cancelled) " if run.cancelled else "") + (
        "(imported) " if run.source == "imported" else ""
    )


def _some(items: Sequence[str], room: int, clip: Callable[[str, int], str]) -> str:
    """As many of ``items`` as fit in ``room`` characters, then ``+N`` for the others
    (``"a.txt, b.pdf +1"``); the first ``clip``-ped when even it does not fit."""
    for shown in range(len(items), 0, -1):
        rest = len(items) - shown
        text = ", ".join(items[:shown]) + (f" +{rest}" if rest else "")
        if len(text) <= room:
            return text
    more = f" +{len(items) - 1}" if len(items) > 1 else ""
    return clip(items[0], max(3, room - len(more))) + more if items else ""


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."


def _clip_middle(text: str, width: int) -> str:
    """``text`` in ``width`` characters, its start and its end (a file's extension) kept."""
    if len(text) <= width:
        return text
    if width <= 3:
        return text[:width]
    tail = (width - 3) // 2
    return text[: width - 3 - tail] + "..." + text[len(text) - tail :]


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


def format_run(kind: str, result: Any, width: int) -> str:
    """The run's report as its own command prints it."""
    if kind == "bench":
        from app.cli.report import format_results

        return format_results(result)
    if kind == "study":
        from app.cli.study import format_study
        from app.cli.study_transfer import format_transfer_study
        from app.core.study.transfer_result import TransferStudyResult

        if isinstance(result, TransferStudyResult):
            return format_transfer_study(result, width)
        return format_study(result, width)
    if kind == "sweep":
        from app.cli.sweep import format_sweep

        return format_sweep(result, width)
    if kind != "transfer":  # a kind made from its definition: its document, as its command
        from app.core.document.terminal import render

        return render(table.kind_of(result).document_of(result), width)
    from app.cli.transfer import format_transfers

    lines = [format_transfers(result.results, result.input_label, width)]
    lines += [f"FAILED {f.cipher}: {f.message}" for f in result.failures]
    return display_text("\n".join(lines))


def cmd_compare(args: argparse.Namespace) -> int:
    from app.core.history.compare import compare_runs

    with _open() as history:
        a, b = history.load(args.a), history.load(args.b)
    comparison = compare_runs(a, b)
    if args.json:
        from app.core.export.json_export import json_safe

        print(json.dumps(json_safe(comparison.to_dict()), indent=2, ensure_ascii=False))
    else:
        print(display_text("\n".join(format_comparison(comparison, _width()))))
    return 0


def format_comparison(c: Any, width: int = 80) -> list[str]:
    """A table per job (direction, both medians, ratio, CI, verdict), then what is only in
    one run and the notes; no line over ``width``."""
    ra, rb = f"run {c.run_a.id}", f"run {c.run_b.id}"

    def wrap(text: str) -> list[str]:
        return textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False)

    lines = wrap(
        f"Run {c.run_b.id} ({c.run_b.date_text()}, {c.run_b.machine}) against run {c.run_a.id} "
        f"({c.run_a.date_text()}, {c.run_a.machine})."
    )
    lines += wrap(
        f"RATIO = time in {rb} / in {ra} (below 1: {rb} is faster); 95 % CI over the "
        "rounds of each run (each job in a fresh worker per round; at least 4 a side)."
    )
    level = None
    for job in c.jobs:
        lines.append("")
        lines.extend(wrap(job.label))
        rows = [("", ra, rb, "RATIO", "95 % CI", "VERDICT")]
        for d in job.directions:
            level = d.confidence
            ci = f"{d.low:.3f}-{d.high:.3f}" if d.low == d.low else "-"  # nan: no interval
            ratio = f"{d.ratio:.3f}" if d.ratio == d.ratio else "-"
            rows.append(
                (
                    d.direction,
                    seconds_text(d.median_a_s),
                    seconds_text(d.median_b_s),
                    ratio,
                    ci,
                    _VERDICTS.get(d.verdict, d.verdict),
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(6)]
        for r in rows:
            cells = [r[0].ljust(widths[0])]
            cells += [v.rjust(w) for v, w in zip(r[1:5], widths[1:5], strict=True)]
            lines.append(("  " + "  ".join([*cells, r[5]])).rstrip()[:width])
    if level is None:
        lines.append("")
        lines.append("No job ran in both runs (same cipher entry on the same input or size).")
    for name, only in ((ra, c.only_in_a), (rb, c.only_in_b)):
        if only:
            lines.append("")
            lines.extend(wrap(f"Only in {name}: " + "; ".join(only)))
    if c.notes:
        lines.append("")
        lines.append("Notes:")
        for note in c.notes:
            lines.extend(wrap(f"- {note}"))
    lines.append("")
    lines.append(
        f"{c.improvements} faster, {c.regressions} slower (the whole 95 % interval beyond 1 %)."
    )
    return lines


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


_SLOWER, _FASTER = "v", "^"  # beside a figure at a step: lower or higher throughput after it


def format_trend(t: Any, entries: Sequence[Any], width: int = 80) -> list[str]:
    """Run ``t.run_id``'s series: a table per entry (date, run, each direction's median MB/s
    [95 % CI]) with the steps marked and labelled, then what changed along the series; no line
    over ``width``."""
    from app.core.history.trend import NOTHING_CHANGED, quiet_sentence

    def wrap(text: str, indent: str = "") -> list[str]:
        return textwrap.wrap(
            text,
            width,
            initial_indent=indent,
            subsequent_indent=indent + "  ",
            break_on_hyphens=False,
        )

    runs = t.runs
    cpu = f" ({t.cpu_model})" if t.cpu_model and t.cpu_model != t.machine else ""
    lines = wrap(
        f"Run {t.run_id}'s series: {len(runs)} {t.kind} runs with the same definition on "
        f"{t.machine}{cpu}, {runs[0].date_text()} to {runs[-1].date_text()}."
    )
    lines += wrap(
        f"{t.method()} Beside a figure, {_SLOWER} is lower and {_FASTER} higher throughput "
        "from that run on; * marks the run."
    )
    for name in dict.fromkeys(e.entry for e in entries):
        directions = [e for e in entries if e.entry == name]
        lines.append("")
        lines.extend(wrap(name))
        table = _trend_table(runs, directions)
        if max(map(len, table)) > width:  # one table per direction
            table = [row for e in directions for row in ["", *_trend_table(runs, [e])]][1:]
        lines.extend(row[:width] for row in table)
        steps = sorted(
            ((s, e.direction) for e in directions for s in e.steps), key=lambda p: p[0].position
        )
        for step, direction in steps:
            lines.extend(wrap(step.sentence(direction), "  "))
        if not steps:
            lines.extend(wrap(quiet_sentence(directions), "  "))
    lines.append("")
    if t.changes:
        lines.append("What changed in the environment along the series:")
        for c in t.changes:
            lines.extend(wrap(f"- {c.sentence()}"))
    else:
        lines.extend(wrap(NOTHING_CHANGED))
    marked = [e for e in entries if e.steps]
    count = sum(len(e.steps) for e in marked)
    lines.append(
        f"{count} step(s) in {len(marked)} of {len(entries)} series (entry x direction)."
        if count
        else f"No step beyond the noise in {len(entries)} series (entry x direction)."
    )
    return lines


def _trend_table(runs: Sequence[Any], directions: Sequence[Any]) -> list[str]:
    """Rows of date, run id and each direction's figure with a step's marker; ``*`` before a
    run where any of them has a step."""
    id_width = max(3, *(len(str(r.id)) for r in runs))
    cells = []
    for e in directions:  # "1,000 [985, 1,020]": the medians aligned on their last digit
        parts = [p.text().partition(" [") if p is not None else ("-", "", "") for p in e.points]
        room = max(len(median) for median, _, _ in parts)
        cells.append([f"{median:>{room}}{sep}{rest}" for median, sep, rest in parts])
    widths = [
        max(len(f"{e.direction.upper()} MB/s"), *(len(c) for c in col))
        for e, col in zip(directions, cells, strict=True)
    ]
    head = f"  {'DATE':<16}  {'RUN':>{id_width}}"
    for e, w in zip(directions, widths, strict=True):
        head += f"  {f'{e.direction.upper()} MB/s':<{w}}  "
    rows = [head.rstrip()]
    for i, r in enumerate(runs):
        steps = [e.step_at(i) for e in directions]
        row = f"{'*' if any(steps) else ' '} {r.date_text():<16}  {r.id:>{id_width}}"
        for col, w, step in zip(cells, widths, steps, strict=True):
            mark = "" if step is None else _FASTER if step.faster else _SLOWER
            row += f"  {col[i]:<{w}} {mark:1}"
        rows.append(row.rstrip())
    return rows


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
