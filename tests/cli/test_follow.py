"""The one progress display of a run on the command line (app.cli.running.follow), in a pipe:
a line each time a step starts, never one per reading; outcomes handed on as they come."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from app.cli.running import follow
from app.core.runtime.events import Finished, Outcome, Progress


def _run(closed: list[bool]) -> Iterator[Any]:
    try:
        yield Progress(0.0, "round 1/2 a")
        yield Progress(0.1, "round 1/2 a", note="|t| = 1")
        yield Progress(0.2, "round 1/2 a", note="|t| = 2")
        yield Outcome("a done")
        yield Progress(0.5, "round 1/2 b")
        yield Finished("the result")
        yield Progress(1.0, "never read")
    finally:
        closed.append(True)


def test_in_a_pipe_a_line_per_step_and_each_outcome_as_it_comes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    closed: list[bool] = []
    seen: list[Any] = []
    assert follow(_run(closed), threading.Event(), on_outcome=seen.append) == "the result"
    assert capsys.readouterr().err.splitlines() == ["  0% round 1/2 a", " 50% round 1/2 b"]
    assert seen == ["a done"] and closed == [True]


def test_quiet_says_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert follow(_run([]), threading.Event(), quiet=True) == "the result"
    assert capsys.readouterr().err == ""


def test_ctrl_c_sets_the_cancel_and_closes_the_run() -> None:
    closed: list[bool] = []
    cancel = threading.Event()

    def interrupted() -> Iterator[Any]:
        try:
            yield Progress(0.0, "round 1/1 a")
            raise KeyboardInterrupt
        finally:
            closed.append(True)

    with pytest.raises(KeyboardInterrupt):
        follow(interrupted(), cancel)
    assert cancel.is_set() and closed == [True]
