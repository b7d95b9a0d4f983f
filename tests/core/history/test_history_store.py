"""Storing and reading back: each kind of run comes back as the object it was (less the
ciphertext preview), listed with its machine and ciphers; export and import round trip; what
is not a CipherBench export is refused in one sentence; nothing secret is ever stored."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from factories import job_result
from history_factories import PREVIEW, bench_run, study_result, transfer_run, transfer_study

from app.core.errors import UserError
from app.core.export.json_export import write_json
from app.core.history.store import AlreadyStored, History
from app.core.runtime.envelope import EntryFailure
from app.core.study.export import write_study_json
from app.core.transfer.results import transfer_document


@pytest.fixture
def history(tmp_path: Path):
    with History.open(tmp_path / "history.sqlite3") as h:
        yield h


def without_previews(result):
    jobs = tuple(dataclasses.replace(r, ciphertext_preview_hex="") for r in result.results)
    return dataclasses.replace(result, results=jobs)


def test_each_kind_comes_back_as_it_was(history: History) -> None:
    bench, study, transfer = bench_run(), study_result(), transfer_run()
    ids = [history.record(bench), history.record_study(study), history.record_transfer(transfer)]
    assert ids == [1, 2, 3]
    assert history.get(1) == without_previews(bench)
    back = history.get(2)
    assert back.study == study.study and back.results == without_previews(study).results
    assert back.environment == study.environment and back.rounds == 2
    assert [c.comparison for c in back.comparisons] == [c.comparison for c in study.comparisons]
    assert history.get(3) == transfer
    with pytest.raises(TypeError):
        history.record_bench(study)


def test_a_study_of_transfers_is_a_study(history: History) -> None:
    run_id = history.record_study(transfer_study())
    s = history.summary(run_id)
    assert s.kind == "study" and s.ciphers == ("aes-256-gcm", "none")
    assert s.inputs == ("random 200 KB",) and s.title == "study loop"
    back = history.get(run_id)
    assert back == transfer_study()
    rows = history._conn.execute("SELECT direction FROM measurements WHERE run_id = ?", (run_id,))
    assert [r[0] for r in rows] == ["transfer", "transfer"]


def test_the_listing_names_machine_ciphers_and_inputs(history: History) -> None:
    failed = EntryFailure("bf-cbc", "pycryptodome", "boom")
    history.record(bench_run(failures=[failed]))
    history.record(transfer_run())
    history.record(bench_run(started_at="2026-11-04T10:00:00+00:00", cancelled=True))
    bench, transfer, cancelled = history.list_runs()
    assert bench.kind == "bench" and bench.source == "here" and not bench.cancelled
    assert bench.ciphers == ("aes-256-ctr", "bf-cbc") and bench.inputs == ("input.bin",)
    assert bench.cpu_model == "Test CPU 3000" and bench.hostname  # this machine's name
    assert bench.machine == bench.hostname and bench.title == "aes-256-ctr, bf-cbc on input.bin"
    assert bench.started_at == "2026-11-01T10:00:00+00:00" and bench.cipherbench_version
    assert transfer.title == "transfer of random 200 KB: aes-256-gcm, none"
    assert cancelled.cancelled
    assert [s.id for s in history.list_runs(kind="transfer")] == [transfer.id]
    assert history.summary(transfer.id) == transfer
    assert json.loads(json.dumps(bench.to_dict()))["ciphers"] == ["aes-256-ctr", "bf-cbc"]


def test_delete_and_unknown_ids(history: History) -> None:
    run_id = history.record(bench_run())
    history.delete(run_id)
    assert history.count() == 0
    assert history._conn.execute("SELECT count(*) FROM measurements").fetchone()[0] == 0
    for action in (history.get, history.delete, history.summary):
        with pytest.raises(UserError, match=f"there is no run {run_id} in the history"):
            action(run_id)


@pytest.mark.parametrize("make", [bench_run, study_result, transfer_run, transfer_study])
def test_export_then_import_elsewhere_round_trips(tmp_path: Path, history: History, make) -> None:
    run_id = history.record(make())
    out = tmp_path / "run.json"
    assert history.export(run_id, out) == out
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["history"]["id"] == run_id and doc["history"]["hostname"]
    with History.open(tmp_path / "other.sqlite3") as other:
        new_id = other.import_file(out)
        s = other.summary(new_id)
        assert s.source == "imported" and s.hostname == history.summary(run_id).hostname
        assert s.title == history.summary(run_id).title
        assert other.get(new_id) == history.get(run_id)
    with pytest.raises(AlreadyStored, match=f"is already in the history as run {run_id}"):
        history.import_file(out)  # the same run, back where it came from


def test_the_commands_own_json_files_import(tmp_path: Path, history: History) -> None:
    bench, study, transfer = tmp_path / "b.json", tmp_path / "s.json", tmp_path / "t.json"
    write_json(bench_run(), bench)
    write_study_json(study_result(), study)
    transfer.write_text(json.dumps(transfer_document(transfer_run())))
    ids = [history.import_file(p) for p in (bench, study, transfer)]
    kinds = [(s.kind, s.source, s.hostname) for s in history.list_runs()]
    assert kinds == [(kind, "imported", None) for kind in ("bench", "study", "transfer")]
    assert history.get(ids[0]) == without_previews(bench_run())


def test_a_transfer_file_from_before_the_history_imports(tmp_path: Path, history: History):
    """``transfer --out`` files written before runs had start and end times."""
    doc = transfer_document(transfer_run())
    for key in ("started_at", "finished_at", "cancelled"):
        del doc[key]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    s = history.summary(history.import_file(path))
    assert s.started_at == "2026-11-01T10:00:00+00:00"  # the environment's capture time


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b'{"name": "my-package", "version": "1.0"}', "it is not a CipherBench export"),
        (b"[1, 2, 3]", "it is not a CipherBench export"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a JSON file"),
        (b"a,b,c\n1,2,3\n", "not a JSON file"),
        (b'{"format": "cipherbench-results", "version": 9}', "written by a newer CipherBench"),
        (b'{"format": "cipherbench-study", "version": "1"}', "no valid format version"),
        (b'{"format": "cipherbench-results", "version": 1}', "malformed bench result"),
    ],
)
def test_other_files_are_refused_in_one_sentence(
    tmp_path: Path, history: History, content: bytes, said: str
) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(content)
    with pytest.raises(UserError, match=said) as caught:
        history.import_file(path)
    assert str(caught.value).startswith(f"cannot import {path}: ")
    assert "\n" not in str(caught.value)
    assert history.count() == 0


def test_missing_and_folder_imports_are_refused(tmp_path: Path, history: History) -> None:
    with pytest.raises(UserError, match="cannot read"):
        history.import_file(tmp_path / "nope.json")
    with pytest.raises(UserError, match="not a regular file"):
        history.import_file(tmp_path)


def test_export_writes_any_format_of_the_runs_kind(tmp_path: Path, history: History) -> None:
    """.json is the importable export; the other suffixes are the kind's formats (the engine's
    table in app.core.kinds.formats), written from the stored result; others are refused."""
    import csv

    import openpyxl

    run_id = history.record(bench_run())
    xlsx = history.export(run_id, tmp_path / "run.xlsx")
    assert "Results" in openpyxl.load_workbook(xlsx).sheetnames
    with open(history.export(run_id, tmp_path / "run.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["cipher"] for r in rows] == [j.cipher for j in bench_run().results]
    with pytest.raises(UserError, match=r"'\.rtf' is not supported; use \.xlsx, \.csv, \.json"):
        history.export(run_id, tmp_path / "run.rtf")
    assert not (tmp_path / "run.rtf").exists()


def all_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file())


def test_no_ciphertext_key_or_password_is_ever_stored(tmp_path: Path) -> None:
    """Recorded runs drop the ciphertext preview; an imported file's secret-looking entries
    (in the options and the environment, which keep unknown keys) are dropped too."""
    folder = tmp_path / "db"
    with History.open(folder / "history.sqlite3") as h:
        h.record(bench_run())
        h.record(study_result())
        doc = bench_run(
            jobs=[job_result(ciphertext_preview_hex="ab" * 32, input_label="other")]
        ).to_dict()
        doc = {"format": "cipherbench-results", "version": 1, **doc}
        doc["options"]["password"] = "hunter2-hunter2"
        doc["options"]["master_key"] = "00ff" * 16
        doc["environment"]["secret"] = "s3cr3t-value"
        doc["environment"]["api_token"] = "tok-123456"
        imported = tmp_path / "import.json"
        imported.write_text(json.dumps(doc))
        run_id = h.import_file(imported)
        assert "password" not in h.get(run_id).options.extra
        assert h.get(run_id).options.repeat == 3  # what is not secret stays
        assert h.get(run_id).results[0].key_bits == 256
        stored = h._conn.execute("SELECT document FROM runs").fetchall()
        h._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    text = "".join(d for (d,) in stored)
    assert "ciphertext_preview_hex" not in text and "key_setup_s" in text
    raw = all_bytes(folder)
    for secret in (PREVIEW, "ab" * 32, "hunter2", "00ff" * 16, "s3cr3t", "tok-123456"):
        assert secret.encode() not in raw, secret


def test_a_history_path_in_the_environment_is_used(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "deep" / "folder" / "mine.sqlite3"
    monkeypatch.setenv("CIPHERBENCH_HISTORY", str(target))
    with History.open() as h:
        assert h.path == target
        h.record(bench_run())
    assert target.exists() and (target.parent.stat().st_mode & 0o777) == 0o700


def test_storing_a_study_never_bootstraps_and_showing_it_compares_again(
    history: History,
) -> None:
    """The window stores a run while its own analysis runs: storing must not pay a second
    bootstrap. Comparisons computed already are kept; others are derived again when shown."""
    fresh = study_result()
    assert "comparisons" not in fresh.__dict__
    run_id = history.record(fresh)
    assert "comparisons" not in fresh.__dict__  # nothing computed for the history
    doc = _document(history, run_id)
    assert doc["comparisons"] == [] and doc["comparisons_computed"] is False
    shown = history.get(run_id)
    assert shown.comparisons and len(shown.comparisons) == len(study_result().comparisons)
    analysed = study_result(started_at="2026-11-05T10:00:00+00:00")
    _ = analysed.comparisons  # the CLI has printed them: they are stored
    doc = _document(history, history.record(analysed))
    assert doc["comparisons"] and doc["comparisons_computed"] is True


def _document(history: History, run_id: int) -> dict:
    row = history._conn.execute("SELECT document FROM runs WHERE id = ?", (run_id,)).fetchone()
    return json.loads(row[0])
