"""Cancelled from the first instant: Ctrl-C (SIGINT) and SIGTERM at random moments of the first
two seconds of ``python main.py study aes-key-sizes`` (import time included) must end with 130 or
143, one line, and no traceback.

    python benchmarks/bench_early_signals.py [--each N] [--window S]

Prints, per signal, how many runs ended as they should, and the moments of any that did not. A
signal in the interpreter's first few milliseconds, before Python has a handler, ends the
process silently by the signal's default action: the shell then shows the same 130 / 143, so
that counts as ended as it should. What no program can guard is the interpreter's own start
(site and its .pth files, about the first 5-20 ms here): a Ctrl-C there prints Python's
traceback before any line of CipherBench runs (1 of 40 at 4 ms).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = {signal.SIGINT: 130, signal.SIGTERM: 143}


def one(signum: int, delay: float, env: dict[str, str]) -> tuple[bool, str]:
    """Start the study, send ``signum`` after ``delay`` seconds; whether it ended as it
    should, and what it said."""
    child = subprocess.Popen(
        [sys.executable, "main.py", "study", "aes-key-sizes", "--no-history", "--quiet"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    time.sleep(delay)
    child.send_signal(signum)
    try:
        _, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        return False, "did not stop within 60 s"
    # Killed by the signal itself, silently, before the interpreter had installed its handler
    # (its first few milliseconds): a shell shows 128 + the signal, the same 130 / 143.
    killed_at_start = child.returncode == -signum and not err.strip()
    good = child.returncode == EXPECTED[signum] and "Traceback" not in err
    return good or killed_at_start, f"exit {child.returncode}: {err.strip()[-200:]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--each", type=int, default=40, help="runs per signal (default 40)")
    parser.add_argument("--window", type=float, default=2.0, help="seconds (default 2)")
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "TMPDIR": scratch, "CIPHERBENCH_NO_HISTORY": "1"}
        for signum in EXPECTED:
            bad = []
            for _ in range(args.each):
                delay = rng.uniform(0.0, args.window)
                good, said = one(signum, delay, env)
                if not good:
                    bad.append(f"  at {delay:.3f} s: {said}")
            name = signal.Signals(signum).name
            print(f"{name}: {args.each - len(bad)} of {args.each} ended with "
                  f"{EXPECTED[signum]} and no traceback")  # fmt: skip
            print("\n".join(bad)) if bad else None
            left = list(Path(scratch).iterdir())
            print(f"  left in the temporary folder: {len(left)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
