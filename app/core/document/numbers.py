"""One formatter per quantity: every view of a figure (the terminal, the window, HTML, the
spreadsheet's text, Markdown, LaTeX) prints it through these, so one value reads the same
everywhere. Every figure has three significant digits; thousands are separated by commas;
nothing is printed in e-notation.

    rate_text(0.3214)    -> "0.321"      (a throughput, in the unit its header names)
    rate_text(10_351.2)  -> "10,351"    (never rounded to fewer than its whole digits)
    seconds_text(0.00188) -> "1.88 ms"   (a time carries its own unit)
    mib_text(1.1289)     -> "1.13"       (MiB = 2^20 bytes)
    ratio_text(1.1873)   -> "1.19x"
    percent_text(17.84)  -> "17.8 %"
"""

from __future__ import annotations

import math

DIGITS = 3  # significant digits of every printed figure
MISSING = "-"  # a figure not measured, or not finite


def figure(value: float | None, digits: int = DIGITS) -> str:
    """``value`` to ``digits`` significant digits, thousands separated by commas, never in
    e-notation: 10,351 / 912 / 3.71 / 0.0421; ``-`` for None or not finite."""
    if value is None or not math.isfinite(value):
        return MISSING
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    places = max(0, digits - 1 - magnitude)
    rounded = round(value, places)
    if places and math.floor(math.log10(abs(rounded))) > magnitude:  # 99.96 -> 100, not 100.0
        places -= 1
    if places == 0:
        return f"{rounded:,.0f}"
    return f"{rounded:,.{places}f}"


def rate_text(value: float | None) -> str:
    """A throughput (MB/s, MiB/s, KB/s: the header says which)."""
    return MISSING if value is None else figure(value)


def mib_text(value: float | None) -> str:
    """Memory in MiB (2^20 bytes); None: not measured."""
    return MISSING if value is None else figure(value)


def duration_text(seconds: float) -> str:
    """A duration as a person says it (an estimate, a budget): ``40 s``, ``47 min``, ``2.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def seconds_text(seconds: float | None) -> str:
    """A time with its unit, in s, ms, µs or ns: ``1.88 ms``, ``210 µs``, ``12.3 s``; a
    negative time (a fitted fixed cost) is the positive one with a minus sign."""
    if seconds is None or not math.isfinite(seconds):
        return MISSING
    if seconds < 0:
        return "-" + seconds_text(-seconds)
    if seconds == 0:
        return "0 s"
    scale, unit = time_scale(seconds)
    return f"{figure(seconds / scale)} {unit}"


def time_scale(seconds: float) -> tuple[float, str]:
    """The unit a time of ``seconds`` (positive) is printed in, and its size in seconds:
    ``(1e-3, "ms")`` for 1.88 ms."""
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        # 999.96 ms rounds to "1,000 ms": print it as "1 s" instead.
        if seconds >= scale * (1 - 0.5 * 10 ** (-DIGITS)):
            return scale, unit
    return 1e-9, "ns"


def ratio_text(value: float | None) -> str:
    """A ratio or a speed-up: ``1.19x``."""
    return MISSING if value is None or not math.isfinite(value) else f"{figure(value)}x"


def percent_text(value: float | None) -> str:
    """A percentage: ``17.8 %``."""
    return MISSING if value is None or not math.isfinite(value) else f"{figure(value)} %"


def count_text(value: int | None) -> str:
    """A count (rounds, repetitions, bytes): every digit, thousands separated: ``1,000,000``."""
    return MISSING if value is None else f"{value:,}"
