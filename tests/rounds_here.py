"""A sweep's rounds (app.core.runtime.rounds) run in the test's own process, each point timed
for 5 ms instead of 100 ms (200 ms on a ladder): the real measurement, reports and merging of
rounds, without a fresh worker's start and the long timing. For tests of what is done with a
sweep (reports, widths, exports, figures, history); the rounds driver itself (fresh workers,
interleaving, failures, cancelling) and the ladder's switch run for real
(tests/core/sweep/test_sweep_runner.py). A ladder step with the AES instructions off still gets
its fresh worker: they can only be switched off before a process loads ``cryptography``."""

from __future__ import annotations

import contextlib
import pickle
import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from app.core.errors import Cancelled
from app.core.runtime import rounds
from app.core.runtime.rounds import RoundTask, WorkerFailed
from app.core.sweep.jobs import SweepJob

POINT_TIME_S = 0.005
_real_one_round = rounds.one_round


def one_round_here(task: RoundTask, cancel: threading.Event) -> Iterator[tuple[str, Any]]:
    """:func:`app.core.runtime.rounds.one_round`'s pairs, a sweep's round run here (its points
    timed for ``POINT_TIME_S``); its failures are the worker's (``WorkerFailed``). Other
    kinds' rounds run in their real workers."""
    if not isinstance(task.payload, SweepJob):  # another kind's round (a profile, a leak test)
        yield from _real_one_round(task, cancel)
        return
    job = task.payload
    task = replace(task, payload=replace(job, point_time_s=min(job.point_time_s, POINT_TIME_S)))
    if not job.aes_instructions:  # only a fresh process can do without them
        yield from _real_one_round(task, cancel)
        return
    if cancel.is_set():
        raise Cancelled()
    sent = _Pipe()
    rounds._worker_main(sent, (task.target, task.payload))  # the worker's own code, here
    *progress, (status, value) = sent.messages
    for message in progress:
        if len(message) > 2:
            yield "detail", message[2]
        yield "progress", message[1]
    if cancel.is_set():
        raise Cancelled()
    if status != "done":
        raise WorkerFailed(str(value))
    yield "done", value


class _Pipe:
    """The worker's end of the pipe, kept: what :func:`rounds._worker_main` sends, pickled
    and read back as the supervisor would receive it."""

    def __init__(self) -> None:
        self.messages: list[tuple[Any, ...]] = []

    def send(self, message: tuple[Any, ...]) -> None:
        self.messages.append(pickle.loads(pickle.dumps(message)))

    def close(self) -> None:
        pass


@contextlib.contextmanager
def rounds_here() -> Iterator[None]:
    """While open, every round of :func:`app.core.runtime.rounds.run_rounds` runs through
    :func:`one_round_here`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rounds, "one_round", one_round_here)
        yield
