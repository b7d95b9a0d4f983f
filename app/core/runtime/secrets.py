"""A process that holds a password or a key leaves no copy of its memory behind.

A core dump (SIGQUIT, a crash) is a file of the process's memory: a password read by
``decrypt --password-env`` was found in one. :func:`hold_secrets` turns core dumps off for
this process (``RLIMIT_CORE`` 0) and, on Linux, makes it non-dumpable (``PR_SET_DUMPABLE`` 0):
no core file even where a core pattern pipes to a handler, and no other process of the same
user may attach a debugger or read its memory. Where the system has neither, nothing changes.
"""

from __future__ import annotations

import contextlib
import sys

_PR_SET_DUMPABLE = 4


def hold_secrets() -> None:
    """Keep this process's memory out of core files and debuggers from now on."""
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
