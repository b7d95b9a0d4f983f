"""Background work for the window, in Qt's global thread pool (superqt's worker pattern).

:class:`~app.gui.worker_base.WorkerBase` is the one pattern: an object that owns a plain
``QObject`` of signals (started / progressed / resulted / failed / finished), catches every
exception inside ``run()`` and emits it, and cancels by a flag. :class:`TaskRunner` hands
``run`` to the pool (which frees what it was given when ``run`` returns: a ``QRunnable`` that
is not auto-deleted stays alive forever in PySide6, with everything it holds) and keeps each
worker referenced until a moment after its ``finished``, so the last reference, and the signals
object, go in the GUI thread. The controller, the dialogs' task panel and the chart loader all
use it.

:class:`EventWorker` forwards the engine's events as signals, with one throttle: a
:class:`RunWorker` drives an engine run's blocking ``events()`` generator
(``app.gui.main.bench_worker.BenchmarkWorker`` for a benchmark, the Study window's
``StudyWorker`` for a study); a
:class:`ProgressWorker` any run that speaks the one vocabulary of
:mod:`app.core.runtime.events` (a sweep, a transfer, a kind declared as data).
:class:`TaskWorker` runs one plain function (generate test data, save a file; with
``progress=True`` a file operation that reports progress and can be cancelled).

The signals object lives in the GUI thread, so connected slots of GUI objects run there
(queued connections): the worker thread never touches a widget.

Throttling: the engine reports progress and a monitor sample every 50 ms per job, but a signal
per event can still flood the event loop (PLATFORM.md: one per 1 MiB chunk froze a window for
seconds). Progress is therefore coalesced to the latest value and samples batched, emitted at
most once per ``min_interval_s``; results, failures and job starts are emitted as they come,
after flushing what was pending so the order is kept.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar, Protocol

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal, Slot

from app.core.errors import Cancelled
from app.core.runtime.events import Finished, Outcome, Progress
from app.gui.worker_base import WorkerBase, WorkerSignals, emit_signal

PROGRESS_INTERVAL_S = 0.05


class RunLike(Protocol):
    """What a worker needs from an engine run: ``app.core.bench.runner.BenchmarkRun`` or
    ``app.core.study.runner.StudyRun``."""

    def events(self) -> Iterator[Any]: ...

    def cancel(self) -> None: ...


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


class EventWorker(WorkerBase):
    """The one relay from the engine's events to Qt signals (a benchmark, a study, a transfer).

    :meth:`work` (in a pool thread) hands each event to :meth:`relay`, which emits it on the
    signal :attr:`ROUTES` names for its type. One throttle, as superqt's ``_throttler`` does it:
    an event type in :attr:`LATEST` (progress) is kept as the newest only, one in
    :attr:`BATCHED` (monitor samples) is gathered into a list, and both go out at most once per
    ``min_interval_s`` (or at once when :meth:`is_urgent`); any other event flushes them first,
    so the order is kept."""

    ROUTES: ClassVar[Mapping[type, str]] = {}
    LATEST: ClassVar[tuple[type, ...]] = ()
    BATCHED: ClassVar[tuple[type, ...]] = ()

    def __init__(
        self,
        signals: WorkerSignals,
        *,
        min_interval_s: float = PROGRESS_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(signals)
        self._interval = min_interval_s
        self._clock = clock
        self._latest: dict[type, Any] = {}
        self._batched: dict[type, list[Any]] = {}
        self._last_emit = float("-inf")
        self.progress_emits = 0  # how many throttled emits went out (tests read it)

    @property
    def cancelled(self) -> bool:
        return self.cancel_requested

    def report_failure(self, exc: BaseException) -> None:
        self._flush()
        super().report_failure(exc)

    def report_result(self, value: Any) -> None:
        self._flush()  # the newest progress before the whole result
        super().report_result(value)

    def is_urgent(self, event: Any) -> bool:
        """Whether a throttled ``event`` goes out at once: nothing flushes it before the next
        event, which may come seconds later (a subclass says which)."""
        return False

    def relay(self, event: Any) -> None:
        """Emit ``event`` on its signal, throttled (in the pool thread)."""
        kind = type(event)
        if kind in self.LATEST:
            self._latest[kind] = event
        elif kind in self.BATCHED:
            self._batched.setdefault(kind, []).append(event)
        else:
            self._flush()
            name = self.ROUTES.get(kind)
            if name is not None:
                emit_signal(self.signals, name, event)
            return
        if self.is_urgent(event) or self._clock() - self._last_emit >= self._interval:
            self._flush()

    def _flush(self) -> None:
        pending = [*self._batched.items(), *self._latest.items()]  # samples before progress
        self._batched, self._latest = {}, {}
        for kind, value in pending:
            self.progress_emits += 1
            emit_signal(self.signals, self.ROUTES[kind], value)
        self._last_emit = self._clock()


class RunWorker(EventWorker):
    """Relays an engine run's event stream: drives ``make_run().events()`` in a pool thread.
    ``cancel()`` from any thread asks the engine to stop; it still ends its stream with its
    final event."""

    def __init__(
        self,
        signals: WorkerSignals,
        make_run: Callable[[], RunLike],
        *,
        min_interval_s: float = PROGRESS_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(signals, min_interval_s=min_interval_s, clock=clock)
        self._make_run = make_run
        self._lock = threading.Lock()
        self._run: RunLike | None = None

    def cancel(self) -> None:
        """Ask the engine to stop; it kills the running job's process and ends its stream."""
        with self._lock:
            super().cancel()
            run = self._run
        if run is not None:
            run.cancel()

    RUN_WHEN_CANCELLED = False  # a cancel before the start: run nothing (and say nothing)

    def work(self) -> None:
        with self._lock:
            if self.cancel_requested and not self.RUN_WHEN_CANCELLED:
                return
            self._run = self._make_run()
            if self.cancel_requested:
                self._run.cancel()  # the engine ends at once, with its cancelled result
        events = self._run.events()
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


