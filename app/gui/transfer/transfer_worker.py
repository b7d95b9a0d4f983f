"""The transfer's worker: runs the engine's transfer session
(:func:`~app.core.transfer.session.transfer_session`: one cipher after the other) in a pool
thread and relays its events (the one vocabulary: progress, each cipher's outcome, the run) as
signals (:class:`~app.gui.worker.ProgressWorker`).

Cancel sets the event the engine checks every 50 ms; it then kills both ends of the running
transfer, and the worker still reports the run (``cancelled=True``) with the ciphers that
finished. Progress (one event per transfer run from the engine, which can be thousands a second
on a tiny input) is coalesced to the latest and goes out at most once per ``min_interval_s``;
a cipher's start and the other phases go out at once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from app.core.transfer.runner import TransferOptions
from app.core.transfer.session import TRANSFER, transfer_session
from app.gui.worker import PROGRESS_INTERVAL_S, ProgressWorker

__all__ = ["TransferRequest", "TransferWorker"]


@dataclass(frozen=True)
class TransferRequest:
    """What to send: the file at ``path``, or ``size_bytes`` of random data (``size_text`` as
    typed, for its label); each cipher in turn (``"none"``: the plaintext baseline)."""

    ciphers: tuple[str, ...]
    options: TransferOptions
    path: str | None = None
    size_bytes: int = 0
    size_text: str = ""


class TransferWorker(ProgressWorker):
    """Runs a :class:`TransferRequest`. ``cancel()`` from any thread; ``failed``: the run
    could not start (a vanished file) or the engine broke."""

    def __init__(
        self, request: TransferRequest, *, min_interval_s: float = PROGRESS_INTERVAL_S
    ) -> None:
        super().__init__(self._events, min_interval_s=min_interval_s)
        self.request = request

    def is_urgent(self, event: Any) -> bool:
        """A cipher's start and the other phases: a transfer run may take seconds."""
        place = event.detail
        return place.phase != TRANSFER or place.done == 0

    def _events(self, cancel: threading.Event) -> Iterator[Any]:
        req = self.request
        return transfer_session(
            req.ciphers,
            req.options,
            path=req.path,
            size_bytes=req.size_bytes,
            label=f"random {req.size_text}",
            cancel=cancel,
        )
