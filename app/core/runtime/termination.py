"""SIGTERM and SIGHUP as an orderly stop, so cleanup code runs for them as it does for Ctrl-C.

Python's default for SIGTERM and SIGHUP is to die on the spot: no ``finally``, no ``atexit``,
so a half-written output (``.NAME.xxxx.part``), a worker process and the scratch folder would
stay behind. :func:`install` makes both raise :class:`Terminated` in the main thread instead.
It subclasses ``KeyboardInterrupt`` on purpose: every place that already cancels cleanly on
Ctrl-C (stop the worker, delete the partial file) does the same for a terminate or a hang-up,
and the front-end exits with the usual code, 128 + the signal number.

Child processes (benchmark workers, the Argon2id deriver, the transfer's two ends) start
through :mod:`app.core.runtime.children`, which uses :func:`die_with_parent` and
:func:`start_deaf_to_ctrl_c`, so the supervisor alone decides when they stop and none outlives
it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
from multiprocessing import resource_tracker
from types import FrameType
from typing import Any

HANDLED = tuple(
    s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None
)


class Terminated(KeyboardInterrupt):
    """The process was asked to stop by ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    @property
    def signal_name(self) -> str:
        return signal.Signals(self.signum).name


def exit_code(exc: KeyboardInterrupt) -> int:
    """130 for Ctrl-C, 128 + N for a :class:`Terminated` by signal N."""
    return exc.exit_code if isinstance(exc, Terminated) else 130


def _raise(signum: int, _frame: FrameType | None) -> None:
    raise Terminated(signum)


def install() -> None:
    """Turn SIGTERM and SIGHUP into :class:`Terminated` (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in HANDLED:
        signal.signal(signum, _raise)


# --- child processes --------------------------------------------------------------------


def die_with_parent(parent_pid: int) -> None:
    """On Linux, have the kernel kill this child process when its supervisor dies (even by
    SIGKILL), so no orphan goes on writing, sending or holding a port."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent_pid:  # the parent died before the line above took effect
        os._exit(1)


def name_this_process(name: str) -> None:
    """Give this process a short name of its own (``ps -e``, psutil's ``name()``; Linux)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(15, name.encode()[:15])  # PR_SET_NAME


def start_deaf_to_ctrl_c(proc: Any) -> None:
    """Start ``proc`` with SIGINT blocked, a mask it inherits: Ctrl-C reaches the whole process
    group, and the child would print a traceback if it came during the child's start-up. The
    parent decides what stops, and only blocks (never ignores) it meanwhile, so a Ctrl-C during
    the start is delivered to it right after."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no process-group SIGINT to fear
        proc.start()
        return
    # Spawning starts multiprocessing's resource tracker once, which unblocks SIGINT after
    # starting itself: start it before blocking.
    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        proc.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
