"""Calibration of the claims (app/core/study/claims.py): do they hold on a busy machine?

    python benchmarks/bench_claims.py [--load bursty|none] [--aa-studies N] [--order-studies N]
                                      [--before]

(a) A/A controls: studies that list the same entries twice (aes-128-ctr [cryptography] and
    aes-256-cbc [pycryptodome], 256 KB and 1 MB), so every comparison of an entry with its own
    copy is a false positive when it says "faster" or "slower". Target: at most 5 % of at least
    100 such comparisons.
(b) The known order: AES-128 against AES-256 in CBC and CTR, same library, same size (1 MB and
    10 MB). AES-256 runs 14 rounds to AES-128's 10, so a verdict "AES-256 faster" is always
    wrong; CBC encryption is serial, so at 10 MB AES-128-CBC's faster encryption should be
    found.

With ``--load bursty`` (the default) two helper processes burn a core each in random bursts
(10-400 ms busy, 10-600 ms asleep) for the whole run, so workers lose the CPU at random moments.
Each claim is also judged by the method it replaced (a percentile bootstrap of the pooled
repetitions, rounds ignored), on the same samples. ``--before`` runs the studies as they ran
before (2 rounds of 10 repetitions, no rounds added), where the old method was used. Prints the
counts and rates; takes a few minutes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from dataclasses import replace

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))

from bursty_load import burn  # the one bursty load (scripts/bursty_load.py)

from app.core.runtime.events import result_of
from app.core.study import claims
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.result import PairComparison, StudyResult
from app.core.study.runner import StudyRun

AA_ENTRIES = (
    CipherChoice("aes-128-ctr", "cryptography"),
    CipherChoice("aes-128-ctr", "cryptography"),
    CipherChoice("aes-256-cbc", "pycryptodome"),
    CipherChoice("aes-256-cbc", "pycryptodome"),
)
ORDER_ENTRIES = tuple(
    CipherChoice(f"aes-{bits}-{mode}", lib)
    for lib in ("pycryptodome", "cryptography")
    for mode in ("cbc", "ctr")
    for bits in (128, 256)
)


# --- the load ------------------------------------------------------------------------------


def start_load(kind: str) -> tuple[list[multiprocessing.Process], object]:
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    procs = []
    if kind == "bursty":
        for seed in range(2):
            p = ctx.Process(target=burn, args=(seed, stop), daemon=True)
            p.start()
            procs.append(p)
    return procs, stop


# --- the method it replaced -----------------------------------------------------------------


def pooled_verdict(a: list[float], b: list[float], seed: int = 0) -> str:
    """The old claim: a percentile bootstrap of median(B) / median(A) over the pooled
    repetitions (2,000 resamples), significant when the 95 % interval excludes 1."""
    rng = np.random.default_rng(seed)
    xa, xb = np.asarray(a), np.asarray(b)
    ma = np.median(xa[rng.integers(0, len(xa), size=(2000, len(xa)))], axis=1)
    mb = np.median(xb[rng.integers(0, len(xb), size=(2000, len(xb)))], axis=1)
    low, high = np.quantile(mb / ma, [0.025, 0.975])
    if low > 1.0:
        return claims.FASTER
    if high < 1.0:
        return claims.SLOWER
    return claims.UNDECIDED


def pooled(p: PairComparison, result: StudyResult) -> str:
    c = p.comparison
    a = result.result_for(c.label_a, p.input_label)
    b = result.result_for(c.label_b, p.input_label)
    assert a is not None and b is not None
    return pooled_verdict(
        list(getattr(a, p.direction).samples_s), list(getattr(b, p.direction).samples_s)
    )


# --- studies --------------------------------------------------------------------------------


def run_study(study: Study) -> StudyResult:
    return result_of(StudyRun(study, environment=False).events())  # type: ignore[no-any-return]


BEFORE = False  # --before: the studies as they ran with the old method


def base_study(
    name: str, ciphers: tuple[CipherChoice, ...], sizes: tuple[SizeInput, ...], budget_s: float
) -> Study:
    if BEFORE:
        return Study(
            name, ciphers, sizes=sizes, repeat=20, rounds=2, max_rounds=2, time_budget_s=0.0,
            warmup=1, measure_memory=False, min_time_s=0.0,
        )  # fmt: skip
    return Study(
        name,
        ciphers,
        sizes=sizes,
        repeat=12,
        rounds=6,
        max_rounds=20,
        time_budget_s=budget_s,
        warmup=1,
        measure_memory=False,
        min_time_s=0.0,
    )


def a_a(n_studies: int) -> None:
    sizes = (SizeInput("256 KB", 256_000), SizeInput("1 MB", 1_000_000))
    total = called = called_pooled = busy = 0
    rounds: list[int] = []
    t0 = time.monotonic()
    for k in range(n_studies):
        study = replace(base_study("a-a", AA_ENTRIES, sizes, 25.0), data_seed=k)
        result = run_study(study)
        for p in result.comparisons:
            c = p.comparison
            if c.label_b != f"{c.label_a} #2":
                continue
            total += 1
            rounds.append(c.rounds)
            called += c.verdict in (claims.FASTER, claims.SLOWER)
            called_pooled += pooled(p, result) in (claims.FASTER, claims.SLOWER)
            busy += c.busy
            if c.verdict in (claims.FASTER, claims.SLOWER):
                print(f"    false positive: {p.input_label}: {c.sentence()}")
        print(
            f"  study {k + 1}/{n_studies}: {total} A/A comparisons so far, {called} called "
            f"different (old method {called_pooled}), {time.monotonic() - t0:.0f} s"
        )
    print(
        f"A/A: {called} of {total} called faster or slower ({100 * called / total:.1f} %); "
        f"the pooled bootstrap on the same samples: {called_pooled} "
        f"({100 * called_pooled / total:.1f} %). "
        f"Rounds per claim: median {int(np.median(rounds))}, {min(rounds)}-{max(rounds)}; "
        f"{busy} claims on a busy machine."
    )


def known_order(n_studies: int) -> None:
    sizes = (SizeInput("1 MB", 1_000_000), SizeInput("10 MB", 10_000_000))
    wrong = wrong_pooled = found = found_pooled = looked = 0
    for k in range(n_studies):
        study = replace(base_study("order", ORDER_ENTRIES, sizes, 90.0), data_seed=100 + k)
        result = run_study(study)
        for p in result.comparisons:
            c = p.comparison
            a_id, b_id = c.label_a.split(" ")[0], c.label_b.split(" ")[0]
            same = c.label_a.split(" ")[1] == c.label_b.split(" ")[1]  # same library
            if not (same and a_id.startswith("aes-128-") and b_id == "aes-256-" + a_id[8:]):
                continue
            old = pooled(p, result)
            wrong += c.verdict == claims.SLOWER  # A = AES-128 slower: AES-256 "faster"
            wrong_pooled += old == claims.SLOWER
            print(f"  {p.input_label}: {c.sentence()}")
            if a_id == "aes-128-cbc" and p.direction == "encrypt" and p.input_label == "10 MB":
                looked += 1
                found += c.verdict == claims.FASTER
                found_pooled += old == claims.FASTER
    print(
        f"Known order: AES-256 called faster than AES-128 {wrong} times (old method "
        f"{wrong_pooled}); AES-128-CBC encryption at 10 MB found faster in {found} of {looked} "
        f"(old method {found_pooled})."
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--load", choices=("bursty", "none"), default="bursty")
    ap.add_argument("--aa-studies", type=int, default=13, help="A/A studies (8 claims each)")
    ap.add_argument("--order-studies", type=int, default=2, help="known-order studies")
    ap.add_argument("--before", action="store_true", help="2 rounds x 10, no rounds added")
    args = ap.parse_args()
    global BEFORE
    BEFORE = args.before
    procs, stop = start_load(args.load)
    start = time.monotonic()
    try:
        how = "2 rounds x 10 repetitions (before)" if BEFORE else "6-20 rounds x 2 repetitions"
        print(f"Load: {args.load}; {os.cpu_count()} logical cores; {how}")
        if args.aa_studies:
            a_a(args.aa_studies)
        if args.order_studies:
            known_order(args.order_studies)
    finally:
        stop.set()  # type: ignore[attr-defined]
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
    print(f"Wall time: {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
