"""Transfer ends run as threads of the test's process: the real loopback sockets, framing,
ciphers, checks and reports, without two interpreters' start (about 0.3 s of CPU a transfer).
For tests of what is done with transfers (reports, widths, history); the tests of the
processes themselves (a killed end, a cancel, Ctrl-C, a peer that never answers) run them for
real. The numbers are not a real transfer's: both ends share this process's CPU and memory."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection

import pytest

from app.core.transfer import endpoints, runner


class _Thread:
    """What the supervisor reads of an end's process: its pid (this process) and whether it
    still runs."""

    def __init__(self, thread: threading.Thread) -> None:
        self.pid = os.getpid()
        self._thread = thread

    def is_alive(self) -> bool:
        return self._thread.is_alive()


class ThreadEnd:
    """:class:`app.core.transfer.runner._End` as a thread: the same target, the same pipe."""

    def __init__(self, role: str, target: Callable[[Connection], None]) -> None:
        self.role = role
        self.conn, self._theirs = multiprocessing.Pipe()
        thread = threading.Thread(target=target, args=(self._theirs,), name=role, daemon=True)
        thread.start()
        self.child = _Thread(thread)
        self._thread = thread

    def death(self) -> str:
        return f"the {self.role} thread ended without a reply"

    def stop(self) -> None:
        """Ask the end to stop once its run is over, then close the pipes (an end that still
        replies then ends its thread: :func:`_reply`)."""
        with contextlib.suppress(OSError):
            self.conn.send(("stop",))
        self._thread.join(60)
        self.conn.close()
        self._theirs.close()


def _reply(conn: Connection, message: tuple[object, ...]) -> None:
    """An end's reply; with nobody to read it, the end's thread ends (a process would exit)."""
    try:
        conn.send(message)
    except OSError:
        raise SystemExit(1) from None


@contextlib.contextmanager
def transfers_here() -> Iterator[None]:
    """While open, every transfer's two ends run as threads of this process."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "_End", ThreadEnd)
        patch.setattr(endpoints, "_reply", _reply)
        yield
