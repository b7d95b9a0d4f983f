"""The run history: every finished benchmark, study and transfer, in one SQLite file.

    with History.open() as history:                 # $CIPHERBENCH_HISTORY or the data folder
        run_id = history.record(run)                # RunResult, StudyResult or TransferRun
        for s in history.list_runs(): ...           # RunSummary, oldest first
        stored = history.load(run_id)               # StoredRun(summary, result)
        history.export(run_id, "run.json"); history.import_file("other-machine.json")
        history.delete(run_id)

Each run is stored as its JSON export (raw samples, options, environment), without keys,
passwords or ciphertext (:mod:`app.core.history.redact`), plus indexed columns for listing
(:mod:`app.core.history.schema`). A history that could not be opened writable says why in
:attr:`History.warning`; every failure is a ``UserError`` in one sentence. One instance may be
used from one thread at a time; open one per thread or process (SQLite does the locking).
"""

from __future__ import annotations

import hashlib
import json
import platform
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.bench.results import RunResult
from app.core.errors import UserError
from app.core.history import documents
from app.core.history.connection import is_corruption, is_full_disk, open_database
from app.core.history.documents import Result
from app.core.history.exchange import read_export, write_export
from app.core.history.limits import MAX_INTEGER, MIN_INTEGER
from app.core.history.location import history_path
from app.core.history.records import SOURCES, RunSummary, StoredRun
from app.core.history.redact import redacted
from app.core.runtime.envelope import timestamp

if TYPE_CHECKING:
    from app.core.study.result import StudyResult
    from app.core.transfer.results import TransferRun

# The runs table names its listing columns as RunSummary names its fields.
_SUMMARY_FIELDS = tuple(f.name for f in fields(RunSummary))
_SUMMARY_COLUMNS = ", ".join(_SUMMARY_FIELDS)


class AlreadyStored(UserError):
    """The run is in the history already (the same document: an export imported again);
    ``run_id`` is its id there."""

    run_id: int = 0

    @classmethod
    def of(cls, run_id: int, what: str = "this run") -> AlreadyStored:
        exc = cls(f"{what} is already in the history as run {run_id}")
        exc.run_id = run_id
        return exc


