"""The command line: commands, bad input (one line, exit 2, no traceback, no output file)."""

import json
import os

import openpyxl
import pytest
from jobs_here import run_here, run_isolated_briefly
from json_contract import DIRECTION_KEYS, RESULT_KEYS

from app.cli import main as cli
from app.core.runtime import scratch

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs")


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def data(tmp_path):
    p = tmp_path / "data.txt"
    p.write_bytes(os.urandom(5000))
    return p


def test_list_and_json(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and "aes-256-gcm" in out and "pycryptodome" in out
    code, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)
    assert {"id": "rc4", "library": "cryptography"} in [
        {"id": r["id"], "library": r["library"]} for r in rows
    ]
    assert all({"id", "library", "key_bits", "mode"} <= r.keys() for r in rows)


def test_selftest_passes(capsys):
    code, out, _ = run(capsys, "selftest", "--json")
    assert code == 0
    assert json.loads(out)["ok"] is True


def test_sysinfo_json(capsys):
    code, out, _ = run(capsys, "sysinfo", "--json")
    env = json.loads(out)
    assert code == 0 and "cpu" in env and env["openssl_version"]


def test_bench_writes_all_three_exports(capsys, data, tmp_path):
    outs = [tmp_path / f"r.{ext}" for ext in ("json", "csv", "xlsx")]
    args = [
        "bench",
        str(data),
        "--cipher",
        "aes-128-gcm",
        "--cipher",
        "bf-cbc",
        "--library",
        "pycryptodome",
        "--repeat",
        "2",
        "--warmup",
        "0",
    ]
    for o in outs:
        args += ["--out", str(o)]
    before = data.read_bytes()
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert "aes-128-gcm" in out and "MB/s" in out
    doc = json.loads(outs[0].read_text())
    assert len(doc["results"]) == 2 and doc["environment"]
    r = doc["results"][0]
    assert r.keys() >= RESULT_KEYS
    assert r["encrypt"].keys() >= DIRECTION_KEYS and r["decrypt"].keys() >= DIRECTION_KEYS
    assert r["verified"] is True and r["input_bytes"] == 5000
    assert outs[1].read_text().count("\n") >= 3
    wb = openpyxl.load_workbook(outs[2])
    assert "Results" in wb.sheetnames
    assert data.read_bytes() == before


def test_bench_generated_size_stream_mode(capsys):
    code, out, err = run(
        capsys,
        "bench",
        "--size",
        "100KB",
        "--cipher",
        "chacha20-poly1305",
        "--data-mode",
        "stream",
        "--chunk",
        "16KiB",
        "--repeat",
        "2",
    )
    assert code == 0, err
    assert "100,000 bytes" in out and "stream" in out


