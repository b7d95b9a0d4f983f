"""Bench and study jobs run in the test's own process, timed for 5 ms a direction instead of
100 ms: the real ciphers, measurement and events, without a worker's start (about 0.2 s) and its
long timing. For tests of what is done with results (reports, widths, files, history); tests of
the workers themselves (isolation, signals, memory, cancelling) run them for real."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest

from app.core.bench import isolation, load_all, measure, runner
from app.core.bench.events import JobFailed, JobFinished, JobProgress, JobUpdate
from app.core.bench.jobs import Job
from app.core.bench.measure import run_job
from app.core.errors import Cancelled

MIN_TIME_S = 0.005


def run_here(job: Job, index: int, cancel: threading.Event) -> Iterator[JobUpdate]:
    """:func:`app.core.bench.isolation.run_isolated`'s events, the job measured here."""
    if cancel.is_set():
        raise Cancelled()
    options = replace(job.options, min_time_s=min(job.options.min_time_s, MIN_TIME_S))
    progress: list[JobProgress] = []
    try:
        result, secret = run_job(
            replace(job, options=options),
            lambda phase, fraction: progress.append(JobProgress(index, phase, fraction)),
        )
    except Exception as exc:
        yield from progress
        yield JobFailed(index, job, isolation.failure_message(job, exc)[0])
        return
    yield from progress
    if cancel.is_set():
        raise Cancelled()
    yield JobFinished(index, result, secret)


def run_isolated_briefly(job: Job, index: int, cancel: threading.Event) -> Iterator[JobUpdate]:
    """:func:`app.core.bench.isolation.run_isolated` itself (a real worker process), the job
    timed for ``MIN_TIME_S`` a direction: for the one test of a path that must cross a
    process (``bench --processes``' copies), as cheap as it can be."""
    options = replace(job.options, min_time_s=min(job.options.min_time_s, MIN_TIME_S))
    return isolation.run_isolated(replace(job, options=options), index, cancel)


@contextlib.contextmanager
def jobs_here() -> Iterator[None]:
    """While open, every bench and study job runs through :func:`run_here`."""
    # A memory pass collects garbage twice a job: in a test process that has run hundreds of
    # tests that walks everything they left (50-100 ms each), where a worker has next to
    # nothing. What exists now is set aside from collection, as the session's objects were
    # (tests/conftest.py; unfreezing would put those back too).
    gc.freeze()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "run_isolated", run_here)
        # In the window's tests a job runs in a pool thread, and only the GUI thread may
        # collect garbage (app/gui/gui_gc.py): a worker's collections are its own business.
        patch.setattr(measure, "gc", _MainThreadCollector())
        patch.setattr(load_all, "gc", _MainThreadCollector())
        yield


class _MainThreadCollector:
    """``gc`` for the measurement in this process: collects in the main thread only."""

    @staticmethod
    def collect(generation: int = 2) -> int:
        if threading.current_thread() is threading.main_thread():
            return gc.collect(generation)
        return 0
