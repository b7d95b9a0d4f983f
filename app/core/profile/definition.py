"""What a profile asks for (its options); running it is :mod:`.run`, imported when a run starts,
so a menu that lists the kinds loads nothing of it."""

from __future__ import annotations

from app.core.runtime.definition import Definition, Option, entry_options, whole_number
from app.core.units import parse_size

# Samples a second. py-spy's native unwinding pauses the job about 1 ms a sample (measured:
# pyaes 1.04x slower at 99 a second, 1.2x at 199, 6.6x at 999, the pyaes report's perf -F 999).
DEFAULT_RATE = 199
PROFILERS = ("py-spy", "perf")  # perf: Linux only, the interpreter's C functions but no Python

DEFINITION = Definition(
    command="profile",
    title="Profile",
    summary="where each entry's time goes: its timed calls sampled by py-spy (or perf), as "
    "shares and a flame graph",
    options=(
        *entry_options("aes-128-ctr"),
        Option(
            "size",
            "random data of this size: 23KB, 10MB, 1MiB (unless a file is given)",
            parse_size,
            "1MB",
        ),
        Option(
            "file", "a file to encrypt instead of random data (replaces the size)", metavar="FILE"
        ),
        Option("rounds", "rounds, each entry in a fresh worker", whole_number(1, 100), 6),
        Option(
            "rate",
            "samples a second (py-spy pauses the job about 1 ms a sample; perf far less)",
            whole_number(10, 2000),
            DEFAULT_RATE,
        ),
        Option(
            "profiler",
            "py-spy (Python and native frames) or perf (Linux: the interpreter's own C "
            "functions, the pyaes report's method)",
            default="py-spy",
            choices=PROFILERS,
        ),
    ),
    run="app.core.profile.run:run",
)