def test_bench_preset(capsys):
    code, out, err = run(
        capsys,
        "bench",
        "--size",
        "20KB",
        "--preset",
        "aes-key-sizes",
        "--repeat",
        "1",
        "--warmup",
        "0",
        "--no-memory",
    )
    assert code == 0, err
    assert all(f"aes-{b}-cbc" in out for b in (128, 192, 256))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "{missing}", "--cipher", "rc4"], "no such file"),
        (["bench", "{dir}", "--cipher", "rc4"], "is a folder"),
        (["bench", "{empty}", "--cipher", "rc4"], "is empty"),
        (["bench", "{data}", "--cipher", "nope"], "unknown cipher"),
        (["bench", "{data}", "--cipher", "rc4", "--library", "nope"], "unknown library 'nope'"),
        (["bench", "{data}", "--cipher", "aes-256-gcm", "--library", "pyaes"], "not offered"),
        (["bench", "{data}", "--cipher", "bf-cbc", "--key-bits", "12"], "12-bit key"),
        (["bench", "--size", "10XB", "--cipher", "rc4"], "unknown unit"),
        (["bench", "{data}", "--cipher", "rc4", "--out", "{missing_dir}/r.json"], "does not exist"),
        (["bench", "{data}", "--cipher", "rc4", "--out", "{dir}"], "not supported"),
        (["bench", "{data}", "--cipher", "rc4", "--out", "{tmp}/r.docx"], "not supported"),
        (["bench", "{data}"], "choose at least one --cipher"),
        (["bench", "--cipher", "rc4"], "give a FILE"),
        (["bench", "{data}", "--cipher", "rc4", "--repeat", "0"], "at least 1"),
        (["bench", "{data}", "--cipher", "rc4", "--processes", "0"], "--processes: must be at"),
        (["bench", "{data}", "--cipher", "rc4", "--chunk", "100"], "multiple of 64"),
        (["bench", "{data}", "--cipher", "rc4", "--preset", "nope"], "unknown preset"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_clear_line(capsys, tmp_path, data, argv, message):
    (tmp_path / "d").mkdir()
    (tmp_path / "empty").write_bytes(b"")
    fill = {
        "missing": tmp_path / "nope.bin",
        "dir": tmp_path / "d",
        "empty": tmp_path / "empty",
        "data": data,
        "missing_dir": tmp_path / "no" / "where",
        "tmp": tmp_path,
    }
    argv = [a.format(**{k: str(v) for k, v in fill.items()}) for a in argv]
    before = set(os.listdir(tmp_path))
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("cipherbench: error: ") and err.count("\n") == 1, err
    assert message in err
    assert "Traceback" not in err
    assert set(os.listdir(tmp_path)) == before  # no partial output


def test_unreadable_file(capsys, tmp_path, monkeypatch, data):
    real_open = open

    def deny(path, *a, **k):
        if str(path) == str(data):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *a, **k)

    monkeypatch.setattr("builtins.open", deny)
    code, _, err = run(capsys, "bench", str(data), "--cipher", "rc4")
    assert code == 2 and "permission denied" in err


def test_ctrl_c_cancels_cleanly(capsys, data, monkeypatch, tmp_path):
    from app.core.bench import runner

    def interrupted(self):
        yield from ()
        raise KeyboardInterrupt

    monkeypatch.setattr(runner.BenchmarkRun, "events", interrupted)
    out_file = tmp_path / "r.json"
    code, _, err = run(capsys, "bench", str(data), "--cipher", "rc4", "--out", str(out_file))
    assert code == 130 and "cancelled" in err
    assert not out_file.exists()


def test_internal_errors_have_no_traceback(capsys, monkeypatch):
    monkeypatch.delenv("CIPHERBENCH_DEBUG", raising=False)

    def boom(args):
        raise RuntimeError("kaput")

    monkeypatch.setattr(cli, "cmd_list", boom)
    code, _, err = run(capsys, "list")
    assert code == 3 and "internal error" in err and "Traceback" not in err


def test_bench_several_inputs_in_one_run(capsys, data, tmp_path, scratch_tmp):
    """Seed 000 measures 1, 10 and 50 MB in one table; seed 001 several files."""
    out = tmp_path / "r.json"
    code, text, err = run(
        capsys,
        "bench",
        str(data),
        "--size",
        "2KB",
        "--size",
        "3KiB",
        "--cipher",
        "aes-128-ctr",
        "--library",
        "cryptography",
        "--repeat",
        "1",
        "--warmup",
        "0",
        "--no-memory",
        "--out",
        str(out),
    )
    assert code == 0, err
    assert text.count("\nInput: ") == 3
    doc = json.loads(out.read_text())
    assert [r["input_bytes"] for r in doc["results"]] == [5000, 2000, 3072]
    assert [i["bytes"] for i in doc["options"]["inputs"]] == [5000, 2000, 3072]
    # The generated inputs lived in this process's scratch folder and are gone.
    assert not [p for p in scratch.root().iterdir() if p.name.startswith("input-")]


