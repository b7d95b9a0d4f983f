"""``transfer``: send a file (or generated data) over TCP loopback, sealed, and measure it.

    python main.py transfer [FILE] [--size SIZE] --cipher ID [--cipher ID ...] [--chunk SIZE]
                            [--repeat N] [--warmup N] [--timeout S] [--out PATH ...] [--quiet]

Ciphers: any AEAD of `list` (aes-256-gcm, chacha20-poly1305, ...) or ``none``, the plaintext
baseline. One line per cipher on stderr while it runs, a table on stdout, ``--out`` by
extension: .csv (the table), .xlsx (sheets and a chart) or .json (every result with
``throughput_mb_s``, ``throughput_mib_s``, ``verified`` and, per end, ``peak_rss_bytes``,
``baseline_rss_bytes``, ``cpu_percent``; raw samples and the environment).
Exit codes as the other commands: 0, 1 a transfer failed, 2 bad input, 130 Ctrl-C (nothing
written, both processes stopped).
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from app.cli.run_outputs import RunOutputs, add_out_option, add_quiet_and_history_options
from app.cli.running import follow, stopped, whole_number
from app.core.document.numbers import rate_text
from app.core.errors import UserError
from app.core.kinds import formats
from app.core.runtime.envelope import NamedFailure
from app.core.units import parse_size, size_label

if TYPE_CHECKING:
    from app.core.bench.jobs import InputSpec
    from app.core.transfer.results import TransferResult
    from app.core.transfer.runner import TransferOptions

DEFAULT_CIPHERS = ("aes-256-gcm",)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``transfer``'s arguments (its name and help: :func:`app.cli.main._commands`)."""
    from app.core.transfer.runner import MAX_REPEAT, MAX_WARMUP

    p.add_argument("file", nargs="?", metavar="FILE", help="the file to send (never modified)")
    p.add_argument("--size", help="generate random data of this size instead, e.g. 200MiB")
    p.add_argument(
        "--cipher",
        action="append",
        default=[],
        metavar="ID",
        help="aes-256-gcm, chacha20-poly1305 (any AEAD of `list`) or none (repeatable)",
    )
    p.add_argument("--chunk", default="1MiB", help="plaintext bytes per chunk (default 1MiB)")
    p.add_argument("--repeat", type=whole_number(1, MAX_REPEAT), default=5, help="timed runs")
    p.add_argument("--warmup", type=whole_number(0, MAX_WARMUP), default=1, help="discarded runs")
    p.add_argument(
        "--timeout", type=float, default=10.0, metavar="S", help="longest wait of any socket call"
    )
    add_out_option(p, formats.TRANSFER, "the results")
    add_quiet_and_history_options(p)


def cmd_transfer(args: argparse.Namespace) -> int:
    from app.core.kinds.formats import TRANSFER
    from app.core.transfer.framing import transfer_spec
    from app.core.transfer.runner import TransferOptions
    from app.core.transfer.session import transfer_input

    # `None`, not falsy: an empty FILE or --size is refused by its own check, never taken for
    # "not given" (`transfer "" --size 1KB` would send generated data instead).
    if args.file is None and args.size is None:
        raise UserError("give a FILE to send, or --size to generate random data (e.g. 10MB)")
    if args.file is not None and args.size is not None:
        raise UserError("give a FILE to send or --size to generate random data, not both")
    ciphers = args.cipher or list(DEFAULT_CIPHERS)
    for cipher in ciphers:
        transfer_spec(cipher)  # refuses unknown and unauthenticated ciphers now
    if not args.timeout > 0 or args.timeout > 3600:
        raise UserError("--timeout must be more than 0 and at most 3600 seconds")
    options = TransferOptions(
        chunk_bytes=parse_size(args.chunk),
        repeat=args.repeat,
        warmup=args.warmup,
        timeout_s=args.timeout,
    )
    options.check()
    inputs = [os.path.expanduser(args.file)] if args.file is not None else []
    outputs = RunOutputs.of(args)
    # Fail before the run, not after it: an export over the input or over another export.
    outputs.check(TRANSFER, inputs)
    size, label = 0, ""
    if args.file is None:
        size = parse_size(args.size)
        if size <= 0:
            raise UserError("--size must be at least 1 byte")
        label = size_label(args.size)
        if not outputs.quiet:
            print(f"generating {label} ({size:,} bytes) of random data...", file=sys.stderr)
    path = inputs[0] if inputs else None
    with transfer_input(path, size_bytes=size, label=f"random {label}") as source:
        return _run(source, ciphers, options, outputs)


def _run(
    source: InputSpec,
    ciphers: Sequence[str],
    options: TransferOptions,
    outputs: RunOutputs,
) -> int:
    """Run the session, print its table, store it, write it to each ``--out``; the exit code."""
    from app.core.transfer.session import run_transfers

    def said(outcome: TransferResult | NamedFailure) -> None:
        """Each cipher's rate or failure on stderr as it comes."""
        if isinstance(outcome, NamedFailure):
            print(f"FAILED {outcome.label}: {outcome.message}", file=sys.stderr)
        elif not outputs.quiet:
            print(
                f"{outcome.label}: {rate_text(outcome.throughput_mb_s)} MB/s "
                f"({rate_text(outcome.throughput_mib_s)} MiB/s), verified",
                file=sys.stderr,
            )

    cancel = threading.Event()
    events = run_transfers(source, ciphers, options, cancel=cancel)
    try:
        run = follow(events, cancel, quiet=outputs.quiet, on_outcome=said)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (see termination.py)
        return stopped(exc)
    print(format_transfers(run.results, source.label))
    outputs.store(run)
    outputs.write(run, [] if source.generated else [source.path])
    return 1 if run.failures else 0


def format_transfers(results: Sequence[Any], label: str, width: int = 80) -> str:
    """The terminal table, 80 columns: one row per cipher, medians; s/r = sender/receiver,
    their CPU % and peak resident memory above each end's baseline (MiB = 2^20 bytes)."""
    from app.core.transfer.columns import TERMINAL

    head = [c.short_title("") for c in TERMINAL]
    rows = [head, *([c.text(c.get(r, "")) for c in TERMINAL] for r in results)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = textwrap.wrap(
        f"Transfer of {label} over 127.0.0.1: median time of the timed runs, ±IQR their "
        "interquartile range; MB/s = 10^6 bytes/s from the median (MiB/s in the exports). "
        "s/r = sender/receiver: CPU % of one core, MiB = peak resident memory above the end's "
        "baseline (2^20 bytes).",
        width,
    )
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells))
    for r in results:
        for w in r.warnings:
            lines.extend(textwrap.wrap(f"warning: {r.label}: {w}", width, subsequent_indent="  "))
    return "\n".join(lines)
