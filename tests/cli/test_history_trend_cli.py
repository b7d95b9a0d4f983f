"""``history trend`` on the command line: a run's series in 80 columns with the planted step
marked at its run and labelled with the library version changed there; noise alone marks
nothing; --entry; --json; one-line messages for an unknown id, a run alone in its series, a
kind that has no trend and an entry that matches nothing."""

from __future__ import annotations

import json
from pathlib import Path

from trend_factories import series_results, sweep

from app.cli import main as cli
from app.core.history.store import History

TWO = (("aes-256-ctr", "cryptography", 256), ("aes-128-gcm", "cryptography", 128))


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def record(db: Path, results) -> list[int]:
    with History.open(db) as history:
        return [history.record(r) for r in results]


def test_a_planted_step_is_marked_and_labelled(capsys, history_db: Path) -> None:
    ids = record(history_db, series_results(7, step_at=5, version_at=5, entries=TWO))
    code, out, err = run(capsys, "history", "trend", str(ids[2]))
    lines = out.splitlines()
    assert code == 0 and err == "" and max(map(len, lines)) <= 80
    assert lines[0].startswith(f"Run {ids[2]}'s series: 10 bench runs with the same definition")
    assert "aes-256-ctr [cryptography] on input.bin" in lines
    assert "aes-128-gcm [cryptography] on input.bin" in lines
    marked = [line for line in lines if line.startswith("* ")]
    assert len(marked) == 2  # the step's run, once per entry
    for line in marked:
        assert line.split()[3] == str(ids[5]) and line.count(" v") == 2  # both directions
    for direction in ("encrypt", "decrypt"):
        step = f"  step at run {ids[5]}, {direction}: cryptography 50.0.2 -> 51.0.0: -"
        assert sum(line.startswith(step) for line in lines) == 2
    assert f"- run {ids[4]} -> {ids[5]}: cryptography 50.0.2 -> 51.0.0" in lines
    assert lines[-1] == "4 step(s) in 4 of 4 series (entry x direction)."

    code, out, _ = run(capsys, "history", "trend", str(ids[0]), "--entry", "GCM")
    assert code == 0 and "aes-128-gcm" in out and "aes-256-ctr" not in out
    assert out.splitlines()[-1] == "2 step(s) in 2 of 2 series (entry x direction)."

    code, out, _ = run(capsys, "history", "trend", str(ids[0]), "--json")
    doc = json.loads(out)
    assert [r["id"] for r in doc["runs"]] == ids
    steps = [s for e in doc["entries"] for s in e["steps"]]
    assert len(steps) == 4 and all(s["run_after"] == ids[5] for s in steps)
    assert all(s["ci_low"] <= -0.10 <= s["ci_high"] for s in steps)


def test_noise_alone_marks_nothing(capsys, history_db: Path) -> None:
    ids = record(history_db, series_results(3))
    code, out, _ = run(capsys, "history", "trend", str(ids[-1]))
    lines = out.splitlines()
    assert code == 0 and max(map(len, lines)) <= 80
    assert not any(line.startswith("* ") for line in lines)
    assert any(
        line.startswith("  No step beyond the noise (spread between runs:") for line in lines
    )
    assert "Nothing changed in the environment along the series" in out
    assert lines[-1] == "No step beyond the noise in 2 series (entry x direction)."


def test_messages_in_one_line(capsys, history_db: Path) -> None:
    (alone,) = record(history_db, series_results(1, runs=1))
    code, out, err = run(capsys, "history", "trend", str(alone))
    assert code == 0 and out == ""
    assert err.count("\n") == 1 and f"run {alone} has no series: no other bench" in err

    code, out, err = run(capsys, "history", "trend", "99")
    assert code == 2 and out == ""
    assert err == "cipherbench: error: there is no run 99 in the history\n"

    code, _, err = run(capsys, "history", "trend", str(alone), "--entry", "chacha")
    assert code == 2 and err.count("\n") == 1
    assert "no entry of run 1's series holds 'chacha'; its entries: aes-256-ctr" in err

    with History.open(history_db) as history:
        sweep_id = history.record(sweep())
    code, out, err = run(capsys, "history", "trend", str(sweep_id))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"run {sweep_id} is a sweep: sweeps and ladders have no trend" in err
