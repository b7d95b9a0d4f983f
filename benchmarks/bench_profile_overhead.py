"""Issue 33's overhead figures: what the profiler (py-spy, and perf where it runs) costs the job
it profiles, the same job timed with and without it in the same rounds (each round a fresh
worker, the two runs in a random order), at three sampling rates, for pure-Python and compiled
entries.

    PYTHONPATH=. python benchmarks/bench_profile_overhead.py [--rounds 3] [--size 64KB]
        [--profilers py-spy,perf]

Prints, per rate and entry: the encryption throughput without and with the profiler (MB/s,
median over rounds), the round-trip time profiled / not (median and range over rounds), the
timed samples a round, and the share of interpreted and compiled code (so a rate's cost can be
set beside what it changes in the shares: nothing, if the profile is sound).
"""

from __future__ import annotations

import argparse
import math
import threading

from app.core.document.intervals import median
from app.core.profile.definition import DEFINITION
from app.core.profile.document import share_estimate, slowdown
from app.core.profile.rules import COMPILED, INTERPRETED, share_names
from app.core.profile.run import run
from app.core.runtime.events import Finished
from app.core.units import MB

ENTRIES = (
    ("aes-128-ctr", "pyaes"),
    ("aes-128-ctr", "cryptography"),
    ("aes-128-ctr", "pycryptodome"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", default="3")
    parser.add_argument("--size", default="64KB")
    parser.add_argument("--rates", default="99,199,499")
    parser.add_argument("--profilers", default="py-spy,perf")
    args = parser.parse_args()
    print(f"size {args.size}, {args.rounds} rounds a rate; MB = 10^6 bytes")
    header = f"{'profiler':<8} {'rate':>5} {'entry':<28} {'plain MB/s':>10} {'prof MB/s':>10} "
    print(header + f"{'time x':>6} {'range':>11} {'samples':>7} {'interp %':>8} {'compiled %':>10}")
    for profiler in args.profilers.split(","):
        for rate in args.rates.split(","):
            for cipher, library in ENTRIES:
                _line(profiler, rate, cipher, library, args.size, args.rounds)


def _line(profiler: str, rate: str, cipher: str, library: str, size: str, rounds: str) -> None:
    values = DEFINITION.values(
        {"cipher": [cipher], "library": [library], "size": size, "rounds": rounds,
         "rate": rate, "profiler": profiler}
    )  # fmt: skip
    *_, finished = run(values, threading.Event())
    assert isinstance(finished, Finished)
    (entry,) = finished.result.results
    if not any(r.stacks for r in entry.rounds):
        note = next((r.note for r in entry.rounds if r.note), "no samples")
        print(f"{profiler:<8} {rate:>5} {entry.label:<28} {note}", flush=True)
        return
    ratios = [x for r in entry.rounds if not math.isnan(x := slowdown(r))]
    plain = median([median(r.plain_s[0]) for r in entry.rounds])
    profiled = median([median(r.profiled_s[0]) for r in entry.rounds if r.profiled_s[0]])
    samples = median([r.samples for r in entry.rounds])
    interp = share_estimate(entry, share_names(INTERPRETED)).median
    comp = share_estimate(entry, share_names(COMPILED)).median
    spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
    print(
        f"{profiler:<8} {rate:>5} {entry.label:<28} {entry.input_bytes / plain / MB:>10.4g} "
        f"{entry.input_bytes / profiled / MB:>10.4g} {median(ratios):>6.2f} {spread:>11} "
        f"{samples:>7.0f} {interp:>8.1f} {comp:>10.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
