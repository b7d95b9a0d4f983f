"""Every core at once (``bench --processes N``): copies in real workers, each verified, and the
aggregate attached to the result and kept through JSON."""

import multiprocessing
import os
import random
import threading
import time

import pytest
from factories import job_result
from leftovers import spawned_children

from app.core.bench import multicore
from app.core.bench.events import JobFailed, JobFinished, JobProgress
from app.core.bench.inputs import inspect_file
from app.core.bench.jobs import BenchOptions
from app.core.bench.measure import run_job
from app.core.bench.multicore import aggregate_of, overlap, run_copies
from app.core.bench.plan import make_jobs
from app.core.bench.results import Aggregate, JobResult, TimedSpan
from app.core.bench.runner import BenchmarkRun
from app.core.ciphers.registry import select
from app.core.runtime.events import result_of

FAST = BenchOptions(repeat=2, warmup=0, min_time_s=0, measure_memory=False)


@pytest.fixture(autouse=True)
def short_copies(monkeypatch):
    monkeypatch.setattr(multicore, "COPY_MIN_TIME_S", 0.0)


@pytest.fixture
def job(tmp_path):
    p = tmp_path / "in.bin"
    p.write_bytes(os.urandom(32 * 1024))
    return make_jobs(select(["aes-128-ctr"], "cryptography"), inspect_file(p), FAST)[0]


@pytest.fixture
def aggregated_copies(monkeypatch) -> list[JobResult]:
    """The copies' results, as the aggregate is computed from them (filled as it happens)."""
    seen: list[JobResult] = []
    real = multicore.aggregate_of

    def spy(copies):
        seen.extend(copies)
        return real(copies)

    monkeypatch.setattr(multicore, "aggregate_of", spy)
    return seen


def _drain(gen):
    events = []
    try:
        while True:
            events.append(next(gen))
    except StopIteration as stop:
        return events, stop.value


def test_two_copies_both_verified(job, aggregated_copies):
    seen = aggregated_copies
    events, outcome = _drain(run_copies(job, 0, 2, threading.Event()))
    aggregate, together = outcome
    assert isinstance(aggregate, Aggregate) and aggregate.processes == 2
    assert aggregate.encrypt_throughput_mb_s > 0 and aggregate.decrypt_throughput_mb_s > 0
    assert 0.0 <= together <= 1.0
    assert len(seen) == 2 and all(r.verified for r in seen)
    assert all(isinstance(e, JobProgress) for e in events)
    assert not spawned_children()


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
        run = result_of(BenchmarkRun([job], environment=False, processes=processes).events())
        assert not run.failures
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


def test_a_jobs_progress_never_goes_back_with_copies(job):
    """The single-process run fills the first half of the job's progress, the copies the
    second: a progress bar does not jump back when the copies start."""
    events = BenchmarkRun([job], environment=False, processes=2).job_events()
    progress = [e for e in _drain(events)[0] if isinstance(e, JobProgress)]
    single = [e.fraction for e in progress if e.phase != "2 processes"]
    copies = [e.fraction for e in progress if e.phase == "2 processes"]
    assert single and copies
    assert all(0 <= f <= 0.5 for f in single) and all(0.5 <= f <= 1 for f in copies)
    assert progress.index(next(e for e in progress if e.phase == "2 processes")) == len(single)


def test_old_files_without_aggregate_still_load():
    d = job_result().to_dict()
    del d["aggregate"]
    assert JobResult.from_dict(d).aggregate is None


MS = 1_000_000  # ns


def _copy(start_ms: float, end_ms: float, cpu_ms: float, enc_cpu_ms: float, **kw: object):
    """A copy's result as a worker reports it: 1 MB, two timed round trips, its timed span."""
    span = TimedSpan(
        round(start_ms * MS),
        round(end_ms * MS),
        round(cpu_ms * MS),
        round(enc_cpu_ms * MS),
        round(enc_cpu_ms * MS),
    )
    return job_result(input_bytes=1_000_000, timed_span=span, **kw)  # type: ignore[arg-type]


def _sum_of_mean_rates(copies: list[JobResult]) -> float:
    """The first version's formula, for comparison."""
    return sum(c.input_bytes / c.encrypt.mean_s / 1e6 for c in copies)


def test_aggregate_is_a_cores_speed_times_the_cores_kept_busy():
    # Two copies side by side on two cores: each encrypts 2 MB in 2 ms of CPU (1,000 MB/s a
    # core) and keeps its core busy the whole 10 ms window.
    a = _copy(0, 10, 10, 2, enc_s=(0.001, 0.001), dec_s=(0.001, 0.001))
    agg = aggregate_of([a, a])
    assert agg.processes == 2
    assert agg.encrypt_throughput_mb_s == pytest.approx(2000)
    assert agg.decrypt_throughput_mb_s == pytest.approx(2000)
    # The same copies one after the other: one core busy on average, 1,000 MB/s.
    b = _copy(10, 20, 10, 2, enc_s=(0.001, 0.001), dec_s=(0.001, 0.001))
    assert aggregate_of([a, b]).encrypt_throughput_mb_s == pytest.approx(1000)


