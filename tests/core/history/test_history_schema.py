"""The schema: a new history is at the newest version; an old one (a version-1 file from a
fixture script) is upgraded in place; a newer one opens read-only; another program's database
is left alone."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from history_factories import bench_run, study_result, transfer_run

from app.core.bench.results import RunResult
from app.core.errors import UserError
from app.core.history import schema
from app.core.history.store import History
from app.core.study.result import StudyResult
from app.core.transfer.results import TransferRun

V1_SCRIPT = Path(__file__).parent / "fixtures" / "history_v1.sql"


def make_v1(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCRIPT.read_text(encoding="utf-8"))
    conn.close()


def measurement_rows(history: History, run_id: int) -> list[tuple]:
    return history._conn.execute(
        "SELECT position, direction, cipher, library, key_bits, input_label, input_bytes,"
        " median_s, throughput_mb_s FROM measurements WHERE run_id = ?"
        " ORDER BY position, direction",
        (run_id,),
    ).fetchall()


def test_a_new_history_is_at_the_newest_version_in_wal_mode(tmp_path: Path) -> None:
    with History.open(tmp_path / "h.sqlite3") as h:
        conn = h._conn
        assert schema.schema_version(conn) == schema.SCHEMA_VERSION == 4
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 30_000
        assert not h.read_only and h.warning is None
    assert (tmp_path / "h.sqlite3").stat().st_mode & 0o077 == 0  # the owner's only


def test_a_version_1_history_is_upgraded_with_its_runs(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    make_v1(path)
    with History.open(path) as h:
        assert schema.schema_version(h._conn) == schema.SCHEMA_VERSION and h.warning is None
        runs = h.list_runs()
        assert [(r.id, r.kind, r.hostname) for r in runs] == [
            (1, "bench", "lab-1"),
            (2, "study", "lab-1"),
            (3, "transfer", "lab-1"),
        ]
        assert isinstance(h.get(1), RunResult)
        assert isinstance(h.get(2), StudyResult)
        assert isinstance(h.get(3), TransferRun)
        # The migration filled the measurements from the documents exactly as storing a run
        # now does.
        migrated = [measurement_rows(h, i) for i in (1, 2, 3)]
    with History.open(tmp_path / "new.sqlite3") as fresh:
        ids = [fresh.record(r) for r in (bench_run(), study_result(), transfer_run())]
        fresh_rows = [measurement_rows(fresh, i) for i in ids]
    # The study's documents were written when its median was of the pooled samples; a study
    # stored now holds its rounds' median (the figure every view prints). The rest is equal.
    assert fresh_rows[0] == migrated[0] and fresh_rows[2] == migrated[2]
    assert [row[:7] for row in fresh_rows[1]] == [row[:7] for row in migrated[1]]
    assert len(migrated[0]) == 2 and len(migrated[1]) == 8 and len(migrated[2]) == 2


def test_a_failing_migration_changes_nothing(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "old.sqlite3"
    make_v1(path)

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half_done (x)")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(
        schema, "MIGRATIONS", (schema.MIGRATIONS[0], schema.Migration(2, "broken", broken))
    )
    with pytest.raises(UserError, match="cannot open the history"):
        History.open(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "half_done" not in tables and "measurements" not in tables
    conn.close()


def test_a_newer_history_opens_read_only_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with History.open(path) as h:
        run_id = h.record(bench_run())
        h._conn.execute("PRAGMA user_version = 7")
    with History.open(path) as h:
        assert h.read_only
        assert "newer CipherBench" in h.warning and "read-only" in h.warning
        assert "schema version 7" in h.warning
        assert [r.id for r in h.list_runs()] == [run_id]  # still readable
        assert isinstance(h.get(run_id), RunResult)
        with pytest.raises(UserError, match="read-only"):
            h.record(bench_run(started_at="2026-11-05T10:00:00+00:00"))
        with pytest.raises(UserError, match="read-only"):
            h.delete(run_id)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 7  # untouched
    assert conn.execute("SELECT count(*) FROM runs").fetchone()[0] == 1
    conn.close()


def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "contacts.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Ada')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(UserError, match="not a CipherBench history"):
        History.open(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["contacts.db"]


def test_a_version_1_transfer_study_migrates_as_transfers(tmp_path: Path) -> None:
    """A study of loopback transfers (seed 004) has transfer results, not cipher jobs."""
    path = tmp_path / "old.sqlite3"
    make_v1(path)
    conn = sqlite3.connect(path)
    transfers = json.loads(conn.execute("SELECT document FROM runs WHERE id = 3").fetchone()[0])
    study = {"format": "cipherbench-study", "workload": "transfer", "results": transfers["results"]}
    conn.execute(
        "INSERT INTO runs SELECT 4, 'study', 'study t004', started_at, finished_at, recorded_at,"
        " hostname, cpu_model, ciphers, inputs, source, cancelled, cipherbench_version, 'f4', ?"
        " FROM runs WHERE id = 3",
        (json.dumps(study),),
    )
    conn.commit()
    conn.close()
    with History.open(path) as h:
        assert schema.schema_version(h._conn) == schema.SCHEMA_VERSION and h.warning is None
        rows = measurement_rows(h, 4)
    assert [(r[1], r[2], r[5]) for r in rows] == [
        ("transfer", "aes-256-gcm", "random 200 KB"),
        ("transfer", "none", "random 200 KB"),
    ]


def test_any_kind_is_stored_without_a_schema_change(tmp_path: Path) -> None:
    """Version 4: the kind is data; a row of a kind added later (here one the schema never
    named) is stored and kept as it is, and the older kinds' runs keep their ids."""
    path = tmp_path / "old.sqlite3"
    make_v1(path)
    with History.open(path) as h:
        h._conn.execute(
            "INSERT INTO runs SELECT 9, 'keysetup', title, started_at, finished_at, recorded_at,"
            " hostname, cpu_model, ciphers, inputs, source, cancelled, cipherbench_version,"
            " 'f9', document FROM runs WHERE id = 1"
        )
        kinds = h._conn.execute("SELECT id, kind FROM runs ORDER BY id").fetchall()
        assert kinds == [(1, "bench"), (2, "study"), (3, "transfer"), (9, "keysetup")]
        check = h._conn.execute("SELECT sql FROM sqlite_master WHERE name = 'runs'").fetchone()
        assert "CHECK (kind" not in check[0]
