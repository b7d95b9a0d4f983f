"""Issue 21's figures, side by side in one run: the sweep against the study engine, its
repeatability and duration, the cycle figures, the hardware ladder, and two processes at once.

    PYTHONPATH=. python benchmarks/bench_sweep.py [--rounds 3] [--quick]

Prints, for aes-256-gcm, chacha20-poly1305 and aes-256-cbc (cryptography):
- the default sweep grid's duration (target < 60 s per cipher, 3 rounds);
- its 16 MiB encryption throughput against ``bench --size 16MiB`` of the same entry (target
  within 5 %);
- a second sweep's medians at 4 KiB and above against the first's (target within 3 %);
the two sweeps and bench run interleaved round by round, so that they see the same machine
(a shared VM drifts by a few per cent from one minute to the next);
- cycles per byte: the counter's against time x frequency where the CPU counts cycles, else
  the estimate (time x the kernel's clock figure) checked to equal it;
then ``ladder aes-128-gcm`` and ``ladder aes-128-ctr`` (three rows; AES instructions off at
least 3x slower than on; pure Python the slowest) and ``bench --processes 2`` of aes-256-ctr
(target >= 1.85x one process).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from app.core.runtime.events import result_of  # noqa: E402
from app.core.sweep.plan import DEFAULT_LENGTHS, ladder_plan, sweep_plan  # noqa: E402
from app.core.sweep.report import ladder_steps  # noqa: E402
from app.core.sweep.results import SweepEntry  # noqa: E402
from app.core.sweep.runner import run_sweep  # noqa: E402

CIPHERS = ("aes-256-gcm", "chacha20-poly1305", "aes-256-cbc")
MIB = 1 << 20
verdicts: list[tuple[str, bool]] = []


def check(name: str, ok: bool) -> str:
    verdicts.append((name, ok))
    return "PASS" if ok else "FAIL"


def one_round(cipher: str, lengths: tuple[int, ...]) -> tuple[SweepEntry, float]:
    """One round of the entry's sweep (one fresh worker) and how long it took."""
    t0 = time.monotonic()
    result = result_of(run_sweep(sweep_plan([cipher], "cryptography", lengths=lengths, rounds=1)))
    if result.failures:
        raise SystemExit(f"{cipher}: {result.failures[0].message}")
    return result.entries[0], time.monotonic() - t0


