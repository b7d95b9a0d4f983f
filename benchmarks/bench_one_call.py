"""Issue 31's line "a 16-byte bench and a 16 MiB bench both time within 5 % of the sweep's
figure at the same length", side by side in one run.

    PYTHONPATH=. python benchmarks/bench_one_call.py [--rounds 11]

For each entry (cryptography and pycryptodome; a block, a stream and an AEAD mode), rounds of
``bench --size 16 --size 16MiB`` and a sweep round at 16 B and 16 MiB run interleaved (bench,
sweep, bench, sweep, ...), so both see the same moments of a shared machine. Each round gives
the bench's encryption median and the sweep's "whole message" point (a cipher object of its
own per message, made before the clock: the bench's timed loop, ``final_each``). Printed: the
median over rounds of each; the ratio bench / sweep, round by round (a bench and the sweep
round after it see the same moment of the machine), its median over rounds (target: within
5 %) and the 95 % interval of that median (distribution-free, as benchstat's); and the
sweep's call on a held object beside them, for scale.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from app.core.document.intervals import median_interval  # noqa: E402
from app.core.runtime.events import result_of  # noqa: E402
from app.core.sweep.plan import sweep_plan  # noqa: E402
from app.core.sweep.runner import run_sweep  # noqa: E402

ENTRIES = (
    ("aes-128-cbc", "cryptography"),
    ("aes-128-ctr", "cryptography"),
    ("aes-128-gcm", "cryptography"),
    ("aes-128-cbc", "pycryptodome"),
    ("aes-128-gcm", "pycryptodome"),
)
LENGTHS = (16, 16 << 20)


def bench_round(cipher: str, library: str) -> dict[int, float]:
    """One ``bench`` run (one fresh worker per size): encryption median ns per size."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "b.json")
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "main.py"), "bench", "--size", "16",
             "--size", "16MiB", "--cipher", cipher, "--library", library, "--no-memory",
             "--no-history", "--quiet", "--out", out],
            check=True, capture_output=True,
        )  # fmt: skip
        with open(out, encoding="utf-8") as f:
            results = json.load(f)["results"]
    return {r["input_bytes"]: r["encrypt"]["median_s"] * 1e9 for r in results}


def sweep_round(cipher: str, library: str) -> tuple[dict[int, float], dict[int, float]]:
    """One sweep round: the whole message's and the held call's median ns per length."""
    plan = sweep_plan([cipher], library, lengths=LENGTHS, rounds=1, ad=False)
    result = result_of(run_sweep(plan))
    if result.failures:
        raise SystemExit(f"{cipher} [{library}]: {result.failures[0].message}")
    entry = result.entries[0]
    whole = {p.message_bytes: p.median_ns for p in entry.curve("message")}
    held = {p.message_bytes: p.median_ns for p in entry.curve("encrypt")}
    return whole, held


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--only", help="one cipher id (all its entries here)")
    args = parser.parse_args()
    print(f"== bench against the sweep's whole message, {args.rounds} interleaved rounds ==")
    print(
        f"{'entry':<30} {'length':>6} {'bench':>10} {'sweep':>10} {'ratio':>5}"
        f" {'95 % interval':>13} {'held call':>10}  within 5 %"
    )
    met = total = 0
    for cipher, library in ENTRIES:
        if args.only and cipher != args.only:
            continue
        benches: list[dict[int, float]] = []
        wholes: list[dict[int, float]] = []
        helds: list[dict[int, float]] = []
        for _ in range(args.rounds):
            benches.append(bench_round(cipher, library))
            whole, held = sweep_round(cipher, library)
            wholes.append(whole)
            helds.append(held)
        for n in LENGTHS:
            b = statistics.median(r[n] for r in benches)
            w = statistics.median(r[n] for r in wholes)
            h = statistics.median(r[n] for r in helds)
            ratios = [rb[n] / rw[n] for rb, rw in zip(benches, wholes, strict=True)]
            ratio = statistics.median(ratios)
            interval = median_interval(ratios)
            low_high = f"{interval[0]:.3f}-{interval[1]:.3f}" if interval else "-"
            ok = abs(ratio - 1) <= 0.05
            met += ok
            total += 1
            label = "16 B" if n == 16 else "16 MiB"
            print(
                f"{cipher + ' [' + library + ']':<30} {label:>6} {b:10,.0f} {w:10,.0f}"
                f" {ratio:5.3f} {low_high:>13} {h:10,.0f}  {'PASS' if ok else 'FAIL'}"
            )
    print(
        f"== {met} of {total} within 5 % (ns per message; ratio: the median of the rounds' "
        "bench / sweep) =="
    )


if __name__ == "__main__":
    main()
