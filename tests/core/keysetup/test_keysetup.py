"""The trial kind made from its package alone: key setup. Its row is read by the kinds' table,
its document prints in every format, the history stores and shows it, its command runs real
rounds in fresh workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from app.core.keysetup.result import KeySetupEntry, KeySetupResult, key_setup_document
from app.core.kinds import formats, table
from tests.core.history.history_factories import stored_and_shown


def made(rounds: int = 6) -> KeySetupResult:
    entries = (
        KeySetupEntry(
            "aes-128-gcm", "cryptography", 128, tuple((1000.0 + r,) for r in range(rounds))
        ),
        KeySetupEntry("aes-128-gcm", "pycryptodome", 128, tuple((250.0,) for _ in range(rounds))),
    )
    return KeySetupResult(
        results=entries, failures=(), rounds=rounds, environment={},
        started_at="2026-11-28T07:00:00+00:00", finished_at="2026-11-28T07:01:00+00:00",
    )  # fmt: skip


def test_its_row_gives_it_every_format_of_its_document(tmp_path: Path) -> None:
    result = made()
    kind = table.kind_of(result)
    assert kind.name == "keysetup" and kind.stored and kind.defined() is not None
    assert set(kind.files.suffixes) == {".html", ".csv", ".json", ".md", ".tex", ".adoc", ".xlsx"}
    for suffix in kind.files.suffixes:
        formats.save(result, tmp_path / f"k{suffix}")
        # CSV and JSON keep full precision (JSON: the raw samples, in ns)
        if suffix != ".xlsx":  # the workbook: tests/core/test_one_number.py
            assert "1.00" in (tmp_path / f"k{suffix}").read_text() or suffix in (".csv", ".json")
    doc = key_setup_document(result)
    (row, _wrapper) = doc.tables[0].rows
    assert row[3].text() == "1.00 [1.00, 1.01]"  # type: ignore[union-attr]
    assert "wrapper alone" in doc.tables[0].notes[0]


def test_the_history_stores_shows_and_exports_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert "1.00 [1.00, 1.01]" in stored_and_shown(made(), capsys)


def test_its_command_runs_rounds_in_fresh_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "k.json"
    code = main(
        ["keysetup", "--cipher", "aes-128-ctr", "--library", "cryptography", "--rounds", "2",
         "--quiet", "--no-history", "--out", str(out)]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "aes-128-ctr" in printed and "[n/a]" in printed  # 2 rounds: no 95 % interval
    (entry,) = json.loads(out.read_text())["results"]  # everything, raw samples included
    assert len(entry["rounds_ns"]) == 2 and 0 < min(entry["rounds_ns"][0]) < 1e6
    assert main(["history", "import", str(out)]) == 0  # the export reads back elsewhere


def test_an_entry_stopped_after_some_rounds_says_so() -> None:
    from dataclasses import replace

    from app.core.runtime.envelope import EntryFailure

    result = replace(made(), failures=(EntryFailure("aes-128-gcm", "pyaes", "killed"),))
    stopped = replace(result, failures=(EntryFailure("aes-128-gcm", "cryptography", "killed"),))
    assert "Not measured: aes-128-gcm [pyaes]" in key_setup_document(result).tables[0].notes[-1]
    assert "Stopped after 6 round(s)" in key_setup_document(stopped).tables[0].notes[-1]
