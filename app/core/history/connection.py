"""Opening the history database safely, whatever state the file is in.

* Several processes (windows, command lines) may write at once: WAL journal (readers never
  block the writer), a 30 s busy timeout, and every write in a ``BEGIN IMMEDIATE`` transaction.
* A file that is not a database, or a damaged one (``PRAGMA quick_check``), is set aside as
  ``<name>.corrupt-<date>`` and a new, empty history started; the warning says where it went.
* A database of a newer CipherBench (a higher schema version) opens read-only, with a warning.
* Another program's SQLite database is never touched: ``UserError``.
* Anything else that stops the opening (permissions, a full disk, a folder in the way) is a
  ``UserError`` in one sentence.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from app.core.errors import UserError
from app.core.history.schema import (
    SCHEMA_VERSION,
    NewerSchema,
    NotAHistory,
    check_version,
    migrate,
)

# A write holds the lock for milliseconds; a slow or busy machine may make another writer wait
# seconds (4 writers x 20 runs at once on a throttled VM exceeded 5 s once). Waiting is better
# than losing the run to "database is locked".
BUSY_TIMEOUT_S = 30.0
_CORRUPT_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)


@dataclass
class Opened:
    conn: sqlite3.Connection
    read_only: bool
    warning: str | None


def is_corruption(exc: sqlite3.Error) -> bool:
    """True when ``exc`` says the file is damaged or not a database (not busy, not denied)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _CORRUPT_CODES
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def open_database(path: Path) -> Opened:
    """Open (creating or upgrading) the history at ``path``; see the module for the faults."""
    _prepare(path)
    try:
        return Opened(_open_writable_when_free(path), read_only=False, warning=None)
    except NewerSchema as exc:
        conn = _connect(path, read_only=True)
        return Opened(
            conn,
            read_only=True,
            warning=f"the history {path} was written by a newer CipherBench (schema version "
            f"{exc.version}, this one knows up to {SCHEMA_VERSION}); it is open read-only: "
            "nothing is stored, changed or deleted",
        )
    except NotAHistory:
        raise UserError(
            f"{path} is an SQLite database but not a CipherBench history; choose another file"
        ) from None
    except sqlite3.DatabaseError as exc:
        if not is_corruption(exc):
            raise UserError(f"cannot open the history {path}: {exc}") from None
        reason = str(exc)
    aside = set_aside(path)
    try:
        conn = _open_writable(path)
    except (sqlite3.Error, NewerSchema, NotAHistory) as exc:
        raise UserError(f"cannot start a new history at {path}: {exc}") from None
    return Opened(
        conn,
        read_only=False,
        warning=f"the history {path} was damaged ({reason}); it was set aside as {aside.name} "
        "and a new, empty history started",
    )


def _prepare(path: Path) -> None:
    """The folder exists (made private), and a new database file is readable by its owner
    only: it names the files benchmarked."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if path.is_dir():
            raise UserError(f"cannot open the history {path}: it is a folder")
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
    except OSError as exc:
        raise UserError(f"cannot open the history {path}: {exc.strerror or exc}") from None


def _connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    uri = f"file:{quote(str(path))}" + ("?mode=ro" if read_only else "")
    try:
        conn = sqlite3.connect(
            uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as exc:
        raise UserError(f"cannot open the history {path}: {exc}") from None
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _open_writable_when_free(path: Path) -> sqlite3.Connection:
    """:func:`_open_writable`, tried again while another process holds the lock. Switching to
    WAL needs the file to itself for a moment, and SQLite answers "database is locked" at once
    to a process that would otherwise wait in a deadlock, whatever the busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    delay = 0.01
    while True:
        try:
            return _open_writable(path)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc).lower() or time.monotonic() > deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.5)


def _open_writable(path: Path) -> sqlite3.Connection:
    conn = _connect(path)
    try:
        _check_integrity(conn)
        check_version(conn)  # before any change: another program's file stays as it was
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":  # e.g. a file system without shared memory
            conn.execute("PRAGMA journal_mode = DELETE")
        # WAL with NORMAL: a power cut may lose the last run stored, never corrupt the file.
        conn.execute("PRAGMA synchronous = NORMAL")
        migrate(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _check_integrity(conn: sqlite3.Connection) -> None:
    """Raise ``sqlite3.DatabaseError`` (SQLITE_CORRUPT) unless the file is a sound database.
    ``quick_check`` reads every page: about 1 ms per MB here."""
    row = conn.execute("PRAGMA quick_check(1)").fetchone()
    if row is None or row[0] != "ok":
        exc = sqlite3.DatabaseError(f"integrity check: {row[0] if row else 'no answer'}")
        exc.sqlite_errorcode = 11
        raise exc


def set_aside(path: Path) -> Path:
    """Rename the damaged ``path`` (and its WAL file) to ``<name>.corrupt-<date>``; returns the
    new path. Raises ``UserError`` when it cannot be moved."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        os.replace(path, aside)
    except OSError as exc:
        raise UserError(
            f"the history {path} is damaged and cannot be set aside: {exc.strerror or exc}"
        ) from None
    wal = path.with_name(path.name + "-wal")
    with contextlib.suppress(OSError):
        if wal.exists():
            os.replace(wal, aside.with_name(aside.name + "-wal"))
    with contextlib.suppress(OSError):
        path.with_name(path.name + "-shm").unlink(missing_ok=True)
    return aside
