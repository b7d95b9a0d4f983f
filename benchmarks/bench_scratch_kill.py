"""No scratch folder outlives its owner, even one killed while creating it: an owner that makes
and removes its scratch folder in a loop (each pass starts a janitor) is SIGKILLed at a random
moment; a second later its temporary folder must hold no ``cipherbench-*`` entry.

    python benchmarks/bench_scratch_kill.py [--kills N]

Prints how many kills left a folder behind (before the janitor was started ahead of the
folder: 1 of 30).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHURN = (
    "from app.core.runtime import scratch\nprint('ready', flush=True)\n"
    "while True:\n    scratch.root()\n    scratch.remove_root()\n"
)


def one(tmp: Path, delay: float) -> list[Path]:
    """Kill a churning owner after ``delay`` seconds; what it left in ``tmp`` a second later."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp)}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHURN],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # a janitor killed before its start-up data says so
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert proc.stdout is not None
    proc.stdout.readline()
    time.sleep(delay)
    proc.kill()
    proc.communicate()
    time.sleep(1.0)
    return list(tmp.glob("cipherbench-*"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(1)
    tmp = Path(tempfile.mkdtemp(prefix="bench-scratch-"))
    left = 0
    try:
        for _ in range(args.kills):
            found = one(tmp, rng.uniform(0.0, 0.4))
            left += bool(found)
            for entry in found:
                shutil.rmtree(entry, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{left} of {args.kills} SIGKILLs left a scratch folder behind")


if __name__ == "__main__":
    main()
