"""A benchmark in rounds (app.core.bench.rounds): each job again in a fresh worker per round,
each round in a seeded random order, the rounds merged with each one's share kept."""

import os

import pytest
from leftovers import spawned_children
from vocabulary import records, result

from app.core.bench.events import JobFailed, JobFinished, JobStarted, RoundStarted
from app.core.bench.inputs import inspect_file
from app.core.bench.jobs import BenchOptions, Job
from app.core.bench.plan import make_jobs
from app.core.bench.rounds import RoundsRun
from app.core.ciphers.registry import select
from app.core.runtime.rounds import round_order

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs")

FAST = BenchOptions(repeat=2, warmup=0, min_time_s=0, measure_memory=False)


@pytest.fixture
def input_spec(tmp_path):
    p = tmp_path / "in.bin"
    p.write_bytes(os.urandom(16 * 1024))
    return inspect_file(p)


def _jobs(input_spec):
    return make_jobs(select(["aes-128-ctr", "chacha20", "rc4"], "cryptography"), input_spec, FAST)


def test_rounds_run_every_job_once_per_round_in_a_seeded_order(input_spec):
    vocabulary = list(RoundsRun(_jobs(input_spec), rounds=4, seed=7, environment=False).events())
    assert vocabulary[0].what == "round 1/4" and isinstance(vocabulary[0].detail, RoundStarted)
    steps = [e.what for e in vocabulary if isinstance(getattr(e, "detail", None), JobStarted)]
    assert len(steps) == 12 and steps[4].startswith("job 5/12 round 2/4: ")
    run = result(vocabulary)
    events = records(vocabulary)
    rounds = [e for e in events if isinstance(e, RoundStarted)]
    assert [r.round for r in rounds] == [0, 1, 2, 3]
    assert [list(r.order) for r in rounds] == [round_order(3, 7, k) for k in range(4)]
    assert len({r.order for r in rounds}) > 1  # not A, B, C every time
    started = [e.index for e in events if isinstance(e, JobStarted)]
    assert started == [i for r in rounds for i in r.order]
    finished = [e for e in events if isinstance(e, JobFinished)]
    assert [e.index for e in finished] == [0, 1, 2]  # once each, after the last round
    assert events.index(finished[0]) > events.index(rounds[-1])
    assert not run.cancelled
    for r in run.results:
        assert [x.round for x in r.rounds] == [0, 1, 2, 3]
        # The engine splits the run's 2 repetitions over its 4 rounds: at least 1 a round.
        assert [len(s) for s in r.round_samples("encrypt")] == [1, 1, 1, 1]
        assert r.verified_round_trips >= 4
    assert not spawned_children()


def test_one_round_is_exactly_a_benchmark_run(input_spec):
    vocabulary = list(RoundsRun(_jobs(input_spec), rounds=1, environment=False).events())
    events = records(vocabulary)
    assert not any(isinstance(e, RoundStarted) for e in events)
    assert [e.index for e in events if isinstance(e, JobFinished)] == [0, 1, 2]
    assert all(r.rounds == () for r in result(vocabulary).results)


def test_a_job_that_fails_runs_no_further_round(input_spec, tmp_path):
    other = tmp_path / "other.bin"
    other.write_bytes(b"x" * 100)
    stale = Job("rc4", "cryptography", 128, inspect_file(other), FAST)
    other.write_bytes(b"y" * 200)  # changed after planning: fails
    jobs = [stale, *_jobs(input_spec)[:1]]
    vocabulary = list(RoundsRun(jobs, rounds=3, environment=False).events())
    events = records(vocabulary)
    assert len([e for e in events if isinstance(e, JobFailed)]) == 1
    assert [e.index for e in events if isinstance(e, JobStarted)].count(0) == 1
    run = result(vocabulary)
    assert len(run.results) == 1 and len(run.failures) == 1


def test_cancel_keeps_the_rounds_completed_and_leaves_no_process(input_spec):
    run = RoundsRun(_jobs(input_spec), rounds=5, environment=False)
    vocabulary = []
    for e in run.events():
        vocabulary.append(e)
        if isinstance(getattr(e, "detail", None), RoundStarted) and e.detail.round == 2:
            run.cancel()
    final = result(vocabulary)
    events = records(vocabulary)
    assert final.cancelled and all(len(r.rounds) in (2, 3) for r in final.results)
    # The jobs merged over the rounds they completed are still reported, for the window's table.
    assert [e.index for e in events if isinstance(e, JobFinished)] == [0, 1, 2]
    assert not spawned_children()
