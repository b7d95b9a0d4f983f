"""A history whose stored run was damaged (not JSON, not a document, a listing column that is
not a list) still lists, and every command on the damaged run says so in one line, naming the
way out."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

from hostile import assert_one_line_error, run, small_run

from app.core.history.store import History


def test_a_damaged_run_is_one_line_and_the_history_still_lists(
    history_db: Path, tmp_path: Path, capsys
) -> None:
    with History.open() as history:
        first, second, third = (
            history.record(replace(small_run(), started_at=f"2024-01-0{i}T00:00:00+00:00"))
            for i in (1, 2, 3)
        )
    with sqlite3.connect(history_db) as conn:
        conn.execute("UPDATE runs SET document = 'not json' WHERE id = ?", (first,))
        conn.execute("UPDATE runs SET document = '[1, 2]' WHERE id = ?", (second,))
        conn.execute("UPDATE runs SET ciphers = 'oops' WHERE id = ?", (third,))
    conn.close()
    code, out, err = run(capsys, "history", "list")
    assert code == 0 and len(out.strip().splitlines()) >= 3, err
    for argv in (
        ("history", "show", first),
        ("history", "show", second),
        ("history", "export", first, "--out", tmp_path / "x.json"),
        ("history", "compare", first, third),
        ("history", "trend", second),
    ):
        code, _, err = run(capsys, *argv)
        assert_one_line_error(code, err)
        assert "cannot be read back" in err and "history delete" in err
    assert not (tmp_path / "x.json").exists()
