"""``sweep`` and ``ladder``: the message-length curve and the hardware ladder.

    python main.py sweep --cipher ID [--cipher ID ...] [--library NAME|all] [--lengths LIST]
                         [--rounds N] [--no-ad] [--out PATH ...] [--quiet] [--json]
    python main.py ladder CIPHER [--library NAME|all] [--rounds N] [--out PATH ...] [--json]

Progress on stderr, tables on stdout (fitted to the terminal), ``--out`` by extension (.html,
.xlsx, .csv, .json). Each run is stored in the history. Exit codes: 0, 1 an entry failed (or a
ladder switch did not switch), 2 bad input, 130 Ctrl-C (workers stopped, nothing written).
"""

from __future__ import annotations

import argparse
import json
import re
import threading
from typing import TYPE_CHECKING, Any

from app.cli.report import terminal_width
from app.cli.run_outputs import RunOutputs, add_out_option, add_quiet_and_history_options
from app.cli.running import follow, library_name, stopped, whole_number
from app.core.document.terminal import fitted_table, wrapped
from app.core.errors import UserError
from app.core.kinds import formats

if TYPE_CHECKING:
    from app.core.sweep.jobs import SweepPlan


def add_sweep_arguments(p: argparse.ArgumentParser) -> None:
    """``sweep``'s arguments (its name and help: :func:`app.cli.main._commands`)."""
    from app.core.sweep.plan import DEFAULT_ROUNDS
    from app.core.sweep.runner import MAX_ROUNDS

    p.add_argument(
        "--cipher", action="append", default=[], metavar="ID", help="a cipher id (repeatable)"
    )
    p.add_argument(
        "--library",
        type=library_name(allow_all=True),
        help="one library, or all (default: the compiled ones)",
    )
    p.add_argument("--key-bits", type=int, help="another key size, where the cipher has one")
    p.add_argument(
        "--lengths", help="message lengths, e.g. 64,1350,4KiB,1MiB (default: 16 B-16 MiB)"
    )
    p.add_argument(
        "--rounds",
        type=whole_number(1, MAX_ROUNDS),
        default=DEFAULT_ROUNDS,
        help=f"fresh workers per entry (default {DEFAULT_ROUNDS})",
    )
    p.add_argument("--no-ad", action="store_true", help="skip the associated-data lengths")
    _common(p)


def add_ladder_arguments(p: argparse.ArgumentParser) -> None:
    """``ladder``'s arguments (its name and help: :func:`app.cli.main._commands`)."""
    from app.core.sweep.plan import DEFAULT_ROUNDS
    from app.core.sweep.runner import MAX_ROUNDS

    p.add_argument("cipher", metavar="CIPHER", help="an AES cipher id, e.g. aes-128-gcm")
    p.add_argument(
        "--library",
        type=library_name(allow_all=True),
        help="cryptography (default), pycryptodome, or all for both",
    )
    p.add_argument(
        "--rounds",
        type=whole_number(1, MAX_ROUNDS),
        default=DEFAULT_ROUNDS,
        help=f"fresh workers per step (default {DEFAULT_ROUNDS})",
    )
    _common(p)


def _common(p: argparse.ArgumentParser) -> None:
    add_out_option(p, formats.SWEEP, "the results")
    p.add_argument("--json", action="store_true", help="print the JSON document instead")
    add_quiet_and_history_options(p)


def cmd_sweep(args: argparse.Namespace) -> int:
    from app.core.sweep.plan import DEFAULT_LENGTHS, parse_lengths, sweep_plan

    lengths = parse_lengths(args.lengths) if args.lengths else DEFAULT_LENGTHS
    ad = not args.no_ad
    return _run(
        args, sweep_plan(args.cipher, args.library, args.key_bits, lengths, args.rounds, ad)
    )


def cmd_ladder(args: argparse.Namespace) -> int:
    from app.core.sweep.plan import ladder_plan

    libraries = {None: ["cryptography"], "all": ["cryptography", "pycryptodome"]}.get(
        args.library, [args.library]
    )
    if libraries == ["pyaes"]:
        raise UserError("pyaes is the ladder's pure-Python step; choose a compiled library")
    return _run(args, ladder_plan(args.cipher, libraries, args.rounds))


