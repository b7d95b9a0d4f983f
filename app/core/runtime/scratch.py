"""Temporary files, owned by the process that supervises the work, never by a worker.

A benchmark in stream mode writes a ciphertext and a decrypted copy of the input; generated
inputs, the window's kept ciphertexts and previewed plaintexts are files too. All of them live
in one folder per process, ``<tmp>/cipherbench-<pid>-<random>/``, created on first use with mode
0700 (only the user can read the plaintext copies). The supervising process removes each piece
when its work ends, whatever happened to the worker (finished, failed, cancelled, killed), and
the whole folder when it exits (atexit; the command line and the window turn SIGTERM and
SIGHUP into an orderly exit, so that runs too).

A SIGKILL of the supervisor (or the out-of-memory killer) runs no ``atexit``: for that, a
*janitor* process starts before the folder is created and waits on a pipe only its owner holds.
The kernel closes the pipe however the owner ends; the janitor then lets the owner's workers
die (they die with their supervisor) and deletes the folder. Only a power cut, or a kill of the
janitor too, leaves the folder behind. Its name carries the owner's process id, so the next
start (:func:`remove_stale`) deletes folders whose owner is gone, along with the
``cipherbench-job-*`` / ``-input-*`` files of versions before this scheme.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing as mp
import os
import re
import secrets
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from app.core.runtime.termination import name_this_process, start_deaf_to_ctrl_c

PREFIX = "cipherbench-"
_OWNED = re.compile(r"^cipherbench-(\d+)-[A-Za-z0-9_]+$")
# What versions before this module left in the temp folder, owned by no one we can ask.
_LEGACY = re.compile(r"^cipherbench-(job|input|kept|plain)-")

_lock = threading.Lock()
_root: Path | None = None
_janitor: tuple[Any, Connection] | None = None  # (process, the end of the pipe we hold)
JANITOR_GRACE_S = 0.2  # the owner's workers die with it (PR_SET_PDEATHSIG); then the folder


def root() -> Path:
    """This process's private scratch folder (created on first use, removed at exit)."""
    global _root
    with _lock:
        if _root is None or not _root.is_dir():
            _stop_janitor()  # the folder it watched is gone
            _root = _make_watched_root()
            atexit.register(remove_root)
        return _root


def _make_watched_root() -> Path:
    """Name the folder, start its janitor, and only then create it: a SIGKILL at any instant
    leaves either no folder or a folder with a janitor watching it."""
    for _ in range(100):
        folder = Path(tempfile.gettempdir()) / f"{PREFIX}{os.getpid()}-{secrets.token_hex(6)}"
        _start_janitor(folder)
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:  # someone else's name: this janitor must not delete it
            _stop_janitor()
            continue
        return folder
    raise FileExistsError(f"no free scratch folder name in {tempfile.gettempdir()}")


def _start_janitor(folder: Path) -> None:
    """Start the process that deletes ``folder`` once this one is gone, however it ends. A
    worker (daemonic: it may have no children) needs none: its supervisor cleans up after it."""
    global _janitor
    if mp.current_process().daemon:
        return
    ctx = mp.get_context("spawn")
    theirs, ours = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_janitor_main, args=(theirs, str(folder)), name="cipherbench-janitor", daemon=True
    )
    try:
        start_deaf_to_ctrl_c(proc)
    except OSError:  # no process to spare: the next start's remove_stale() is the fallback
        ours.close()
        return
    finally:
        theirs.close()
    _janitor = (proc, ours)


JANITOR_NAME = "cb-janitor"  # its name in `ps -e` and psutil (Linux)


def janitor_pid() -> int | None:
    """The process id of this process's janitor, if one runs."""
    return _janitor[0].pid if _janitor is not None else None


def _janitor_main(conn: Connection, folder: str) -> None:
    name_this_process(JANITOR_NAME)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        conn.recv()  # the owner says it removed the folder itself
        return
    except (EOFError, OSError):  # the owner is gone without a word
        pass
    time.sleep(JANITOR_GRACE_S)
    shutil.rmtree(folder, ignore_errors=True)


def _stop_janitor() -> None:
    """The owner removed the folder itself: let the janitor go (it finds nothing to delete)."""
    global _janitor
    if _janitor is not None:
        proc, ours = _janitor
        _janitor = None
        with contextlib.suppress(OSError):
            ours.send("removed")
        ours.close()
        proc.join(2.0)


def make_dir(prefix: str) -> str:
    """A new empty folder inside :func:`root`; the caller removes it with :func:`remove`."""
    return tempfile.mkdtemp(prefix=prefix, dir=root())


def remove(path: str | os.PathLike[str]) -> None:
    """Delete a file or folder made here; missing is fine."""
    p = Path(path)
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


@contextlib.contextmanager
def scratch_dir(prefix: str) -> Iterator[str]:
    """A folder inside :func:`root` for the duration of a ``with`` block, removed however the
    block ends (including ``KeyboardInterrupt`` and the signals the front-ends translate)."""
    path = make_dir(prefix)
    try:
        yield path
    finally:
        remove(path)


def remove_root() -> None:
    """Delete this process's scratch folder and everything in it."""
    global _root
    with _lock:
        if _root is not None:
            shutil.rmtree(_root, ignore_errors=True)
            _root = None
        _stop_janitor()


def _owner_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    import psutil  # here: every fresh worker imports this module, and none of them needs it

    try:
        return psutil.pid_exists(pid)
    except (OSError, psutil.Error):
        return True  # when in doubt, leave it


def remove_owned_by(pid: int, directory: str | None = None) -> None:
    """Delete the scratch folder of process ``pid`` (a child that was killed or exited: its
    ``atexit`` may never have run). This user's folders only."""
    folder = Path(directory or tempfile.gettempdir())
    uid = os.getuid() if hasattr(os, "getuid") else None
    for entry in folder.glob(f"{PREFIX}{pid}-*"):
        owned = _OWNED.match(entry.name)
        with contextlib.suppress(OSError):
            if (
                owned
                and int(owned.group(1)) == pid
                and (uid is None or entry.lstat().st_uid == uid)
            ):
                remove(entry)


def remove_stale(directory: str | None = None) -> list[str]:
    """Delete the scratch left by CipherBench processes that no longer run (a crash, SIGKILL);
    returns what was removed. Other users' entries and living processes' folders stay."""
    folder = Path(directory or tempfile.gettempdir())
    removed: list[str] = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    uid = os.getuid() if hasattr(os, "getuid") else None
    for entry in entries:
        name = entry.name
        owned = _OWNED.match(name)
        if not owned and not _LEGACY.match(name):
            continue
        if owned and _owner_alive(int(owned.group(1))):
            continue
        try:
            st = entry.lstat()
        except OSError:
            continue
        if uid is not None and st.st_uid != uid:
            continue
        remove(entry)
        removed.append(str(entry))
    return removed
