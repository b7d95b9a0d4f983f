"""A run's events (the one vocabulary, app.core.runtime.events) as the records inside them:
what tests of a kind's run check."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.core.runtime.events import Finished, Outcome, Progress


def records(events: Iterable[Any]) -> list[Any]:
    """Each event's record, in order: a progress's detail (those without one left out), an
    outcome's value, the result of the :class:`Finished`."""
    out: list[Any] = []
    for event in events:
        if isinstance(event, Progress):
            if event.detail is not None:
                out.append(event.detail)
        elif isinstance(event, Outcome):
            out.append(event.value)
        elif isinstance(event, Finished):
            out.append(event.result)
        else:
            raise AssertionError(f"not an event of the one vocabulary: {event!r}")
    return out


def result(events: list[Any]) -> Any:
    """The result the events end with; that they end with one, and only there."""
    assert isinstance(events[-1], Finished)
    assert not any(isinstance(e, Finished) for e in events[:-1])
    return events[-1].result
