"""Wall time of two whole studies, and where it goes.

    python benchmarks/bench_study.py [--only 000|001] [--no-memory]

(a) seed 000 (``aes-key-sizes``): AES-128/192/256-CBC at 1, 10 and 50 MB, interleaved rounds,
    20 timed repetitions per job in total (target: under 30 s);
(b) seed 001 (``classic-ciphers``): its seven sizes x its cipher entries (target: under 1 min).

For each it prints the wall time, whether every pair of cipher entries got a confidence
interval (both directions, every input), and a breakdown: the time inside the timed and warm-up
calls (the samples themselves), the workers' steps (one fresh worker per job and round, with
the memory pass), the input generation before the first step, and the statistics afterwards
(fits, bootstrap comparisons, speed-ups in pure Python).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
import time
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from app.core.runtime.events import Finished, Progress
from app.core.study.presets import find_study
from app.core.study.result import StudyResult
from app.core.study.runner import StudyRun
from app.core.study.steps import StepStarted, StudyStarted

CASES = (("000", "aes-key-sizes", 30.0), ("001", "classic-ciphers", 60.0))


def run_case(name: str, *, memory: bool) -> tuple[StudyResult, dict[str, float]]:
    study = find_study(name)
    if not memory:
        study = replace(study, measure_memory=False)
    times: dict[str, float] = {}
    start = time.perf_counter()
    first_step = None
    steps = 0
    result = None
    for ev in StudyRun(study, environment=False).events():
        detail = ev.detail if isinstance(ev, Progress) else None
        if isinstance(detail, StudyStarted):
            times["steps planned"] = detail.total_steps
        elif isinstance(detail, StepStarted):
            steps += 1
            if first_step is None:
                first_step = time.perf_counter()
        elif isinstance(ev, Finished):
            result = ev.result
    ran = time.perf_counter()
    assert result is not None
    _ = result.fits, result.comparisons, result.speedups  # the statistics, computed once
    done = time.perf_counter()
    times["total"] = done - start
    times["before the first step (inputs)"] = (first_step or ran) - start
    times["steps (workers)"] = ran - (first_step or start)
    times["statistics"] = done - ran
    times["inside timed + warm-up calls"] = math.fsum(
        math.fsum(getattr(r, d).samples_s) + math.fsum(getattr(r, d).warmup_s)
        for r in result.results
        for d in ("encrypt", "decrypt")
    )
    times["steps run"] = steps
    return result, times


def every_pair_has_interval(result: StudyResult) -> tuple[bool, int, int]:
    expected = sum(
        2 * len(list(itertools.combinations(group, 2))) for group in result.by_input().values()
    )
    with_interval = sum(1 for c in result.comparisons if c.comparison.has_interval)
    return with_interval == expected and expected > 0, with_interval, expected


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=[seed for seed, _, _ in CASES])
    ap.add_argument("--no-memory", action="store_true", help="skip the memory pass")
    args = ap.parse_args(argv)
    print(f"CPU cores: {os.cpu_count()}, Python {sys.version.split()[0]}")
    for seed, name, target in CASES:
        if args.only and args.only != seed:
            continue
        result, times = run_case(name, memory=not args.no_memory)
        ok, got, expected = every_pair_has_interval(result)
        study = result.study
        n = {len(r.encrypt.samples_s) for r in result.results}
        memory = "on" if study.measure_memory else "off"
        verdict = "met" if times["total"] < target else "MISSED"
        print(
            f"\nseed {seed} ({name}): {len(result.results)} cells, {study.rounds} rounds, "
            f"repetitions per job {sorted(n)}, memory pass {memory}"
        )
        print(f"  wall time {times['total']:.1f} s (target < {target:.0f} s: {verdict})")
        print(f"  every pair has an interval: {ok} ({got} of {expected} comparisons)")
        for key in (
            "before the first step (inputs)",
            "steps (workers)",
            "inside timed + warm-up calls",
            "statistics",
        ):
            print(f"    {key:32} {times[key]:7.2f} s")
        steps = int(times["steps run"])
        overhead = times["steps (workers)"] - times["inside timed + warm-up calls"]
        print(
            f"    {steps} steps; per step outside the timed calls "
            f"(worker start, memory pass, verify): {overhead / max(1, steps):.3f} s"
        )
        if result.failures:
            print(f"  {len(result.failures)} failures: {result.failures[0].message}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
