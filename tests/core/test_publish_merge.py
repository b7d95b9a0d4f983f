"""Many machines in one table: one column group per run with its interval, the view normalised
to a reference entry on each machine (round by round), what differs between the machines; the
`merge` command on exported files, and its refusals in one line."""

from __future__ import annotations

import json
import statistics
from dataclasses import replace
from pathlib import Path

import pytest

from app.cli import main as cli
from app.core.errors import UserError
from app.core.history.merging import merge_sources
from app.core.kinds import formats
from app.core.publish.merge import MergeSource, merge_results, source_labels
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.result import StudyResult
from tests.core.history.history_factories import (
    bench_run,
    environment,
    timed_job,
    transfer_run,
)

ROUNDS = 6
SIZE = 1_000_000


def machine_study(cpu: str, speed: float, cryptography: str = "50.0.2") -> StudyResult:
    """Two entries on one 1 MB input, 6 rounds of 3 samples; AES-256 1.4x slower than AES-128
    in every round; the whole machine ``speed`` times faster than the base one."""
    jobs = []
    for cipher, bits, slow in (("aes-128-gcm", 128, 1.0), ("aes-256-gcm", 256, 1.4)):
        samples = [
            slow * (1 + 0.01 * r) * (1 + 0.001 * k) * 1e-3 / speed
            for r in range(ROUNDS)
            for k in range(3)
        ]
        jobs.append(
            timed_job(
                samples,
                rounds=ROUNDS,
                cipher=cipher,
                library="cryptography",
                key_bits=bits,
                mode="GCM",
                input_label="1 MB",
                input_bytes=SIZE,
            )
        )
    study = Study(
        "keys",
        (CipherChoice("aes-128-gcm", "cryptography"), CipherChoice("aes-256-gcm", "cryptography")),
        sizes=(SizeInput("1 MB", SIZE),),
        repeat=3,
        rounds=ROUNDS,
    )
    return StudyResult(
        study=study,
        results=tuple(jobs),
        failures=(),
        environment=environment(cpu_model=cpu, packages={"cryptography": cryptography}),
        rounds=ROUNDS,
        rounds_completed=ROUNDS,
        repeat_per_round=3,
        started_at="2026-11-02T10:00:00+00:00",
        finished_at="2026-11-02T10:01:00+00:00",
    )


MACHINES = (("Workstation", 4.0), ("Laptop", 2.0), ("Phone", 0.5))


def sources() -> list[MergeSource]:
    return [MergeSource(cpu, f"{cpu}.json", machine_study(cpu, speed)) for cpu, speed in MACHINES]


def test_one_column_group_per_machine_each_with_its_interval() -> None:
    merged = merge_results(sources())
    assert merged.labels == ("Workstation", "Laptop", "Phone")
    assert [(r.entry, r.input_label) for r in merged.rows] == [
        ("aes-128-gcm [cryptography]", "1 MB"),
        ("aes-256-gcm [cryptography]", "1 MB"),
    ]
    row = merged.rows[0]
    for cell, source in zip(row.cells, merged.sources, strict=True):
        job = source.result.results[0]
        medians = [statistics.median(r) for r in job.round_samples("encrypt")]
        assert cell is not None and cell.rounds == ROUNDS
        assert cell.median == pytest.approx(SIZE / statistics.median(medians) / 1e6)
        assert cell.interval is not None and cell.interval[0] <= cell.median <= cell.interval[1]
    # The workstation is 8x the phone, in the figures themselves.
    assert row.cells[0].median / row.cells[2].median == pytest.approx(8.0)


def test_the_normalised_view_compares_machines_by_shape_round_by_round() -> None:
    merged = merge_results(sources(), reference="aes-128-gcm")
    assert merged.reference == "aes-128-gcm [cryptography]"
    ref_row, other = merged.rows
    assert all(c is not None and c.median == 1.0 for c in ref_row.normalised)
    for cell in other.normalised:  # AES-256 is 1/1.4 of AES-128 on every machine, every round
        assert cell is not None and cell.median == pytest.approx(1 / 1.4)
        assert cell.interval is not None and cell.interval[1] - cell.interval[0] < 1e-9


def test_what_differs_between_the_machines_is_listed() -> None:
    merged = merge_results(sources())
    what = dict(merged.differences)
    assert what["CPU"] == ("Workstation", "Laptop", "Phone")
    assert "Python" not in what  # the same everywhere: not listed


def test_a_missing_job_is_a_dash_and_a_reference_nobody_ran_is_refused() -> None:
    parts = sources()
    short = replace(parts[2].result, results=parts[2].result.results[:1])
    merged = merge_results([*parts[:2], replace(parts[2], result=short)])
    assert merged.rows[1].cells[2] is None
    with pytest.raises(UserError, match="no entry 'chacha20-poly1305' ran in every merged run"):
        merge_results(parts, reference="chacha20-poly1305")
    with pytest.raises(UserError, match="at least two"):
        merge_results(parts[:1])


def test_labels_tell_the_sources_apart_by_host_then_cpu_then_name() -> None:
    assert source_labels([["a", "X"], ["b", "X"]]) == ["a", "b"]
    assert source_labels([[None, "X", "f1"], ["h", "Y", "f2"]]) == ["X", "Y"]
    assert source_labels([["h", "X", "f1"], ["h", "X", "f2"]]) == ["f1", "f2"]
    assert source_labels([["h"], ["h"]]) == ["h (1)", "h (2)"]


