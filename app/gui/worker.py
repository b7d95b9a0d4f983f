"""Background work for the window, in Qt's global thread pool (superqt's worker pattern).

:class:`~app.gui.worker_base.WorkerBase` is the one pattern: an object that owns a plain
``QObject`` of signals (started / progressed / resulted / failed / finished), catches every
exception inside ``run()`` and emits it, and cancels by a flag. :class:`TaskRunner` hands
``run`` to the pool (which frees what it was given when ``run`` returns: a ``QRunnable`` that
is not auto-deleted stays alive forever in PySide6, with everything it holds) and keeps each
worker referenced until a moment after its ``finished``, so the last reference, and the signals
object, go in the GUI thread. The controller, the dialogs' task panel and the chart loader all
use it.

:class:`ProgressWorker` is the one relay of a run's events to signals, with one throttle: it
drives the blocking events of any run in the one vocabulary of :mod:`app.core.runtime.events`
(a benchmark: ``app.gui.main.bench_worker.BenchmarkWorker``; a study: the Study window's
``StudyWorker``; a sweep, a transfer, a kind declared as data).
:class:`TaskWorker` runs one plain function (generate test data, save a file; with
``progress=True`` a file operation that reports progress and can be cancelled).

The signals object lives in the GUI thread, so connected slots of GUI objects run there
(queued connections): the worker thread never touches a widget.

Throttling: the engine reports progress and a monitor sample every 50 ms per job, but a signal
per event can still flood the event loop (PLATFORM.md: one per 1 MiB chunk froze a window for
seconds). Progress is therefore coalesced to the latest, and the progress marked ``keep`` (a
job's start, a monitor sample: each one matters) batched into a list, both emitted at most once
per ``min_interval_s``; outcomes and the result are emitted as they come, after flushing what
was pending so the order is kept.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal, Slot

from app.core.errors import Cancelled
from app.core.runtime.events import Finished, Outcome, Progress
from app.gui.worker_base import WorkerBase, WorkerSignals, emit_signal

PROGRESS_INTERVAL_S = 0.05


class TaskRunner(QObject):
    """Starts workers in a thread pool and keeps each referenced until a moment after it has
    finished (the pool thread drops its own reference when ``run`` returns: the last one is
    then ours, in the GUI thread).

    ``busy`` is whether a worker started with ``busy=True`` is still going on; ``busy_changed``
    says when that changes."""

    busy_changed = Signal(bool)
    RELEASE_AFTER_MS = 1000  # finished workers are let go this long after

    def __init__(self, pool: QThreadPool | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = pool or QThreadPool.globalInstance()
        self._running: set[WorkerBase] = set()
        self._busy: set[WorkerBase] = set()
        self._finished: list[tuple[float, WorkerBase]] = []  # (when it finished, worker)
        self._release = QTimer(self)
        self._release.setSingleShot(True)
        self._release.setInterval(self.RELEASE_AFTER_MS)
        self._release.timeout.connect(self._release_finished)

    @property
    def held(self) -> int:
        """Workers still referenced (running, or finished a moment ago)."""
        return len(self._running) + len(self._finished)

    @property
    def busy(self) -> bool:
        return bool(self._busy)

    def start(self, worker: WorkerBase, *, busy: bool = False) -> WorkerBase:
        """Run ``worker`` in the pool (connect its signals first); returns it."""
        worker.signals.finished.connect(self._on_worker_finished)
        self._running.add(worker)
        if busy:
            was_busy = self.busy
            self._busy.add(worker)
            if not was_busy:
                self.busy_changed.emit(True)
        self._pool.start(worker.run)
        return worker

    def run_task(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], object] | None = None,
        on_failure: Callable[[str], object] | None = None,
        on_finished: Callable[[], object] | None = None,
        busy: bool = False,
    ) -> TaskWorker:
        """The window's one call form of a background task: ``fn(*args)`` in the pool, its
        value to ``on_result`` and its failure (a sentence) to ``on_failure``, in the GUI
        thread, then ``on_finished`` either way; returns the worker (to cancel it)."""
        worker = TaskWorker(fn, *args)
        signals = worker.signals
        for signal, slot in (
            (signals.resulted, on_result),
            (signals.failed, on_failure),
            (signals.finished, on_finished),
        ):
            if slot is not None:
                signal.connect(slot)
        self.start(worker, busy=busy)
        return worker

    def cancel_all(self) -> None:
        for worker in list(self._running):
            worker.cancel()

    def wait_for_done(self, timeout_ms: int) -> bool:
        return self._pool.waitForDone(timeout_ms)

    @Slot()
    def _release_finished(self) -> None:
        """Let go of the workers that finished a while ago (their pool threads have returned);
        come back for the others."""
        limit = time.monotonic() - self.RELEASE_AFTER_MS / 1000
        self._finished = [(t, w) for t, w in self._finished if t > limit]
        if self._finished:
            self._release.start()

    @Slot()
    def _on_worker_finished(self) -> None:
        now = time.monotonic()
        self._finished += [(now, w) for w in self._running if w.done]
        self._running = {w for w in self._running if not w.done}
        self._release_finished()
        if self._busy:
            self._busy = {w for w in self._busy if not w.done}
            if not self._busy:
                self.busy_changed.emit(False)


class ProgressSignals(WorkerSignals):
    """Signals of a :class:`ProgressWorker`, one per event of the one vocabulary
    (:mod:`app.core.runtime.events`)."""

    progressed = Signal(object)  # Progress (the latest one)
    kept = Signal(object)  # list[Progress] marked keep since the last emit, none left out
    outcome = Signal(object)  # Outcome: an entry's result or failure as it comes
    finished_run = Signal(object)  # Finished: the run's result, also after a cancel


class ProgressWorker(WorkerBase):
    """Relays a run of the one vocabulary from a pool thread: :class:`Progress` throttled to
    the latest, the progress marked ``keep`` batched (every one delivered, in order),
    :class:`Outcome` and :class:`Finished` as they come, as superqt's ``GeneratorWorker`` and
    ``_throttler`` do it. A kept progress of a new step drops the pending reading of the step
    before; a step's start goes out at once (:meth:`is_urgent`).

    ``start(cancel)`` makes the run's events in the pool thread; the engine polls ``cancel``
    (the worker's own flag, or the run's event given as ``cancel``), so :meth:`cancel` from any
    thread stops it and it still ends with its (cancelled) result. A cancel before the start
    still runs it to that result, so the window hears how it ended, unless
    :attr:`RUN_WHEN_CANCELLED` is false (then nothing runs, nothing is said)."""

    RUN_WHEN_CANCELLED = True
    signals: ProgressSignals

    def __init__(
        self,
        start: Callable[[threading.Event], Iterator[Any]],
        *,
        cancel: threading.Event | None = None,
        min_interval_s: float = PROGRESS_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(ProgressSignals())
        if cancel is not None:
            self._cancel = cancel  # the run's own: setting it is cancelling the run
        self._start = start
        self._interval = min_interval_s
        self._clock = clock
        self._latest: Progress | None = None
        self._kept: list[Progress] = []
        self._step = ""  # the what of the last progress
        self._last_emit = float("-inf")
        self.progress_emits = 0  # how many throttled emits went out (tests read it)

    @property
    def cancelled(self) -> bool:
        return self.cancel_requested

    def work(self) -> None:
        if self.cancel_requested and not self.RUN_WHEN_CANCELLED:
            return
        events = self._start(self._cancel)
        try:
            for event in events:
                self.relay(event)
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()  # a generator: kills the running job's process
        self._flush()

    def report_result(self, value: Any) -> None:
        pass  # the results went out as events

    def report_failure(self, exc: BaseException) -> None:
        self._flush()
        super().report_failure(exc)

    def is_urgent(self, event: Progress) -> bool:
        """Whether ``event`` goes out at once: nothing flushes it before the next event, which
        may come seconds later. Here the start of a step (a new ``what``: a job, a round, a
        study's step); a subclass may say otherwise."""
        urgent = event.what != self._step
        self._step = event.what
        return urgent

    def relay(self, event: Any) -> None:
        """Emit ``event`` on its signal, throttled (in the pool thread)."""
        if isinstance(event, Progress):
            if event.keep:
                self._kept.append(event)
                if self._latest is not None and self._latest.what != event.what:
                    self._latest = None  # a reading of the step before this one

            else:
                self._latest = event
            if self.is_urgent(event) or self._clock() - self._last_emit >= self._interval:
                self._flush()
            return
        self._flush()
        if isinstance(event, Outcome):
            emit_signal(self.signals, "outcome", event)
        elif isinstance(event, Finished):
            emit_signal(self.signals, "finished_run", event)

    def _flush(self) -> None:
        kept, latest = self._kept, self._latest
        self._kept, self._latest = [], None
        if kept:  # before the latest: it came after them
            self.progress_emits += 1
            emit_signal(self.signals, "kept", kept)
        if latest is not None:
            self.progress_emits += 1
            emit_signal(self.signals, "progressed", latest)
        self._last_emit = self._clock()


class TaskWorkerSignals(WorkerSignals):
    progressed = Signal(object, object)  # done, total (Python ints: files can exceed 2 GiB)
    resulted = Signal(object)
    cancelled = Signal()  # the function raised Cancelled after cancel()


class TaskWorker(WorkerBase):
    """Runs ``fn(*args)`` in a pool thread; its return value comes back through ``resulted``.

    With ``progress=True`` it calls ``fn(*args, on_progress=..., cancel=...)``, the calling
    convention of the file operations in ``app.core`` (``container``, ``rawexport``): their
    ``on_progress(done, total)`` (already throttled to 20 calls a second) becomes ``progressed``,
    and :meth:`cancel` sets the event they check before every chunk; the ``Cancelled`` they then
    raise becomes ``cancelled`` instead of ``failed``."""

    signals: TaskWorkerSignals

    def __init__(self, fn: Callable[..., Any], *args: Any, progress: bool = False) -> None:
        super().__init__(TaskWorkerSignals())
        self._fn = fn
        self._args = args
        self._progress = progress

    def _report(self, done: int, total: int) -> None:
        emit_signal(self.signals, "progressed", done, total)

    def work(self) -> Any:
        if self._progress:
            return self._fn(*self._args, on_progress=self._report, cancel=self._cancel)
        return self._fn(*self._args)

    def report_failure(self, exc: BaseException) -> None:
        if isinstance(exc, Cancelled):
            emit_signal(self.signals, "cancelled")
        else:
            super().report_failure(exc)