def test_generated_input_is_labelled_in_the_unit_typed(capsys, tmp_path):
    out = tmp_path / "r.json"
    code, text, err = run(
        capsys, "bench", "--size", "1MiB", "--cipher", "aes-128-ctr", "--library",
        "cryptography", "--repeat", "1", "--warmup", "0", "--no-memory", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert "generating 1 MiB (1,048,576 bytes)" in err
    assert json.loads(out.read_text())["results"][0]["input_label"] == "random 1 MiB"
    assert "1.05 MB" not in text


def test_key_bits_with_a_preset_is_applied_or_refused(capsys, tmp_path):
    out = tmp_path / "r.json"
    common = ["--size", "1KB", "--repeat", "1", "--warmup", "0", "--no-memory", "--quiet"]
    code, _, err = run(capsys, "bench", *common, "--preset", "aes-vs-blowfish", "--key-bits", "128")
    assert code == 2 and "does not fit --preset aes-vs-blowfish" in err
    assert "aes-256-ecb" in err and "Traceback" not in err
    code, _, err = run(capsys, "bench", *common, "--preset", "des-3des-aes-rc4", "--key-bits", "64")
    assert code == 2 and "des-ede3-cbc" in err  # 3DES takes only 192-bit keys
    code, _, err = run(
        capsys, "bench", *common, "--preset", "aes-vs-blowfish", "--key-bits", "256",
        "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    blowfish = [r for r in json.loads(out.read_text())["results"] if r["cipher"] == "bf-ctr"]
    assert blowfish and all(r["key_bits"] == 256 for r in blowfish)


def test_bench_processes_aggregate_in_json(capsys, data, tmp_path, monkeypatch):
    """The command line's one run of real copies: two worker processes, each timed briefly."""
    from app.core.bench import multicore

    monkeypatch.setattr(multicore, "run_isolated", run_isolated_briefly)
    out_json = tmp_path / "r.json"
    argv = ["bench", str(data), "--cipher", "aes-128-ctr", "--library", "cryptography"]
    argv += ["--repeat", "1", "--warmup", "0", "--no-memory", "--processes", "2"]
    code, out, err = run(capsys, *argv, "--out", str(out_json))
    assert code == 0, err
    assert "2 processes: encrypt" in out and "2 processes: encrypt" in err
    # The aggregate block fits 80 columns (a warning about the copies' overlap, which a busy
    # machine can add, is a free-text line like every other warning).
    block = [line for line in out.splitlines() if "processes:" in line or "Aggregate" in line]
    assert block and all(len(line) <= 80 for line in block)
    (r,) = json.loads(out_json.read_text())["results"]
    assert r["verified"] is True
    assert r["aggregate"].keys() == {
        "processes",
        "encrypt_throughput_mb_s",
        "decrypt_throughput_mb_s",
    }
    assert r["aggregate"]["processes"] == 2 and r["aggregate"]["encrypt_throughput_mb_s"] > 0
    assert "warning" not in err or "share them" not in err  # 2 never exceeds the cores here


def test_bench_more_processes_than_cores_warns(capsys, data, monkeypatch):
    from app.core.bench import multicore

    # The warning is about the option, not the copies: they run in this process (the test
    # above runs them in real workers).
    monkeypatch.setattr(multicore, "run_isolated", run_here)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    argv = ["bench", str(data), "--cipher", "aes-128-ctr", "--library", "cryptography"]
    code, _out, err = run(capsys, *argv, "--repeat", "1", "--no-memory", "--processes", "2")
    assert code == 0, err
    (warning,) = [line for line in err.splitlines() if line.startswith("warning:")]
    assert "more than this machine's 1 core;" in warning and "share them" in warning


def test_bench_without_processes_has_no_aggregate(capsys, data, tmp_path):
    out_json = tmp_path / "r.json"
    argv = ["bench", str(data), "--cipher", "aes-128-ctr", "--library", "cryptography"]
    code, out, err = run(capsys, *argv, "--repeat", "1", "--no-memory", "--out", str(out_json))
    assert code == 0, err
    assert json.loads(out_json.read_text())["results"][0]["aggregate"] is None
    assert "processes" not in out


def test_the_results_table_splits_to_fit_a_narrow_terminal():
    from app.core.document.terminal import fitted_table, text_table

    rows = [["CIPHER", "LIBRARY", *(f"COLUMN{i}" for i in range(10))]]
    rows.append(["aes-128-ctr", "cryptography", *(f"{i * 1000:,}" for i in range(10))])
    assert fitted_table(rows, None) == text_table(rows)
    split = fitted_table(rows, 80)
    assert max(len(line) for line in split.splitlines()) <= 80
    headers = [line for line in split.splitlines() if line.startswith("CIPHER")]
    assert len(headers) >= 2  # stacked, each with the cipher and library columns
    assert all(f"COLUMN{i}" in split for i in range(10))  # nothing dropped
