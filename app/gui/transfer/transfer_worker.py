"""The transfer's worker: runs the engine's transfer session
(:func:`~app.core.transfer.session.run_transfers`: one cipher after the other) in a pool thread
and relays its callbacks as signals through the app's one event relay
(:class:`~app.gui.worker.EventWorker`).

Cancel sets the event the engine checks every 50 ms; it then kills both ends of the running
transfer, and the worker still reports the run (``cancelled=True``) with the ciphers that
finished. Progress (one call per transfer run from the engine, which can be thousands a second
on a tiny input) is coalesced to the latest and goes out at most once per ``min_interval_s``;
a cipher's start and the other phases go out at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from PySide6.QtCore import Signal

from app.core.runtime.envelope import NamedFailure
from app.core.transfer.results import TransferResult, TransferRun
from app.core.transfer.runner import TransferOptions
from app.core.transfer.session import (
    GENERATING,
    TRANSFER,
    TransferProgress,
    run_transfers,
    transfer_input,
)
from app.gui.worker import PROGRESS_INTERVAL_S, EventWorker
from app.gui.worker_base import WorkerSignals

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


class TransferWorkerSignals(WorkerSignals):
    """``failed``: the run could not start (a vanished file) or the engine broke."""

    progressed = Signal(object)  # TransferProgress (the latest one)
    cipher_finished = Signal(object)  # TransferResult
    cipher_failed = Signal(object)  # NamedFailure
    resulted = Signal(object)  # TransferRun: every cipher, also after a cancel


class TransferWorker(EventWorker):
    """Runs a :class:`TransferRequest`. ``cancel()`` from any thread."""

    signals: TransferWorkerSignals
    ROUTES: ClassVar[Mapping[type, str]] = {
        TransferProgress: "progressed",
        TransferResult: "cipher_finished",
        NamedFailure: "cipher_failed",
    }
    LATEST = (TransferProgress,)

    def __init__(
        self, request: TransferRequest, *, min_interval_s: float = PROGRESS_INTERVAL_S
    ) -> None:
        super().__init__(TransferWorkerSignals(), min_interval_s=min_interval_s)
        self.request = request

    def is_urgent(self, event: Any) -> bool:
        """A cipher's start and the other phases: a transfer run may take seconds."""
        return event.phase != TRANSFER or event.done == 0

    def work(self) -> TransferRun:
        req = self.request
        if req.path is None:
            first = req.ciphers[0] if req.ciphers else ""
            self.relay(TransferProgress(first, 0, 1, 0, 1, GENERATING))
        label = f"random {req.size_text}"
        # UserError for a vanished, unreadable or folder path: the worker's `failed`
        with transfer_input(req.path, size_bytes=req.size_bytes, label=label) as source:
            return run_transfers(
                source,
                req.ciphers,
                req.options,
                cancel=self._cancel,
                on_progress=self.relay,
                on_result=self.relay,
                on_failure=self.relay,
            )
