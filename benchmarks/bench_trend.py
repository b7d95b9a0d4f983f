"""``history trend`` at scale: a history of N bench runs of one definition on one machine, then
the trend of one of them, timed with its peak memory.

    python benchmarks/bench_trend.py [--runs 10000]

Prints the time to store the runs, and the trend's wall time and peak RSS (a child process;
Linux or macOS).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    args = parser.parse_args()
    from hostile import small_job, small_run

    from app.core.history.store import History

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "history.sqlite3"
        history = History.open(path)
        begun = time.monotonic()
        for i in range(args.runs):
            run = small_run(small_job(), small_job("other.bin", input_bytes=9000, samples=30))
            day = f"2024-{1 + i // 5000:02d}-{1 + i // 200 % 25:02d}"
            when = f"{day}T{i // 60 % 24:02d}:{i % 60:02d}:00+00:00"
            history.record(dataclasses.replace(run, started_at=when))
        history.close()
        print(f"stored {args.runs:,} runs in {time.monotonic() - begun:.1f} s")
        env = {**os.environ, "CIPHERBENCH_HISTORY": str(path)}
        command = [sys.executable, "main.py", "history", "trend", str(args.runs // 2)]
        begun = time.monotonic()
        done = subprocess.run(
            ["/usr/bin/time", "-f", "%M", *command], cwd=ROOT, env=env, capture_output=True,
            text=True, check=True,
        )  # fmt: skip
        seconds = time.monotonic() - begun
        peak_mib = int(done.stderr.strip().splitlines()[-1]) / 1024
        print(
            f"history trend over {args.runs:,} runs: {seconds:.1f} s, peak RSS {peak_mib:.0f} MiB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