class History:
    """An open history database. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self, path: Path, conn: sqlite3.Connection, read_only: bool, warning: str | None):
        self.path = path
        self.read_only = read_only
        self.warning = warning  # one sentence when opened read-only or after setting aside
        self._conn = conn

    @classmethod
    def open(cls, path: str | PathLike[str] | None = None) -> History:
        """Open the history at ``path`` (default :func:`history_path`), creating or upgrading
        it. A damaged file is set aside and a newer one opened read-only (see ``warning``)."""
        where = Path(path) if path is not None else history_path()
        opened = open_database(where)
        return cls(where, opened.conn, opened.read_only, opened.warning)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- storing ---------------------------------------------------------------------------

    def record(self, result: Result) -> int:
        """Store a finished (or cancelled: marked so) run made on this machine; its id."""
        kind = documents.kind_of(result)
        doc = redacted(documents.document_of(result))
        return self._insert(kind, doc, result, source="here", hostname=platform.node() or None)

    def record_bench(self, run: RunResult) -> int:
        """:meth:`record` for a ``RunResult``."""
        return self._record_kind("bench", run)

    def record_study(self, result: StudyResult) -> int:
        """:meth:`record` for a ``StudyResult``."""
        return self._record_kind("study", result)

    def record_transfer(self, run: TransferRun) -> int:
        """:meth:`record` for a ``TransferRun``."""
        return self._record_kind("transfer", run)

    def _record_kind(self, kind: str, result: Result) -> int:
        if documents.kind_of(result) != kind:
            raise TypeError(f"record_{kind} takes a {kind} result, not {type(result).__name__}")
        return self.record(result)

    def import_file(self, path: str | PathLike[str]) -> int:
        """Store the run in a CipherBench JSON export (``bench``, ``study`` or ``transfer
        --out``, or :meth:`export`); its new id. ``UserError`` for any other file, and for a
        run already in the history."""
        kind, doc, result, meta = read_export(Path(path))
        hostname = meta.get("hostname") if isinstance(meta.get("hostname"), str) else None
        try:
            return self._insert(kind, redacted(doc), result, source="imported", hostname=hostname)
        except AlreadyStored as exc:
            raise AlreadyStored.of(exc.run_id, what=str(path)) from None

    def _insert(
        self, kind: str, doc: dict[str, Any], result: Result, *, source: str, hostname: str | None
    ) -> int:
        assert source in SOURCES
        info = documents.describe(kind, doc, result)
        text = json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        canonical = json.dumps(doc, sort_keys=True, separators=(",", ":"), allow_nan=False)
        fingerprint = hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()
        with self._writing() as conn:
            known = conn.execute(
                "SELECT id FROM runs WHERE fingerprint = ?", (fingerprint,)
            ).fetchone()
            if known:
                raise AlreadyStored.of(int(known[0]))
            cur = conn.execute(
                "INSERT INTO runs (kind, title, started_at, finished_at, recorded_at, hostname,"
                " cpu_model, ciphers, inputs, source, cancelled, cipherbench_version,"
                " fingerprint, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    info.title,
                    info.started_at,
                    info.finished_at,
                    timestamp(),
                    hostname,
                    info.cpu_model,
                    json.dumps(info.ciphers, ensure_ascii=False),
                    json.dumps(info.inputs, ensure_ascii=False),
                    source,
                    int(info.cancelled),
                    info.cipherbench_version,
                    fingerprint,
                    text,
                ),
            )
            run_id = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT INTO measurements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(run_id, *row) for row in documents.measurements(result)],
            )
        return run_id

    # --- reading ---------------------------------------------------------------------------

    def list_runs(self, *, kind: str | None = None) -> tuple[RunSummary, ...]:
        """Every stored run (or those of one ``kind``), oldest first."""
        where, args = ("WHERE kind = ?", (kind,)) if kind else ("", ())
        rows = self._read(f"SELECT {_SUMMARY_COLUMNS} FROM runs {where} ORDER BY id", args)
        return tuple(_summary(row) for row in rows)

    def count(self) -> int:
        return int(self._read("SELECT count(*) FROM runs", ())[0][0])

    def summary(self, run_id: int) -> RunSummary:
        """The listing of run ``run_id``; ``UserError`` when there is none."""
        rows = self._read(f"SELECT {_SUMMARY_COLUMNS} FROM runs WHERE id = ?", _id_arg(run_id))
        if not rows:
            raise _no_run(run_id)
        return _summary(rows[0])

    def load(self, run_id: int) -> StoredRun:
        """Run ``run_id`` with its result rebuilt (table and charts as they were)."""
        summary = self.summary(run_id)
        doc = self._document(run_id)
        try:
            result = documents.result_of(summary.kind, doc)
        except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            raise UserError(
                f"run {run_id} in the history cannot be read back ({type(exc).__name__}: {exc})"
            ) from None
        return StoredRun(summary, result)

    def get(self, run_id: int) -> Result:
        """The stored run rebuilt as the result object it was recorded from."""
        return self.load(run_id).result

    def _document(self, run_id: int) -> dict[str, Any]:
        rows = self._read("SELECT document FROM runs WHERE id = ?", _id_arg(run_id))
        if not rows:
            raise _no_run(run_id)
        try:
            doc = json.loads(rows[0][0])
            if not isinstance(doc, dict):
                raise TypeError(f"a JSON {type(doc).__name__}, not a document")
        except (TypeError, ValueError) as exc:
            raise UserError(
                f"run {run_id} in the history cannot be read back (its stored document is "
                f"damaged: {exc}); `history delete {run_id}` removes it"
            ) from None
        return doc

    # --- changing --------------------------------------------------------------------------

    def delete(self, run_id: int) -> None:
        """Remove run ``run_id`` (and its measurements); ``UserError`` when there is none."""
        args = _id_arg(run_id)
        with self._writing() as conn:
            if conn.execute("DELETE FROM runs WHERE id = ?", args).rowcount == 0:
                raise _no_run(run_id)

    def export(self, run_id: int, path: str | PathLike[str]) -> Path:
        """Write run ``run_id`` to ``path``, atomically; returns the path written. ``.json``:
        its kind's JSON export plus a ``history`` section (id, host name, title, source), which
        :meth:`import_file` reads back, here or on another machine; any other suffix: a format
        of its kind (:mod:`app.core.kinds.formats`: .xlsx, .csv, and .html for a study)."""
        from app.core.kinds import formats

        summary = self.summary(run_id)
        if Path(path).suffix.lower() == ".json":
            return write_export(Path(path), summary, self._document(run_id))
        result = self.load(run_id).result
        formats.check_output(formats.kind_of(result), path)  # a bad name before reading more
        return formats.save(result, path)

    # --- plumbing --------------------------------------------------------------------------

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``: waits up to the busy
        timeout for another writer); committed at the end, rolled back on any error."""
        if self.read_only:
            raise UserError(self.warning or f"the history {self.path} is read-only")
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise self._failure(exc) from None

    def _read(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        try:
            return self._conn.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise self._failure(exc) from None

    def _failure(self, exc: sqlite3.Error) -> UserError:
        if is_full_disk(exc, self.path.parent):
            return UserError(
                f"the disk holding the history {self.path} is full ({exc}); free some space"
            )
        if is_corruption(exc):
            return UserError(
                f"the history {self.path} is damaged ({exc}); it will be set aside when it is "
                "next opened"
            )
        return UserError(f"the history {self.path} cannot be used: {exc}")


def _id_arg(run_id: int) -> tuple[int]:
    """The query's arguments for ``run_id``; :func:`_no_run` for an id beyond SQLite's
    integers, which no run has (the driver would refuse it with an OverflowError)."""
    if not MIN_INTEGER <= run_id <= MAX_INTEGER:
        raise _no_run(run_id)
    return (run_id,)


def _no_run(run_id: int) -> UserError:
    try:
        shown = str(run_id)
    except ValueError:  # more digits than Python converts
        shown = "with so large an id"
    return UserError(f"there is no run {shown} in the history")


def _summary(row: tuple[Any, ...]) -> RunSummary:
    """The :class:`RunSummary` of a row of :data:`_SUMMARY_COLUMNS`."""
    values = dict(zip(_SUMMARY_FIELDS, row, strict=True))
    values["id"] = int(values["id"])
    for name in ("ciphers", "inputs"):  # JSON lists; a damaged one lists as "?"
        try:
            listed = json.loads(values[name])
        except (TypeError, ValueError):
            listed = ["?"]
        values[name] = tuple(str(x) for x in listed) if isinstance(listed, list) else ("?",)
    values["cancelled"] = bool(values["cancelled"])
    return RunSummary(**values)
