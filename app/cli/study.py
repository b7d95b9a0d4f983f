"""``study``: run a whole published comparison (or a saved grid) in one command.

    python main.py study --list
    python main.py study PRESET|FILE.toml [--sizes LIST] [--files F ...] [--repeat N]
                         [--rounds K] [--max-rounds K] [--time-budget S]
                         [--precision PCT] [--margin PCT] [--units MB/s|MiB/s|KB/s] [--out PATH ...]
                         [--save-definition F.toml] [--quiet]

Progress goes to stderr; the report (per input the paper-style table, then the fits, the
comparisons and the speed-ups) to stdout, fitted to the terminal's width (80 columns too).
Exit codes as the other commands: 0, 1 a job failed, 2 bad input, 130 Ctrl-C (nothing written).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from app.cli.report import terminal_width
from app.cli.run_outputs import RunOutputs, add_out_option, add_quiet_and_history_options
from app.cli.running import add_yes_option, confirm, follow, non_negative, stopped, whole_number
from app.core.bench.results import JobResult
from app.core.document.numbers import mib_text, rate_text
from app.core.document.numbers import seconds_text as _time
from app.core.document.terminal import wrapped
from app.core.errors import UserError
from app.core.kinds import formats
from app.core.runtime.events import Progress
from app.core.study.definition import UNITS, Study, parse_sizes, study_with
from app.core.study.result import StudyResult, memory_mib, rate
from app.core.study.transfer_result import TransferStudyResult
from app.core.text import display_text


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``study``'s arguments (its name and help: :func:`app.cli.main._commands`)."""
    p.add_argument("study", nargs="?", metavar="PRESET|FILE.toml", help="a preset or a file")
    p.add_argument("--list", action="store_true", help="the shipped presets, one per line")
    p.add_argument("--sizes", metavar="LIST", help="generated sizes instead, e.g. 2KB,4KB,1MiB")
    p.add_argument(
        "--files", nargs="+", metavar="F", help="your files instead of the generated sizes"
    )
    p.add_argument("--repeat", type=whole_number(1, 1000), help="timed repetitions per job, in all")
    p.add_argument(
        "--rounds",
        type=whole_number(1, 100),
        help="rounds over the whole grid, each job in a fresh worker, in a random order per "
        "round (1: one job after another)",
    )
    p.add_argument(
        "--max-rounds",
        type=whole_number(1, 100),
        help="more rounds, up to this many, for the claims not yet precise (default: the "
        "study's; equal to --rounds: none)",
    )
    p.add_argument(
        "--time-budget",
        type=non_negative,
        metavar="S",
        help="add rounds only while the study has run less than S seconds (default: the study's)",
    )
    p.add_argument(
        "--precision",
        type=non_negative,
        metavar="PCT",
        help="a claim is precise when its 95 %% interval is within ±PCT %% (default 2)",
    )
    p.add_argument(
        "--margin",
        type=non_negative,
        metavar="PCT",
        help="differences below PCT %% read as equal within PCT %% (default 1)",
    )
    p.add_argument("--units", choices=list(UNITS), help="throughput unit (default: the study's)")
    add_out_option(p, formats.STUDY)
    p.add_argument("--save-definition", metavar="F.toml", help="save the study as run, to rerun")
    add_quiet_and_history_options(p)
    add_yes_option(p)


def _width() -> int:
    return max(40, shutil.get_terminal_size((80, 24)).columns)


# --- commands -------------------------------------------------------------------------------


def cmd_study(args: argparse.Namespace) -> int:
    from app.core.study.presets import find_study, presets

    if args.list:  # the names in a column of their own, what each compares beside them
        shipped = presets()
        names = max(len(s.name) for s in shipped)
        width = terminal_width()  # what each compares wrapped beside the names, when a terminal
        for s in shipped:
            what = f"{s.compares()}  ({s.after()})" if s.after() else ""
            lines = wrapped(what, None if width is None else width - names - 2) if what else [""]
            print(display_text(f"{s.name:<{names}}  {lines[0]}".rstrip()))
            for line in lines[1:]:
                print(display_text(" " * (names + 2) + line))
        return 0
    if not args.study:
        raise UserError("name a study (`study --list` shows the presets) or give a .toml file")
    study = study_with(
        find_study(args.study),
        # `--sizes ""` is refused (no size in it), never taken for "the study's own sizes".
        sizes=parse_sizes(args.sizes) if args.sizes is not None else None,
        files=[os.path.expanduser(f) for f in args.files] if args.files else None,
        repeat=args.repeat,
        rounds=args.rounds,
        units=args.units,
        max_rounds=args.max_rounds,
        time_budget_s=args.time_budget,
        precision_percent=args.precision,
        margin_percent=args.margin,
    )
    return run_study(study, RunOutputs.of(args), save=args.save_definition, yes=args.yes)


def run_study(study: Study, outputs: RunOutputs, *, save: str | None, yes: bool) -> int:
    from app.core.study.grid_cost import grid_cost
    from app.core.study.presets import save_study
    from app.core.study.runner import StudyRun

    cost = grid_cost(study)
    if cost.long:
        confirm(cost.sentence(), yes)

    if study.workload == "transfer":
        from app.core.study.transfer_runner import TransferStudyRun

        run: StudyRun | TransferStudyRun = TransferStudyRun(study)
    else:
        run = StudyRun(study)
    inputs = [f.path for f in run.files]
    # Fail before a long run, not after it: an export over an input or over another export.
    kind = formats.TRANSFER_STUDY if study.workload == "transfer" else formats.STUDY
    outputs.check(kind, inputs)
    if save is not None:  # `--save-definition ""` is refused, not skipped
        saved = save_study(study, save, inputs=inputs)
        print(f"saved the study to {saved}", file=sys.stderr)
    try:
        final = execute_study(run, quiet=outputs.quiet)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (see termination.py)
        return stopped(exc)
    outputs.store(final)
    outputs.write(final, inputs)
    return 1 if final.failures else 0


