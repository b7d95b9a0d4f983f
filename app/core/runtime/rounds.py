"""The rounds driver any kind can use: every task's rounds, each round in a fresh worker
process, round 1 of every task before round 2 of any, the tasks of a round in a seeded random
order of their own (so no task is always first and a moment of load touches every task alike).

A task names the function its worker runs, ``"module:function"`` taking ``(payload,
progress)`` where ``progress(fraction)`` reports the round's share done (``progress(fraction,
detail)`` sends a picklable detail with it: :class:`RoundProgress` carries the latest), returning a
picklable value: the round's samples. :func:`run_rounds` yields :class:`RoundStarted`,
:class:`RoundProgress`, :class:`RoundDone` and :class:`RoundFailed` events; closing the
generator or setting ``cancel`` kills the running worker (after a cancel the events simply
end). A task whose worker fails is not run again; its finished rounds are kept.
"""

from __future__ import annotations

import errno
import os
import random
import threading
import traceback
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from importlib import import_module
from multiprocessing.connection import Connection
from typing import Any

from app.core.errors import Cancelled, UserError
from app.core.runtime.children import Child, signal_name
from app.core.runtime.events import Progress

_POLL_S = 0.05


@dataclass(frozen=True)
class RoundTask:
    label: str  # what the task measures, for progress and messages
    target: str  # "module:function" the worker runs: (payload, progress) -> value
    payload: Any  # picklable


@dataclass(frozen=True)
class RoundStarted:
    task: int
    round: int
    rounds: int
    step: int  # rounds started so far, this one included
    steps: int  # rounds in all


@dataclass(frozen=True)
class RoundProgress:
    fraction: float  # of all the rounds
    detail: Any = None  # what the round function sent beside its fraction (a leak test's curve)


@dataclass(frozen=True)
class RoundDone:
    task: int
    round: int
    value: Any


@dataclass(frozen=True)
class RoundFailed:
    task: int
    round: int
    message: str


RoundEvent = RoundStarted | RoundProgress | RoundDone | RoundFailed


def round_order(count: int, seed: int, round_no: int) -> list[int]:
    """The order of ``count`` tasks in round ``round_no``: the first place taken in turn (a
    seeded order of the tasks, so that in any ``count`` rounds in a row each task runs first
    once), the others in a seeded shuffle of the round's own. No task is always first, nor
    always after the same neighbour; the same seed gives the same orders (a rerun)."""
    if count <= 0:
        return []
    firsts = list(range(count))
    random.Random(f"cipherbench-order:{seed}").shuffle(firsts)
    first = firsts[round_no % count]
    rest = [i for i in range(count) if i != first]
    random.Random(f"cipherbench-order:{seed}:{round_no}").shuffle(rest)
    return [first, *rest]


def run_rounds(
    tasks: Sequence[RoundTask],
    rounds: int,
    *,
    seed: int = 0,
    cancel: threading.Event | None = None,
) -> Generator[RoundEvent, None, None]:
    """Every task's ``rounds`` rounds, interleaved (module doc)."""
    cancel = cancel or threading.Event()
    steps = max(1, rounds * len(tasks))
    failed: set[int] = set()
    step = 0
    for round_no in range(rounds):
        for i in round_order(len(tasks), seed, round_no):
            if i in failed:
                step += 1
                continue
            step += 1
            yield RoundStarted(i, round_no, rounds, step, steps)
            done = (step - 1) / steps
            try:
                detail = None
                for kind, value in one_round(tasks[i], cancel):
                    if kind == "detail":
                        detail = value
                    elif kind == "progress":
                        yield RoundProgress(done + float(value) / steps, detail)
                    else:
                        yield RoundDone(i, round_no, value)
            except Cancelled:
                return  # the rounds done so far are the caller's; its result says cancelled
            except WorkerFailed as exc:
                failed.add(i)
                yield RoundFailed(i, round_no, str(exc))
            yield RoundProgress(step / steps)


@dataclass(frozen=True)
class Collected:
    """What :func:`collect_rounds` gathered: each task's round values, in the order they
    finished, and the first line of each failed task's message."""

    values: dict[int, list[Any]]
    failed: dict[int, str]


def collect_rounds(
    tasks: Sequence[RoundTask], rounds: int, cancel: threading.Event
) -> Generator[Progress, None, Collected]:
    """:func:`run_rounds` as a kind's run needs it: its progress as :class:`Progress` (what
    runs now: "round 2/6 aes-128-ctr [pyaes]"), then (``yield from``'s value) what it
    gathered. Closing it, or Ctrl-C, stops the running worker."""
    values: dict[int, list[Any]] = {i: [] for i in range(len(tasks))}
    failed: dict[int, str] = {}
    events = run_rounds(tasks, rounds, cancel=cancel)
    what = ""
    try:
        for event in events:
            if isinstance(event, RoundStarted):
                what = f"round {event.round + 1}/{event.rounds} {tasks[event.task].label}"
                yield Progress((event.step - 1) / event.steps, what)  # said at once: it may be long
            elif isinstance(event, RoundProgress):
                yield Progress(event.fraction, what, event.detail)
            elif isinstance(event, RoundDone):
                values[event.task].append(event.value)
            else:
                failed[event.task] = event.message.splitlines()[0]
    except (KeyboardInterrupt, GeneratorExit):
        events.close()
        raise
    return Collected(values, failed)


class WorkerFailed(Exception):
    """A worker did not finish its round; the message says why (its first line in one
    sentence, a traceback after it for a bug)."""


def one_round(task: RoundTask, cancel: threading.Event) -> Iterator[tuple[str, Any]]:
    """One round of ``task`` in a fresh worker: ``("progress", fraction)`` pairs, then
    ``("done", value)``. Raises :class:`WorkerFailed`, or ``Cancelled`` once ``cancel`` is set
    (the worker killed)."""
    worker = Child(
        _worker_main, (task.target, task.payload), name=f"cipherbench {task.label}", duplex=False
    )
    try:
        while True:
            if cancel.is_set():
                raise Cancelled()
            if worker.conn.poll(_POLL_S):
                try:
                    msg = worker.conn.recv()
                except EOFError:
                    break
                if msg[0] == "progress":
                    if len(msg) > 2:
                        yield "detail", msg[2]
                    yield "progress", msg[1]
                    continue
                if msg[0] == "done":
                    yield "done", msg[1]
                    return
                raise WorkerFailed(str(msg[1]))
            if not worker.is_alive() and not worker.conn.poll():
                break
        code = worker.exit_code()
    finally:
        worker.stop()
    name = signal_name(code)
    if name is not None:
        raise WorkerFailed(f"the worker process was stopped by {name} from outside CipherBench")
    raise WorkerFailed(f"the worker process stopped unexpectedly (exit code {code})")


def _worker_main(conn: Connection, spec: tuple[str, Any]) -> None:
    """In the worker: run the task's function, send its progress, then ``("done", value)`` or
    ``("failed", message)``."""
    target, payload = spec
    try:
        module, _, name = target.partition(":")
        function = getattr(import_module(module), name)
        value = function(payload, lambda *sent: conn.send(("progress", float(sent[0]), *sent[1:])))
        message: tuple[Any, ...] = ("done", value)
    except BaseException as exc:  # reported; the supervisor decides how to show it
        if isinstance(exc, OSError) and exc.errno == errno.EPIPE:
            os._exit(1)
        if isinstance(exc, UserError | MemoryError):
            message = ("failed", str(exc) or "not enough memory")
        else:
            message = ("failed", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
    try:
        conn.send(message)
        conn.close()
    except OSError:
        os._exit(1)
