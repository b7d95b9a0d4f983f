"""The study's worker: the app's one event relay (:class:`~app.gui.worker.ProgressWorker`)
over a study run's events (the one vocabulary, :mod:`app.core.study.steps`). Readings (up to 20
per second per worker from the engine) are coalesced to the latest and emitted at most once per
``min_interval_s``, as a benchmark's are; the study's start, each step and the rounds added are
kept, the cells' outcomes and the result go out as they come.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any, Protocol

from app.gui.worker import PROGRESS_INTERVAL_S, ProgressWorker


class StudyRunLike(Protocol):
    """What the worker needs from ``app.core.study.runner.StudyRun`` (or a transfer study's
    run): its events, and the event that cancels it."""

    @property
    def cancel_event(self) -> threading.Event: ...

    def events(self) -> Iterator[Any]: ...


class StudyWorker(ProgressWorker):
    """Runs one study in a pool thread. ``cancel()`` from any thread sets the run's own cancel
    event: the engine kills the running job's process and still ends with its result (partial
    results kept). A cancel before it starts runs nothing."""

    RUN_WHEN_CANCELLED = False

    def __init__(self, run: StudyRunLike, *, min_interval_s: float = PROGRESS_INTERVAL_S) -> None:
        super().__init__(
            lambda _cancel: run.events(), cancel=run.cancel_event, min_interval_s=min_interval_s
        )
