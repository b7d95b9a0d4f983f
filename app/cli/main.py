"""The command line: the same engine as the window, with no window.

    python main.py list [--json]
    python main.py selftest [--json]
    python main.py sysinfo [--json]
    python main.py bench [FILE] [--size SIZE] --cipher ID [...] [--library NAME|all] ...
    python main.py study --list | PRESET|FILE.toml ...   (see app/cli/study.py)
    python main.py transfer [FILE] [--size SIZE] --cipher ID ...   (app/cli/transfer.py)
    python main.py encrypt / decrypt ...        (see `python main.py encrypt --help`)

Exit codes: 0 success, 1 a job or self-test check failed, 2 bad input, 130 cancelled (Ctrl-C),
143 / 129 stopped by SIGTERM / SIGHUP (partial outputs and temporary files are removed first).
Bad input gets one line on stderr, ``cipherbench: error: ...``, never a traceback (set
CIPHERBENCH_DEBUG=1 to see one for an internal error).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO, cast

from app import __version__
from app.cli import history as cli_history
from app.cli.messages import cli_message
from app.cli.report import aggregate_line, format_results, text_table
from app.core import scratch, termination
from app.core.bench.jobs import (
    DATA_MODES,
    MAX_CHUNK_BYTES,
    MAX_REPEAT,
    MAX_WARMUP,
    BenchOptions,
    Job,
)
from app.core.ciphers.registry import LIBRARIES, REGISTRY, CipherSpec, describe_sizes
from app.core.errors import UserError
from app.core.termination import Terminated, exit_code
from app.core.units import MIB, parse_size, size_label

PROG = "cipherbench"
MAX_PROCESSES = 256  # bench --processes
# How users start us: the packaged executable's or the installed command's name (`cipherbench`),
# or the source checkout's entry point.
_COMMAND = os.path.basename(sys.argv[0]) if sys.argv else ""
PROG_NAME = (
    _COMMAND
    if getattr(sys, "frozen", False) or _COMMAND.startswith("cipherbench")
    else "python main.py"
)


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors in our one-line format (and exit code 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sub = self.prog.removeprefix(PROG_NAME).strip()
        raise UserError(f"{message} (see `{PROG_NAME} {sub + ' ' if sub else ''}--help`)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG_NAME,
        description="CipherBench: benchmark symmetric ciphers on real files. "
        "With no command, the window opens.",
    )
    parser.add_argument("--version", action="version", version=f"CipherBench {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_info_commands(sub)
    _add_bench_command(sub)
    try:
        from app.cli import crypt as cli_crypt
    except ImportError:  # pragma: no cover - the file-format module is optional at build time
        cli_crypt = None  # type: ignore[assignment]
    if cli_crypt is not None:
        cli_crypt.register(cast(Any, sub))
    from app.cli import study as cli_study

    cli_study.register(cast(Any, sub))
    from app.cli import transfer as cli_transfer

    cli_transfer.register(cast(Any, sub))
    cli_history.register(cast(Any, sub))
    return parser


def _add_info_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``list``, ``selftest`` and ``sysinfo``: each prints one report, ``--json`` for machines."""
    p = sub.add_parser("list", help="the cipher registry")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_list)

    p = sub.add_parser("selftest", help="test vectors and cross-library agreement")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_selftest)

    p = sub.add_parser("sysinfo", help="the machine, its crypto features and libraries")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_sysinfo)


