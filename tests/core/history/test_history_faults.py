"""Faults: a file that is not a database or is damaged is set aside and a new history started
(never a traceback); a folder in the way is one sentence; several processes writing at once
leave a sound database with every run."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from history_factories import bench_run

from app.core.errors import UserError
from app.core.history import schema
from app.core.history.store import History

ROOT = Path(__file__).resolve().parents[3]


def aside_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if ".corrupt-" in p.name)


def _one_run_then(path: Path, sql: str) -> int:
    """A history at ``path`` with one run, then ``sql`` run on its database directly, as
    another program or a damaged disk would change it: the run's id."""
    with History.open(path) as h:
        run_id = h.record(bench_run())
        h._conn.execute(sql)
    return run_id


def test_a_file_that_is_not_a_database_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    junk = os.urandom(3000)
    path.write_bytes(junk)
    with History.open(path) as h:
        assert not h.read_only
        assert "was damaged" in h.warning and "set aside as history.sqlite3.corrupt-" in h.warning
        assert h.list_runs() == ()
        run_id = h.record(bench_run())
    (aside,) = aside_files(tmp_path)
    assert aside.read_bytes() == junk  # kept as it was, for whoever wants to look
    with History.open(path) as h:  # the new history is sound and kept
        assert h.warning is None and [r.id for r in h.list_runs()] == [run_id]


def damaged_history(tmp_path: Path) -> Path:
    path = tmp_path / "history.sqlite3"
    with History.open(path) as h:
        for i in range(6):
            h.record(bench_run(started_at=f"2026-11-01T10:00:0{i}+00:00"))
    # Closing the last connection checkpoints the WAL into the file; then a page is garbage.
    assert not path.with_name(path.name + "-wal").exists()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 4 * page
    data[2 * page : 3 * page] = os.urandom(page)
    path.write_bytes(bytes(data))
    return path


def test_a_damaged_history_is_set_aside_with_a_clear_message(tmp_path: Path) -> None:
    path = damaged_history(tmp_path)
    with History.open(path) as h:
        assert "was damaged" in h.warning and "a new, empty history started" in h.warning
        assert h.count() == 0
    assert len(aside_files(tmp_path)) == 1


def test_a_truncated_history_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with History.open(path) as h:
        for i in range(6):
            h.record(bench_run(started_at=f"2026-11-01T10:00:0{i}+00:00"))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with History.open(path) as h:
        assert "was damaged" in h.warning and h.count() == 0


def test_an_empty_file_is_a_new_history(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"")
    with History.open(path) as h:
        assert h.warning is None and h.count() == 0
    assert aside_files(tmp_path) == []


def test_a_folder_in_the_way_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "history.sqlite3").mkdir()
    with pytest.raises(UserError, match="it is a folder"):
        History.open(tmp_path / "history.sqlite3")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UserError, match="cannot open the history"):
        History.open(blocker / "history.sqlite3")


WRITER = """
import dataclasses, json, sys, time
from pathlib import Path
from app.core.bench.results import RunResult
from app.core.history.store import History

path, doc_file, writer, count, reopen = sys.argv[1:]
base = RunResult.from_dict(json.loads(Path(doc_file).read_text()))
go = Path(path).with_name("go")
Path(path).with_name(f"ready-{writer}").touch()
while not go.exists():
    time.sleep(0.005)
history = None if reopen == "1" else History.open(path)
for i in range(int(count)):
    run = dataclasses.replace(base, started_at=f"2026-11-01T1{writer}:00:{i:02d}+00:00")
    if history is None:
        with History.open(path) as h:
            h.record(run)
    else:
        history.record(run)
if history is not None:
    history.close()
"""


def test_concurrent_writers_do_not_corrupt_the_history(tmp_path: Path) -> None:
    """4 processes x 20 runs at once on a history none of them has created yet: two keep it
    open, two open it for every run (as the command line does)."""
    path, doc = tmp_path / "history.sqlite3", tmp_path / "run.json"
    doc.write_text(json.dumps(bench_run().to_dict()))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(doc), str(w), "20", str(w % 2)],
            cwd=ROOT,
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(4)
    ]
    deadline = time.monotonic() + 60  # every interpreter started and waits at the line
    while len(list(tmp_path.glob("ready-*"))) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    (tmp_path / "go").touch()
    outcomes = []
    try:
        for p in writers:
            outcomes.append((p.communicate(timeout=120)[1], p.returncode))
    finally:  # a failure must not leave processes (or their pipes) behind
        for p in writers:
            if p.poll() is None:
                p.kill()
                p.communicate()
    for err, code in outcomes:
        assert code == 0, err
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert conn.execute("SELECT count(*) FROM runs").fetchone()[0] == 80
    assert conn.execute("SELECT count(DISTINCT started_at) FROM runs").fetchone()[0] == 80
    assert conn.execute("SELECT count(*) FROM measurements").fetchone()[0] == 160
    assert conn.execute("SELECT min(id), max(id) FROM runs").fetchone() == (1, 80)
    conn.close()
    assert aside_files(tmp_path) == []


@pytest.mark.parametrize("version", [-1, -(2**31)])
def test_an_impossible_schema_version_is_damage_set_aside(tmp_path: Path, version: int) -> None:
    """Opened as it was, such a file failed every time ("table runs already exists")."""
    path = tmp_path / "history.sqlite3"
    _one_run_then(path, f"PRAGMA user_version = {version}")
    with History.open(path) as h:
        assert not h.read_only and h.count() == 0
        assert f"was damaged (impossible schema version {version})" in h.warning
        assert "set aside as history.sqlite3.corrupt-" in h.warning
        run_id = h.record(bench_run())
    with History.open(path) as h:  # the new history is sound and kept
        assert h.warning is None and [r.id for r in h.list_runs()] == [run_id]
    (aside,) = aside_files(tmp_path)
    conn = sqlite3.connect(aside)  # kept as it was
    assert conn.execute("PRAGMA user_version").fetchone()[0] == version
    assert conn.execute("SELECT count(*) FROM runs").fetchone()[0] == 1
    conn.close()


def test_a_version_without_its_tables_is_damage_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    _one_run_then(path, "DROP TABLE measurements")
    with History.open(path) as h:
        assert (
            f"(schema version {schema.SCHEMA_VERSION} without its table measurements)" in h.warning
        )
        assert h.count() == 0
        h.record(bench_run())
    assert len(aside_files(tmp_path)) == 1


@pytest.mark.parametrize("version", [1, 2, -3])
def test_another_programs_database_with_a_version_is_left_alone(
    tmp_path: Path, version: int
) -> None:
    path = tmp_path / "app.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(UserError, match="not a CipherBench history"):
        History.open(path)
    assert path.read_bytes() == before and aside_files(tmp_path) == []


def test_a_version_beyond_any_opens_read_only(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    run_id = _one_run_then(path, f"PRAGMA user_version = {2**31 - 1}")
    with History.open(path) as h:
        assert h.read_only and f"schema version {2**31 - 1}" in h.warning
        assert [r.id for r in h.list_runs()] == [run_id]
    assert aside_files(tmp_path) == []


def test_a_history_missing_a_column_is_damage_set_aside(tmp_path: Path) -> None:
    """Before, every command failed with "no such column: hostname" and nothing was stored."""
    path = tmp_path / "history.sqlite3"
    _one_run_then(path, "ALTER TABLE runs DROP COLUMN hostname")
    with History.open(path) as h:
        assert "was damaged (table runs without its column hostname)" in h.warning
        assert h.count() == 0 and h.record(bench_run()) == 1
    assert len(aside_files(tmp_path)) == 1
