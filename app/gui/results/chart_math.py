"""Numbers behind the charts, without Qt: round axis limits, logarithmic ticks, smoothed CPU."""

from __future__ import annotations

import math

import numpy as np

# psutil's cpu_percent over a 50 ms sample is quantised by the 10 ms clock tick (one tick more
# reads 120 %), so the curve shows the mean over the last 400 ms of samples.
CPU_SMOOTHING_S = 0.4
MAX_LOG_LABELS = 8  # labelled powers of ten on a logarithmic axis; more would overlap


def nice_ceiling(value: float) -> float:
    """The smallest 1, 2, 2.5 or 5 times a power of ten that is >= ``value`` (1 for <= 0)."""
    if value <= 0 or not math.isfinite(value):
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if step * power >= value * (1 - 1e-12):
            return step * power
    return 10.0 * power


def cpu_ceiling(percent: float) -> float:
    """The top of a CPU axis in % of one core: 100, or the next quarter of a core above, so
    that a single-threaded job's sampling jitter just over 100 % does not double the axis."""
    if not math.isfinite(percent) or percent <= 100.0:
        return 100.0
    return 25.0 * math.ceil(percent / 25.0 - 1e-9)


def smoothed_cpu(t: np.ndarray, cpu: np.ndarray, window_s: float = CPU_SMOOTHING_S) -> np.ndarray:
    """Each sample's CPU % replaced by the time-weighted mean of the samples in the last
    ``window_s`` seconds (each sample covers the time since the one before it)."""
    if t.size == 0:
        return cpu
    dt = np.diff(t, prepend=0.0)
    dt = np.where(dt > 0, dt, 1e-9)
    busy = np.concatenate([[0.0], np.cumsum(cpu * dt)])
    elapsed = np.concatenate([[0.0], np.cumsum(dt)])
    first = np.searchsorted(t, t - window_s, side="right")
    last = np.arange(1, t.size + 1)
    return (busy[last] - busy[first]) / (elapsed[last] - elapsed[first])


def power_label(exponent: int) -> str:
    """10**exponent written for an axis: 0.001 ... 1000 as decimals, else 10^n."""
    if -3 <= exponent <= 3:
        return f"{10.0**exponent:.{max(0, -exponent)}f}"
    return "10" + str(exponent).translate(_SUPERSCRIPT)


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def log_ticks(start: float, end: float) -> list[list[tuple[float, str]]]:
    """Ticks for an axis drawn in log10 units from ``start`` to ``end``: labelled powers of
    ten (every second or fifth one when there are many) and unlabelled 2..9 minor ticks."""
    low, high = math.floor(start), math.ceil(end)
    powers = list(range(low, high + 1))
    step = next((s for s in (1, 2, 5, 10, 20) if len(powers) / s <= MAX_LOG_LABELS), 50)
    major = [(float(k), power_label(k)) for k in powers if k % step == 0]
    minor: list[tuple[float, str]] = []
    if step == 1:
        minor = [(k + math.log10(m), "") for k in powers[:-1] for m in range(2, 10)]
    return [major, minor]
