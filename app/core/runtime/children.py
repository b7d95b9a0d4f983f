"""One way to start, watch and stop a child process: the benchmark's workers, the transfer's
two ends and the Argon2id deriver all go through :class:`Child`.

Modelled on pyperf (``_manager.spawn_worker`` starts a worker with a pipe and its own arguments;
``_utils.popen_killer`` kills and *waits for* it whatever happens). What each child gets:

- **spawn, never fork**: the caller may be a Qt process with threads;
- **deaf to Ctrl-C from its first instruction**: a terminal's Ctrl-C and hang-up reach the whole
  process group, and a child still importing would print a partial ``multiprocessing/spawn.py``
  traceback. It starts with SIGINT blocked
  (:func:`~app.core.runtime.termination.start_deaf_to_ctrl_c`),
  then ignores SIGINT and SIGHUP; the supervisor alone decides when it stops;
- **no orphan**: it dies with its supervisor, even a SIGKILLed one (Linux);
- **one pipe**: the target is called as ``target(conn, *args)``;
- **no secret in its environment**: a child inherits ``os.environ`` as it is when it starts, so
  the variables named by :func:`hide_from_children` (a password passed as ``--password-env
  VAR``) are taken out of it while a child starts, and put back for this process.

And what the supervisor gets: :meth:`Child.exit_code` *waits* before it reads (a child's pipe
closes before the kernel has reaped it, so the code read at that moment is ``None``), and
:meth:`Child.stop` kills, reaps, closes, and removes the child's own scratch folder (the
folder of a killed process is never removed by its ``atexit``).
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import threading
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any

from app.core.runtime import scratch
from app.core.runtime.termination import die_with_parent, start_deaf_to_ctrl_c

_CTX = mp.get_context("spawn")  # never fork: the caller may be a Qt process with threads
REAP_WAIT_S = 2.0  # how long a child that closed its pipe gets to be reaped
_hidden: set[str] = set()
_environ_lock = threading.Lock()


def hide_from_children(name: str) -> None:
    """Keep the environment variable ``name`` (it holds a secret) out of every child started
    from now on, including multiprocessing's resource tracker."""
    _hidden.add(name)


@contextlib.contextmanager
def _hidden_variables_removed() -> Iterator[None]:
    with _environ_lock:
        saved = {name: os.environ.pop(name) for name in list(_hidden) if name in os.environ}
        try:
            yield
        finally:
            os.environ.update(saved)


def _child_entry(
    target: Callable[..., None], conn: Connection, parent_pid: int, args: tuple[Any, ...]
) -> None:
    """The first thing a child runs: stay deaf to the terminal, die with the parent, work."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    die_with_parent(parent_pid)
    target(conn, *args)


def signal_name(code: int | None) -> str | None:
    """``"SIGKILL"`` for an exit code of -9 (killed by a signal), None for a normal exit."""
    if code is None or code >= 0:
        return None
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


class Child:
    """A started child process and the supervisor's end of its pipe (``conn``).

    ``duplex=False`` gives a one-way pipe: the child sends, the supervisor receives."""

    def __init__(
        self,
        target: Callable[..., None],
        *args: Any,
        name: str,
        duplex: bool = True,
    ) -> None:
        if duplex:
            self.conn, theirs = _CTX.Pipe()
        else:
            self.conn, theirs = _CTX.Pipe(duplex=False)
        self.proc: Any = _CTX.Process(
            target=_child_entry,
            args=(target, theirs, os.getpid(), args),
            name=name,
            daemon=True,
        )
        try:
            with _hidden_variables_removed():
                start_deaf_to_ctrl_c(self.proc)
        finally:
            theirs.close()
        self.pid: int = self.proc.pid or 0  # set once started
        self._code: int | None = None
        self._stopped = False

    def is_alive(self) -> bool:
        return not self._stopped and bool(self.proc.is_alive())

    def exit_code(self, wait_s: float = REAP_WAIT_S) -> int | None:
        """The child's exit code once it has ended, after waiting up to ``wait_s`` for it to be
        reaped (negative: killed by that signal). None only if it is still running."""
        if not self._stopped:
            self.proc.join(wait_s)
            self._code = self.proc.exitcode
        return self._code

    def stop(self) -> int | None:
        """End the child now (SIGKILL: no child holds anything worth a clean exit; its files
        are its supervisor's), reap it, clean up after it, and return its exit code. Safe to
        call twice."""
        if self._stopped:
            return self._code
        self.conn.close()
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(REAP_WAIT_S)
        self._code = self.proc.exitcode
        if self._code is not None:
            self.proc.close()
            scratch.remove_owned_by(self.pid)
        self._stopped = True
        return self._code
