"""The one vocabulary of a run (app.core.runtime.events) and the order of its rounds: fakes,
no worker process."""

from __future__ import annotations

from collections.abc import Generator

import pytest

from app.core.runtime.events import Finished, Progress, drained, relayed, result_of
from app.core.runtime.rounds import round_order


@pytest.mark.parametrize("count", [2, 3, 5])
def test_each_task_runs_first_once_in_any_count_rounds_in_a_row(count: int) -> None:
    orders = [round_order(count, 7, r) for r in range(3 * count)]
    assert all(sorted(o) == list(range(count)) for o in orders)
    for start in range(len(orders) - count + 1):
        assert sorted(o[0] for o in orders[start : start + count]) == list(range(count))
    assert orders == [round_order(count, 7, r) for r in range(3 * count)]  # a rerun: the same


def test_the_rest_of_a_round_is_shuffled_so_no_task_always_follows_the_same() -> None:
    pairs = {tuple(round_order(4, 3, r)[1:3]) for r in range(20)}
    assert len(pairs) > 4


class _Steps:
    """A generator of steps that says whether it was closed (its processes stopped)."""

    def __init__(self) -> None:
        self.closed = False

    def run(self) -> Generator[int, None, str]:
        try:
            yield 1
            yield 2
            return "done"
        finally:
            self.closed = True


def test_relayed_hands_on_each_step_and_the_return_value() -> None:
    steps = _Steps()

    def outer() -> Generator[Progress, None, str]:
        return (yield from relayed(steps.run(), lambda n: Progress(n / 2, f"step {n}")))

    assert drained(outer()) == "done" and steps.closed
    assert [p.what for p in relayed(_Steps().run(), lambda n: Progress(0, f"step {n}"))] == [
        "step 1",
        "step 2",
    ]


def test_closing_a_relay_midway_closes_what_it_relays() -> None:
    steps = _Steps()
    relay = relayed(steps.run(), lambda n: n)
    assert next(relay) == 1
    relay.close()
    assert steps.closed


def test_result_of_closes_the_run_once_it_has_its_result() -> None:
    steps = _Steps()

    def run() -> Generator[object, None, None]:
        yield Progress(0.5, "half", note="a reading")
        yield from relayed(steps.run(), lambda n: Finished(n))

    assert result_of(run()) == 1 and steps.closed  # the first Finished; the rest never ran


def test_a_progress_shows_its_step_and_its_reading() -> None:
    assert Progress(0.1, "round 1/3 x").text == "round 1/3 x"
    assert Progress(0.1, "round 1/3 x", note="|t| = 2").text == "round 1/3 x: |t| = 2"
