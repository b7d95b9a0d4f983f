"""``transfer`` on the command line: its JSON, bad input (one line, exit 2, nothing written) and
Ctrl-C (exit 130, no process left)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from leftovers import outlived, spawned_children

from app.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.usefixtures("in_process_transfers")
def test_json_has_every_key_per_result(capsys, tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    code, stdout, err = run(
        capsys,
        "transfer",
        "--size",
        "200KB",
        "--chunk",
        "64KiB",
        "--cipher",
        "aes-256-gcm",
        "--cipher",
        "chacha20-poly1305",
        "--cipher",
        "none",
        "--repeat",
        "2",
        "--warmup",
        "1",
        "--out",
        str(out),
    )
    assert code == 0, err
    assert "aes-256-gcm" in stdout and "±IQR" in stdout and "MiB/s" in stdout
    assert max(len(line) for line in stdout.splitlines()) <= 80
    data = json.loads(out.read_text())
    assert [r["cipher"] for r in data["results"]] == ["aes-256-gcm", "chacha20-poly1305", "none"]
    for r in data["results"]:
        assert {"throughput_mb_s", "throughput_mib_s", "verified"} <= r.keys()
        assert r["verified"] is True and r["input_bytes"] == 200_000
        for end in ("sender", "receiver"):
            assert {"peak_rss_bytes", "baseline_rss_bytes", "cpu_percent"} <= r[end].keys()
        assert len(r["total_seconds"]["samples_s"]) == 2
    assert "environment" in data and data["failures"] == []
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]  # no temporary file left


def test_a_file_is_sent_unchanged(capsys, tmp_path: Path) -> None:
    src = tmp_path / "notes.txt"
    src.write_bytes(os.urandom(5000))
    before = src.read_bytes()
    code, stdout, _ = run(capsys, "transfer", str(src), "--cipher", "aes-256-gcm", "--repeat", "1")
    assert code == 0 and "notes.txt" in stdout
    assert src.read_bytes() == before


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--size", "1KB", "--cipher", "aes-256-ctr"], "not an authenticated cipher"),
        (["--size", "1KB", "--cipher", "rot13"], "rot13"),
        (["--cipher", "aes-256-gcm"], "give a FILE to send, or --size"),
        (["--size", "1KB", "--chunk", "17"], "chunk size"),
        (["--size", "0", "--cipher", "none"], "at least 1 byte"),
        (["--size", "1KB", "--repeat", "0"], "--repeat"),
        (["--size", "1KB", "--timeout", "0"], "--timeout"),
        (["--size", "1KB", "--out", "r.txt"], "not supported"),
        (["/no/such/file"], "/no/such/file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, monkeypatch, tmp_path: Path, argv, said) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "transfer", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and said in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def _transfer_children(pid: int) -> list[psutil.Process]:
    return spawned_children(pid)


def test_ctrl_c_exits_130_and_leaves_no_process(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    cmd = [sys.executable, "main.py", "transfer", "--size", "32MiB", "--repeat", "1000"]
    proc = subprocess.Popen(
        [*cmd, "--out", str(out)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: Ctrl-C reaches all of it, not pytest
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    try:
        deadline = time.monotonic() + 30
        children: list[psutil.Process] = []
        seen = 0  # polls in a row that found the two ends and nothing else
        while seen < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
            # A janitor still starting has no name of its own yet: a third child, for a moment
            children = _transfer_children(proc.pid)
            seen = seen + 1 if len(children) == 2 else 0
        assert len(children) == 2, "the sender and receiver never started"
        time.sleep(0.5)  # mid-transfer
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert b"cancelled" in err and b"Traceback" not in err
    assert not outlived(children, 5), "a transfer process outlived the command"
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("cipherbench-")]


def test_out_writes_csv_and_xlsx_too(capsys, tmp_path: Path) -> None:
    csv_out, xlsx_out = tmp_path / "t.csv", tmp_path / "t.XLSX"
    argv = ["transfer", "--size", "64KB", "--cipher", "aes-256-gcm", "--repeat", "2"]
    code, _, err = run(capsys, *argv, "--out", str(csv_out), "--out", str(xlsx_out))
    assert code == 0, err
    header = csv_out.read_text().splitlines()[0]
    assert "aes-256-gcm" in csv_out.read_text() and "throughput_mib_s" in header
    assert xlsx_out.read_bytes()[:2] == b"PK"  # a zip: an Office Open XML workbook
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.XLSX", "t.csv"]
