"""The sweep's worker: runs the engine's :func:`~app.core.sweep.runner.run_sweep` (every round
of every entry in a fresh worker process) in a pool thread and relays its events (the one
vocabulary: progress, then the result) as signals (:class:`~app.gui.worker.ProgressWorker`).

What to run is a :class:`SweepRequest`, the form's choices as plain data; :func:`plan` turns it
into the engine's jobs on the GUI thread (registry look-ups, no measuring), so a choice that
cannot run is a message before anything starts. Cancel sets the event the engine polls every
50 ms; it kills the running worker process and still ends with the result of the rounds that
finished (``cancelled=True``). Progress (one event per timed slice from the engine) is
coalesced to the latest and goes out at most once per ``min_interval_s``; the start of a round
at once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from app.core.sweep.jobs import SweepPlan
from app.core.sweep.plan import DEFAULT_LENGTHS, DEFAULT_ROUNDS, ladder_plan, sweep_plan
from app.core.sweep.results import LADDER
from app.core.sweep.runner import run_sweep
from app.gui.worker import PROGRESS_INTERVAL_S, ProgressWorker

__all__ = ["SweepPlan", "SweepRequest", "SweepWorker", "plan"]


@dataclass(frozen=True)
class SweepRequest:
    """The form's choices. A sweep: ``cipher_ids`` on ``lengths``, from ``library`` (None: the
    compiled ones, ``"all"``: every library offering each), associated data or not. A ladder:
    ``cipher_ids[0]`` in each of ``libraries``, then in pure Python."""

    kind: str  # SWEEP or LADDER
    cipher_ids: tuple[str, ...]
    rounds: int = DEFAULT_ROUNDS
    library: str | None = None
    lengths: tuple[int, ...] = DEFAULT_LENGTHS
    ad: bool = True
    libraries: tuple[str, ...] = ("cryptography",)


def plan(request: SweepRequest) -> SweepPlan:
    """The jobs ``request`` stands for, as the command line makes them; ``UserError`` in one
    sentence for a choice that cannot run."""
    if request.kind == LADDER:
        cipher = request.cipher_ids[0] if request.cipher_ids else ""
        return ladder_plan(cipher, request.libraries, request.rounds)
    return sweep_plan(
        request.cipher_ids, request.library, None, request.lengths, request.rounds, request.ad
    )


class SweepWorker(ProgressWorker):
    """Runs a :class:`SweepPlan`. ``cancel()`` from any thread."""

    def __init__(self, sweep: SweepPlan, *, min_interval_s: float = PROGRESS_INTERVAL_S) -> None:
        super().__init__(self._events, min_interval_s=min_interval_s)
        self.plan = sweep

    def _events(self, cancel: threading.Event) -> Iterator[Any]:
        return run_sweep(self.plan, cancel)
