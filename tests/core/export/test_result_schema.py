"""The one result schema, ``verified`` counted rather than assumed, and JSON that loads back."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import pytest
from hostile import small_job, small_run
from openpyxl import load_workbook

from app.cli.report import format_results
from app.core.bench.results import JobResult, MonitorSample, RunResult
from app.core.errors import UserError
from app.core.export import schema
from app.core.export.csv_export import CSV_COLUMNS, write_csv
from app.core.export.json_export import read_json, read_run, write_json
from app.core.export.xlsx_export import RESULT_COLUMNS, write_xlsx
from app.core.runtime.envelope import EntryFailure


def _full_run() -> RunResult:
    job = small_job(
        warnings=("encrypt: unstable samples",),
        notes=("ECB leaks patterns",),
        monitor=(MonitorSample(0.05, 100.0, 60_000_000), MonitorSample(0.1, 98.5, 61_000_000)),
        chunk_bytes=4096,
        data_mode="stream",
    )
    other = small_job("other.bin", samples=5, peak_rss_bytes=None, baseline_rss_bytes=None)
    return dataclasses.replace(
        small_run(job, other), failures=(EntryFailure("bf-ecb", "pyaes", "not offered"),)
    )


def test_every_export_takes_its_columns_from_the_schema() -> None:
    keys = [f.key for f in schema.FIELDS]
    assert len(set(keys)) == len(keys)
    assert list(CSV_COLUMNS) == keys
    assert [(c.key, c.header, c.number_format) for c in RESULT_COLUMNS[1:]] == [
        (f.key, f.header, f.number_format) for f in schema.FIELDS
    ]
    row = schema.job_row(small_job())
    assert row["enc_median_s"] == small_job().encrypt.median_s
    assert row["repetitions"] == 3 and row["verified_round_trips"] == 4


def test_every_field_header_names_its_unit() -> None:
    for f in schema.FIELDS:
        if f.unit:
            assert f.header.endswith(")") and f.unit.split()[0] in f.header, f


def test_verified_is_counted_and_can_be_false(tmp_path: Path) -> None:
    checked, unchecked = small_job(), small_job("unchecked.bin", verified_round_trips=0)
    assert checked.verified and not unchecked.verified
    run = small_run(checked, unchecked)
    write_json(run, tmp_path / "r.json")
    doc = read_json(tmp_path / "r.json")
    assert [r["verified"] for r in doc["results"]] == [True, False]
    assert [r["verified_round_trips"] for r in doc["results"]] == [4, 0]
    write_csv(run, tmp_path / "r.csv")
    with open(tmp_path / "r.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["verified"], r["verified_round_trips"]) for r in rows] == [
        ("true", "4"),
        ("false", "0"),
    ]
    write_xlsx(run, tmp_path / "r.xlsx")
    ws = load_workbook(tmp_path / "r.xlsx")["Results"]
    col = [c.value for c in ws[1]].index("Verified") + 1
    assert [ws.cell(r, col).value for r in (2, 3)] == [True, False]
    table = format_results(run).splitlines()
    assert [line.split()[-1] for line in table if line.startswith("CIPHER")] == ["OK", "OK"]
    assert [line.split()[-1] for line in table if line.startswith("aes-128-ctr")] == [
        "yes",
        "NO",
    ]


def test_json_loads_back_as_the_run_it_was_written_from(tmp_path: Path) -> None:
    run = _full_run()
    write_json(run, tmp_path / "r.json")
    back = read_run(tmp_path / "r.json")
    assert back == run
    assert isinstance(back.results[0].encrypt.samples_s, tuple)
    assert back.results[0].monitor == run.results[0].monitor
    assert back.to_dict() == run.to_dict()


def test_statistics_are_derived_again_from_the_samples_on_load() -> None:
    """As pyperf does: a stored median, spread or throughput that disagrees with the raw
    samples (an edited or damaged file) is never believed."""
    run = small_run(small_job(samples=5))
    doc = json.loads(json.dumps(run.to_dict()))
    encrypt = doc["results"][0]["encrypt"]
    encrypt.update(median_s=42.0, iqr_s=-1.0, throughput_mb_s=1e9, min_s=0.0)
    back = RunResult.from_dict(doc).results[0].encrypt
    assert back == run.results[0].encrypt
    assert back.median_s == pytest.approx(0.00102) and back.throughput_mb_s < 10
    del encrypt["samples_s"]
    with pytest.raises(KeyError):
        RunResult.from_dict(doc)


def test_the_tool_that_made_a_run_is_typed_and_loads_back_whole() -> None:
    doc = small_run().to_dict()
    doc["tool"] = {"name": "CipherBench", "version": "9.9", "build": "nightly"}  # a newer key
    run = RunResult.from_dict(json.loads(json.dumps(doc)))
    assert (run.tool.name, run.tool.version) == ("CipherBench", "9.9")
    assert run.to_dict()["tool"] == doc["tool"]


def test_run_from_dict_of_an_empty_cancelled_run() -> None:
    empty = RunResult((), (), {}, {}, "a", "b", cancelled=True)
    assert RunResult.from_dict(empty.to_dict()) == empty


def test_read_run_rejects_a_malformed_result(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_json(small_run(), path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["results"][0]["encrypt"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(UserError, match="malformed result"):
        read_run(path)


def test_a_result_written_before_the_count_reads_back() -> None:
    record = small_job().to_dict()
    del record["verified_round_trips"]
    assert JobResult.from_dict(record) == dataclasses.replace(small_job(), verified_round_trips=1)
    record["verified"] = False
    assert not JobResult.from_dict(record).verified
