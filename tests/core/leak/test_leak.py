"""The leak test (app/core/leak): dudect's statistics against a direct computation, its
verdicts on synthetic times, its row (every format, one number), and real workers finding the
known leak of a tag compared with == (and not of hmac.compare_digest)."""

from __future__ import annotations

import json
import math
import threading
from pathlib import Path

import numpy as np
import pytest

from app.cli.main import main
from app.core.document.terminal import render
from app.core.kinds import formats, table
from app.core.leak import run as leak_run
from app.core.leak.definition import DEFINITION
from app.core.leak.document import LEAK, NONE, POSSIBLE, leak_document, mean_effect, verdict
from app.core.leak.job import LeakJob
from app.core.leak.measure import KEEP, Reservoir, median_difference, thinned
from app.core.leak.result import LeakEntry, LeakResult
from app.core.leak.ttests import ENOUGH, LEAK_T, SECOND_ORDER, TTests, calls_needed
from app.core.runtime.events import Finished, Progress


def _welch(a: np.ndarray, b: np.ndarray) -> float:
    return float((a.mean() - b.mean()) / np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b)))


def _pushed(shift: float, batches: int = 6, seed: int = 1) -> tuple[TTests, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    tests = TTests.from_first_batch(rng.gamma(4, 50, 10_000) + 1000)
    xs, cs = [], []
    for _ in range(batches):
        c = rng.integers(0, 2, 10_000)
        x = rng.gamma(4, 50, 10_000) + 1000 + shift * (c == 0)
        tests.push(x, c)
        xs.append(x)
        cs.append(c)
    return tests, np.concatenate(xs), np.concatenate(cs)


def test_the_online_tests_equal_welch_s_t_computed_at_once() -> None:
    tests, x, c = _pushed(shift=2.0)
    t = tests.t_values()
    assert t[0] == pytest.approx(_welch(x[c == 0], x[c == 1]), rel=1e-9)
    for i in (10, 50, 99):  # a cropped copy: the times below its threshold
        below = x < tests.thresholds[i - 1]
        assert t[i] == pytest.approx(_welch(x[(c == 0) & below], x[(c == 1) & below]), rel=1e-9)
    assert tests.calls == len(x)


def test_a_test_counts_only_with_enough_calls_in_each_class() -> None:
    tests, _, _ = _pushed(shift=0.0, batches=1)  # 10,000 calls: fewer than ENOUGH a class
    assert tests.best() is None and np.all(np.isnan(tests.t_values()))
    assert ENOUGH == 10_000


def test_a_shift_is_found_and_its_size_measured_where_no_shift_is_not() -> None:
    leaky, _, _ = _pushed(shift=15.0)
    best = leaky.best()
    assert best is not None and best.t > 10  # class 0 slower: t > 0
    low, high = best.interval()
    assert low < best.difference < high and low > 0
    same, _, _ = _pushed(shift=0.0, seed=2)
    quiet = same.best()
    assert quiet is not None and abs(quiet.t) < 4.5 and quiet.detectable_ns > 0


def test_the_smallest_shift_seen_leaves_out_a_crop_that_keeps_one_clock_reading() -> None:
    """Calls of about 100 ns on a 1 ns clock: most read exactly 100, so the crops at the low
    percentiles keep (nearly) one value and a standard error near zero; the smallest shift
    seen comes from a test whose times vary, never 0.0000001 ns."""
    rng = np.random.default_rng(3)
    tests = TTests.from_first_batch(np.where(rng.random(10_000) < 0.9, 100.0, 101.0))
    for _ in range(4):
        c = rng.integers(0, 2, 50_000)
        x = np.where(rng.random(50_000) < 0.9, 100.0, rng.integers(101, 400, 50_000))
        tests.push(x.astype(float), c)
    best = tests.best()
    assert best is not None
    raw_se = float(tests.standard_errors()[0])
    assert best.detectable_ns >= 0.5 * raw_se * 6.145 and best.detectable_ns > 0.01


def test_calls_needed_follow_dudect_s_tau() -> None:
    assert calls_needed(5.0, 10_000) == pytest.approx(40_000)  # tau 0.05: (10 / 0.05)^2
    assert math.isinf(calls_needed(0.0, 10_000))


def test_the_reservoir_keeps_a_uniform_sample_and_the_bootstrap_covers_the_shift() -> None:
    rng = np.random.default_rng(3)
    kept = Reservoir(rng)
    for start in range(0, 100_000, 10_000):
        kept.add(np.arange(start, start + 10_000, dtype=np.int64))
    assert len(kept.kept) == KEEP and kept.seen == 100_000
    assert 40_000 < np.median(kept.kept) < 60_000  # not the first 10,000 only
    a = rng.normal(120, 5, 5000).round()
    b = rng.normal(100, 5, 5000).round()
    point, low, high = median_difference(a, b, rng)
    assert low <= point <= high and low <= 20 <= high


def test_the_curve_is_thinned_with_its_last_point_kept() -> None:
    curve = [(i, float(i)) for i in range(1000)]
    short = thinned(curve)
    assert len(short) <= 300 and short[-1] == curve[-1]


def entry(t: float, cipher: str = "aes-128-ecb", on: bool = True) -> LeakEntry:
    return LeakEntry(
        "aes-128-ecb" if cipher == "aes-128-ecb" else cipher, "pycryptodome", 128,
        aes_instructions=on, calls=1_200_000, per_class=(600_000, 600_000),
        best_test="cropped at 50 %", t=t, detectable_ns=0.41, t_raw=t / 3,
        t_second_order=0.5, curve=((20_000, 1.0), (1_200_000, abs(t))),
        mean_effect_ns=(41.3, 35.2, 47.4), effect_ns=(40.0, 30.0, 50.0),
        median_ns=(3640.0, 3600.0), batch=50_000, cpu=1, stopped_early=False, seconds=20.1,
    )  # fmt: skip


def made() -> LeakResult:
    return LeakResult(
        results=(entry(38.2), entry(6.1, on=False), entry(-1.2, "bf-ecb")),
        failures=(), rounds=1, classes="fixed-random", length=16, budget_s=20.0, seed=7,
        environment={}, started_at="2026-11-28T15:00:00+00:00",
        finished_at="2026-11-28T15:01:00+00:00",
    )  # fmt: skip


def test_verdicts_never_say_constant_time() -> None:
    result = made()
    assert [verdict(e) for e in result.results] == [LEAK, POSSIBLE, NONE]
    document = leak_document(result)
    said = "\n".join(document.sections[0].lines)
    assert "leak: |t| = 38.2 after 1,200,000 calls" in said
    assert "fixed messages 41.3 ns slower on average (95 % CI 35.2 to 47.4 ns)" in said
    assert "possible leak: |t| = 6.10" in said and "run longer" in said
    assert "no leak found: |t| < 4.5 after 1,200,000 calls" in said
    assert "constant time" not in render(document).lower()


def test_its_row_gives_it_every_renderer_its_figure_and_one_number(tmp_path: Path) -> None:
    result = made()
    kind = table.kind_of(result)
    assert kind.name == "leak" and kind.stored and kind.defined() is DEFINITION
    assert {".svg", ".pdf", ".json", ".html", ".csv", ".md", ".tex", ".xlsx"} <= set(
        kind.files.suffixes
    )
    want = mean_effect(result.results[0]).text()
    assert want == "41.3 [35.2, 47.4]"
    for suffix in kind.files.suffixes:
        path = tmp_path / f"leak{suffix}"
        formats.save(result, path)
        if suffix in (".xlsx", ".pdf"):
            assert path.read_bytes()[:4] in (b"PK\x03\x04", b"%PDF")
            continue
        text = path.read_text(encoding="utf-8")
        if suffix == ".svg":
            assert "|t| = 4.5" in text and "|t| = 10" in text and "aes-128-ecb" in text
        elif suffix == ".json":
            again = LeakResult.from_dict(json.loads(text))
            assert again == result
        else:
            assert want in text or "41.3" in text, suffix


def _values(**given: object) -> dict[str, object]:
    return DEFINITION.values(given)


def test_bad_choices_get_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leak", "aes-128-ecb", "--length", "20", "--no-history"]) == 2
    assert (
        "a length of 20 bytes is not whole blocks of aes-128-ecb (16 bytes)"
        in capsys.readouterr().err
    )
    assert main(["leak", "tag-compare-eq", "--classes", "key", "--budget", "2", "--quiet",
                 "--no-history"]) != 0  # fmt: skip
    assert "takes the classes fixed-random" in capsys.readouterr().err


def test_both_steps_of_the_ladder_are_asked_only_where_they_change_something() -> None:
    values = _values(
        cipher=("aes-128-ecb", "bf-ecb"), library=("pycryptodome",), aes_instructions="both"
    )
    jobs = leak_run.jobs(values, seed=1)
    assert [(j.cipher, j.aes_instructions) for j in jobs] == [
        ("aes-128-ecb", True), ("aes-128-ecb", False), ("bf-ecb", True)
    ]  # fmt: skip
    assert all(isinstance(j, LeakJob) and j.seed == 1 for j in jobs)


def _run(budget_s: float, **given: object) -> list[Progress | Finished]:
    """The command's run, in real workers, of ``given`` for ``budget_s`` seconds an entry:
    below the option's 2 s minimum (a user's shortest run), which these tests do not need:
    what they check needs one measured batch after the one that sets the thresholds (five of
    5,000 calls with ``--classes key``), and a batch is sized to a tenth of the budget at most,
    so the budget leaves room for a worker slowed several times over on a busy machine."""
    values = {**_values(**given), "budget": budget_s}
    return list(leak_run.run(values, threading.Event()))


@pytest.mark.long
def test_real_workers_find_the_early_exit_of_equals_and_not_compare_digest() -> None:
    # 0.5 s an entry: a batch of 100,000 calls takes 0.05 s of a core here. == reaches |t| = 10
    # in its first (|t| 80-120 here, under load too) and stops there; compare_digest runs its
    # whole budget (300,000 to 1,000,000 calls here under load).
    events = _run(0.5, cipher=("tag-compare-eq", "tag-compare-digest"), seed="11")
    finished = events[-1]
    assert isinstance(finished, Finished)
    eq, digest = finished.result.results
    assert verdict(eq) == LEAK, eq
    # A first byte that differs returns sooner: class 0 faster in any first-order test (the
    # second-order test's sign is the spread's, either way).
    assert eq.best_test == SECOND_ORDER or eq.t < 0, eq
    # No early exit: no first-order test calls compare_digest a leak. Its second-order test
    # (a spread that differs) did so once in 30-64 runs beside a bursty load, at any budget:
    # within benchmarks/bench_leak_calibration.py's 5 %, which counts that rate; here it would
    # make the suite fail on a busy machine for what this test is not about.
    assert verdict(digest) != LEAK or digest.best_test == SECOND_ORDER, digest
    assert abs(digest.t_raw) < LEAK_T, digest
    assert digest.calls > 2 * ENOUGH
    live = [e for e in events if getattr(e, "detail", None)]
    assert {e.detail["entry"] for e in live} == {"tag-compare-eq [python]",
                                                 "tag-compare-digest [python]"}  # fmt: skip
    assert all(e.note.startswith("|t| = ") and e.detail["curve"] for e in live)


@pytest.mark.long
@pytest.mark.parametrize(
    ("cipher", "library", "classes", "budget_s"),
    [
        # A cipher object made for each call: 15 us a call, 20,000 calls 0.3 s of a core. The
        # option's 2 s: with a second leak worker on its core and a bursty load beside them,
        # 1.5 s gave as few as 25,000 calls.
        ("aes-128-ecb", "pycryptodome", "key", 2.0),
        # 1.2 us a call: a batch of 100,000 calls 0.12 s (200,000 and more here under load).
        ("aes-128-gcm", "cryptography", "fixed-fixed", 1.0),
    ],
)
def test_every_kind_of_call_and_class_runs_in_a_worker(
    cipher: str, library: str, classes: str, budget_s: float
) -> None:
    *_, finished = _run(budget_s, cipher=(cipher,), library=(library,), classes=classes)
    assert isinstance(finished, Finished) and not finished.result.failures
    (only,) = finished.result.results
    assert only.calls > 2 * ENOUGH and sum(only.per_class) == only.calls
    assert finished.result.input_label(only) == f"16-byte messages ({classes})"


def test_what_the_review_found_in_the_probes_and_the_curve() -> None:
    """An empty curve (the budget spent before a measured batch) thins to nothing; a 64 KiB
    message holds 1,024 calls a batch (64 MiB, not gigabytes); ChaCha20's block counter
    starts at zero whatever the draw (a counter drawn near its top ran out mid-run)."""
    from app.core.ciphers.registry import lookup
    from app.core.leak.probes import BATCH_BYTES, _nonce, probe

    assert thinned([]) == []
    big = LeakJob("aes-128-ctr", "cryptography", 128, "fixed-random", 65536, 3.0, 1)
    assert probe(big, np.random.default_rng(1)).max_batch == BATCH_BYTES // 65536 == 1024
    spec = lookup("chacha20", "cryptography")
    for seed in range(20):
        nonce = _nonce(spec, np.random.default_rng(seed))
        assert nonce == spec.with_counter_zeroed(nonce)
