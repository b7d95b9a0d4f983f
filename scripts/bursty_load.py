"""Run a command with a bursty CPU load beside it: two helper processes each burn a core in
random bursts (10-400 ms on, 10-600 ms off), as a laptop with a browser and an IDE does.

    python scripts/bursty_load.py -- scripts/test.sh      # the test suite on a busy machine

Exits with the command's exit code; the helpers stop with it.
"""

from __future__ import annotations

import multiprocessing
import random
import subprocess
import sys
import time
from multiprocessing.synchronize import Event


def burn(seed: int, stop: Event) -> None:
    """Burn a core in random bursts until ``stop`` is set (benchmarks/bench_claims.py too)."""
    rng = random.Random(seed)
    while not stop.is_set():
        end = time.monotonic() + rng.uniform(0.01, 0.4)
        x = 0
        while time.monotonic() < end:
            x += 1
        stop.wait(rng.uniform(0.01, 0.6))


def main(argv: list[str]) -> int:
    command = argv[argv.index("--") + 1 :] if "--" in argv else argv
    if not command:
        print(__doc__, file=sys.stderr)
        return 2
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    burners = [ctx.Process(target=burn, args=(seed, stop), daemon=True) for seed in (1, 2)]
    for p in burners:
        p.start()
    try:
        return subprocess.call(command)
    finally:
        stop.set()
        for p in burners:
            p.join(5)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
