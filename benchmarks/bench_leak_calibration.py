"""The leak test's calibration (issue 36): how often it calls a leak where there is none (the
A/A controls) and how often it finds one that is there (a tag compared with ==), under the
bursty load of bench_claims.py (two processes burning a core each in random bursts).

    python benchmarks/bench_leak_calibration.py [--runs 100] [--budget 3] [--load bursty|none]

Each run is one `leak` of one entry in a fresh worker with its own seed. Cases:
  A/A aes-128-ecb [pycryptodome], classes random-random  (must be called a leak in <= 5 %)
  A/A tag-compare-eq, classes random-random             (the byte that differs drawn alike)
  tag-compare-eq, first byte vs last                    (a known leak: found in >= 95 %)
  tag-compare-digest, first byte vs last                (must be called a leak in <= 5 %)
  A/A des-ede3-cbc [cryptography], classes random-keys  (the key classes' A/A control)
  des-ede3-cbc [cryptography], classes key              (a fixed key against random keys)
Prints each case's verdicts (leak / possible leak / no leak found), the rate of "leak" with
its Wilson 95 % interval, the median calls and the median |t|.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))

from bench_claims import start_load  # the one bursty load

from app.core.leak import run as leak_run
from app.core.leak.definition import DEFINITION
from app.core.leak.document import LEAK, NONE, POSSIBLE, verdict
from app.core.runtime.events import Finished

CASES = (
    ("A/A aes-128-ecb [pycryptodome]", "aes-128-ecb", "pycryptodome", "random-random"),
    ("A/A tag-compare-eq", "tag-compare-eq", None, "random-random"),
    ("tag-compare-eq (known leak)", "tag-compare-eq", None, "fixed-random"),
    ("tag-compare-digest", "tag-compare-digest", None, "fixed-random"),
    ("A/A des-ede3-cbc [cryptography], keys", "des-ede3-cbc", "cryptography", "random-keys"),
    ("des-ede3-cbc [cryptography], fixed key", "des-ede3-cbc", "cryptography", "key"),
)


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return math.nan, math.nan
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def one(cipher: str, library: str | None, classes: str, budget: int, seed: int):
    given = {"cipher": (cipher,), "classes": classes, "budget": str(budget), "seed": str(seed)}
    if library:
        given["library"] = (library,)
    values = DEFINITION.values(given)
    for event in leak_run.run(values, threading.Event()):
        if isinstance(event, Finished):
            (entry,) = event.result.results
            return entry
    raise RuntimeError("no result")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--budget", type=int, default=3)
    parser.add_argument("--load", choices=("bursty", "none"), default="bursty")
    parser.add_argument("--case", action="append", help="run only cases whose name has this")
    args = parser.parse_args()
    procs, stop = start_load(args.load)
    started = time.monotonic()
    print(
        f"{args.runs} runs a case, budget {args.budget} s, load {args.load}, {os.cpu_count()} cores"
    )
    try:
        for name, cipher, library, classes in CASES:
            if args.case and not any(c in name for c in args.case):
                continue
            counts = {LEAK: 0, POSSIBLE: 0, NONE: 0}
            calls, ts = [], []
            for seed in range(args.runs):
                entry = one(cipher, library, classes, args.budget, 1000 + seed)
                counts[verdict(entry)] = counts.get(verdict(entry), 0) + 1
                calls.append(entry.calls)
                ts.append(abs(entry.t))
            low, high = wilson(counts[LEAK], args.runs)
            rate = 100 * counts[LEAK] / args.runs
            print(
                f"{name:34} leak {counts[LEAK]:3}/{args.runs} = {rate:5.1f} % "
                f"[{100 * low:.1f}, {100 * high:.1f}]  possible {counts[POSSIBLE]:3}  "
                f"none {counts[NONE]:3}  median calls {statistics.median(calls):,.0f}  "
                f"median |t| {statistics.median(ts):.2f}  max |t| {max(ts):.2f}",
                flush=True,
            )
    finally:
        stop.set()
        for p in procs:
            p.join(5)
    print(f"took {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
