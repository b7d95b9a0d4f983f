"""Background work for the window, in Qt's global thread pool (superqt's worker pattern).

:class:`BenchmarkWorker` drives the engine's blocking ``BenchmarkRun.events()`` generator and
forwards every event as a signal; :class:`TaskWorker` runs one plain function (generate test
data, save a file; with ``progress=True`` a file operation that reports progress and can be
cancelled). Both are ``QRunnable``s that own a plain ``QObject`` of signals, catch every
exception inside ``run()`` and report it through ``failed``, and must be kept referenced by
their owner until ``finished`` (they are not auto-deleted).

The signals object lives in the GUI thread, so connected slots of GUI objects run there
(queued connections): the worker thread never touches a widget.

Throttling: the engine reports progress and a monitor sample every 50 ms per job, but a signal
per event can still flood the event loop (PLATFORM.md: one per 1 MiB chunk froze a window for
seconds). Progress is therefore coalesced to the latest value and samples batched, emitted at
most once per ``min_interval_s``; results, failures and job starts are emitted as they come,
after flushing what was pending so the order is kept.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from PySide6.QtCore import QObject, QRunnable, Signal

from app.core.bench.events import (
    JobFailed,
    JobFinished,
    JobProgress,
    JobSample,
    JobStarted,
    RunFinished,
    RunStarted,
)
from app.core.bench.jobs import Job
from app.core.errors import Cancelled, UserError

PROGRESS_INTERVAL_S = 0.05


class RunLike(Protocol):
    """What the worker needs from ``app.core.bench.runner.BenchmarkRun``."""

    def events(self) -> Iterator[Any]: ...

    def cancel(self) -> None: ...


RunFactory = Callable[[list[Job]], RunLike]


def default_run_factory(jobs: list[Job]) -> RunLike:
    """The real engine (imported lazily: the window opens without waiting for it)."""
    from app.core.bench.runner import BenchmarkRun

    return BenchmarkRun(jobs)


def _emit(signals: QObject, name: str, *args: Any) -> None:
    """Emit ``signals.<name>``, unless the signals object is already gone: its owner was
    destroyed (the application is exiting) and nobody is listening any more."""
    with contextlib.suppress(RuntimeError):
        getattr(signals, name).emit(*args)


def describe_exception(exc: BaseException) -> str:
    """A message for the user: a ``UserError`` as it is, anything else with its type."""
    if isinstance(exc, UserError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


class BenchmarkWorkerSignals(QObject):
    """Signals of :class:`BenchmarkWorker`; every payload is a frozen engine event."""

    started = Signal()
    run_started = Signal(object)  # RunStarted
    job_started = Signal(object)  # JobStarted
    progressed = Signal(object)  # JobProgress (the latest one)
    sampled = Signal(object)  # list[JobSample] since the last emit
    resulted = Signal(object)  # JobFinished
    job_failed = Signal(object)  # JobFailed
    run_finished = Signal(object)  # RunFinished
    failed = Signal(str)  # the worker itself broke (the engine raised)
    finished = Signal()  # always last


class BenchmarkWorker(QRunnable):
    """Runs a list of jobs through the engine in a pool thread. ``cancel()`` from any thread."""

    def __init__(
        self,
        jobs: list[Job],
        run_factory: RunFactory = default_run_factory,
        *,
        min_interval_s: float = PROGRESS_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.setAutoDelete(False)  # the owner keeps a reference until `finished`
        self.signals = BenchmarkWorkerSignals()
        self._jobs = list(jobs)
        self._run_factory = run_factory
        self._interval = min_interval_s
        self._clock = clock
        self._lock = threading.Lock()
        self._cancelled = False
        self._run: RunLike | None = None
        self._pending_progress: JobProgress | None = None
        self._pending_samples: list[JobSample] = []
        self._last_emit = float("-inf")

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        """Ask the engine to stop; it kills the job's process and ends with ``RunFinished``."""
        with self._lock:
            self._cancelled = True
            run = self._run
        if run is not None:
            run.cancel()

    def run(self) -> None:
        signals = self.signals
        _emit(signals, "started")
        try:
            with self._lock:
                if self._cancelled:
                    return
                self._run = self._run_factory(self._jobs)
            for event in self._run.events():
                self._dispatch(event)
            self._flush()
        except BaseException as exc:  # reported, never raised into the thread pool
            self._flush()
            _emit(signals, "failed", describe_exception(exc))
        finally:
            _emit(signals, "finished")

    def _dispatch(self, event: Any) -> None:
        signals = self.signals
        if isinstance(event, JobProgress):
            self._pending_progress = event
        elif isinstance(event, JobSample):
            self._pending_samples.append(event)
        else:
            self._flush()
            if isinstance(event, JobFinished):
                _emit(signals, "resulted", event)
            elif isinstance(event, JobFailed):
                _emit(signals, "job_failed", event)
            elif isinstance(event, JobStarted):
                _emit(signals, "job_started", event)
            elif isinstance(event, RunStarted):
                _emit(signals, "run_started", event)
            elif isinstance(event, RunFinished):
                _emit(signals, "run_finished", event)
            return
        if self._clock() - self._last_emit >= self._interval:
            self._flush()

    def _flush(self) -> None:
        if self._pending_samples:
            samples, self._pending_samples = self._pending_samples, []
            _emit(self.signals, "sampled", samples)
        if self._pending_progress is not None:
            progress, self._pending_progress = self._pending_progress, None
            _emit(self.signals, "progressed", progress)
        self._last_emit = self._clock()


class TaskWorkerSignals(QObject):
    started = Signal()
    progressed = Signal(object, object)  # done, total (Python ints: files can exceed 2 GiB)
    resulted = Signal(object)
    failed = Signal(str)
    cancelled = Signal()  # the function raised Cancelled after cancel()
    finished = Signal()


class TaskWorker(QRunnable):
    """Runs ``fn(*args)`` in a pool thread; its return value comes back through ``resulted``.

    With ``progress=True`` it calls ``fn(*args, on_progress=..., cancel=...)``, the calling
    convention of the file operations in ``app.core`` (``container``, ``rawexport``): their
    ``on_progress(done, total)`` (already throttled to 20 calls a second) becomes ``progressed``,
    and :meth:`cancel` sets the event they check before every chunk; the ``Cancelled`` they then
    raise becomes ``cancelled`` instead of ``failed``."""

    def __init__(self, fn: Callable[..., Any], *args: Any, progress: bool = False) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.signals = TaskWorkerSignals()
        self.done = False  # set (in the pool thread) just before `finished`
        self._fn = fn
        self._args = args
        self._progress = progress
        self._cancel = threading.Event()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Ask a ``progress=True`` function to stop before its next chunk (any thread)."""
        self._cancel.set()

    def _report(self, done: int, total: int) -> None:
        _emit(self.signals, "progressed", done, total)

    def run(self) -> None:
        signals = self.signals
        _emit(signals, "started")
        try:
            if self._progress:
                value = self._fn(*self._args, on_progress=self._report, cancel=self._cancel)
            else:
                value = self._fn(*self._args)
        except Cancelled:
            _emit(signals, "cancelled")
        except BaseException as exc:  # reported, never raised into the thread pool
            _emit(signals, "failed", describe_exception(exc))
        else:
            _emit(signals, "resulted", value)
        finally:
            self.done = True
            _emit(signals, "finished")
