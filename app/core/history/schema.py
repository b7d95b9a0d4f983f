"""The history database's schema and its migrations.

``PRAGMA user_version`` holds the schema version. Opening a database applies the missing
migrations, in order, in one ``BEGIN IMMEDIATE`` transaction (another process opening it at the
same moment waits, then finds it up to date); a failure rolls all of them back.

Versions:

1. ``runs``: one row per stored run: its kind (bench, study, transfer), title, start and end
   (ISO 8601, UTC), when it was stored, the machine (host name, CPU model), what ran (JSON
   lists of cipher ids and input labels), where it came from (``here`` or ``imported``),
   whether it was cancelled, the CipherBench version, a fingerprint (SHA-256 of the document,
   so the same file is not imported twice) and the document: the run's JSON export without
   anything secret (:mod:`app.core.history.redact`).
2. ``measurements``: one row per job and direction (encrypt, decrypt, or the whole transfer):
   cipher, library, key size, input label and size, median seconds and MB/s; indexed by
   cipher, for trends across runs without reading the documents. Filled from the documents of
   the runs already stored.
3. ``runs`` admits the kind ``sweep``.
4. ``runs`` admits any kind: the kinds are rows of :mod:`app.core.kinds.table`, not a CHECK list.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache


class NewerSchema(Exception):
    """The database was written by a newer CipherBench; this one can only read it."""

    def __init__(self, version: int) -> None:
        super().__init__(f"schema version {version}")
        self.version = version


class NotAHistory(Exception):
    """An SQLite database that is not a CipherBench history (someone else's file)."""


def damaged(reason: str) -> sqlite3.DatabaseError:
    """An error the opening treats as damage (SQLITE_CORRUPT): the file is set aside and a new
    history started, as for a file SQLite itself finds malformed."""
    exc = sqlite3.DatabaseError(reason)
    exc.sqlite_errorcode = 11  # SQLITE_CORRUPT
    return exc


@dataclass(frozen=True)
class Migration:
    version: int  # the schema version after it
    what: str
    apply: Callable[[sqlite3.Connection], None]
    tables: tuple[str, ...] = ()  # the tables it creates: missing, the file is damaged


# The tables as every migration so far makes them: a later migration that changes one writes
# its own text rather than editing these (a migration stays what it was).
_RUNS = """CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT {kind},
    title TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    hostname TEXT,
    cpu_model TEXT,
    ciphers TEXT NOT NULL,
    inputs TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('here', 'imported')),
    cancelled INTEGER NOT NULL DEFAULT 0,
    cipherbench_version TEXT,
    fingerprint TEXT NOT NULL UNIQUE,
    document TEXT NOT NULL
)"""
_MEASUREMENTS = """CREATE TABLE measurements (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    direction TEXT NOT NULL,
    cipher TEXT NOT NULL,
    library TEXT,
    key_bits INTEGER,
    input_label TEXT NOT NULL,
    input_bytes INTEGER NOT NULL,
    median_s REAL,
    throughput_mb_s REAL,
    PRIMARY KEY (run_id, position, direction)
)"""


def _v1_runs(conn: sqlite3.Connection) -> None:
    conn.execute(_RUNS.format(kind="NOT NULL CHECK (kind IN ('bench', 'study', 'transfer'))"))
    conn.execute("CREATE INDEX runs_by_start ON runs (started_at)")


def _v2_measurements(conn: sqlite3.Connection) -> None:
    conn.execute(_MEASUREMENTS)
    conn.execute("CREATE INDEX measurements_by_cipher ON measurements (cipher, library)")
    # The runs stored under version 1, from their documents (SQLite's JSON functions, so this
    # migration stays what it was whatever the Python code becomes).
    conn.execute(
        """INSERT INTO measurements
        SELECT runs.id, CAST(job.key AS INTEGER), dir.value,
               json_extract(job.value, '$.cipher'), json_extract(job.value, '$.library'),
               json_extract(job.value, '$.key_bits'), json_extract(job.value, '$.input_label'),
               json_extract(job.value, '$.input_bytes'),
               json_extract(job.value, '$.' || dir.value || '.median_s'),
               json_extract(job.value, '$.' || dir.value || '.throughput_mb_s')
        FROM runs, json_each(runs.document, '$.results') AS job,
             json_each('["encrypt", "decrypt"]') AS dir
        WHERE runs.kind = 'bench' OR (runs.kind = 'study'
              AND json_extract(runs.document, '$.workload') IS NOT 'transfer')"""
    )
    conn.execute(
        """INSERT INTO measurements
        SELECT runs.id, CAST(job.key AS INTEGER), 'transfer',
               json_extract(job.value, '$.cipher'), json_extract(job.value, '$.library'), NULL,
               json_extract(job.value, '$.input'), json_extract(job.value, '$.input_bytes'),
               json_extract(job.value, '$.total_seconds.median_s'),
               json_extract(job.value, '$.throughput_mb_s')
        FROM runs, json_each(runs.document, '$.results') AS job
        WHERE runs.kind = 'transfer' OR (runs.kind = 'study'
              AND json_extract(runs.document, '$.workload') IS 'transfer')"""
    )


def _v3_sweep_kind(conn: sqlite3.Connection) -> None:
    """Admit the kind 'sweep' (message-length sweeps and hardware ladders)."""
    _rebuild_runs(conn, "NOT NULL CHECK (kind IN ('bench', 'study', 'transfer', 'sweep'))")


def _v4_any_kind(conn: sqlite3.Connection) -> None:
    """A kind is data (the kinds' table, :mod:`app.core.kinds.table`), not a list in the
    schema: any kind's runs are stored without a migration."""
    _rebuild_runs(conn, "NOT NULL")


def _rebuild_runs(conn: sqlite3.Connection, kind_column: str) -> None:
    """``runs`` made again with ``kind TEXT <kind_column>``. SQLite cannot change a CHECK
    constraint, so ``runs`` is rebuilt; its child table is set aside first, as dropping
    ``runs`` would delete its rows by cascade, then restored, and the id sequence kept (a
    deleted run's id is never given again)."""
    (seq,) = conn.execute(
        "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'runs'), 0)"
    ).fetchone()
    conn.execute("CREATE TEMP TABLE measurements_v2 AS SELECT * FROM measurements")
    conn.execute("DROP TABLE measurements")
    conn.execute("ALTER TABLE runs RENAME TO runs_v2")
    conn.execute("DROP INDEX runs_by_start")
    conn.execute(_RUNS.format(kind=kind_column))
    conn.execute("INSERT INTO runs SELECT * FROM runs_v2")
    conn.execute("DROP TABLE runs_v2")
    conn.execute("CREATE INDEX runs_by_start ON runs (started_at)")
    conn.execute("DELETE FROM sqlite_sequence WHERE name IN ('runs', 'runs_v2')")
    conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('runs', ?)", (seq,))
    conn.execute(_MEASUREMENTS)
    conn.execute("CREATE INDEX measurements_by_cipher ON measurements (cipher, library)")
    conn.execute("INSERT INTO measurements SELECT * FROM temp.measurements_v2")
    conn.execute("DROP TABLE temp.measurements_v2")


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "runs", _v1_runs, ("runs",)),
    Migration(2, "measurements per job and direction", _v2_measurements, ("measurements",)),
    Migration(3, "the kind 'sweep'", _v3_sweep_kind),
    Migration(4, "any kind", _v4_any_kind),
)
SCHEMA_VERSION = MIGRATIONS[-1].version


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Bring ``conn``'s database (autocommit mode) to :data:`SCHEMA_VERSION`; returns the
    version it had. Raises :class:`NewerSchema` for a database of a newer CipherBench,
    :class:`NotAHistory` for another program's database, ``sqlite3.DatabaseError`` for a file
    that is not a database or is damaged."""
    found = check_version(conn)
    if found == SCHEMA_VERSION:
        return found
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = check_version(conn)  # again, under the lock: another process may have won
        for migration in MIGRATIONS:
            if migration.version > found:
                migration.apply(conn)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return found


def check_version(conn: sqlite3.Connection) -> int:
    """The schema version; :class:`NewerSchema` or :class:`NotAHistory` when it is not one
    this CipherBench may change, and :func:`damaged` when no CipherBench wrote it: a negative
    version, or a version whose tables are missing. Opened as it is, such a file failed every
    time ("table runs already exists"); set aside, the history works again."""
    # One statement, so one snapshot: read apart, another process's first migration could
    # commit in between (version 0, then its tables) and make a new history look foreign.
    version, names = conn.execute(
        "SELECT (SELECT user_version FROM pragma_user_version), "
        "(SELECT json_group_array(name) FROM sqlite_master WHERE type = 'table')"
    ).fetchone()
    version, tables = int(version), set(json.loads(names))
    if version > SCHEMA_VERSION:
        raise NewerSchema(version)
    ours = {t for m in MIGRATIONS for t in m.tables} | {"sqlite_sequence"}  # AUTOINCREMENT's
    if tables and (version == 0 or ("runs" not in tables and tables - ours)):
        raise NotAHistory()  # another program's tables: left as they are
    if version < 0:
        raise damaged(f"impossible schema version {version}")
    missing = [t for m in MIGRATIONS if m.version <= version for t in m.tables if t not in tables]
    if missing:
        raise damaged(f"schema version {version} without its table {missing[0]}")
    if version == SCHEMA_VERSION:
        for table, columns in _columns().items():
            have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            lost = [c for c in columns if c not in have]
            if lost:
                raise damaged(f"table {table} without its column {lost[0]}")
    return version


@cache
def _columns() -> dict[str, tuple[str, ...]]:
    """Each table's columns in a history of :data:`SCHEMA_VERSION`, as the migrations make
    them (built once, in memory)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for migration in MIGRATIONS:
            migration.apply(conn)
        tables = [t for m in MIGRATIONS for t in m.tables]
        return {t: tuple(r[1] for r in conn.execute(f"PRAGMA table_info({t})")) for t in tables}
    finally:
        conn.close()