def study_summary(study: Study) -> str:
    """One line on what a study runs: "study keys: aes-128-cbc [pycryptodome], ... on 10 KB,
    100 KB; 6 rounds (up to 20), 12 repetitions, data seed 0"."""
    entries = ", ".join(f"{s.id} [{s.library}]" for s, _ in study.entries())
    inputs = ", ".join(s.label for s in study.sizes) or ", ".join(study.files) or "no input"
    more = f" (up to {study.max_rounds})" if study.adaptive else ""
    return (
        f"study {study.name}: {entries} on {inputs}; {study.rounds} rounds{more}, "
        f"{study.repeat} repetitions, data seed {study.data_seed}"
    )


def execute_study(run: Any, *, quiet: bool) -> StudyResult | TransferStudyResult:
    """Run ``run`` (a ``StudyRun`` or ``TransferStudyRun``) with progress on stderr and print
    its report. On Ctrl-C (or SIGTERM/SIGHUP) the workers are stopped and the generated inputs
    removed before ``KeyboardInterrupt`` is raised again."""
    # The report's modules (numpy among them) before minutes of measuring: a missing package
    # is said now, not after the run (a plain ``study --list`` or ``encrypt`` loads none).
    from app.core.study import report_text  # noqa: F401

    lines = _StudyLines(enabled=not quiet)
    start = time.monotonic()
    final: StudyResult | TransferStudyResult = follow(
        run.events(),
        run.cancel_event,
        quiet=quiet,
        on_outcome=lines.outcome,
        on_kept=lines.kept,
        line=lambda p: f"{p.fraction * 100:3.0f}% {time.monotonic() - start:4.0f}s {p.text}",
        log_steps=False,
    )
    if isinstance(final, TransferStudyResult):
        from app.cli.study_transfer import format_transfer_study  # openpyxl: only when shown

        print(format_transfer_study(final, _width()))
    else:
        print(format_study(final, _width()))
    return final


class _StudyLines:
    """The lines a study prints on stderr beside its progress line: the rounds added, each
    failed cell, and in a pipe or a log each finished cell."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.tty = sys.stderr.isatty()

    def kept(self, progress: Progress) -> None:
        from app.core.study.steps import RoundsAdded

        if isinstance(progress.detail, RoundsAdded):
            self._line(progress.what)

    def outcome(self, outcome: object) -> None:
        from app.core.study.steps import CellFailed, CellFinished

        if isinstance(outcome, CellFailed):
            cell = outcome.cell
            self._line(f"FAILED {cell.cipher_label} on {cell.input_label}: {outcome.message}")
        elif isinstance(outcome, CellFinished) and not self.tty:
            self._line(f"done {outcome.cell.cipher_label} on {outcome.cell.input_label}")

    def _line(self, text: str) -> None:
        if self.enabled:
            print(display_text(text), file=sys.stderr)


# --- the report ---------------------------------------------------------------------------------


def _table(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            (c.rjust(w) if right[i] else c.ljust(w))
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    ]


def _input_table(result: StudyResult, results: list[JobResult], width: int) -> list[str]:
    unit = result.units
    one_library = len({r.library for r in results}) == 1
    columns: list[tuple[str, bool, Callable[[JobResult], str]]] = [
        ("ALGORITHM", False, lambda r: r.cipher),
        ("LIBRARY", False, lambda r: r.library),
        ("ENC TIME", True, lambda r: _time(r.encrypt.median_s)),
        ("±IQR", True, lambda r: _time(r.encrypt.iqr_s)),
        ("DEC TIME", True, lambda r: _time(r.decrypt.median_s)),
        ("±IQR", True, lambda r: _time(r.decrypt.iqr_s)),
        (f"ENC {unit}", True, lambda r: rate_text(rate(r, "encrypt", unit))),
        (f"DEC {unit}", True, lambda r: rate_text(rate(r, "decrypt", unit))),
        ("MEM MiB", True, lambda r: mib_text(memory_mib(r))),
    ]

    def render(cols: list[tuple[str, bool, Callable[[JobResult], str]]]) -> list[str]:
        rows = [[c[0] for c in cols], *([c[2](r) for c in cols] for r in results)]
        return _table(rows, [c[1] for c in cols])

    lines = render(columns)
    if max(map(len, lines)) <= width:
        return lines
    if one_library:  # said in the heading instead
        columns = [c for c in columns if c[0] != "LIBRARY"]
        lines = render(columns)
        if max(map(len, lines)) <= width:
            return lines
    # Still too wide: the times with their spread, then throughputs and memory.
    names, times, rates = columns[: 2 - one_library], columns[-7:-3], columns[-3:]
    return [*render(names + times), "", *render(names + rates)]


def format_study(result: StudyResult, width: int = 80) -> str:
    """The study on the terminal: a preamble, a table per input, fits, comparisons, speed-ups,
    the paper's figures, warnings and failures; no line longer than ``width``."""
    from app.core.study import report_text  # numpy (a study's leak test): only when shown

    lines = report_text.preamble(result, width)
    for input_label, group in result.by_input().items():
        size = group[0].input_bytes
        heading = f"\nInput: {input_label} ({size:,} bytes)"
        libraries = {r.library for r in group}
        if len(libraries) == 1:
            heading += f", library {next(iter(libraries))}"
        lines.append(heading)
        lines.extend(_input_table(result, group, width))
    lines.extend(report_text.claims(result, width))
    lines.extend(report_text.notes(result, width))
    return display_text("\n".join(lines))
