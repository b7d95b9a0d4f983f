"""How fast and how lean is the loopback transfer? Figures for issue 10.

    python benchmarks/bench_transfer.py [--size 200MiB] [--chunk 1MiB] [--repeat 5] [--warmup 1]
                                        [--cipher ID ...] [--dir DIR]

Sends one file of random bytes (default 200 MiB) from a sender process to a receiver process
over 127.0.0.1 with AES-256-GCM, ChaCha20-Poly1305 and the plaintext baseline ("none"), through
:func:`app.core.transfer.runner.run_transfer`: the engine the ``transfer`` command runs.
Printed per cipher: the median total time (first byte sent to last byte verified), throughput
in MB/s (10^6) and MiB/s, each end's CPU % and its peak resident memory above its baseline
(the kernel's high-water mark, reset just before the run). Targets (issue 10): AES-256-GCM at
least 1,000 MiB/s, each end under 64 MiB above its baseline.

The file is written in ``--dir`` (default: the system temp folder; ``/dev/shm`` takes the disk
out) and deleted afterwards. Other processes skew everything: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.core.transfer.runner import TransferOptions, run_transfer
from app.core.units import MIB, parse_size

TARGET_MIB_S = 1000.0
TARGET_PEAK_MIB = 64.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="200MiB")
    parser.add_argument("--chunk", default="1MiB")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument(
        "--cipher", action="append", default=[], help="default: aes-256-gcm, chacha20, none"
    )
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    size = parse_size(args.size)
    options = TransferOptions(
        chunk_bytes=parse_size(args.chunk), repeat=args.repeat, warmup=args.warmup
    )
    ciphers = args.cipher or ["aes-256-gcm", "chacha20-poly1305", "none"]
    print(f"load average before: {os.getloadavg()}, {os.cpu_count()} CPUs")
    fd, path = tempfile.mkstemp(prefix="cipherbench-transfer-", suffix=".bin", dir=args.dir)
    try:
        with os.fdopen(fd, "wb") as fh:
            left = size
            while left:
                n = min(left, 4 * MIB)
                fh.write(os.urandom(n))
                left -= n
        print(
            f"{size / MIB:,.0f} MiB over 127.0.0.1 in {options.chunk_bytes / MIB:g} MiB chunks, "
            f"{options.warmup} warm-up + {options.repeat} runs, median:"
        )
        header = (
            f"{'cipher':<30} {'time s':>8} {'MB/s':>9} {'MiB/s':>9} "
            f"{'send CPU%':>9} {'send +MiB':>9} {'recv CPU%':>9} {'recv +MiB':>9}  ok"
        )
        print(header)
        for cipher in ciphers:
            r = run_transfer(path, cipher, options, input_label=f"random {args.size}")
            s, rv = r.sender, r.receiver
            ok = r.verified and s.peak_above_baseline_bytes / MIB < TARGET_PEAK_MIB
            ok = ok and rv.peak_above_baseline_bytes / MIB < TARGET_PEAK_MIB
            if cipher == "aes-256-gcm":
                ok = ok and r.throughput_mib_s >= TARGET_MIB_S
            print(
                f"{r.label:<30} {r.timing.median_s:8.3f} {r.throughput_mb_s:9,.0f} "
                f"{r.throughput_mib_s:9,.0f} {s.cpu_percent:9.0f} "
                f"{s.peak_above_baseline_bytes / MIB:9.1f} {rv.cpu_percent:9.0f} "
                f"{rv.peak_above_baseline_bytes / MIB:9.1f}  {'yes' if ok else 'NO'}"
            )
            for w in r.warnings:
                print(f"    warning: {w}")
    finally:
        os.unlink(path)
    print(f"load average after: {os.getloadavg()}")
    print(
        f"targets: aes-256-gcm >= {TARGET_MIB_S:,.0f} MiB/s; each end < {TARGET_PEAK_MIB:.0f} "
        "MiB above its baseline"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
