"""Comparing two runs: the ratio of times with an interval over rounds, verdicts, matching
of jobs (by input label, else by size), and notes on machines and software that differ."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
from history_factories import bench_run, environment, timed_job, transfer_result, transfer_run

from app.core.export.json_export import json_safe
from app.core.history.compare import (
    EQUAL,
    IMPROVEMENT,
    NO_DIFFERENCE,
    NO_INTERVAL,
    REGRESSION,
    compare_runs,
)
from app.core.history.records import RunSummary, StoredRun


def stored(run_id: int, result, *, hostname: str | None = "lab-1", kind: str = "bench"):
    summary = RunSummary(
        id=run_id,
        kind=kind,
        title="t",
        started_at=result.started_at,
        finished_at=result.finished_at,
        recorded_at=result.finished_at,
        hostname=hostname,
        cpu_model=result.environment.cpu_model,
        ciphers=(),
        inputs=(),
        source="here",
        cancelled=result.cancelled,
        cipherbench_version="0.1.0",
    )
    return StoredRun(summary, result)


def tight(median_s: float, n: int = 30, seed: int = 1) -> list[float]:
    """``n`` samples within about 0.5 % of ``median_s``."""
    rng = np.random.default_rng(seed)
    return [float(x) for x in median_s * (1 + rng.uniform(-0.005, 0.005, n))]


def one_job_runs(samples_a, samples_b, **job):
    a = bench_run([timed_job(samples_a, **job)])
    b = bench_run([timed_job(samples_b, **job)], started_at="2026-11-02T10:00:00+00:00")
    return stored(1, a), stored(2, b)


def test_ten_percent_faster_is_a_significant_improvement() -> None:
    a, b = one_job_runs(tight(1e-3, seed=1), tight(0.9e-3, seed=2))
    c = compare_runs(a, b)
    (job,) = c.jobs
    assert job.cipher_label == "aes-256-ctr [cryptography]" and job.input_a == "input.bin"
    for d in job.directions:
        assert d.direction in ("encrypt", "decrypt")
        assert d.verdict == IMPROVEMENT and d.significant
        assert d.low < 0.9 < d.high and d.high < 0.95
        assert math.isclose(d.ratio, 0.9, rel_tol=0.01)
        assert d.n_a == d.n_b == 30
        assert "less time" in d.sentence("run 1", "run 2") and "improvement" in d.sentence()
    assert c.improvements == 2 and c.regressions == 0
    assert c.only_in_a == c.only_in_b == () and c.notes == ()


def test_slower_is_a_regression() -> None:
    a, b = one_job_runs(tight(1e-3, seed=1), tight(1.2e-3, seed=2))
    d = compare_runs(a, b).jobs[0].directions[0]
    assert d.verdict == REGRESSION and d.low > 1.15 and "19.9 % more time" in d.sentence()


def test_identical_distributions_are_not_significant() -> None:
    samples = tight(1e-3, seed=3)
    shuffled = list(np.random.default_rng(4).permutation(samples))
    d = compare_runs(*one_job_runs(samples, shuffled)).jobs[0].directions[0]
    assert abs(d.ratio - 1.0) < 0.005 and d.low < 1.0 < d.high
    assert d.verdict == EQUAL and not d.significant
    assert "equally fast within 1 %" in d.sentence()
    # Two independent draws from one wide distribution: no difference shown either.
    rng = np.random.default_rng(5)
    wide_a, wide_b = (list(1e-3 * (1 + rng.uniform(-0.2, 0.2, 25))) for _ in range(2))
    d = compare_runs(*one_job_runs(wide_a, wide_b)).jobs[0].directions[0]
    assert d.verdict == NO_DIFFERENCE and d.low < 1.0 < d.high


def test_one_round_a_side_gives_no_interval() -> None:
    """Two plain bench runs, each job in one worker: thousands of repetitions cannot show
    how much another worker would differ, so no verdict (was 'significant' by bootstrap)."""
    a, b = one_job_runs(tight(1e-3, 1000), tight(0.97e-3, 1000), rounds=1)
    d = compare_runs(a, b).jobs[0].directions[0]
    assert d.verdict == NO_INTERVAL and math.isnan(d.low) and not d.significant
    assert (d.rounds_a, d.rounds_b, d.n_a) == (1, 1, 1000)
    assert "too few rounds" in d.sentence() and "1 and 1 rounds" in d.sentence()


def test_jobs_match_by_label_then_by_size_and_the_rest_is_listed() -> None:
    a = bench_run(
        [
            timed_job(tight(1e-3), input_label="random 64 KB", input_bytes=64_000),
            timed_job(tight(2e-3), cipher="aes-128-gcm", mode="GCM", key_bits=128),
        ]
    )
    b = bench_run(
        [
            timed_job(tight(1e-3, seed=9), input_label="generated 64000 B", input_bytes=64_000),
            timed_job(tight(3e-3), cipher="chacha20", algorithm="ChaCha20", mode="stream"),
        ],
        started_at="2026-11-02T10:00:00+00:00",
    )
    c = compare_runs(stored(1, a), stored(2, b))
    (job,) = c.jobs
    assert (job.input_a, job.input_b) == ("random 64 KB", "generated 64000 B")
    assert job.label == "aes-256-ctr [cryptography] on random 64 KB / generated 64000 B"
    assert c.only_in_a == ("aes-128-gcm [cryptography] on input.bin",)
    assert c.only_in_b == ("chacha20 [cryptography] on input.bin",)
    assert any("matched by size (64,000 bytes)" in n for n in c.notes)
    text = "\n".join(c.sentences())
    assert "Only in run 1: aes-128-gcm" in text and "Only in run 2: chacha20" in text


def test_notes_say_when_machines_or_software_differ() -> None:
    a = bench_run([timed_job(tight(1e-3))])
    other = environment(
        cpu_model="Other CPU 9000",
        packages={"cryptography": "49.0.0"},
        openssl_version="OpenSSL 3.5.1",
    )
    b = bench_run([timed_job(tight(1e-3), data_mode="stream", chunk_bytes=65536)], env=other)
    c = compare_runs(stored(1, a, hostname="lab-1"), stored(2, b, hostname="laptop"))
    notes = "\n".join(c.notes)
    assert "different machines: lab-1 (run 1) and laptop (run 2)" in notes
    assert "different CPUs: Test CPU 3000 (run 1) and Other CPU 9000 (run 2)" in notes
    assert "cryptography 50.0.2 -> 49.0.0" in notes and "OpenSSL 4.0.0 -> OpenSSL 3.5.1" in notes
    assert "data mode memory -> stream" in notes
    unknown = compare_runs(stored(1, a), stored(2, a, hostname=None))
    assert any("run 2 does not say which machine" in n for n in unknown.notes)


def test_transfers_compare_their_whole_time_and_to_dict_is_json() -> None:
    base = transfer_run()
    slower = transfer_result(samples_s=(0.01, 0.011, 0.012, 0.0105))  # four rounds
    a = dataclasses.replace(base, results=(slower, base.results[1]))
    faster = (transfer_result(samples_s=(0.008, 0.0081, 0.0082, 0.0080, 0.0081)), a.results[1])
    b = transfer_run(results=faster, started_at="2026-11-04T10:00:00+00:00")
    c = compare_runs(stored(1, a, kind="transfer"), stored(2, b, kind="transfer"))
    assert [j.cipher_label for j in c.jobs] == ["aes-256-gcm (cryptography)", "none"]
    gcm, plain = (j.directions[0] for j in c.jobs)
    assert gcm.direction == "transfer" and gcm.verdict == IMPROVEMENT
    # Three rounds of one transfer a side: too few for an interval.
    assert plain.ratio == 1.0 and plain.verdict == NO_INTERVAL
    doc = json.loads(json.dumps(json_safe(c.to_dict()), allow_nan=False))
    assert doc["run_a"]["id"] == 1 and doc["improvements"] == 1
    assert doc["jobs"][0]["directions"][0]["verdict"] == "improvement"
    # A bench against a transfer: nothing in common, and said so.
    mixed = compare_runs(stored(1, bench_run()), stored(2, b, kind="transfer"))
    assert mixed.jobs == () and len(mixed.only_in_a) == 1 and len(mixed.only_in_b) == 2
    assert any("a bench and run 2 a transfer" in n for n in mixed.notes)


def test_key_sizes_name_a_job_only_when_one_entry_ran_with_several() -> None:
    bf = {"cipher": "bf-cbc", "library": "pycryptodome", "algorithm": "Blowfish", "mode": "CBC"}
    jobs = [
        timed_job(tight(1e-3), key_bits=128, **bf),
        timed_job(tight(1e-3), key_bits=256, **bf),
        timed_job(tight(1e-3), input_label="b.bin"),
        timed_job(tight(1e-3), input_label="c.bin"),
    ]
    a = stored(1, bench_run(jobs))
    labels = [j.label for j in compare_runs(a, a).jobs]
    assert labels == [
        "bf-cbc [pycryptodome] 128-bit on input.bin",
        "bf-cbc [pycryptodome] 256-bit on input.bin",
        "aes-256-ctr [cryptography] on b.bin",
        "aes-256-ctr [cryptography] on c.bin",
    ]


def test_notes_say_when_one_run_also_ran_copies_at_once() -> None:
    from dataclasses import replace

    from app.core.bench.results import Aggregate

    job = timed_job(tight(1e-3))
    a = bench_run([job])
    b = bench_run([replace(job, aggregate=Aggregate(2, 1900.0, 1950.0))])
    notes = "\n".join(compare_runs(stored(1, a), stored(2, b)).notes)
    assert "copies at once (--processes) 1 -> 2" in notes


def test_a_study_stored_before_rounds_were_kept_gets_its_rounds_back() -> None:
    """Version-1 documents merged the rounds' samples in order: with 2 rounds of 2 samples
    each, the claims rest on 2 rounds a side, as a new study's do."""
    from history_factories import study_result

    from app.core.study.result import StudyResult

    doc = study_result().to_dict()
    for r in doc["results"]:
        r.pop("rounds", None)
    back = StudyResult.from_dict(doc)
    assert all(len(r.rounds) == 2 for r in back.results)
    assert all(p.comparison.rounds == 2 for p in back.comparisons)
