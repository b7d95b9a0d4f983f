"""Temporary files, owned by the process that supervises the work, never by a worker.

A benchmark in stream mode writes a ciphertext and a decrypted copy of the input; generated
inputs, the window's kept ciphertexts and previewed plaintexts are files too. All of them live
in one folder per process, ``<tmp>/cipherbench-<pid>-<random>/``, created on first use with mode
0700 (only the user can read the plaintext copies). The supervising process removes each piece
when its work ends, whatever happened to the worker (finished, failed, cancelled, killed), and
the whole folder when it exits (atexit; the command line and the window turn SIGTERM and
SIGHUP into an orderly exit, so that runs too).

Only SIGKILL of the supervisor, or a power cut, can leave the folder behind. Its name carries
the owner's process id, so the next start (:func:`remove_stale`) deletes folders whose owner is
gone, along with the ``cipherbench-job-*`` / ``-input-*`` files of versions before this scheme.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import psutil

PREFIX = "cipherbench-"
_OWNED = re.compile(r"^cipherbench-(\d+)-[A-Za-z0-9_]+$")
# What versions before this module left in the temp folder, owned by no one we can ask.
_LEGACY = re.compile(r"^cipherbench-(job|input|kept|plain)-")

_lock = threading.Lock()
_root: Path | None = None


def root() -> Path:
    """This process's private scratch folder (created on first use, removed at exit)."""
    global _root
    with _lock:
        if _root is None or not _root.is_dir():
            _root = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))  # mode 0700
            atexit.register(remove_root)
        return _root


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


def _owner_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
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
