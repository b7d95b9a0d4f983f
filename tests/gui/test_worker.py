"""The worker: events become signals, progress is throttled, errors and cancel are reported."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from gui_factories import job_result
from PySide6.QtCore import QThreadPool
from pytestqt.qtbot import QtBot

from app.core.bench.events import JobFinished, JobProgress, JobSample, JobStarted, RunSteps
from app.core.bench.jobs import InputSpec, Job
from app.core.bench.results import MonitorSample, RunResult
from app.core.runtime.events import Finished
from app.gui.main.bench_worker import BenchmarkWorker
from app.gui.worker import TaskWorker

INPUT = InputSpec("/nonexistent", "x", 10, 0)
JOBS = [Job("aes-256-ctr", "cryptography", 256, INPUT), Job("rc4", "cryptography", 128, INPUT)]


def _run_result(cancelled: bool = False) -> RunResult:
    return RunResult((), (), {}, {}, "t0", "t1", cancelled=cancelled)


class FakeRun:
    """Yields a burst of events as fast as it can, like a chatty engine would."""

    def __init__(
        self,
        jobs: list[Job],
        cancel: threading.Event,
        progress_per_job: int = 5000,
        fail: bool = False,
    ) -> None:
        self.jobs = jobs
        self.n = progress_per_job
        self.fail = fail
        self.cancelled = cancel

    def __iter__(self) -> Iterator[Any]:
        steps = RunSteps(len(self.jobs))
        for i, job in enumerate(self.jobs):
            yield steps.event(JobStarted(i, job))
            for k in range(self.n):
                if self.cancelled.is_set():
                    yield Finished(_run_result(cancelled=True))
                    return
                yield steps.event(JobProgress(i, "encrypt", k / self.n))
                yield steps.event(JobSample(i, MonitorSample(k * 0.05, 100.0, 1000)))
            if self.fail:
                raise RuntimeError("engine exploded")
            yield steps.event(JobFinished(i, job_result(job.cipher_id)))
        yield Finished(_run_result())


class Recorder:
    def __init__(self, worker: BenchmarkWorker) -> None:
        self.events: list[tuple[str, Any]] = []
        s = worker.signals
        for name in (
            "started",
            "kept",
            "progressed",
            "outcome",
            "finished_run",
            "failed",
            "finished",
        ):
            getattr(s, name).connect(lambda *args, n=name: self.events.append((n, args)))

    def names(self) -> list[str]:
        return [n for n, _ in self.events]


def _run(qtbot: QtBot, worker: BenchmarkWorker) -> Recorder:
    rec = Recorder(worker)
    with qtbot.waitSignal(worker.signals.finished, timeout=20_000):
        QThreadPool.globalInstance().start(worker.run)
    qtbot.wait(10)  # let queued signals arrive
    return rec


def test_events_are_forwarded_in_order_and_progress_coalesced(qtbot: QtBot) -> None:
    worker = BenchmarkWorker(JOBS, FakeRun)
    rec = _run(qtbot, worker)
    names = rec.names()
    assert names[0] == "started" and names[-1] == "finished"
    assert names[1] == "kept" and names.index("kept") < names.index("outcome")
    assert names.count("outcome") == 2 and names.count("finished_run") == 1
    assert names.index("finished_run") == len(names) - 2
    # 10,000 progress events arrived within a fraction of a second: few signals went out
    assert 1 <= names.count("progressed") <= 20
    kept = [p.detail for n, args in rec.events if n == "kept" for p in args[0]]
    starts = [d for d in kept if isinstance(d, JobStarted)]
    assert [d.index for d in starts] == [0, 1]  # each job's start, none coalesced away
    samples = [d for d in kept if isinstance(d, JobSample)]
    assert len(samples) == 10_000  # samples are batched, none dropped
    assert [s.sample.t_s for s in samples[:3]] == [0.0, 0.05, 0.1]  # in order
    # the latest progress of a job is flushed before its result
    before_result = names[: names.index("outcome")]
    assert before_result[-1] == "progressed"
    last = rec.events[names.index("outcome") - 1][1][0]  # of the whole run, job 1 of 2
    assert last.what == "job 1/2 aes-256-ctr [cryptography]" and 0.49 < last.fraction < 0.5


def test_engine_exception_is_reported_not_raised(qtbot: QtBot) -> None:
    worker = BenchmarkWorker(JOBS, lambda jobs, cancel: FakeRun(jobs, cancel, 10, fail=True))
    rec = _run(qtbot, worker)
    failed = [args for n, args in rec.events if n == "failed"]
    assert failed == [("RuntimeError: engine exploded",)]
    assert rec.names()[-1] == "finished"


def test_cancel_reaches_the_engine(qtbot: QtBot) -> None:
    runs: list[FakeRun] = []

    def factory(jobs: list[Job], cancel: threading.Event) -> FakeRun:
        runs.append(FakeRun(jobs, cancel, progress_per_job=10**9))
        return runs[-1]

    worker = BenchmarkWorker(JOBS, factory)
    rec = Recorder(worker)
    QThreadPool.globalInstance().start(worker.run)
    qtbot.waitUntil(lambda: "progressed" in rec.names(), timeout=60_000)
    with qtbot.waitSignal(worker.signals.finished, timeout=60_000):
        worker.cancel()
    assert runs[0].cancelled.is_set() and worker.cancelled
    finished = [args[0] for n, args in rec.events if n == "finished_run"]
    assert finished and finished[0].result.cancelled


def test_cancel_before_start_runs_nothing(qtbot: QtBot) -> None:
    made: list[object] = []
    worker = BenchmarkWorker(JOBS, lambda jobs, cancel: made.append(jobs) or FakeRun(jobs, cancel))
    worker.cancel()
    rec = _run(qtbot, worker)
    assert made == [] and rec.names() == ["started", "finished"]


def test_task_worker_returns_value_or_message(qtbot: QtBot) -> None:
    ok = TaskWorker(lambda a, b: a + b, 2, 3)
    with qtbot.waitSignal(ok.signals.resulted, timeout=60_000) as blocker:
        QThreadPool.globalInstance().start(ok.run)
    assert blocker.args == [5]

    def boom() -> None:
        raise ValueError("no")

    bad = TaskWorker(boom)
    with qtbot.waitSignal(bad.signals.failed, timeout=60_000) as blocker:
        QThreadPool.globalInstance().start(bad.run)
    assert blocker.args == ["ValueError: no"]
    qtbot.waitUntil(lambda: bad.done)


def test_task_worker_with_progress_reports_and_cancels(qtbot: QtBot) -> None:
    from app.core.files.progress import Progress

    def work(n: int, *, on_progress: Any, cancel: threading.Event) -> str:
        progress = Progress(on_progress, cancel, n)
        for i in range(n):
            progress.check_cancel()
            if i == 2:
                cancel.wait(5)  # stands for a long chunk; the test cancels meanwhile
        progress.finish()
        return "done"

    finished = TaskWorker(work, 3, progress=True)
    seen: list[tuple[int, int]] = []
    finished.signals.progressed.connect(lambda done, total: seen.append((done, total)))
    finished.cancel()  # before it starts: the first chunk stops it
    with qtbot.waitSignal(finished.signals.cancelled, timeout=60_000):
        QThreadPool.globalInstance().start(finished.run)
    assert seen == [(0, 3)]

    worker = TaskWorker(work, 10**6, progress=True)
    failed: list[str] = []
    worker.signals.failed.connect(failed.append)
    QThreadPool.globalInstance().start(worker.run)
    qtbot.wait(50)
    with qtbot.waitSignal(worker.signals.cancelled, timeout=60_000):
        worker.cancel()
    assert worker.cancel_requested and failed == []
    qtbot.waitUntil(lambda: worker.done)
