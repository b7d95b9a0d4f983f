"""Every core at once (``bench --processes N``): copies in real workers, each verified, and the
aggregate attached to the result and kept through JSON."""

import os
import threading

import psutil
import pytest
from factories import job_result

from app.core.bench import multicore
from app.core.bench.events import JobFailed, JobFinished, JobProgress, RunFinished
from app.core.bench.inputs import inspect_file
from app.core.bench.jobs import BenchOptions
from app.core.bench.multicore import aggregate_of, overlap, run_copies
from app.core.bench.plan import make_jobs
from app.core.bench.results import Aggregate, JobResult
from app.core.bench.runner import BenchmarkRun
from app.core.ciphers.registry import select

FAST = BenchOptions(repeat=2, warmup=0, min_time_s=0, measure_memory=False)


@pytest.fixture(autouse=True)
def short_copies(monkeypatch):
    monkeypatch.setattr(multicore, "COPY_MIN_TIME_S", 0.0)


@pytest.fixture
def job(tmp_path):
    p = tmp_path / "in.bin"
    p.write_bytes(os.urandom(32 * 1024))
    return make_jobs(select(["aes-128-ctr"], "cryptography"), inspect_file(p), FAST)[0]


def _drain(gen):
    events = []
    try:
        while True:
            events.append(next(gen))
    except StopIteration as stop:
        return events, stop.value


def test_two_copies_both_verified(job, monkeypatch):
    seen: list[JobResult] = []
    real = multicore.aggregate_of

    def spy(copies):
        seen.extend(copies)
        return real(copies)

    monkeypatch.setattr(multicore, "aggregate_of", spy)
    events, outcome = _drain(run_copies(job, 0, 2, threading.Event()))
    aggregate, together = outcome
    assert isinstance(aggregate, Aggregate) and aggregate.processes == 2
    assert aggregate.encrypt_throughput_mb_s > 0 and aggregate.decrypt_throughput_mb_s > 0
    assert 0.0 <= together <= 1.0
    assert len(seen) == 2 and all(r.verified for r in seen)
    assert all(isinstance(e, JobProgress) for e in events)
    workers = [c for c in psutil.Process().children(recursive=True)]
    assert all("resource_tracker" in " ".join(c.cmdline()) for c in workers)


def test_a_failed_or_unverified_copy_fails_the_whole(job, monkeypatch):
    def fake(job, index, cancel):
        n = next(counter)
        if n == 0:
            yield JobFinished(index, job_result(verified_round_trips=0))
        else:
            yield JobFinished(index, job_result())

    counter = iter(range(10))
    monkeypatch.setattr(multicore, "run_isolated", fake)
    _, outcome = _drain(run_copies(job, 0, 2, threading.Event()))
    assert outcome == "copy 1 of 2: no result"

    def failing(job, index, cancel):
        yield JobFailed(index, job, "verification failed: differs")

    monkeypatch.setattr(multicore, "run_isolated", failing)
    _, outcome = _drain(run_copies(job, 0, 2, threading.Event()))
    assert "verification failed" in outcome


def test_runner_attaches_aggregate_only_with_processes(job):
    for processes, expect in ((1, False), (2, True)):
        events = list(BenchmarkRun([job], environment=False, processes=processes).events())
        run = events[-1].run
        assert isinstance(events[-1], RunFinished) and not run.failures
        (result,) = run.results
        assert (result.aggregate is not None) is expect
        d = result.to_dict()
        if expect:
            assert d["aggregate"].keys() == {
                "processes",
                "encrypt_throughput_mb_s",
                "decrypt_throughput_mb_s",
            }
            assert d["aggregate"]["processes"] == 2
        else:
            assert d["aggregate"] is None
        assert JobResult.from_dict(d) == result


def test_old_files_without_aggregate_still_load():
    d = job_result().to_dict()
    del d["aggregate"]
    assert JobResult.from_dict(d).aggregate is None


def test_aggregate_is_the_sum_of_mean_rates_and_overlap():
    r = job_result(input_bytes=1_000_000, enc_s=(0.001, 0.003), dec_s=(0.002, 0.002))
    a = aggregate_of([r, r])
    assert a.encrypt_throughput_mb_s == pytest.approx(2 * 1e6 / 0.002 / 1e6)
    assert a.decrypt_throughput_mb_s == pytest.approx(2 * 1e6 / 0.002 / 1e6)
    assert overlap([(0, 10), (0, 10)]) == 1.0
    assert overlap([(0, 10), (5, 15)]) == pytest.approx(5 / 15)
    assert overlap([(0, 1), (2, 3)]) == 0.0


def test_processes_below_one_refused(job):
    with pytest.raises(ValueError):
        BenchmarkRun([job], processes=0)
