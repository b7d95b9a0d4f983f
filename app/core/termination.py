"""SIGTERM and SIGHUP as an orderly stop, so cleanup code runs for them as it does for Ctrl-C.

Python's default for SIGTERM and SIGHUP is to die on the spot: no ``finally``, no ``atexit``,
so a half-written output (``.NAME.xxxx.part``), a worker process and the scratch folder would
stay behind. :func:`install` makes both raise :class:`Terminated` in the main thread instead.
It subclasses ``KeyboardInterrupt`` on purpose: every place that already cancels cleanly on
Ctrl-C (stop the worker, delete the partial file) does the same for a terminate or a hang-up,
and the front-end exits with the usual code, 128 + the signal number.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

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
