"""``merge`` and ``history compare`` of runs without rows of entry and input (key setup here):
their tables side by side, a column per run, in the terminal and in every --out format."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from app.cli import main as cli
from app.core.history.store import History
from app.core.kinds import formats
from tests.core.history.history_factories import transfer_run
from tests.core.keysetup.test_keysetup import made

SUFFIXES = (".html", ".xlsx", ".md", ".tex", ".adoc", ".csv", ".json")


def _runs() -> tuple[object, object]:
    first = made()
    faster = tuple(
        replace(e, rounds_ns=tuple(tuple(x / 2 for x in r) for r in e.rounds_ns))
        for e in first.results
    )
    return first, replace(first, results=faster, started_at="2026-11-29T07:00:00+00:00")


def test_two_exported_key_setup_runs_merge_into_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    paths = []
    for name, result in zip(("laptop", "server"), _runs(), strict=True):
        paths.append(formats.save(result, tmp_path / f"{name}.json"))
    outs = [tmp_path / f"m{s}" for s in SUFFIXES]
    code = cli.main(["merge", *map(str, paths), *(a for o in outs for a in ("--out", str(o)))])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "Key setup (µs)" in out and "laptop" in out and "server" in out
    assert "1.00 [1.00, 1.01]" in out and "0.501 [0.500, 0.503]" in out
    md = (tmp_path / "m.md").read_text(encoding="utf-8")
    assert (
        "| Cipher | Library | Key (bits) | laptop: Key setup (µs) | server: Key setup (µs) |" in md
    )
    assert "laptop: laptop.json (digest checked)" in md
    document = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert document["title"] == "Key setup: 2 runs side by side"
    assert (tmp_path / "m.xlsx").read_bytes()[:2] == b"PK"
    assert all(o.stat().st_size > 0 for o in outs)


def test_a_key_setup_run_does_not_merge_with_a_bench_choice_or_another_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = _runs()
    a, b = formats.save(first, tmp_path / "a.json"), formats.save(second, tmp_path / "b.json")
    transfer = formats.save(transfer_run(), tmp_path / "t.json")
    for argv, message in (
        ([str(a), str(transfer)], "cannot put t.json (a transfer run) beside a.json (a key setup"),
        ([str(a), str(b), "--units", "MiB/s"], "units: a choice for merging bench runs"),
        ([str(a), str(b), "--reference", "aes-128-gcm"], "a reference: a choice for merging"),
    ):
        assert cli.main(["merge", *argv, "--out", str(tmp_path / "m.md")]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "m.md").exists()


def test_history_compare_puts_two_key_setup_runs_side_by_side(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    with History.open() as history:
        ids = [history.record(r) for r in _runs()]
    assert cli.main(["history", "compare", *map(str, ids)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Run {ids[1]} beside run {ids[0]}, table by table, with no verdict")
    assert "Key setup (µs)" in out and "0.501 [0.500, 0.503]" in out
    assert cli.main(["history", "compare", *map(str, ids), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    headers = document["tables"][0]["headers"]
    assert headers[3:5] == [f"run {ids[0]}: Key setup (µs)", f"run {ids[1]}: Key setup (µs)"]
    assert cli.main(["merge", "--run", str(ids[0]), "--run", str(ids[1])]) == 0
    assert "Key setup: 2 runs side by side" in capsys.readouterr().out


def test_two_transfers_of_other_inputs_line_up_and_say_their_files_are_intact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = transfer_run()
    big = replace(small, input_label="random 2 MB")  # the caption names the input
    paths = [formats.save(r, tmp_path / f"{n}.json") for n, r in (("a", small), ("b", big))]
    assert cli.main(["merge", *map(str, paths), "--out", str(tmp_path / "t.md")]) == 0
    md = (tmp_path / "t.md").read_text(encoding="utf-8")
    assert md.count("a: Throughput (MB/s) | b: Throughput (MB/s)") == 1  # one table, both runs
    assert "a: a.json (digest checked)" in md and "b: b.json (digest checked)" in md