class ProgressSignals(WorkerSignals):
    """Signals of a :class:`ProgressWorker`, one per event of the one vocabulary
    (:mod:`app.core.runtime.events`)."""

    progressed = Signal(object)  # Progress (the latest one)
    outcome = Signal(object)  # Outcome: an entry's result or failure as it comes
    finished_run = Signal(object)  # Finished: the run's result, also after a cancel


class EngineRun:
    """An engine's run as a worker drives it: ``start(cancel)`` makes its events; ``cancel()``
    sets the event the engine polls (it then stops its running worker process)."""

    def __init__(self, start: Callable[[threading.Event], Iterator[Any]]) -> None:
        self._start = start
        self._cancel = threading.Event()

    def events(self) -> Iterator[Any]:
        return self._start(self._cancel)

    def cancel(self) -> None:
        self._cancel.set()


class ProgressWorker(RunWorker):
    """Relays a run of the one vocabulary: :class:`Progress` throttled to the latest,
    :class:`Outcome` and :class:`Finished` as they come. ``start(cancel)`` makes the run's
    events in the pool thread; a cancel before it starts still runs it to its (cancelled)
    result, so the window hears how it ended."""

    RUN_WHEN_CANCELLED = True

    ROUTES: ClassVar[Mapping[type, str]] = {
        Progress: "progressed",
        Outcome: "outcome",
        Finished: "finished_run",
    }
    LATEST = (Progress,)
    signals: ProgressSignals

    def __init__(
        self,
        start: Callable[[threading.Event], Iterator[Any]],
        *,
        min_interval_s: float = PROGRESS_INTERVAL_S,
    ) -> None:
        super().__init__(ProgressSignals(), lambda: EngineRun(start), min_interval_s=min_interval_s)


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
