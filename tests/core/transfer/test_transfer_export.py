"""Saving a transfer run (the Transfer window's Export…): JSON that reads back, CSV with one row
per cipher and failures, an Excel workbook with its chart; refused targets in one sentence."""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import openpyxl
import pytest

from app.core.bench.run_info import Environment
from app.core.bench.stats import summarize
from app.core.errors import UserError
from app.core.kinds.formats import save
from app.core.runtime.envelope import NamedFailure
from app.core.transfer.columns import COLUMNS
from app.core.transfer.results import (
    EndSample,
    RunSample,
    TransferResult,
    TransferRun,
)

MIB = 2**20


def _result(cipher: str, library: str | None, seconds: tuple[float, ...]) -> TransferResult:
    def end(wall: float) -> EndSample:
        return EndSample(wall, wall * 0.9, 40 * MIB, 44 * MIB)

    runs = tuple(RunSample(t, end(t), end(t), True) for t in seconds)
    return TransferResult(
        cipher_id=cipher,
        library=library,
        input_label="random 10 MB",
        input_bytes=10_000_000,
        chunk_bytes=MIB,
        chunks=10,
        runs=runs,
        warmups=(),
        timing=summarize(list(seconds), 10_000_000, []),
        warnings=(),
    )


@pytest.fixture
def run() -> TransferRun:
    return TransferRun(
        input_label="random 10 MB",
        input_bytes=10_000_000,
        options={"chunk_bytes": MIB, "repeat": 2, "warmup": 0, "timeout_s": 10.0},
        results=(
            _result("aes-256-gcm", "cryptography", (0.010, 0.012)),
            _result("none", None, (0.005, 0.006)),
        ),
        failures=(NamedFailure("chacha20-poly1305", "the peer did not answer in time"),),
        environment=Environment({"cpu": {"model": "test"}}),
        started_at="2026-11-03T10:00:00+00:00",
        finished_at="2026-11-03T10:00:01+00:00",
        cipherbench_version="test",
    )


def test_json_reads_back(run: TransferRun, tmp_path: Path) -> None:
    path = save(run, tmp_path / "t.JSON")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "cipherbench-transfer" and doc["version"] == 1
    back = TransferRun.from_dict(doc)
    assert [r.cipher_id for r in back.results] == ["aes-256-gcm", "none"]
    assert back.results[0].throughput_mb_s == pytest.approx(10_000_000 / 0.011 / 1e6)
    assert back.failures == run.failures


def test_csv_has_a_row_per_cipher_and_per_failure(run: TransferRun, tmp_path: Path) -> None:
    save(run, tmp_path / "t.csv")
    with open(tmp_path / "t.csv", newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    assert reader.fieldnames == [f.key for f in COLUMNS]
    assert [r["cipher"] for r in rows] == ["aes-256-gcm", "none", "chacha20-poly1305"]
    gcm, plain, failed = rows
    assert float(gcm["median_s"]) == pytest.approx(0.011)
    assert float(gcm["throughput_mib_s"]) == pytest.approx(10_000_000 / 0.011 / MIB)
    assert gcm["verified"] == "true" and gcm["library"] == "cryptography"
    assert int(gcm["sender_peak_above_baseline_bytes"]) == 4 * MIB
    assert float(gcm["receiver_cpu_percent"]) == pytest.approx(90.0)
    assert plain["library"] == ""
    assert failed["warnings"] == "failed: the peer did not answer in time"
    assert failed["throughput_mb_s"] == ""


def test_xlsx_has_results_runs_environment_and_a_chart(run: TransferRun, tmp_path: Path) -> None:
    path = save(run, tmp_path / "t.xlsx")
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Results", "Runs", "Load every 50 ms", "Environment"]
    results = list(book["Results"].iter_rows(values_only=True))
    assert results[0] == tuple(f.header for f in COLUMNS)
    assert [r[0] for r in results[1:]] == ["aes-256-gcm", "none", "chacha20-poly1305"]
    assert len(list(book["Runs"].iter_rows(min_row=2))) == 4
    env = dict(book["Environment"].iter_rows(min_row=2, values_only=True))
    assert env["environment.cpu.model"] == "test" and env["options.repeat"] == 2
    with zipfile.ZipFile(path) as zf:
        assert any(name.startswith("xl/charts/chart") for name in zf.namelist())


def test_refused_targets_are_one_sentence_and_leave_nothing(
    run: TransferRun, tmp_path: Path
) -> None:
    sent = tmp_path / "sent.csv"  # the file the transfer sent: never overwritten
    sent.write_bytes(b"data")
    with pytest.raises(
        UserError, match=r"is not supported; use \.xlsx, \.csv, \.load\.csv, \.json"
    ):
        save(run, tmp_path / "t.rtf")
    with pytest.raises(UserError, match="cannot write"):
        save(run, sent, inputs=[sent])
    (tmp_path / "folder.csv").mkdir()
    with pytest.raises(UserError, match="cannot write"):
        save(run, tmp_path / "folder.csv")
    assert sent.read_bytes() == b"data"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.csv", "sent.csv"]
