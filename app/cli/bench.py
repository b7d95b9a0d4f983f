"""``bench``: every chosen cipher on every input (files, or generated data), each job in a
worker process of its own, a progress bar on a terminal, the results table, exports by extension
and the run kept in the history; ``--processes N`` adds N copies at once (every core).

    python main.py bench [FILE ...] [--size SIZE ...] --cipher ID [...] [--library NAME|all]
                         [--repeat N] [--warmup N] [--data-mode memory|stream] [--chunk SIZE]
                         [--processes N] [--rounds N] [--out PATH ...] [--quiet]
                         [--no-history]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from app.cli.report import aggregate_line, format_results, terminal_width
from app.cli.run_outputs import RunOutputs, add_no_history_option, add_out_option
from app.cli.running import follow, library_name, stopped, whole_number
from app.core.bench.jobs import (
    DATA_MODES,
    MAX_CHUNK_BYTES,
    MAX_REPEAT,
    MAX_WARMUP,
    BenchOptions,
    Job,
)
from app.core.ciphers.libraries import COMPILED
from app.core.ciphers.registry import LIBRARIES, CipherSpec
from app.core.document.numbers import rate_text
from app.core.document.terminal import wrapped
from app.core.errors import UserError
from app.core.kinds import formats
from app.core.runtime.events import Progress
from app.core.units import MIB, parse_size, size_label

MAX_PROCESSES = 256  # bench --processes


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``bench``'s arguments (its name and help: :func:`app.cli.main._commands`)."""
    _add_bench_inputs(p)
    _add_bench_measuring(p)
    add_out_option(p, formats.BENCH)
    p.add_argument(
        "--processes",
        type=whole_number(1, MAX_PROCESSES),
        default=1,
        metavar="N",
        help="also run each job as N copies at once in N worker processes and report their "
        "aggregate throughput (their bytes over the time they ran, on the cores they got), like "
        "`openssl speed -multi`",
    )
    p.add_argument(
        "--rounds",
        type=whole_number(1, 100),
        default=1,
        metavar="N",
        help="run every job N times, each in a fresh worker, each round in a random order, the "
        "repetitions split over the rounds: speed-ups and history compare get 95 %% intervals "
        "over workers with 4 or more, each figure of the tables with 6 or more",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_no_history_option(p)


def _add_bench_inputs(p: argparse.ArgumentParser) -> None:
    """What ``bench`` runs: the inputs and the ciphers."""
    p.add_argument("file", nargs="*", metavar="FILE", help="input files (never modified)")
    p.add_argument(
        "--size",
        action="append",
        default=[],
        help="generate random input of this size, e.g. 10MB, 64MiB (repeatable, as the AES "
        "key-length study's 1, 10 and 50 MB)",
    )
    p.add_argument(
        "--cipher",
        action="append",
        default=[],
        metavar="ID",
        help="a cipher id from `list` (repeatable), or 'all'; each runs in the compiled "
        "libraries that offer it unless --library names one",
    )
    p.add_argument("--preset", help="a ready-made selection: " + ", ".join(_preset_names()))
    p.add_argument(
        "--library",
        type=library_name(allow_all=True),
        metavar="NAME",
        help=f"which library: {', '.join(LIBRARIES)} or all (default: the compiled libraries "
        f"offering the cipher, {' and '.join(COMPILED)}; the pure-Python {_pure_python()}, "
        "thousands of times slower, runs only when named or with all)",
    )
    p.add_argument(
        "--key-bits",
        type=whole_number(1, 4096),
        help="key size for variable-key ciphers (bf-*, rc4)",
    )


def _add_bench_measuring(p: argparse.ArgumentParser) -> None:
    """How ``bench`` measures: repetitions, warm-up, data mode and the memory pass."""
    p.add_argument(
        "--repeat",
        type=whole_number(1, MAX_REPEAT),
        default=5,
        help=f"timed repetitions, at least (default 5, at most {MAX_REPEAT}); tiny inputs "
        "repeat until each direction took 0.1 s",
    )
    p.add_argument(
        "--warmup",
        type=whole_number(0, MAX_WARMUP),
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
    p.add_argument(
        "--memory-workload",
        choices=["load-all"],
        default="",
        help="also measure the memory of the papers' program shape, each direction apart: "
        "load-all reads the file whole, pads a copy and makes a new ciphertext (3x the input "
        "where CipherBench's own pass holds 1-2x)",
    )


def _pure_python() -> str:
    return " and ".join(lib for lib in LIBRARIES if lib not in COMPILED)


def _preset_names() -> list[str]:
    from app.core.bench.presets import PRESETS

    return [p.name for p in PRESETS]


def _resolve_specs(args: argparse.Namespace) -> list[CipherSpec]:
    from app.core.bench.presets import preset
    from app.core.ciphers.registry import select

    specs: list[CipherSpec] = []
    if args.preset is not None:  # --preset "" is refused, not taken for no preset
        chosen = preset(args.preset).specs()  # an unknown name: its own sentence
        # --key-bits applies to the preset's entries too, or is refused: never ignored.
        try:
            specs.extend(s.with_key_bits(args.key_bits) for s in chosen)
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
    from app.core.kinds.formats import BENCH

    specs = _resolve_specs(args)  # what to run first: `bench --preset nope` names the presets
    if not args.file and not args.size:
        raise UserError(
            "give a FILE to benchmark, or --size to generate random data (e.g. --size 10MB)"
        )
    options = BenchOptions(
        repeat=args.repeat,
        warmup=args.warmup,
        data_mode=args.data_mode,
        chunk_bytes=parse_size(args.chunk),
        measure_memory=not args.no_memory,
        memory_workload=args.memory_workload,
    )
    sizes = [parse_size(s) for s in args.size]
    if any(size <= 0 for size in sizes):
        raise UserError("--size must be at least 1 byte")
    files = [inspect_file(f) for f in args.file]
    outputs = RunOutputs.of(args)
    # Fail before a long run, not after it. An export must never replace an input
    # (`bench data.csv --out data.csv`), nor another export; links and hard links to one are
    # caught by the file's identity, not its name.
    outputs.check(BENCH, [os.path.expanduser(f) for f in args.file])
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
        return _run_jobs(jobs, outputs, processes=args.processes, rounds=args.rounds)
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


def _run_jobs(jobs: list[Job], outputs: RunOutputs, *, processes: int = 1, rounds: int = 1) -> int:
    from app.core.bench.rounds import RoundsRun

    run = RoundsRun(jobs, rounds=rounds, processes=processes)
    start = time.monotonic()
    try:  # a line per job as it ends; the bar on a terminal only
        final = follow(
            run.events(),
            run.cancel_event,
            quiet=outputs.quiet,
            on_outcome=lambda outcome: _say_job(outcome, len(jobs)),
            line=lambda p: _bar_line(p, start),
            log_steps=False,
        )
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (see termination.py)
        return stopped(exc)  # follow killed the running worker; its folder went with it
    print(format_results(final))
    outputs.store(final)
    outputs.write(final)
    return 1 if final.failures else 0


def _say_job(outcome: object, jobs: int) -> None:
    """A job's line as it ends: its throughputs (and its copies' aggregate), or its failure."""
    from app.core.bench.events import JobFailed, JobFinished

    if isinstance(outcome, JobFinished):
        r = outcome.result
        _say(
            f"[{outcome.index + 1}/{jobs}] {r.label}: encrypt "
            f"{rate_text(r.encrypt.throughput_mb_s)} MB/s, decrypt "
            f"{rate_text(r.decrypt.throughput_mb_s)} MB/s, verified"
        )
        if r.aggregate is not None:
            _say(f"  {aggregate_line(r)}")
    elif isinstance(outcome, JobFailed):
        _say(f"[{outcome.index + 1}/{jobs}] FAILED {outcome.job.label}: {outcome.message}")


def _say(text: str) -> None:
    """A progress line on stderr, wrapped to the terminal's width."""
    print("\n".join(wrapped(text, terminal_width(sys.stderr), "    ")), file=sys.stderr)


def _bar_line(progress: Progress, start: float) -> str:
    """The terminal's progress bar: "[######..........]  45%  job 2/6 round 1/3: aes-128-ctr
    [pyaes]: encrypt     12 s"."""
    width = 24
    filled = int(width * progress.fraction)
    return (
        f"[{'#' * filled}{'.' * (width - filled)}] {progress.fraction * 100:3.0f}%  "
        f"{progress.text}  {time.monotonic() - start:5.0f} s"
    )
