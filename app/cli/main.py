"""The command line: the same engine as the window, with no window.

    python main.py list [--json]
    python main.py selftest [--json]
    python main.py sysinfo [--json]
    python main.py bench [FILE] [--size SIZE] --cipher ID [...] [--library NAME|all] ...
    python main.py study --list | PRESET|FILE.toml ...   (see app/cli/study.py)
    python main.py transfer [FILE] [--size SIZE] --cipher ID ...   (app/cli/transfer.py)
    python main.py sweep --cipher ID ... [--lengths LIST]   (app/cli/sweep.py)
    python main.py ladder CIPHER [--library NAME|all]
    python main.py merge A.json B.json ... [--out merged.html]   (app/cli/merge.py)
    python main.py rerun STUDY.json [--out both.html]   (app/cli/rerun.py)
    python main.py encrypt / decrypt ...        (see `python main.py encrypt --help`)

Exit codes: 0 success, 1 a job or self-test check failed, 2 bad input, 130 cancelled (Ctrl-C),
143 / 129 stopped by SIGTERM / SIGHUP (partial outputs and temporary files are removed first).
Bad input gets one line on stderr, ``cipherbench: error: ...``, never a traceback (set
CIPHERBENCH_DEBUG=1 to see one for an internal error).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from app import __version__
from app.cli.command import Command, add_commands
from app.cli.messages import cli_message
from app.cli.report import terminal_width
from app.cli.running import stop_reason
from app.cli.terminal import over_the_echo, visible_streams
from app.core.ciphers.libraries import ROWS as LIBRARY_ROWS
from app.core.ciphers.registry import REGISTRY, CipherSpec, describe_sizes
from app.core.dependencies import missing_dependency
from app.core.document.terminal import fitted_table, text_table, wrapped
from app.core.errors import UserError
from app.core.runtime import scratch, termination
from app.core.runtime.output_checks import protecting
from app.core.runtime.termination import exit_code

if TYPE_CHECKING:
    from app.core.ciphers.selftest_report import SelfTestReport

PROG = "cipherbench"
# How users start us: the packaged executable's or the installed command's name (`cipherbench`),
# or the source checkout's entry point.
_COMMAND = os.path.basename(sys.argv[0]) if sys.argv else ""
PROG_NAME = (
    _COMMAND
    if getattr(sys, "frozen", False) or _COMMAND.startswith("cipherbench")
    else "python main.py"
)


class _Formatter(argparse.HelpFormatter):
    """argparse's, but a usage line too wide for the terminal because of a group of options of
    which one may be given (which argparse keeps whole) is broken after a ``|``."""

    def _format_usage(self, *args: Any) -> str:
        usage = super()._format_usage(*args)
        return "\n".join(_break_group(line, self._width) for line in usage.split("\n"))


def _break_group(line: str, width: int) -> str:
    parts = line.split(" | ")
    if len(line) <= width or len(parts) == 1:
        return line
    indent = " " * (len(line) - len(line.lstrip()) + 1)  # inside the group's bracket
    lines = [parts[0]]
    for n, part in enumerate(parts[1:], 2):
        bar = 0 if n == len(parts) else 2  # the " |" this line ends with if another follows
        if len(lines[-1]) + 3 + len(part) + bar <= width:
            lines[-1] += " | " + part
        else:
            lines[-1] += " |"
            lines.append(indent + part)
    return "\n".join(lines)


def _error_lines(text: str) -> str:
    """``text`` to print on stderr, each of its lines wrapped at spaces to the terminal's width
    when stderr is one (a path or a name is never split, nor a figure from its unit), the
    later lines indented."""
    width = terminal_width(sys.stderr)
    return "\n".join(
        "\n".join(wrapped(line, width, "  ", split_words=False)) for line in text.split("\n")
    )


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors in our one-line format (and exit code 2)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        sub = self.prog.removeprefix(PROG_NAME).strip()
        raise UserError(f"{message} (see `{PROG_NAME} {sub + ' ' if sub else ''}--help`)")


@functools.cache
def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, built once a process (20 ms: argparse looks its messages'
    translations up on disk for every option); parsing leaves it as it was."""
    parser = _Parser(
        prog=PROG_NAME,
        description="CipherBench: benchmark symmetric ciphers on real files. "
        "With no command, the window opens.",
    )
    parser.add_argument("--version", action="version", version=f"CipherBench {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    add_commands(sub, _commands())
    return parser


def _commands() -> list[Command]:
    """Every command, in the order ``--help`` lists them: its name, the line the list gives
    it, the paragraph its own ``--help`` starts with, its arguments and its handler."""
    from app.cli import bench, history, kinds, merge, rerun, study, sweep, transfer

    try:
        from app.cli import crypt
    except ImportError:  # pragma: no cover - the file-format module is optional at build time
        crypt_commands: tuple[Command, ...] = ()
    else:
        crypt_commands = crypt.commands()
    return [
        Command("list", help="the cipher registry", arguments=_json_option, handler=cmd_list),
        Command(
            "selftest",
            help="test vectors and cross-library agreement",
            arguments=_bare_json_option,
            handler=cmd_selftest,
        ),
        Command(
            "sysinfo",
            help="the machine, its crypto features and libraries",
            arguments=_bare_json_option,
            handler=cmd_sysinfo,
        ),
        Command(
            "bench",
            help="benchmark ciphers on a file or generated data",
            description="Encrypt, decrypt and verify FILE (or generated random data) with each "
            "chosen cipher, in a fresh worker process per job. Sizes: 10MB = 10^7 bytes, "
            "10MiB = 10 x 2^20 bytes.",
            arguments=bench.add_arguments,
            handler=bench.cmd_bench,
        ),
        *crypt_commands,  # encrypt, decrypt
        Command(
            "study",
            help="run a published comparison (a preset) or a saved grid",
            description="Run every cipher of a study on every input, interleaved in rounds, and "
            "report the paper-style table, fits of time against size and pairwise comparisons "
            "with 95 % confidence intervals.",
            arguments=study.add_arguments,
            handler=study.cmd_study,
        ),
        Command(
            "transfer",
            help="send a file over TCP loopback, sealed in chunks, and measure it",
            description="Send FILE (or --size of generated random data) from a sender process "
            "to a receiver process on 127.0.0.1, each chunk sealed with an AEAD (or 'none': "
            "plaintext), and report total time, throughput, CPU and peak memory of each end.",
            arguments=transfer.add_arguments,
            handler=transfer.cmd_transfer,
        ),
        Command(
            "sweep",
            help="time each cipher on messages from 16 B to 16 MiB, in cycles per byte",
            description="Time each cipher entry on messages of many lengths (default 16 B to "
            "16 MiB, with 64, 576, 1350, 1536 and 4096 B), each round in a fresh worker: time "
            "per call, MB/s, ns and cycles per byte, key setup apart, the fixed cost per call; "
            "for AEADs also associated data (13, 64, 1024 B) and the time to reject a forgery.",
            arguments=sweep.add_sweep_arguments,
            handler=sweep.cmd_sweep,
        ),
        Command(
            "ladder",
            help="one AES cipher with the CPU's AES instructions, without them, in pure Python",
            description="Time CIPHER (an AES entry) with the CPU's AES instructions, with them "
            "switched off in the worker (OpenSSL's capability mask; PyCryptodome's "
            "use_aesni=False), and in pure Python (pyaes), and the factor between the steps. "
            "Nothing outside the worker changes.",
            arguments=sweep.add_ladder_arguments,
            handler=sweep.cmd_ladder,
        ),
        Command(
            "merge",
            help="several runs (machines, library versions) side by side in one table",
            description="Merge exported bench runs or cipher studies (JSON files) and runs from "
            "the history into one table: one row per entry and input, one column group per run "
            "with its 95 % interval, a view normalised to a reference entry on each machine, and "
            "what differs between the machines. Runs of one other kind (key setup, profile, "
            "leak test, sweep, transfer) merge table by table: each of their tables with one "
            "column per run.",
            arguments=merge.add_arguments,
            handler=merge.cmd_merge,
        ),
        Command(
            "rerun",
            help="run an exported study again here, as defined, beside the original",
            description="Run the study in an exported JSON file (study --out x.json, or a history "
            "export) again on this machine with exactly its definition (ciphers, sizes or files, "
            "rounds, repetitions, data seed), store it, and print it merged with the original.",
            arguments=rerun.add_arguments,
            handler=rerun.cmd_rerun,
        ),
        Command(
            "history",
            help="the runs stored so far: list, show, compare, trend, export, import, delete",
            description="Every finished bench, study and transfer is stored in a database in "
            "your data folder (CIPHERBENCH_HISTORY=FILE uses another). List, show and compare "
            "the runs, or move them between machines as JSON.",
            arguments=history.add_actions,
            handler=None,  # each action has its own
        ),
        *kinds.commands(),  # one for each kind made from a definition
    ]


def _json_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _bare_json_option(p: argparse.ArgumentParser) -> None:
    """``--json`` with no help text, as ``selftest --help`` and ``sysinfo --help`` show it."""
    p.add_argument("--json", action="store_true")


# --- list, selftest, sysinfo -------------------------------------------------------------------


def cmd_list(args: argparse.Namespace) -> int:
    if args.json:
        rows = [
            {
                "id": s.id,
                "library": s.library,
                "algorithm": s.algorithm,
                "mode": s.mode,
                "kind": s.kind.value,
                "key_bits": s.key_bits,
                "key_bits_allowed": list(s.key_bits_allowed) or [s.key_bits],
                "block_bytes": s.block_bytes,
                "iv_bytes": s.iv_bytes,
                "tag_bytes": s.tag_bytes,
                "openssl_name": s.openssl_name,
                "notes": list(s.notes),
            }
            for s in REGISTRY
        ]
        print(json.dumps(rows, indent=2))
        return 0
    print(format_list(terminal_width()))
    return 0


def format_list(width: int | None) -> str:
    """One row per cipher id (key bits, libraries), then notes; fitted to ``width``: without
    the ALGORITHM column (the id names it) when that fits, else as stacked tables."""
    by_id: dict[str, list[CipherSpec]] = {}
    for s in REGISTRY:
        by_id.setdefault(s.id, []).append(s)
    rows = [("ID", "ALGORITHM", "MODE", "KEY BITS", "LIBRARIES")]
    variable: dict[str, dict[str, str]] = {}  # algorithm -> library -> the key sizes it takes
    for cid, specs in by_id.items():
        s = specs[0]
        keys = str(s.key_bits)
        allowed = {bits for x in specs for bits in x.key_bits_allowed}
        if len(allowed) > 1:
            keys += f" ({min(allowed)}-{max(allowed)})"
            for x in specs:
                variable.setdefault(s.algorithm, {})[x.library] = describe_sizes(x.key_bits_allowed)
        rows.append((cid, s.algorithm, s.mode, keys, ", ".join(x.library for x in specs)))
    table = text_table(rows)
    if width is not None and max(map(len, table.splitlines())) > width:
        table = fitted_table([(r[0], *r[2:]) for r in rows], width, keep=1)
    pure = [row.name for row in LIBRARY_ROWS if not row.compiled]
    notes = [
        f"{len(by_id)} ciphers, {len(REGISTRY)} entries (cipher x library).",
        "KEY BITS: the default, then the range --key-bits takes: "
        + "; ".join(_key_sizes(alg, by_library) for alg, by_library in variable.items())
        + ".",
        f"{' and '.join(pure)}: pure Python, thousands of times slower; `bench` runs it only "
        "when --library names it (or all).",
        "ECB, 64-bit-block ciphers (Blowfish, 3DES, DES), DES and RC4 are weak: for "
        "comparison only.",
    ]
    lines = [table, ""]
    for note in notes:
        lines += wrapped(note, width, "  ")
    return "\n".join(lines)


def _key_sizes(algorithm: str, by_library: dict[str, str]) -> str:
    """``"Blowfish 32 to 448 bits in steps of 8"``, each library's sizes when they differ."""
    if len(set(by_library.values())) == 1:
        return f"{algorithm} {next(iter(by_library.values()))}"
    return f"{algorithm} " + ", ".join(f"{sizes} in {lib}" for lib, sizes in by_library.items())


def cmd_selftest(args: argparse.Namespace) -> int:
    from app.core.ciphers.selftest import format_report, report_to_dict, run_selftest

    report = run_selftest()
    if args.json:
        print(json.dumps(report_to_dict(report), indent=2))
    else:
        width = terminal_width()
        print(format_report(report) if width is None else format_selftest(report, width))
    return 0 if report.ok else 1


def format_selftest(report: SelfTestReport, width: int) -> str:
    """The self-test's table fitted to ``width``: its sources by number (listed below it),
    split into stacked tables (each with the entry's status, id and library) when still too
    wide; the notes wrapped."""
    from app.core.ciphers.selftest_report import HEADERS, entry_row, sources_used, summary_line

    sources = sources_used(report)
    number = {src: i for i, src in enumerate(sources, 1)}
    rows: list[tuple[str, ...]] = [HEADERS]
    rows += [entry_row(e, ", ".join(str(number[s]) for s in e.sources)) for e in report.entries]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADERS))]
    rows.insert(1, tuple("-" * w for w in widths))
    lines = [fitted_table(rows, width, keep=3), "", *wrapped(summary_line(report), width, "  ")]
    if not report.ok:
        lines += ["", "Failures:"]
        for failure in report.failures:
            lines += wrapped(f"  {failure}", width, "    ")
    lines += ["", "Sources:"]
    for src, text in sources.items():
        lines += wrapped(f"  [{number[src]}] {src}: {text}", width, "      ")
    return "\n".join(lines)


