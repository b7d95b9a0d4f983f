"""The one vocabulary of a run, whatever its kind (a benchmark, a study, a sweep, a transfer, a
leak test, a profile, key setup): any number of :class:`Progress` and :class:`Outcome`, then one
:class:`Finished` (also after a cancel, its result saying so). The front-ends follow it with one
progress line (``app.cli.running.follow``) and one worker (``app.gui.worker.ProgressWorker``).

A kind's own records ride inside: a :class:`Progress`'s ``detail`` (a bench job's start, a
monitor sample, a study's step), an :class:`Outcome`'s ``value`` (a job's or a cell's result or
failure). Progress is a reading, of which a front-end may show only the latest; one marked
``keep`` (a step's start, a monitor sample for a live chart) is never coalesced away.

An engine's inner steps are generators too: :func:`relayed` turns what one yields into events
(:func:`expanded`: into any number of events) and hands on its return value, :func:`drained`
runs one to its return value.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")
E = TypeVar("E")
R = TypeVar("R")


@dataclass(frozen=True)
class Progress:
    """How far a run is: ``fraction`` of it done, the step running (``what``: a line in a log
    each time it changes), and within the step a reading (``note``) and data (``detail``)."""

    fraction: float  # of the whole run
    what: str  # the step that runs now: "round 2/6 aes-128-ctr [pyaes]"
    detail: Any = None  # data beside it: a leak test's |t| curve, a transfer's place
    note: str = ""  # a reading within the step: "|t| = 2.1 after 10,000 calls", "run 3 of 12"
    # Whether every one of these matters (a bench job's start, a monitor sample): a front-end
    # that shows only the latest progress still hands each of them on; else the latest wins.
    keep: bool = False

    @property
    def text(self) -> str:
        """The step and its reading, as a status line shows them."""
        return f"{self.what}: {self.note}" if self.note else self.what


@dataclass(frozen=True)
class Outcome:
    """One entry's result, or its failure, as soon as it is known (a transfer's cipher), for a
    table that fills as the run goes; :class:`Finished` holds it again."""

    value: Any


@dataclass(frozen=True)
class Finished:
    result: Any


Event = Progress | Outcome | Finished
"""The one vocabulary of a kind's run: any number of :class:`Progress` and :class:`Outcome`,
then one :class:`Finished` (also after a cancel, its result saying so)."""


def result_of(events: Iterable[Any]) -> Any:
    """The result a run's events end with (its :class:`Finished`), the others passed over: how
    a script runs a kind without showing its progress. Its workers stop however this ends."""
    try:
        for event in events:
            if isinstance(event, Finished):
                return event.result
    finally:
        close = getattr(events, "close", None)
        if close is not None:
            close()
    raise RuntimeError("the run ended without a result")


def relayed(steps: Generator[T, Any, R], event: Callable[[T], E]) -> Generator[E, None, R]:
    """What ``steps`` yields as ``event(value)``, and (``yield from``'s value) what it returns.
    Closing this closes ``steps`` (its ``finally`` stops what it started)."""
    return (yield from expanded(steps, lambda value: (event(value),)))


def expanded(
    steps: Generator[T, Any, R], handle: Callable[[T], Iterable[E]]
) -> Generator[E, None, R]:
    """What ``handle`` makes of each value ``steps`` yields (any number of events, none too),
    and (``yield from``'s value) what ``steps`` returns. Closing this closes ``steps``."""
    try:
        while True:
            try:
                value = next(steps)
            except StopIteration as end:
                result: R = end.value
                return result
            yield from handle(value)
    finally:
        steps.close()


def drained(steps: Generator[Any, Any, R]) -> R:
    """Run ``steps`` to its end, what it yields passed over; its return value. What it started
    stops however this ends (Ctrl-C included)."""
    try:
        while True:
            try:
                next(steps)
            except StopIteration as end:
                result: R = end.value
                return result
    finally:
        steps.close()
