"""A full disk: the history says so (never a bare "disk I/O error") and can still be read.

SQLite cannot grow the WAL's shared-memory index on a full disk, so every opening failed;
now the history opens read-only, with a warning that says the disk is full, and its runs can
be listed, shown and exported. Storing says the disk is full too."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from disk_full import disk_full, needs_rlimit
from history_factories import bench_run

from app.core.errors import UserError
from app.core.history.connection import is_full_disk
from app.core.history.store import History

pytestmark = needs_rlimit
V1_SCRIPT = Path(__file__).parent / "fixtures" / "history_v1.sql"


def stored(path: Path, count: int = 2) -> list[int]:
    with History.open(path) as h:
        return [
            h.record(bench_run(started_at=f"2026-11-01T10:00:0{i}+00:00")) for i in range(count)
        ]


def test_a_history_on_a_full_disk_is_read_only_and_readable(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "history.sqlite3"
    ids = stored(path)
    out = tmp_path / "run.json"
    with disk_full(monkeypatch), History.open(path) as h:
        assert h.read_only
        assert h.warning.startswith(f"the disk holding the history {path} is full (")
        assert "open read-only: nothing is stored, changed or deleted" in h.warning
        assert [r.id for r in h.list_runs()] == ids
        assert h.load(ids[0]).result.started_at == "2026-11-01T10:00:00+00:00"
        h.export(ids[1], out)
        for change in (lambda: h.record(bench_run()), lambda: h.delete(ids[0])):
            with pytest.raises(UserError, match="is full"):
                change()
    assert json.loads(out.read_text())["history"]["id"] == ids[1]
    with History.open(path) as h:  # space again: writable, nothing lost
        assert not h.read_only and h.warning is None and h.count() == 2


def test_a_new_history_on_a_full_disk_is_empty(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "new" / "history.sqlite3"
    with disk_full(monkeypatch), History.open(path) as h:
        assert h.read_only and "is full" in h.warning
        assert h.list_runs() == () and h.count() == 0


def test_a_migration_that_does_not_fit_leaves_a_readable_history(
    tmp_path: Path, monkeypatch
) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCRIPT.read_text(encoding="utf-8"))
    conn.close()
    with disk_full(monkeypatch), History.open(path) as h:
        assert h.read_only and "is full" in h.warning
        assert [r.id for r in h.list_runs()] == [1, 2, 3]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()


def test_runs_not_yet_in_the_file_are_not_hidden(tmp_path: Path, monkeypatch) -> None:
    """A WAL that still holds runs cannot be read without its index: reading the file alone
    would miss them, so the history says the disk is full instead."""
    path = tmp_path / "history.sqlite3"
    with History.open(path) as writer:
        writer.record(bench_run())
        copy = tmp_path / "copy" / "history.sqlite3"  # the files as a crash would leave them
        copy.parent.mkdir()
        shutil.copy(path, copy)
        shutil.copy(path.with_name(path.name + "-wal"), copy.with_name(copy.name + "-wal"))
    assert copy.with_name(copy.name + "-wal").stat().st_size > 0
    with disk_full(monkeypatch), pytest.raises(UserError) as caught:
        History.open(copy)
    assert str(caught.value).startswith(f"the disk holding the history {copy} is full (")
    assert str(caught.value).endswith("; free some space to use the history")


def test_storing_on_a_disk_that_fills_says_it_is_full(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "history.sqlite3"
    stored(path, 1)
    with History.open(path) as h:
        h.list_runs()  # the index made while there was space
        with disk_full(monkeypatch), pytest.raises(UserError) as caught:
            h.record(bench_run(started_at="2026-11-02T10:00:00+00:00"))
        assert str(caught.value) == (
            f"the disk holding the history {path} is full (disk I/O error); free some space"
        )
        assert h.count() == 1


def test_only_a_lack_of_space_is_called_a_full_disk(tmp_path: Path) -> None:
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13  # SQLITE_FULL
    io_error = sqlite3.OperationalError("disk I/O error")
    io_error.sqlite_errorcode = 4874  # SQLITE_IOERR_SHMSIZE
    assert is_full_disk(full, tmp_path)
    assert not is_full_disk(io_error, tmp_path)  # this disk has space: a failing disk, say
    assert not is_full_disk(sqlite3.OperationalError("database is locked"), tmp_path)
