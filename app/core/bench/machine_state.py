"""What state the machine was in when a run started, read without root, and the warnings it
calls for (as Google Benchmark warns of CPU scaling and pyperf of a busy or unstable system):
the frequency governor, turbo/boost, address-space randomisation, the power source, the load,
whether the CPU's counters can be read. What this machine does not let us read is listed by
name (``unreadable``), never guessed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

GOVERNOR = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
BOOST = "/sys/devices/system/cpu/cpufreq/boost"  # 1: on (acpi-cpufreq, amd-pstate)
NO_TURBO = "/sys/devices/system/cpu/intel_pstate/no_turbo"  # 0: turbo on
ASLR = "/proc/sys/kernel/randomize_va_space"
PARANOID = "/proc/sys/kernel/perf_event_paranoid"
BUSY_LOAD_PER_CORE = 1.0  # a 1-minute load above the logical cores: more to run than cores


def _read(path: str) -> str:
    with open(path, encoding="ascii") as f:
        return f.read().strip()


def _boost() -> bool:
    try:
        return _read(BOOST) == "1"
    except OSError:
        return _read(NO_TURBO) == "0"


def _power_source() -> str:
    import psutil

    battery = psutil.sensors_battery()
    if battery is None:
        raise OSError("no battery reported")
    return "ac" if battery.power_plugged else "battery"


def capture_machine_state() -> dict[str, Any]:
    """``governor``, ``boost``, ``aslr`` (0-2), ``power_source`` (ac, battery), ``load_1min``,
    ``logical_cores``, ``perf_event_paranoid``; each None where it cannot be read, and then
    named in ``unreadable``."""
    readers: dict[str, Callable[[], Any]] = {
        "governor": lambda: _read(GOVERNOR),
        "boost": _boost,
        "aslr": lambda: int(_read(ASLR)),
        "power_source": _power_source,
        "load_1min": lambda: round(os.getloadavg()[0], 2),
        "perf_event_paranoid": lambda: int(_read(PARANOID)),
    }
    state: dict[str, Any] = {"logical_cores": os.cpu_count()}
    unreadable = []
    for name, read in readers.items():
        try:
            state[name] = read()
        except (OSError, ValueError, AttributeError, ImportError):
            state[name] = None
            unreadable.append(name)
    state["unreadable"] = unreadable
    return state


def machine_warnings(state: Mapping[str, Any] | None) -> list[str]:
    """One sentence per condition that can move the figures, as benchmark tools warn of them."""
    if not state:
        return []
    out = []
    governor = state.get("governor")
    if governor not in (None, "performance"):
        out.append(
            f"CPU frequency scaling is on (governor {governor}): the clock may change during a "
            "run; the 'performance' governor holds it steady"
        )
    if state.get("boost") is True:
        out.append("turbo/boost is on: the clock depends on temperature and on the other cores")
    if state.get("power_source") == "battery":
        out.append("running on battery: the system may slow the CPU to save power")
    load, cores = state.get("load_1min"), state.get("logical_cores")
    if isinstance(load, int | float) and cores and load > BUSY_LOAD_PER_CORE * cores:
        out.append(
            f"the machine was busy when the run started (load {load:g} on {cores} logical "
            "cores): close other programs, or run more rounds"
        )
    return out