def cmd_sysinfo(args: argparse.Namespace) -> int:
    from app.core.bench.environment import capture_environment, format_environment

    env = capture_environment()
    print(json.dumps(env, indent=2) if args.json else format_environment(env, terminal_width()))
    return 0


# --- entry point -------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code. Never raises for bad input. What it prints
    shows a name's control characters rather than obeying them (:mod:`app.cli.terminal`)."""
    with visible_streams(), protecting():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    termination.install()
    scratch.remove_stale()
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            parser.print_help()
            return 2
        return int(args.handler(args))
    except UserError as exc:
        print(_error_lines(f"{PROG}: error: {cli_message(exc)}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (see termination.py)
        over_the_echo()
        print(f"{PROG}: {stop_reason(exc)}", file=sys.stderr)
        return exit_code(exc)
    except BrokenPipeError:  # `python main.py list | head`
        return 0
    except Exception as exc:
        missing = missing_dependency(exc)  # a package imported only by this command
        if missing is not None:
            print(f"{PROG}: error: {missing}", file=sys.stderr)
            return 2
        if os.environ.get("CIPHERBENCH_DEBUG"):
            raise
        print(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} "
            "(set CIPHERBENCH_DEBUG=1 for details, and please report it)",
            file=sys.stderr,
        )
        return 3