def test_one_machine_with_two_library_versions_is_labelled_by_the_versions(tmp_path) -> None:
    for name, version in (("old", "44.0.0"), ("new", "45.0.0")):
        formats.save(machine_study("Same CPU", 1.0, version), tmp_path / f"{name}.json")
    found = merge_sources([tmp_path / "old.json", tmp_path / "new.json"])
    assert [s.label for s in found] == ["cryptography 44.0.0", "cryptography 45.0.0"]


@pytest.fixture
def exported(tmp_path) -> list[Path]:
    paths = []
    for cpu, speed in MACHINES:
        path = tmp_path / f"{cpu.lower()}.json"
        formats.save(machine_study(cpu, speed), path)
        paths.append(path)
    return paths


def test_merge_of_three_exported_runs_writes_every_format(
    exported, tmp_path, capsys, monkeypatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    outs = [tmp_path / f"m{s}" for s in formats.MERGED.suffixes]
    argv = ["merge", *map(str, exported), "--reference", "aes-128-gcm"]
    code = cli.main(argv + [a for o in outs for a in ("--out", str(o))])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "Workstation (MB/s)" in out and "Phone (x)" in out and "CPU: Workstation" in out
    md = (tmp_path / "m.md").read_text()
    assert "| Entry | Input | Workstation (MB/s) | Laptop (MB/s) | Phone (MB/s) |" in md
    assert "Normalised to aes-128-gcm [cryptography] = 1" in md
    assert "| Workstation | workstation.json | Workstation |" in md and "digest checked" in md
    doc = json.loads((tmp_path / "m.json").read_text())
    phone = [r for r in doc["rows"] if r["source"] == "Phone" and r["entry"].startswith("aes-256")]
    assert phone[0]["normalised"] == pytest.approx(1 / 1.4)
    assert (tmp_path / "m.xlsx").read_bytes()[:2] == b"PK"
    assert "<table>" in (tmp_path / "m.html").read_text()
    assert r"\begin{tabular}" in (tmp_path / "m.tex").read_text()
    assert "entry,input,input_bytes,source" in (tmp_path / "m.csv").read_text()


def test_merge_refuses_what_it_cannot_merge_in_one_line(exported, tmp_path, capsys) -> None:
    transfer = tmp_path / "t.json"
    formats.save(transfer_run(), transfer)
    for argv, message in (
        (["merge", str(exported[0])], "merge needs at least two runs"),
        (["merge", str(exported[0]), str(transfer)], "t.json (a transfer run) beside"),
        (["merge", *map(str, exported), "--label", "a"], "1 labels given for 3 runs"),
        (["merge", str(exported[0]), str(tmp_path / "none.json")], "cannot read"),
        (["merge", *map(str, exported), "--out", str(tmp_path / "m.pdf")], "cannot save"),
    ):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def _with_jobs(source: MergeSource, **changes: object) -> MergeSource:
    jobs = tuple(replace(j, **changes) for j in source.result.results)  # type: ignore[arg-type]
    return replace(source, result=replace(source.result, results=jobs))


def test_an_entry_run_with_another_key_size_is_a_row_of_its_own() -> None:
    """bench --key-bits: Blowfish with a 128-bit key on one machine, 448 on another."""
    a, b = sources()[:2]
    merged = merge_results([_with_jobs(a, key_bits=128), _with_jobs(b, key_bits=448)])
    assert [r.entry for r in merged.rows] == [
        "aes-128-gcm [cryptography] 128-bit",
        "aes-256-gcm [cryptography] 128-bit",
        "aes-128-gcm [cryptography] 448-bit",
        "aes-256-gcm [cryptography] 448-bit",
    ]
    assert [sum(c is not None for c in r.cells) for r in merged.rows] == [1, 1, 1, 1]
    # each still normalised to the reference on its own machine
    assert merged.rows[1].normalised[0] is not None
    assert merged.rows[3].normalised[1] is not None


def test_one_input_name_for_two_sizes_is_two_rows_and_random_data_lines_up() -> None:
    a, b, c = sources()
    merged = merge_results([a, _with_jobs(b, input_bytes=2 * SIZE), c])
    assert [(r.input_label, r.input_bytes) for r in merged.rows] == [
        ("1 MB (1,000,000 bytes)", SIZE),
        ("1 MB (1,000,000 bytes)", SIZE),
        ("1 MB (2,000,000 bytes)", 2 * SIZE),
        ("1 MB (2,000,000 bytes)", 2 * SIZE),
    ]
    # a bench names generated data "random 1 MB", a study "1 MB": the same input
    merged = merge_results([a, _with_jobs(b, input_label="random 1 MB")])
    assert [r.input_label for r in merged.rows] == ["1 MB", "1 MB"]
    assert all(None not in r.cells for r in merged.rows)


def test_a_file_or_run_given_twice_is_refused(tmp_path) -> None:
    formats.save(machine_study("X", 1.0), tmp_path / "a.json")
    with pytest.raises(UserError, match="given twice"):
        merge_sources([tmp_path / "a.json", tmp_path / "." / "a.json"])


def test_a_bench_with_rounds_is_not_said_to_run_in_one_worker() -> None:
    jobs = [timed_job([1e-3] * 12, rounds=3) for _ in range(2)]
    how = MergeSource("x", "x.json", bench_run(jobs)).how_run
    assert how == "bench: 3 rounds of a fresh worker per job, 4 timed repetitions each"
    one = MergeSource("x", "x.json", bench_run([timed_job([1e-3] * 5, rounds=1)]))
    assert one.how_run == "bench: one worker per job, 5 timed repetitions"
