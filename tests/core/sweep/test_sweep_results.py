"""Summaries, the ladder's verdicts, the exports and the history of sweeps."""

from __future__ import annotations

import csv
import json
import re
import sqlite3

import pytest
from openpyxl import load_workbook

from app.core.errors import UserError
from app.core.history import schema
from app.core.history.compare import compare_runs
from app.core.history.store import History
from app.core.kinds import formats
from app.core.sweep.report import ladder_steps, ladder_verdicts, length_label, ns_text, number
from app.core.sweep.results import SweepResult, sweep_document
from tests.core.sweep.factories import entry, point, sweep_result


def test_a_point_summarises_every_round_and_estimates_cycles_from_the_clock() -> None:
    p = point("encrypt", 1000, 500.0)
    assert p.median_ns == pytest.approx(500.0) and len(p.round_medians_ns) == 2
    assert p.mb_s == pytest.approx(2000.0)  # 1000 bytes in 0.5 us
    assert p.ns_per_byte == pytest.approx(0.5)
    assert p.cycles_per_byte(2600.0) == pytest.approx(0.5 * 2.6)
    assert p.cycles_per_byte(None) is None
    counted = type(p)(**{**p.__dict__, "rounds_cycles": ((1234.0, 1300.0, 1250.0),)})
    assert counted.cycles_per_byte(2600.0) == pytest.approx(1.25)  # the counter wins


def test_the_fixed_cost_and_key_setup_come_from_their_own_points() -> None:
    e = entry(ns_per_byte=0.1, fixed_ns=800.0)
    assert e.fixed_cost_ns() == pytest.approx(800.0, rel=0.01)
    assert e.key_setup_ns == pytest.approx(1300.0)
    assert "estimate: time x 2,600 MHz" in e.cycles_source


def test_ladder_verdicts_say_when_a_switch_did_not_switch() -> None:
    on = entry(ns_per_byte=0.1)
    off = entry(ns_per_byte=3.0, aes_instructions=False)
    pure = entry("aes-128-ctr", "pyaes", ns_per_byte=1500.0, lengths=(16, 16384))
    worked = sweep_result(on, off, pure, kind="ladder", title="aes-128-gcm")
    factors = [s.slower_than_first for s in ladder_steps(worked)]
    assert factors[0] is None and factors[1] == pytest.approx(30, rel=0.01)
    assert factors[2] == pytest.approx(15000, rel=0.01)
    assert any(
        "x slower with the AES instructions off (the switch worked)" in v
        for v in ladder_verdicts(worked)
    )
    assert any("Pure Python is the slowest step" in v for v in ladder_verdicts(worked))
    same = sweep_result(on, entry(ns_per_byte=0.11, aes_instructions=False), kind="ladder")
    assert "could not switch the AES instructions off" in ladder_verdicts(same)[0]


def test_texts_use_readable_units() -> None:
    assert [length_label(n) for n in (16, 1350, 4096, 1 << 20)] == ["16 B", "1350 B", "4 KiB",
                                                                   "1 MiB"]  # fmt: skip
    assert [ns_text(x) for x in (812.0, 1330.0, 2.5e6)] == ["812 ns", "1.33 µs", "2.50 ms"]
    assert number(12345.6) == "12,346" and number(0.1234) == "0.123"


@pytest.mark.parametrize("suffix", [".json", ".csv", ".xlsx", ".html"])
def test_every_export_writes_the_figures(tmp_path, suffix) -> None:
    result = sweep_result(entry(), entry("chacha20-poly1305", ns_per_byte=0.3))
    path = formats.save(result, tmp_path / f"s{suffix}")
    if suffix == ".json":
        back = SweepResult.from_dict(json.loads(path.read_text()))
        assert back == result
    elif suffix == ".csv":
        with path.open() as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 2 * 7 and rows[0]["operation"] == "key setup"
        row = next(r for r in rows if r["operation"] == "encrypt" and r["message_bytes"] == "1350")
        assert float(row["mb_s"]) == pytest.approx(1350 / (800 + 135) * 1e3)
    elif suffix == ".xlsx":
        wb = load_workbook(path)
        assert wb.sheetnames == ["Curves", "Points", "Notes", "Environment"]
        (chart,) = wb["Curves"]._charts
        assert chart.x_axis.scaling.logBase == 10 and chart.y_axis.scaling.logBase == 10
        assert len(chart.series) == 2
    else:
        html = path.read_text()
        assert html.count("<svg") == 1 and "Cycles per byte (estimated) (log scale)" in html
        assert "chacha20-poly1305 [cryptography]" in html
        for table in re.findall(r"<table>(.*?)</table>", html, re.S):  # a header per column
            head, *rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
            assert all(row.count("<td") == head.count("<th>") for row in rows), head


def test_sweeps_are_stored_in_the_history_and_read_back(tmp_path) -> None:
    result = sweep_result()
    with History.open(tmp_path / "h.sqlite3") as h:
        run_id = h.record(result)
        (summary,) = h.list_runs(kind="sweep")
        assert summary.title == "sweep: aes-128-gcm"
        assert summary.inputs == ("16 B-1 MiB messages",)
        with pytest.raises(UserError, match="not compared yet"):
            compare_runs(h.load(run_id), h.load(run_id))
        assert h.get(run_id) == SweepResult.from_dict(sweep_document(result))
        rows = h._conn.execute("SELECT direction, input_bytes FROM measurements").fetchall()
    assert sorted(rows) == sorted(
        (d, n) for d in ("decrypt", "encrypt") for n in (16, 1350, 1 << 20)
    )


def test_the_version_3_migration_keeps_rows_and_the_id_sequence() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    schema._v1_runs(conn)
    schema._v2_measurements(conn)
    values = "'bench','t','a','b','c',NULL,NULL,'[]','[]','here',0,NULL,?,'{}'"
    for i in (1, 2, 3):
        conn.execute(f"INSERT INTO runs VALUES ({i}, {values})", (f"f{i}",))
        conn.execute(
            f"INSERT INTO measurements VALUES ({i}, 0, 'encrypt', 'x', NULL, NULL, 'in', 1, 1, 1)"
        )
    conn.execute("DELETE FROM runs WHERE id = 3")  # cascades to its measurement
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE runs SET kind = 'sweep' WHERE id = 1")
    conn.execute("BEGIN")
    schema._v3_sweep_kind(conn)
    conn.execute("COMMIT")
    assert conn.execute("SELECT id FROM runs").fetchall() == [(1,), (2,)]
    assert conn.execute("SELECT run_id FROM measurements").fetchall() == [(1,), (2,)]
    conn.execute("UPDATE runs SET kind = 'sweep' WHERE id = 1")
    conn.execute(f"INSERT INTO runs VALUES (NULL, {values})", ("f4",))
    assert conn.execute("SELECT max(id) FROM runs").fetchone() == (4,)  # 3 is never given again
    conn.execute("DELETE FROM runs WHERE id = 2")
    assert conn.execute("SELECT run_id FROM measurements").fetchall() == [(1,)]  # still cascades


def test_the_method_says_how_many_slices_a_point_was_timed_in_when_it_was() -> None:
    from dataclasses import replace

    from app.core.sweep.report import method_text

    old = sweep_result()  # stored before slices: no "passes" option
    assert "slices" not in method_text(old)
    new = replace(old, options={**old.options, "passes": 5})
    assert "each point timed in 5 slices spread over its round" in method_text(new)
