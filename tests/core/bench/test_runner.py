"""The runner with real worker processes: events, failures, cancel, and no process left."""

import os
import threading
import time

import pytest
from leftovers import spawned_children
from vocabulary import records, result

from app.core.bench.events import JobFailed, JobFinished, JobProgress, JobStarted
from app.core.bench.inputs import inspect_file
from app.core.bench.jobs import BenchOptions, Job
from app.core.bench.plan import make_jobs
from app.core.bench.runner import BenchmarkRun, memory_mode_shortfall
from app.core.ciphers.registry import select

FAST = BenchOptions(repeat=2, warmup=1, min_time_s=0)


@pytest.fixture
def input_spec(tmp_path):
    p = tmp_path / "in.bin"
    p.write_bytes(os.urandom(64 * 1024))
    return inspect_file(p)


def _workers():
    return spawned_children()


def test_run_yields_events_in_order(input_spec):
    jobs = make_jobs(select(["aes-128-gcm", "chacha20"], "cryptography"), input_spec, FAST)
    events = list(BenchmarkRun(jobs, environment=False).events())
    run = result(events)
    assert isinstance(events[0].detail, JobStarted) and events[0].keep
    assert events[0].what == "job 1/2 aes-128-gcm [cryptography]" and events[0].fraction == 0
    kinds = [type(e) for e in records(events)]
    assert kinds.count(JobStarted) == 2 and kinds.count(JobFinished) == 2
    assert JobProgress in kinds
    fractions = [e.fraction for e in events if hasattr(e, "fraction")]
    assert fractions == sorted(fractions) and 0.5 <= fractions[-1] <= 1  # of the whole run
    assert [r.cipher for r in run.results] == ["aes-128-gcm", "chacha20"]
    assert all(r.verified and r.peak_rss_bytes for r in run.results)
    assert not run.failures and not run.cancelled


def test_a_failing_job_does_not_stop_the_run(input_spec, tmp_path):
    good = make_jobs(select(["rc4"], "pycryptodome"), input_spec, FAST)[0]
    other = tmp_path / "other.bin"
    other.write_bytes(b"x" * 100)
    stale = Job("rc4", "cryptography", 128, inspect_file(other), FAST)
    other.write_bytes(b"y" * 200)  # changed after planning
    events = list(BenchmarkRun([stale, good], environment=False).events())
    failed = [e for e in records(events) if isinstance(e, JobFailed)]
    assert len(failed) == 1 and "changed during the run" in failed[0].message
    run = result(events)
    assert len(run.results) == 1 and len(run.failures) == 1


def test_cancel_stops_within_a_second_and_leaves_no_process(input_spec):
    slow = make_jobs(
        select(["aes-128-cbc"], "pyaes"), input_spec, BenchOptions(repeat=50, warmup=0)
    )
    run = BenchmarkRun(slow, environment=False)
    seen_start = threading.Event()
    t_cancel = []

    def cancel_soon():
        seen_start.wait(10)
        time.sleep(0.3)
        t_cancel.append(time.monotonic())
        run.cancel()

    threading.Thread(target=cancel_soon, daemon=True).start()
    for ev in run.events():
        if isinstance(getattr(ev, "detail", None), JobProgress):
            seen_start.set()
    assert result([ev]).cancelled
    assert time.monotonic() - t_cancel[0] < 1.0
    assert _workers() == []


def test_closing_the_event_stream_kills_the_worker(input_spec):
    slow = make_jobs(select(["aes-128-cbc"], "pyaes"), input_spec, BenchOptions(repeat=50))
    events = BenchmarkRun(slow, environment=False).events()
    for ev in events:
        if isinstance(getattr(ev, "detail", None), JobProgress):
            break
    events.close()
    assert _workers() == []


def test_memory_mode_refuses_what_cannot_fit(input_spec):
    job = make_jobs(select(["aes-128-gcm"], "cryptography"), input_spec, FAST)[0]
    msg = memory_mode_shortfall(job, available=1024)
    assert msg and "stream data mode" in msg
    assert memory_mode_shortfall(job, available=10**12) is None
