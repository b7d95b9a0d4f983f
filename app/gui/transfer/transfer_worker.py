"""The transfer's worker: runs the engine's transfer session
(:func:`~app.core.transfer.session.run_transfers`: one cipher after the other) in a pool thread
(the app's one worker pattern, :class:`~app.gui.worker.WorkerBase`) and relays what happens as
signals.

Cancel sets the event the engine checks every 50 ms; it then kills both ends of the running
transfer, and the worker still reports the run (``cancelled=True``) with the ciphers that
finished. Progress (one call per transfer run from the engine, which can be thousands a second
on a tiny input) goes out at most once per ``min_interval_s``; a cipher's start and the other
phases always go out.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from app.core.transfer.results import TransferFailure, TransferResult, TransferRun
from app.core.transfer.runner import TransferOptions
from app.core.transfer.session import (
    GENERATING,
    TRANSFER,
    TransferProgress,
    run_transfers,
    transfer_input,
)
from app.gui.worker import PROGRESS_INTERVAL_S, WorkerBase, emit_signal

__all__ = ["TransferProgress", "TransferRequest", "TransferWorker", "TransferWorkerSignals"]


@dataclass(frozen=True)
class TransferRequest:
    """What to send: the file at ``path``, or ``size_bytes`` of random data (``size_text`` as
    typed, for its label); each cipher in turn (``"none"``: the plaintext baseline)."""

    ciphers: tuple[str, ...]
    options: TransferOptions
    path: str | None = None
    size_bytes: int = 0
    size_text: str = ""


class TransferWorkerSignals(QObject):
    started = Signal()
    progressed = Signal(object)  # TransferProgress (the latest one)
    cipher_finished = Signal(object)  # TransferResult
    cipher_failed = Signal(object)  # TransferFailure
    resulted = Signal(object)  # TransferRun: every cipher, also after a cancel
    failed = Signal(str)  # the run could not start (a vanished file) or the engine broke
    finished = Signal()  # always last


class TransferWorker(WorkerBase):
    """Runs a :class:`TransferRequest`. ``cancel()`` from any thread."""

    signals: TransferWorkerSignals

    def __init__(
        self,
        request: TransferRequest,
        *,
        min_interval_s: float = PROGRESS_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(TransferWorkerSignals())
        self.request = request
        self._interval = min_interval_s
        self._clock = clock
        self._last_emit = float("-inf")

    def _progress(self, progress: TransferProgress, force: bool = False) -> None:
        now = self._clock()
        if force or now - self._last_emit >= self._interval:
            self._last_emit = now
            emit_signal(self.signals, "progressed", progress)

    def _on_progress(self, progress: TransferProgress) -> None:
        self._progress(progress, force=progress.phase != TRANSFER or progress.done == 0)

    def _on_result(self, result: TransferResult) -> None:
        emit_signal(self.signals, "cipher_finished", result)

    def _on_failure(self, failure: TransferFailure) -> None:
        emit_signal(self.signals, "cipher_failed", failure)

    def work(self) -> TransferRun:
        req = self.request
        if req.path is None:
            first = req.ciphers[0] if req.ciphers else ""
            self._progress(TransferProgress(first, 0, 1, 0, 1, GENERATING), True)
        label = f"random {req.size_text}"
        # UserError for a vanished, unreadable or folder path: the worker's `failed`
        with transfer_input(req.path, size_bytes=req.size_bytes, label=label) as source:
            return run_transfers(
                source,
                req.ciphers,
                req.options,
                cancel=self._cancel,
                on_progress=self._on_progress,
                on_result=self._on_result,
                on_failure=self._on_failure,
            )
