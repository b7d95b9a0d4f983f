"""``sweep`` and ``ladder`` on the command line: tables that fit 80 columns, exports, history,
bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main as cli
from app.core.history.store import History

# Sweep rounds run in this process (tests/rounds_here.py), a ladder's AES-off step in its own
# worker: these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_rounds")


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_sweep_prints_its_curve_in_80_columns_writes_exports_and_is_stored(
    capsys, monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = tmp_path / "s.json"
    code, stdout, err = run(
        capsys, "sweep", "--cipher", "aes-128-gcm", "--library", "cryptography",
        "--lengths", "16,1350", "--rounds", "1",
        "--out", str(out), "--out", str(tmp_path / "s.xlsx"),
    )  # fmt: skip
    assert code == 0, err
    assert max(len(line) for line in stdout.splitlines()) <= 80
    assert "aes-128-gcm [cryptography], cryptography" in stdout
    assert "1350 B" in stdout and "FORGERY" in stdout and "AD 13 B" in stdout
    assert "Key setup (making a cipher object)" in stdout and "Fixed cost per call" in stdout
    assert "saved to history as run" in err
    doc = json.loads(out.read_text())
    assert doc["format"] == "cipherbench-sweep" and doc["options"]["lengths"] == [16, 1350]
    assert (tmp_path / "s.xlsx").stat().st_size > 0
    with History.open() as h:
        (summary,) = h.list_runs(kind="sweep")
    code, shown, _ = run(capsys, "history", "show", str(summary.id))
    assert code == 0 and "1350 B" in shown


def test_a_ladder_prints_its_steps_and_verdicts(capsys, monkeypatch) -> None:
    from app.core.sweep import plan

    monkeypatch.setattr(plan, "LADDER_BYTES", 64 * 1024)
    monkeypatch.setattr(plan, "PURE_PYTHON_BYTES", 1024)
    code, stdout, err = run(capsys, "ladder", "aes-128-ctr", "--rounds", "1", "--no-history")
    assert code == 0, err
    assert "1. cryptography" in stdout and "2. cryptography, AES off" in stdout
    assert "3. pure Python" in stdout and "(the switch worked)" in stdout
    assert "Pure Python is the slowest step" in stdout


@pytest.mark.parametrize(
    "argv,words",
    [
        (["sweep"], "choose at least one cipher"),
        (["sweep", "--cipher", "aes-256-gmc"], "did you mean"),
        (["sweep", "--cipher", "aes-256-gcm", "--lengths", "1GiB"], "go up to"),
        (["sweep", "--cipher", "aes-256-gcm", "--out", "x.docx"], "cannot save the sweep"),
        (["ladder", "chacha20-poly1305"], "compares AES with and without"),
        (["ladder", "aes-128-gcm", "--library", "pyaes"], "pure-Python step"),
        (["ladder", "aes-128-gcm", "--rounds", "0"], "must be at least 1"),
    ],
)
def test_bad_input_gets_one_line_and_exit_code_2(capsys, argv, words) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
