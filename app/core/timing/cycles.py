"""Cycles: a hardware counter where the kernel gives one, otherwise time x the clock frequency.

Linux exposes the CPU's cycle counter through ``perf_event_open(2)``; we open one counter for
this thread (user space only) and read it before and after each timed sample, as SUPERCOP reads
its cycle counter. Virtual machines and locked-down kernels (``perf_event_paranoid`` > 2, or no
PMU passed through) refuse it; then cycles are estimated as time x the clock frequency the
kernel reports, and every view says "estimate".
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys

import psutil

_PERF_TYPE_HARDWARE = 0
_PERF_COUNT_HW_CPU_CYCLES = 0
_ATTR_BYTES = 128  # PERF_ATTR_SIZE_VER7 and later; the kernel takes any size it knows
_FLAG_EXCLUDE_KERNEL = 1 << 5
_FLAG_EXCLUDE_HV = 1 << 6
_SYSCALLS = {"x86_64": 298, "aarch64": 241, "arm64": 241}  # __NR_perf_event_open


class CycleCounter:
    """This thread's user-space cycle count, or ``None`` from :func:`open_counter`."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def read(self) -> int:
        return int.from_bytes(os.read(self._fd, 8), sys.byteorder)

    def close(self) -> None:
        os.close(self._fd)


def open_counter() -> CycleCounter | None:
    """A running cycle counter, or None where the system allows none (any failure)."""
    if not sys.platform.startswith("linux"):
        return None
    number = _SYSCALLS.get(os.uname().machine)
    if number is None:
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        attr = bytearray(_ATTR_BYTES)
        kind, size, config = _PERF_TYPE_HARDWARE, _ATTR_BYTES, _PERF_COUNT_HW_CPU_CYCLES
        struct.pack_into("IIQ", attr, 0, kind, size, config)
        struct.pack_into("Q", attr, 40, _FLAG_EXCLUDE_KERNEL | _FLAG_EXCLUDE_HV)  # enabled
        buf = (ctypes.c_char * _ATTR_BYTES).from_buffer(attr)
        fd = int(libc.syscall(number, buf, 0, -1, -1, 0))  # this thread, any CPU, no group
    except (OSError, AttributeError, ValueError):
        return None
    if fd < 0:
        return None
    counter = CycleCounter(fd)
    try:
        first = counter.read()
        sum(range(1000))
        if counter.read() <= first:  # opened but not counting (a PMU the VM does not pass)
            counter.close()
            return None
    except OSError:
        counter.close()
        return None
    return counter


def clock_mhz() -> float | None:
    """The CPU clock the kernel reports now (MHz), or None where it reports none."""
    try:
        freq = psutil.cpu_freq()
    except (OSError, RuntimeError, NotImplementedError, AttributeError):
        return None
    if freq is None or not freq.current or freq.current <= 0:
        return None
    return float(freq.current)