def bench_mb_s(cipher: str) -> float:
    """``bench --size 16MiB`` of the entry: the study engine's encryption MB/s."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "b.json")
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "main.py"), "bench", "--size", "16MiB",
             "--cipher", cipher, "--library", "cryptography", "--repeat", "15",
             "--no-history", "--quiet", "--out", out],
            check=True, capture_output=True,
        )  # fmt: skip
        with open(out, encoding="utf-8") as f:
            return float(json.load(f)["results"][0]["encrypt"]["throughput_mb_s"])


def medians(rounds: list[SweepEntry]) -> dict[int, float]:
    """Each length's median over the rounds of each round's median ns per call (the sweep's
    own statistic: :attr:`SweepPoint.median_ns`)."""
    return {
        p.message_bytes: statistics.median(
            q.median_ns for r in rounds if (q := r.point("encrypt", p.message_bytes)) is not None
        )
        for p in rounds[0].curve()
    }


def sweeps(rounds: int, lengths: tuple[int, ...]) -> None:
    """Two sweeps of each entry (A and B) and ``bench`` interleaved round by round, A, bench,
    B, A, bench, B, ...: the machine drifts by a few per cent from one minute to the next
    (a shared VM), and run side by side the three see the same moments."""
    print(f"== sweep: {len(lengths)} lengths, {rounds} rounds, cryptography ==")
    print("   sweep A, bench and sweep B interleaved round by round (A/A control: A vs B)")
    head = f"{'cipher':<18} {'grid s':>7} {'16MiB MB/s':>10} {'bench MB/s':>10} {'ratio':>6}"
    print(head + f" {'A/B max diff (>=4KiB)':>22} {'cyc/B 16MiB':>11} source")
    for cipher in CIPHERS:
        first: list[SweepEntry] = []
        second: list[SweepEntry] = []
        engine: list[float] = []
        seconds = 0.0
        for _ in range(rounds):
            entry, took = one_round(cipher, lengths)
            first.append(entry)
            seconds += took
            engine.append(bench_mb_s(cipher))
            second.append(one_round(cipher, lengths)[0])
        a, b = medians(first), medians(second)
        top_bytes = max(a)
        mb_s = top_bytes / a[top_bytes] * 1e3  # bytes per ns -> MB/s
        ratio = mb_s / statistics.median(engine)
        worst = max(abs(b[n] / a[n] - 1) for n in a if n >= 4096)
        top = first[0].curve()[-1]
        clock = first[0].clock_mhz
        cpb = top.cycles_per_byte(clock) or float("nan")
        estimate = top.median_ns * (clock or 0) / 1e3 / top.message_bytes
        counter_vs_estimate = cpb / estimate if estimate else float("nan")
        print(
            f"{cipher:<18} {seconds:7.1f} {mb_s:10,.0f} {statistics.median(engine):10,.0f}"
            f" {ratio:6.3f} {100 * worst:21.1f}% {cpb:11.3f}"
            f" {'counter' if first[0].counter else 'estimate'}"
        )
        print(
            f"   grid < 60 s: {check(cipher + ' grid < 60 s', seconds < 60)};"
            f" 16 MiB within 5 % of bench: {check(cipher + ' vs bench', abs(ratio - 1) <= 0.05)};"
            f" repeat within 3 %: {check(cipher + ' repeat', worst <= 0.03)};"
            f" cycles within 5 % of time x freq ({counter_vs_estimate:.3f}):"
            f" {check(cipher + ' cycles', abs(counter_vs_estimate - 1) <= 0.05)}"
        )
        if not first[0].counter:
            print(f"   (no cycle counter here: {first[0].cycles_source})")


def ladders(rounds: int) -> None:
    for cipher in ("aes-128-gcm", "aes-128-ctr"):
        result = result_of(run_sweep(ladder_plan(cipher, rounds=rounds)))
        steps = ladder_steps(result)
        print(f"== ladder {cipher} ({rounds} rounds) ==")
        for s in steps:
            factor = s.slower_than_first or 1.0
            print(
                f"   {s.entry.label:<52} {s.point.mb_s:12,.2f} MB/s  {factor:9,.1f}x  "
                f"{s.entry.note}"
            )
        off = steps[1].slower_than_first or 0.0
        pure = steps[2].point.ns_per_byte or 0.0
        slowest = all(pure > (s.point.ns_per_byte or 0) for s in steps[:2])
        print(
            f"   three rows: {check(cipher + ' three rows', len(steps) == 3)};"
            f" off >= 3x slower ({off:.1f}x): {check(cipher + ' off 3x', off >= 3)};"
            f" pure Python slowest: "
            f"{check(cipher + ' pure slowest', slowest)}"
        )


def processes() -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "p.json")
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "main.py"), "bench", "--size", "64MiB",
             "--cipher", "aes-256-ctr", "--library", "cryptography", "--processes", "2",
             "--no-history", "--quiet", "--out", out],
            check=True, capture_output=True,
        )  # fmt: skip
        with open(out, encoding="utf-8") as f:
            r = json.load(f)["results"][0]
    one = r["encrypt"]["throughput_mb_s"]
    two = r["aggregate"]["encrypt_throughput_mb_s"]
    load = os.getloadavg()[0]
    print("== bench --processes 2, aes-256-ctr [cryptography], 64 MiB ==")
    print(
        f"   1 process {one:,.0f} MB/s, 2 at once {two:,.0f} MB/s: {two / one:.2f}x"
        f" (load average {load:.2f}); >= 1.85x: {check('processes 2', two / one >= 1.85)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="fewer lengths (a smoke run)")
    args = parser.parse_args()
    lengths = (64, 4096, 65536, 16 * MIB) if args.quick else DEFAULT_LENGTHS
    t0 = time.monotonic()
    sweeps(args.rounds, lengths)
    ladders(args.rounds)
    processes()
    failed = [name for name, ok in verdicts if not ok]
    print(f"== {len(verdicts) - len(failed)} of {len(verdicts)} targets met"
          f" in {time.monotonic() - t0:.0f} s ==")  # fmt: skip
    for name in failed:
        print(f"   missed: {name}")
    print(f"   statistics: {statistics.__name__} medians; MB/s = 10^6 bytes per second")


if __name__ == "__main__":
    main()
