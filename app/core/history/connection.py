"""Opening the history database safely, whatever state the file is in.

* Several processes (windows, command lines) may write at once: WAL journal (readers never
  block the writer), a 30 s busy timeout, and every write in a ``BEGIN IMMEDIATE`` transaction.
* A file that is not a database, or a damaged one (``PRAGMA quick_check``, or a schema
  version no CipherBench wrote: negative, or without its tables), is set aside as
  ``<name>.corrupt-<date>`` and a new, empty history started; the warning says where it went.
* A database of a newer CipherBench (a higher schema version) opens read-only, with a warning.
* Another program's SQLite database is never touched: ``UserError``.
* On a full disk (SQLITE_FULL, or "disk I/O error" with no space left: SQLite cannot grow the
  WAL's shared-memory file), the history opens read-only, with a warning that says the disk is
  full: the runs can still be listed, shown and exported.
* Anything else that stops the opening (permissions, a folder in the way) is a ``UserError``
  in one sentence.
"""

from __future__ import annotations

import contextlib
import os
import shutil
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
    damaged,
    migrate,
    schema_version,
)
from app.core.runtime.output_checks import protect
from app.core.units import MIB

# A write holds the lock for milliseconds; a slow or busy machine may make another writer wait
# seconds (4 writers x 20 runs at once on a throttled VM exceeded 5 s once). Waiting is better
# than losing the run to "database is locked".
BUSY_TIMEOUT_S = 30.0
_CORRUPT_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)
_FULL_CODE, _IO_ERROR_CODE = 13, 10  # SQLITE_FULL, SQLITE_IOERR
# An I/O error with less than this free is put down to the full disk: a WAL frame is a page
# (4 KiB), the shared-memory index 32 KiB.
LOW_SPACE_BYTES = MIB


@dataclass(frozen=True)
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


def is_full_disk(exc: sqlite3.Error, folder: Path) -> bool:
    """True when ``exc`` comes from a lack of space in ``folder``: SQLITE_FULL ("database or
    disk is full"), or an I/O error while the disk has (almost) no space left. SQLite says
    "disk I/O error" whatever the cause when it cannot grow the WAL's shared-memory file, and
    so every opening of a history on a full disk failed with it."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    text = str(exc).lower()
    if primary == _FULL_CODE or "disk is full" in text:
        return True
    if primary == _IO_ERROR_CODE or "disk i/o error" in text:
        try:
            return shutil.disk_usage(folder).free < LOW_SPACE_BYTES
        except OSError:  # free space unknown: not said to be full
            return False
    return False


def open_database(path: Path) -> Opened:
    """Open (creating or upgrading) the history at ``path``; see the module for the faults."""
    protect(path, "the history database")
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
        raise _not_a_history(path) from None
    except sqlite3.DatabaseError as exc:
        if is_full_disk(exc, path.parent):
            return _open_for_reading(path, exc)
        if not is_corruption(exc):
            raise UserError(f"cannot open the history {path}: {exc}") from None
        reason = str(exc)
    aside = set_aside(path)
    try:
        conn = _open_writable(path)
    except (sqlite3.Error, NewerSchema, NotAHistory) as exc:
        full = isinstance(exc, sqlite3.Error) and is_full_disk(exc, path.parent)
        raise UserError(
            f"cannot start a new history at {path}: {'the disk is full, ' if full else ''}{exc}"
        ) from None
    return Opened(
        conn,
        read_only=False,
        warning=f"the history {path} was damaged ({reason}); it was set aside as {aside.name} "
        "and a new, empty history started",
    )


def _not_a_history(path: Path) -> UserError:
    return UserError(
        f"{path} is an SQLite database but not a CipherBench history; choose another file"
    )


def _open_for_reading(path: Path, exc: sqlite3.Error) -> Opened:
    """The history read-only, to list, show and export its runs, when the disk is too full
    for the writes that opening it for writing needs (the shared-memory index, a migration).
    ``UserError`` when it cannot even be read."""
    full = f"the disk holding the history {path} is full ({exc})"
    try:
        conn = _read_only_connection(path)
        if schema_version(conn) == 0:  # a new file, never written: an empty history
            conn.close()
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            migrate(conn)
    except NotAHistory:
        raise _not_a_history(path) from None
    except sqlite3.Error:
        raise UserError(f"{full}; free some space to use the history") from None
    return Opened(
        conn,
        read_only=True,
        warning=f"{full}; it is open read-only: nothing is stored, changed or deleted until "
        "some space is freed",
    )


def _read_only_connection(path: Path) -> sqlite3.Connection:
    """A connection that writes nothing, its schema version read. ``mode=ro`` still needs the
    WAL's shared-memory index, which a full disk may have no room for; then, when the WAL holds
    nothing (every run is in the database file, as after the last connection closed), the file
    is read as immutable: no index, no lock (so a run another process stores once space is
    freed is not seen). Raises ``sqlite3.Error`` or :class:`NotAHistory`."""
    try:
        return _version_read(_connect(path, read_only=True))
    except sqlite3.Error:
        if _wal_holds_data(path):
            raise  # read without it, the file would miss the runs stored last
    return _version_read(_connect(path, read_only=True, immutable=True))


def _version_read(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn``, once its schema version is read (a newer one is fine: read-only anyway);
    closed when that fails."""
    try:
        check_version(conn)
    except NewerSchema:
        pass
    except BaseException:
        conn.close()
        raise
    return conn


def _wal_holds_data(path: Path) -> bool:
    try:
        return path.with_name(path.name + "-wal").stat().st_size > 0
    except FileNotFoundError:
        return False
    except OSError:  # unknown: assume it does
        return True


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


def _connect(path: Path, *, read_only: bool = False, immutable: bool = False) -> sqlite3.Connection:
    params = [p for p, on in (("mode=ro", read_only), ("immutable=1", immutable)) if on]
    uri = f"file:{quote(str(path))}" + ("?" + "&".join(params) if params else "")
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
        raise damaged(f"integrity check: {row[0] if row else 'no answer'}")


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
