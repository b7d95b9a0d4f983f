"""``bench --processes N``: the aggregate reaches every export, empty for a job without it."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import openpyxl
from hostile import small_job, small_run

from app.core.bench.results import Aggregate
from app.core.kinds.formats import save as export

KEYS = ("aggregate_processes", "aggregate_enc_throughput_mb_s", "aggregate_dec_throughput_mb_s")


def _run():  # type: ignore[no-untyped-def]
    with_copies = dataclasses.replace(small_job("a.bin"), aggregate=Aggregate(2, 1234.5, 1100.25))
    return small_run(with_copies, small_job("b.bin"))


def test_csv_and_json_carry_the_aggregate(tmp_path: Path) -> None:
    export(_run(), tmp_path / "r.csv")
    with open(tmp_path / "r.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [tuple(r[k] for k in KEYS) for r in rows] == [("2", "1234.5", "1100.25"), ("", "", "")]
    export(_run(), tmp_path / "r.json")
    doc = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert doc["results"][0]["aggregate"] == {
        "processes": 2,
        "encrypt_throughput_mb_s": 1234.5,
        "decrypt_throughput_mb_s": 1100.25,
    }
    assert doc["results"][1]["aggregate"] is None
    assert "timed_span" not in doc["results"][0]


def test_xlsx_carries_the_aggregate(tmp_path: Path) -> None:
    export(_run(), tmp_path / "r.xlsx")
    rows = list(openpyxl.load_workbook(tmp_path / "r.xlsx")["Results"].iter_rows(values_only=True))
    header = list(rows[0])
    i = header.index("Processes at once")
    assert header[i + 1 : i + 3] == [
        "Aggregate enc. throughput (MB/s)",
        "Aggregate dec. throughput (MB/s)",
    ]
    assert rows[1][i : i + 3] == (2, 1234.5, 1100.25)
    assert rows[2][i : i + 3] == (None, None, None)