def test_three_copies_on_two_cores_cannot_pass_two_cores():
    # Each copy's timed calls ran on a whole core (1 ms per MB: 1,000 MB/s each) while the
    # others hashed, untimed; the kernel gave the three of them 2 cores over the 15 ms window
    # (10 ms of CPU each). The old sum says 3,000 MB/s; the machine did 2,000 at most.
    copies = [_copy(0, 15, 10, 2, enc_s=(0.001, 0.001), dec_s=(0.001, 0.001)) for _ in range(3)]
    assert _sum_of_mean_rates(copies) == pytest.approx(3000)
    agg = aggregate_of(copies)
    assert agg.encrypt_throughput_mb_s == pytest.approx(2000)
    assert agg.encrypt_throughput_mb_s <= 2 * 1000 * 1.0001


def test_aggregate_never_exceeds_the_cores_times_a_cores_speed():
    """Any timing the machine can produce: CPU within a window at most cores x window, a
    direction's CPU within its copy's; the aggregate stays under cores x the best speed."""
    rng = random.Random(1234)
    for _ in range(500):
        cores = rng.choice((1, 2, 4))
        n = rng.randint(1, 6)
        window = rng.uniform(5, 50)
        starts = [rng.uniform(0, window / 2) for _ in range(n)]
        ends = [rng.uniform(s + 1, window) for s in starts]
        ends[0] = window
        budget = cores * (max(ends) - min(starts))  # the CPU the machine had
        shares = [rng.random() for _ in range(n)]
        cpu = [
            min(e - s, budget * share / sum(shares))
            for s, e, share in zip(starts, ends, shares, strict=True)
        ]
        copies = []
        speeds = []
        for s, e, c in zip(starts, ends, cpu, strict=True):
            enc_cpu = c * rng.uniform(0.05, 0.45)
            reps = rng.randint(1, 5)
            wall = enc_cpu / reps / 1000 * rng.uniform(0.2, 1.0)  # the timed wall: any
            copies.append(_copy(s, e, c, enc_cpu, enc_s=(wall,) * reps, dec_s=(wall,) * reps))
            speeds.append(1e6 * reps / (enc_cpu * MS) * 1e3)  # MB/s per CPU-second
        agg = aggregate_of(copies)
        assert agg.encrypt_throughput_mb_s <= cores * max(speeds) * 1.000001


def test_aggregate_needs_timed_spans():
    with pytest.raises(ValueError, match="no timed span"):
        aggregate_of([job_result()])


def test_a_worker_records_its_timed_span_but_exports_none(job):
    before = time.monotonic_ns()
    result, _secret = run_job(job)
    after = time.monotonic_ns()
    span = result.timed_span
    assert span is not None and before < span.start_ns < span.end_ns < after
    assert 0 < span.encrypt_cpu_ns + span.decrypt_cpu_ns <= span.cpu_ns
    assert span.cpu_ns <= (span.end_ns - span.start_ns) * 1.05  # one thread: one core at most
    d = result.to_dict()
    assert "timed_span" not in d
    assert JobResult.from_dict(d) == result and JobResult.from_dict(d).timed_span is None


def test_overlap_of_spans():
    assert overlap([(0, 10), (0, 10)]) == 1.0
    assert overlap([(0, 10), (5, 15)]) == pytest.approx(5 / 15)
    assert overlap([(0, 1), (2, 3)]) == 0.0


def _monotonic_ns() -> int:
    return time.monotonic_ns()


def test_the_monotonic_clock_is_shared_between_processes():
    """The copies' spans are compared across processes: the clock must be the machine's."""
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        before = time.monotonic_ns()
        theirs = pool.apply(_monotonic_ns)
        after = time.monotonic_ns()
    assert before <= theirs <= after


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity (Linux)")
def test_two_real_copies_on_one_core_report_one_core(job, aggregated_copies):
    """Workers inherit the CPU affinity: two copies pinned to one core share it, and the
    aggregate is at most one core's speed (bytes per CPU-second of the copies), not two."""
    seen = aggregated_copies
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})
    try:
        _, (aggregate, _together) = _drain(run_copies(job, 0, 2, threading.Event()))
    finally:
        os.sched_setaffinity(0, cpus)
    spans = [c.timed_span for c in seen]
    assert all(s is not None and s.start_ns < s.end_ns for s in spans)
    done = sum(c.input_bytes * len(c.encrypt.samples_s) for c in seen)
    per_core_mb_s = done / sum(s.encrypt_cpu_ns for s in spans) * 1e3
    assert 0 < aggregate.encrypt_throughput_mb_s <= per_core_mb_s * 1.02


def test_processes_below_one_refused(job):
    with pytest.raises(ValueError):
        BenchmarkRun([job], processes=0)
