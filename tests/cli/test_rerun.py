"""A portable result and `rerun`: an exported study carries its digest, runs again here with
exactly its definition, and is shown beside the original."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from app.cli import main as cli
from app.core.export.digest import ABSENT, CHANGED, INTACT, digest_state
from app.core.history.store import History
from app.core.kinds import formats
from tests.core.history.history_factories import bench_run, study_result

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs")


@pytest.fixture
def exported(tmp_path) -> Path:
    original = study_result()
    # One size, two rounds and no adaptive rounds: eight quick jobs.
    study = replace(original.study, max_rounds=2, sizes=original.study.sizes[:1], data_seed=7)
    path = tmp_path / "study.json"
    formats.save(replace(original, study=study), path)
    return path


def test_an_exported_study_carries_a_digest_that_tells_an_edit(exported) -> None:
    doc = json.loads(exported.read_text())
    assert digest_state(doc) == INTACT
    doc["environment"]["cpu"]["model"] = "Edited CPU"
    assert digest_state(doc) == CHANGED
    del doc["digest"]
    assert digest_state(doc) == ABSENT


def test_rerun_runs_the_same_definition_here_and_shows_both(exported, tmp_path, capsys) -> None:
    again, merged = tmp_path / "again.json", tmp_path / "both.md"
    argv = ["rerun", str(exported), "--save-run", str(again), "--out", str(merged), "--quiet"]
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    before = json.loads(exported.read_text())["study"]
    after = json.loads(again.read_text())["study"]
    assert after == before  # ciphers, sizes, rounds, repetitions, data seed: all of it
    assert after["data_seed"] == 7 and after["rounds"] == 2
    table = merged.read_text()
    # The factory's machine is "Test CPU 3000", so the two column groups are named by CPU.
    header = next(line for line in table.splitlines() if line.startswith("| Entry | Input |"))
    assert header.count("(MB/s)") == 2 and "| Test CPU 3000 (MB/s) |" in header
    assert "aes-256-cbc [pycryptodome] | 2 KB |" in table
    assert "Test CPU 3000 (x)" in out and "CPU: Test CPU 3000" in out
    with History.open() as history:
        assert history.count() == 1  # the new run; the original file is not imported


def test_rerun_warns_about_an_edited_file_and_refuses_what_is_not_a_study(
    exported, tmp_path, capsys
) -> None:
    doc = json.loads(exported.read_text())
    doc["study"]["title"] = "edited by hand"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc))
    assert cli.main(["rerun", str(edited), "--quiet", "--no-history"]) == 0
    assert "was changed after CipherBench wrote it" in capsys.readouterr().err
    bench = tmp_path / "bench.json"
    formats.save(bench_run(), bench)
    for argv, message in (
        (["rerun", str(bench)], "it is a bench run; rerun takes an exported cipher study"),
        (["rerun", str(tmp_path / "missing.json")], "cannot read"),
        (["rerun", str(exported), "--out", str(exported)], "study.json"),
    ):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
