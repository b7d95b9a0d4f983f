"""The one worker pattern (superqt's): :class:`WorkerBase` runs its :meth:`~WorkerBase.work`
in a pool thread and reports through a plain ``QObject`` of signals (started / resulted /
failed / finished: :class:`WorkerSignals` and what a worker adds), catching every exception
inside ``run()``; it cancels by a flag.

:func:`emit_signal` emits on a signals object that may already be gone (the application
exiting); :func:`describe_exception` is the sentence a failure reports. The workers built on
it and the runner that starts them are in :mod:`app.gui.worker`.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.core.errors import UserError


def emit_signal(signals: QObject, name: str, *args: Any) -> None:
    """Emit ``signals.<name>``, unless the signals object is already gone: its owner was
    destroyed (the application is exiting) and nobody is listening any more."""
    with contextlib.suppress(RuntimeError):
        getattr(signals, name).emit(*args)


def describe_exception(exc: BaseException) -> str:
    """A message for the user: a ``UserError`` as it is, anything else with its type."""
    if isinstance(exc, UserError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


class WorkerSignals(QObject):
    """The signals every worker has; a worker's own class of signals adds what it reports
    between ``started`` and ``finished``."""

    started = Signal()
    failed = Signal(str)  # what went wrong, in a sentence (describe_exception)
    finished = Signal()  # always last


class WorkerBase:
    """Runs :meth:`work` in a pool thread (``app.gui.worker.TaskRunner.start``), reporting
    through ``signals``.

    Every exception of :meth:`work` is caught and reported as ``failed`` (never raised into
    the thread pool), ``finished`` is always last. :meth:`cancel` (any thread) only sets a
    flag that :meth:`work` checks."""

    def __init__(self, signals: WorkerSignals) -> None:
        self.signals = signals
        self.done = False  # set (in the pool thread) just before `finished`
        self._cancel = threading.Event()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def work(self) -> Any:
        """The blocking job (in the pool thread); its value goes to :meth:`report_result`."""
        raise NotImplementedError

    def report_result(self, value: Any) -> None:
        emit_signal(self.signals, "resulted", value)

    def report_failure(self, exc: BaseException) -> None:
        emit_signal(self.signals, "failed", describe_exception(exc))

    def run(self) -> None:
        emit_signal(self.signals, "started")
        try:
            value = self.work()
        except BaseException as exc:  # reported, never raised into the thread pool
            self.report_failure(exc)
        else:
            self.report_result(value)
        finally:
            self.done = True
            emit_signal(self.signals, "finished")
