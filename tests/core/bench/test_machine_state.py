"""The machine's state is read without root, what cannot be read is named, and the conditions
that move figures are warned about."""

from __future__ import annotations

from app.core.bench.environment import capture_environment
from app.core.bench.machine_state import capture_machine_state, machine_warnings


def test_the_state_is_read_or_named_unreadable() -> None:
    state = capture_machine_state()
    for key in ("governor", "boost", "aslr", "power_source", "load_1min", "perf_event_paranoid"):
        assert key in state
        assert (state[key] is None) == (key in state["unreadable"])
    assert "machine_state" in capture_environment()


def test_the_warnings_name_each_condition() -> None:
    assert machine_warnings({}) == [] and machine_warnings(None) == []
    quiet = {"governor": "performance", "boost": False, "power_source": "ac", "load_1min": 0.2,
             "logical_cores": 4}  # fmt: skip
    assert machine_warnings(quiet) == []
    busy = {"governor": "powersave", "boost": True, "power_source": "battery", "load_1min": 5.0,
            "logical_cores": 2}  # fmt: skip
    text = " | ".join(machine_warnings(busy))
    for words in ("governor powersave", "turbo/boost is on", "on battery", "load 5 on 2"):
        assert words in text
