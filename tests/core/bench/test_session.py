"""RunSession: counting, fraction and estimate of a run, without Qt."""

from __future__ import annotations

from typing import cast

import pytest

from app.core.bench.jobs import InputSpec
from app.core.bench.kept import FinishedJob
from app.core.bench.results import JobResult
from app.core.bench.session import RunSession


def test_fraction_counts_done_jobs_and_the_running_one() -> None:
    s = RunSession()
    s.begin(4)
    s.job_started("AES-GCM, 256-bit")
    s.job_progressed("encrypt", 0.5)
    p = s.progress(10.0, running=True, completed=False)
    assert p.fraction == pytest.approx(0.125)
    assert p.current_label == "AES-GCM, 256-bit"
    assert p.phase == "encrypt"
    s.job_finished()
    p = s.progress(10.0, running=True, completed=False)
    assert (p.done_jobs, p.total_jobs, p.current_label) == (1, 4, "")
    assert p.fraction == pytest.approx(0.25)


def test_job_fraction_is_clamped() -> None:
    s = RunSession()
    s.begin(1)
    s.job_progressed("x", 7.0)
    assert s.job_fraction == 1.0
    s.job_progressed("x", -1.0)
    assert s.job_fraction == 0.0


def test_estimate_only_while_running_and_past_two_percent() -> None:
    s = RunSession()
    s.begin(100)
    s.job_progressed("x", 1.0)  # 1 %
    assert s.progress(5.0, running=True, completed=False).remaining_seconds is None
    s.job_finished()
    s.job_progressed("x", 1.0)  # 2 %
    remaining = s.progress(4.0, running=True, completed=False).remaining_seconds
    assert remaining == pytest.approx(196.0)
    assert s.progress(4.0, running=False, completed=False).remaining_seconds is None


def test_a_completed_run_is_full_even_with_failures() -> None:
    s = RunSession()
    s.begin(2)
    s.job_finished()
    s.job_failed("AES: broke")
    assert s.failures == ["AES: broke"]
    assert s.done_jobs == 2
    assert s.progress(1.0, running=False, completed=True).fraction == 1.0
    s.begin(3)
    assert s.progress(1.0, running=False, completed=False).fraction == 0.0


def test_cancelling_shows_only_while_running_and_reset_forgets() -> None:
    s = RunSession()
    s.begin(2)
    s.cancelling = True
    assert s.progress(0.0, running=True, completed=False).cancelling
    assert not s.progress(0.0, running=False, completed=False).cancelling
    s.job_failed("x")
    s.reset()
    assert (s.total_jobs, s.done_jobs, s.failures, s.cancelling) == (0, 0, [], False)
    assert s.progress(0.0, running=False, completed=False).total_jobs == 0


def _finished(label: str) -> FinishedJob:
    result = job_result_stub(label)
    return FinishedJob(result, InputSpec("/in", "in", 1, 0))


def job_result_stub(label: str) -> JobResult:
    # only the identity of the value matters here
    return cast(JobResult, label)


def test_finished_jobs_are_kept_per_row_until_cleared() -> None:
    s = RunSession()
    s.begin(3)
    first, second = _finished("a"), _finished("b")
    s.job_finished(first)
    s.job_failed("c: broke")
    s.job_finished(second)
    assert s.done_jobs == 3
    assert s.finished_jobs == [first, second]
    assert (s.finished_job(0), s.finished_job(1)) == (first, second)
    assert s.finished_job(2) is None and s.finished_job(-1) is None
    s.begin(1)  # a new run adds rows; it does not forget the old ones
    assert s.finished_job(1) is second
    s.clear_results()
    assert (s.finished_jobs, s.failures) == ([], [])
    s.job_finished(first)
    s.reset()
    assert s.finished_job(0) is None


def test_no_estimate_from_the_first_seconds_of_a_job() -> None:
    """A quick first step must not promise 7 s for a 40-minute job."""
    s = RunSession()
    s.begin(1)
    s.job_started("AES-CTR [pyaes]")
    s.job_progressed("memory", 0.3)
    assert s.progress(2.9, running=True, completed=False).remaining_seconds is None
    assert s.progress(3.0, running=True, completed=False).remaining_seconds == pytest.approx(7.0)


def test_planned_work_bounds_the_estimate_until_a_job_has_finished() -> None:
    s = RunSession()
    s.begin(3, [2400.0, None, 2400.0])  # two pyaes jobs and a fast one
    s.job_started("pyaes")
    assert s.progress(0.5, running=True, completed=False).remaining_seconds == 4800.0
    s.job_progressed("encrypt", 0.5)  # a quick jump early on: the plan still holds
    remaining = s.progress(10.0, running=True, completed=False).remaining_seconds
    assert remaining == pytest.approx(1200.0 + 2400.0)
    s.job_finished()  # measured from now on: 1 of 3 jobs in 2000 s
    remaining = s.progress(2000.0, running=True, completed=False).remaining_seconds
    assert remaining == pytest.approx(4000.0)
    s.job_finished()
    s.begin(2)  # a new run forgets the plan
    assert s.planned_seconds == []


def test_a_run_in_rounds_counts_workers_not_jobs() -> None:
    s = RunSession()
    s.begin(2, [1.0, 2.0])
    s.round_started(2, 3)
    assert s.total_jobs == 6 and s.planned_seconds == [1.0, 2.0] * 3
    for label in ("a", "b", "a", "b"):
        s.job_started(label)
    assert s.done_jobs == 3  # three workers finished, the fourth running
    p = s.progress(10.0, running=True, completed=False)
    assert p.fraction == pytest.approx(3 / 6)
    s.begin(1)
    assert s.rounds == 1 and s.steps_started == 0


def test_the_time_left_is_never_less_than_the_running_job_needs_at_its_own_pace() -> None:
    s = RunSession()
    s.begin(10)
    for _ in range(9):  # nine quick jobs in 9 s, then a long one
        s.job_started("quick")
        s.job_finished()
    s.job_started("long")
    s.progress(9.0, running=True, completed=False)  # the worker starting: no pace yet
    s.job_progressed("encrypt", 0.02)
    s.progress(10.0, running=True, completed=False)  # its first progress: the clock starts
    s.job_progressed("encrypt", 0.1)
    remaining = s.progress(12.0, running=True, completed=False).remaining_seconds
    # the run's average pace says about 1 s; the job needs 0.9 / (0.08 / 2 s) = 22.5 s more
    assert remaining == pytest.approx(22.5)


def test_a_job_that_outlasts_the_estimate_without_progress_makes_the_time_unknown() -> None:
    s = RunSession()
    s.begin(10)
    for _ in range(9):
        s.job_started("quick")
        s.job_finished()
    s.job_started("stuck")
    s.job_progressed("encrypt", 0.01)
    s.progress(9.0, running=True, completed=False)
    assert s.progress(15.0, running=True, completed=False).remaining_seconds is None