def _run(args: argparse.Namespace, plan: SweepPlan) -> int:
    from app.core.sweep.report import ladder_verdicts
    from app.core.sweep.results import sweep_document
    from app.core.sweep.runner import run_sweep

    outputs = RunOutputs.of(args)
    outputs.check(formats.SWEEP)  # before the run, not after it
    cancel = threading.Event()
    try:
        result = follow(run_sweep(plan, cancel), cancel, quiet=outputs.quiet)
    except KeyboardInterrupt as exc:
        return stopped(exc)
    if args.json:
        print(json.dumps(sweep_document(result), indent=2, ensure_ascii=False))
    else:
        print(format_sweep(result, terminal_width() or 80))
    outputs.store(result)
    outputs.write(result)
    unswitched = any("could not switch" in v for v in ladder_verdicts(result))
    return 1 if result.failures or unswitched else 0


def format_sweep(result: Any, width: int = 80) -> str:
    """The terminal report of a sweep or a ladder, no line wider than ``width``."""
    from app.core.sweep.report import method_text
    from app.core.sweep.results import LADDER

    lines = wrapped(method_text(result), width)
    if result.kind == LADDER:
        lines += ["", *_ladder_lines(result, width)]
    else:
        for entry in result.entries:
            lines += ["", *_entry_lines(entry, width)]
    for f in result.failures:
        lines += wrapped(f"FAILED {f.label}: {f.message.splitlines()[0]}", width, "  ")
    return "\n".join(lines)


def _entry_lines(entry: Any, width: int) -> list[str]:
    from app.core.sweep.report import ad_rows, curve_cells, curve_headers, length_label, ns_text
    from app.core.sweep.report import summary_sentences as sentences

    rows: list[tuple[str, ...]] = [tuple(curve_headers(terminal=True, counted=entry.counter))]
    rows += [tuple(cells) for cells in curve_cells(entry)]
    if all(row[-1] == "-" for row in rows[1:]):
        rows = [row[:-1] for row in rows]
    head, *rest = sentences(entry)
    lines = [*wrapped(head, width), *_right_aligned(fitted_table(rows, width, keep=1))]
    for s in rest:
        lines += wrapped(s, width, "  ")
    table = ad_rows(entry)
    if table:
        ads = sorted({ad for _, row in table for ad, _ in row})
        ad_table = [("MESSAGE", *(f"AD {a} B" for a in ads))]
        for n, row in table:
            by_ad = dict(row)
            ad_table.append(
                (
                    length_label(n),
                    *(ns_text(by_ad[a].median_ns) if a in by_ad else "-" for a in ads),
                )
            )
        lines += ["Encryption time with associated data (AD):"]
        lines += _right_aligned(fitted_table(ad_table, width, keep=1))
    return lines


def _right_aligned(table: str) -> list[str]:
    """``table``'s lines (left-aligned by text_table) with the numeric columns right-aligned:
    each line re-laid from its cells, split on two spaces."""
    out = []
    blocks = table.split("\n\n")
    for b, block in enumerate(blocks):
        rows = [re.split(r" {2,}", line.strip()) for line in block.splitlines()]
        n = max(len(r) for r in rows)
        rows = [r + [""] * (n - len(r)) for r in rows]
        widths = [max(len(r[i]) for r in rows) for i in range(n)]
        for r in rows:
            out.append(
                "  ".join(
                    [r[0].ljust(widths[0])]
                    + [c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)]
                ).rstrip()
            )
        if b < len(blocks) - 1:
            out.append("")
    return out


def _ladder_lines(result: Any, width: int) -> list[str]:
    from app.core.sweep.report import ladder_steps, ladder_verdicts, length_label, number

    rows = [("STEP", "MESSAGE", "MB/s", "CYC/B", "SLOWER THAN 1.")]
    notes = []
    for i, s in enumerate(ladder_steps(result), start=1):
        e = s.entry
        step = f"{i}. {e.library}" + ("" if e.aes_instructions else ", AES off")
        if e.library == "pyaes":
            step = f"{i}. pure Python"
        factor = "-" if s.slower_than_first is None else f"{number(s.slower_than_first)}x"
        rows.append(
            (
                step,
                length_label(s.point.message_bytes),
                number(s.point.mb_s),
                number(s.point.cycles_per_byte(e.clock_mhz)),
                factor,
            )
        )
        notes.append(
            f"{i}. {e.label} ({e.library} {e.library_version})" + (f": {e.note}" if e.note else "")
        )
    lines = [*wrapped(f"Hardware ladder of {result.title}", width)]
    lines += _right_aligned(fitted_table(rows, width, keep=1))
    lines.append("SLOWER THAN 1.: time per byte against the first step's.")
    for n in notes:
        lines += wrapped(n, width, "   ")
    for v in ladder_verdicts(result):
        lines += wrapped(v, width, "  ")
    return lines
