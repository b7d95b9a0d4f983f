"""Peak resident memory of the current process, from the kernel, not from sampling.

A thread sampling RSS misses a peak that happens inside a call holding the GIL; the kernel's
high-water mark does not. On Linux the mark can be reset (``/proc/self/clear_refs``, value 5,
Linux >= 4.0), so a pass measures its own peak. Elsewhere the process peak since start is the
best there is; the job runs in a fresh process, so it is still the job's.
"""

from __future__ import annotations

import os
import sys

_STATUS = "/proc/self/status"


def _status_kib(field: str) -> int | None:
    try:
        with open(_STATUS, encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def current_rss_bytes() -> int:
    kib = _status_kib("VmRSS")
    if kib is not None:
        return kib * 1024
    import psutil

    return int(psutil.Process().memory_info().rss)


def reset_peak() -> bool:
    """Reset the high-water mark to the current RSS. False where the OS cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        with open(f"/proc/{os.getpid()}/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def peak_rss_bytes() -> int:
    """The kernel's high-water mark of resident memory (since start, or the last reset)."""
    kib = _status_kib("VmHWM")
    if kib is not None:
        return kib * 1024
    if sys.platform == "win32":
        import psutil

        return int(psutil.Process().memory_info().peak_wset)
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if sys.platform == "darwin" else int(peak) * 1024  # macOS: bytes