def _add_bench_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bench",
        help="benchmark ciphers on a file or generated data",
        description="Encrypt, decrypt and verify FILE (or generated random data) with each "
        "chosen cipher, in a fresh worker process per job. Sizes: 10MB = 10^7 bytes, "
        "10MiB = 10 x 2^20 bytes.",
    )
    _add_bench_inputs(p)
    _add_bench_measuring(p)
    p.add_argument(
        "--out",
        action="append",
        default=[],
        metavar="PATH",
        help="write results; .json, .csv or .xlsx by extension (repeatable)",
    )
    p.add_argument(
        "--processes",
        type=_whole_number(1, MAX_PROCESSES),
        default=1,
        metavar="N",
        help="also run each job as N copies at once in N worker processes and report their "
        "aggregate throughput (their bytes over the time they ran, on the cores they got), like "
        "`openssl speed -multi`",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    cli_history.add_no_history_option(p)
    p.set_defaults(handler=cmd_bench)


def _add_bench_inputs(p: argparse.ArgumentParser) -> None:
    """What ``bench`` runs: the inputs and the ciphers."""
    p.add_argument("file", nargs="*", metavar="FILE", help="input files (never modified)")
    p.add_argument(
        "--size",
        action="append",
        default=[],
        help="generate random input of this size, e.g. 10MB, 64MiB (repeatable, as seed 000's "
        "1, 10 and 50 MB)",
    )
    p.add_argument(
        "--cipher",
        action="append",
        default=[],
        metavar="ID",
        help="a cipher id from `list` (repeatable), or 'all'",
    )
    p.add_argument("--preset", help="a ready-made selection: " + ", ".join(_preset_names()))
    p.add_argument(
        "--library",
        default="all",
        choices=[*LIBRARIES, "all"],
        help="which library (default: every library offering the cipher)",
    )
    p.add_argument(
        "--key-bits",
        type=_whole_number(1, 4096),
        help="key size for variable-key ciphers (bf-*, rc4)",
    )


def _add_bench_measuring(p: argparse.ArgumentParser) -> None:
    """How ``bench`` measures: repetitions, warm-up, data mode and the memory pass."""
    p.add_argument(
        "--repeat",
        type=_whole_number(1, MAX_REPEAT),
        default=5,
        help=f"timed repetitions, at least (default 5, at most {MAX_REPEAT}); tiny inputs "
        "repeat until each direction took 0.1 s",
    )
    p.add_argument(
        "--warmup",
        type=_whole_number(0, MAX_WARMUP),
        default=1,
        help=f"discarded warm-up runs (default 1, at most {MAX_WARMUP})",
    )
    p.add_argument(
        "--data-mode",
        default="memory",
        choices=DATA_MODES,
        help="memory: whole input in RAM (default); stream: chunked, bounded memory",
    )
    p.add_argument(
        "--chunk",
        default="1MiB",
        help=f"stream-mode chunk size (default 1MiB, at most {MAX_CHUNK_BYTES // MIB}MiB; "
        "never more than the input needs)",
    )
    p.add_argument(
        "--no-memory", action="store_true", help="skip the separate memory-measurement pass"
    )


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an int from ``low`` to ``high``, else a one-line error (argparse adds
    the option's name) that does not echo hundreds of digits."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:  # also more digits than int() reads (4300)
            shown = text if len(text) <= 24 else text[:20] + "..."
            raise argparse.ArgumentTypeError(f"not a whole number: {shown!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be at least {low} and at most {high}")
        return value

    return parse


def _preset_names() -> list[str]:
    from app.core.bench.presets import PRESETS

    return [p.name for p in PRESETS]


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
    by_id: dict[str, list[CipherSpec]] = {}
    for s in REGISTRY:
        by_id.setdefault(s.id, []).append(s)
    rows_txt = [("ID", "ALGORITHM", "MODE", "KEY BITS", "LIBRARIES")]
    for cid, specs in by_id.items():
        s = specs[0]
        keys = (
            describe_sizes(s.key_bits_allowed) + f" (default {s.key_bits})"
            if s.key_bits_allowed and len(s.key_bits_allowed) > 1
            else str(s.key_bits)
        )
        rows_txt.append((cid, s.algorithm, s.mode, keys, ", ".join(x.library for x in specs)))
    print(text_table(rows_txt))
    print(
        f"\n{len(by_id)} ciphers, {len(REGISTRY)} entries (cipher x library). "
        "ECB, 64-bit-block ciphers (Blowfish, 3DES, DES), DES and RC4 are weak: for "
        "comparison only."
    )
    return 0


def cmd_selftest(args: argparse.Namespace) -> int:
    from app.core.ciphers.selftest import format_report, report_to_dict, run_selftest

    report = run_selftest()
    if args.json:
        print(json.dumps(report_to_dict(report), indent=2))
    else:
        print(format_report(report))
    return 0 if report.ok else 1


def cmd_sysinfo(args: argparse.Namespace) -> int:
    from app.core.bench.environment import capture_environment, format_environment

    env = capture_environment()
    print(json.dumps(env, indent=2) if args.json else format_environment(env))
    return 0


# --- bench -------------------------------------------------------------------------------------


def _resolve_specs(args: argparse.Namespace) -> list[CipherSpec]:
    from app.core.bench.presets import preset
    from app.core.ciphers.registry import select

    specs: list[CipherSpec] = []
    if args.preset:
        # --key-bits applies to the preset's entries too, or is refused: never ignored.
        try:
            specs.extend(s.with_key_bits(args.key_bits) for s in preset(args.preset).specs())
        except UserError as exc:
            raise UserError(
                f"--key-bits {args.key_bits} does not fit --preset {args.preset}: {exc}"
            ) from None

    if args.cipher:  # 'all' among them: every cipher the --library offers
        specs.extend(select(args.cipher, args.library, args.key_bits))
    if not specs:
        raise UserError(
            "choose at least one --cipher ID or a --preset "
            "(`python main.py list` shows the ciphers)"
        )
    return specs


def cmd_bench(args: argparse.Namespace) -> int:
    """Every chosen cipher on every input (files first, then generated sizes), in that order."""
    from app.core.bench.inputs import cleanup_generated, generated_input, inspect_file
    from app.core.bench.jobs import InputSpec
    from app.core.bench.plan import make_jobs
    from app.core.export.writers import WRITERS, check_target

    if not args.file and not args.size:
        raise UserError(
            "give a FILE to benchmark, or --size to generate random data (e.g. --size 10MB)"
        )
    specs = _resolve_specs(args)
    options = BenchOptions(
        repeat=args.repeat,
        warmup=args.warmup,
        data_mode=args.data_mode,
        chunk_bytes=parse_size(args.chunk),
        measure_memory=not args.no_memory,
    )
    sizes = [parse_size(s) for s in args.size]
    if any(size <= 0 for size in sizes):
        raise UserError("--size must be at least 1 byte")
    files = [inspect_file(f) for f in args.file]
    # Fail before a long run, not after it. An export must never replace an input
    # (`bench data.csv --out data.csv`); links and hard links to one are caught by the file's
    # identity, not its name.
    for out in args.out:
        check_target(out, WRITERS, [os.path.expanduser(f) for f in args.file])
    # Check the whole plan (options, chunk size) before generating possibly gigabytes.
    for size in sizes:
        make_jobs(specs, InputSpec("", "", size, 0, generated=True), options)
    for source in files:
        make_jobs(specs, source, options)
    _warn_slow(specs, sum(s.size_bytes for s in files) + sum(sizes), options, sys.stderr)
    _warn_processes(args.processes, sys.stderr)

    generated: list[InputSpec] = []
    try:
        for text, size in zip(args.size, sizes, strict=True):
            label = size_label(text)  # "1 MiB" as typed, not "1.05 MB"
            print(f"generating {label} ({size:,} bytes) of random data...", file=sys.stderr)
            generated.append(generated_input(size, label=f"random {label}"))
        jobs = [job for source in files + generated for job in make_jobs(specs, source, options)]
        return _run_jobs(
            jobs, args.out, quiet=args.quiet, processes=args.processes, history=not args.no_history
        )
    finally:
        for source in generated:
            cleanup_generated(source)


def _warn_slow(specs: Sequence[CipherSpec], size: int, opts: BenchOptions, err: TextIO) -> None:
    from app.core.bench.plan import slow_run_note

    note = slow_run_note([s.library for s in specs], size, opts)
    if note:
        print(f"note: {note} (Ctrl-C cancels)", file=err)


def _warn_processes(processes: int, err: TextIO) -> None:
    cores = os.cpu_count() or 1
    if processes > cores:
        print(
            f"warning: --processes {processes} is more than this machine's {cores} "
            f"core{'s' if cores != 1 else ''}; "
            "the copies share them, and the aggregate shows what they got together",
            file=err,
        )


def _run_jobs(
    jobs: list[Job], outs: list[str], quiet: bool, processes: int = 1, history: bool = True
) -> int:
    from app.core.bench.events import JobFailed, JobFinished, JobProgress, JobStarted, RunFinished
    from app.core.bench.runner import BenchmarkRun
    from app.core.export.writers import export

    run = BenchmarkRun(jobs, processes=processes)
    bar = _ProgressBar(len(jobs), enabled=not quiet and sys.stderr.isatty())
    final = None
    events = run.events()
    try:
        for ev in events:
            if isinstance(ev, JobStarted):
                bar.job(ev.index, ev.job.label)
            elif isinstance(ev, JobProgress):
                bar.update(ev.phase, ev.fraction)
            elif isinstance(ev, JobFinished):
                bar.clear()
                r = ev.result
                print(
                    f"[{ev.index + 1}/{len(jobs)}] {r.label}: encrypt "
                    f"{r.encrypt.throughput_mb_s:,.1f} MB/s, decrypt "
                    f"{r.decrypt.throughput_mb_s:,.1f} MB/s, verified",
                    file=sys.stderr,
                )
                if r.aggregate is not None:
                    print(f"  {aggregate_line(r)}", file=sys.stderr)
            elif isinstance(ev, JobFailed):
                bar.clear()
                print(
                    f"[{ev.index + 1}/{len(jobs)}] FAILED {ev.job.label}: {ev.message}",
                    file=sys.stderr,
                )
            elif isinstance(ev, RunFinished):
                final = ev.run
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (see termination.py)
        run.cancel()
        events.close()  # kills the running worker; its temporary folder goes with it
        bar.clear()
        print(f"{_stop_reason(exc)}; no results written", file=sys.stderr)
        return exit_code(exc)
    bar.clear()
    assert final is not None
    print(format_results(final))
    cli_history.store_run(final, enabled=history, quiet=quiet)
    for out in outs:
        path = export(final, out)
        print(f"wrote {path}", file=sys.stderr)
    return 1 if final.failures else 0


class _ProgressBar:
    """One self-rewriting line on stderr, redrawn at most 10 times a second."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.index = 0
        self.label = ""
        self.start = time.monotonic()
        self._last = 0.0
        self._shown = False
        self._width = 0

    def job(self, index: int, label: str) -> None:
        self.index, self.label = index, label
        self.update("starting", 0.0, force=True)

    def update(self, phase: str, fraction: float, force: bool = False) -> None:
        now = time.monotonic()
        if not self.enabled or (not force and now - self._last < 0.1):
            return
        self._last = now
        overall = (self.index + fraction) / max(1, self.total)
        width = 24
        filled = int(width * overall)
        line = (
            f"[{'#' * filled}{'.' * (width - filled)}] {overall * 100:3.0f}%  "
            f"job {self.index + 1}/{self.total} {self.label}: {phase}  "
            f"{now - self.start:5.0f} s"
        )
        # One character short of the terminal's width: a full line would wrap, and every
        # redraw would then start a new line instead of replacing the last one.
        width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
        sys.stderr.write("\r" + line[:width].ljust(width))
        self._width = width
        sys.stderr.flush()
        self._shown = True

    def clear(self) -> None:
        if self._shown:
            sys.stderr.write("\r" + " " * self._width + "\r")
            sys.stderr.flush()
            self._shown = False


def _stop_reason(exc: KeyboardInterrupt) -> str:
    if isinstance(exc, Terminated):
        return f"stopped by {exc.signal_name}"
    return "cancelled"


# --- entry point -------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code. Never raises for bad input."""
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
        print(f"{PROG}: error: {cli_message(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (see termination.py)
        print(f"{PROG}: {_stop_reason(exc)}", file=sys.stderr)
        return exit_code(exc)
    except BrokenPipeError:  # `python main.py list | head`
        return 0
    except Exception as exc:
        if os.environ.get("CIPHERBENCH_DEBUG"):
            raise
        print(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} "
            "(set CIPHERBENCH_DEBUG=1 for details, and please report it)",
            file=sys.stderr,
        )
        return 3
