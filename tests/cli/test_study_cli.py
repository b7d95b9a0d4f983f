"""``study``: the preset list, a tiny run with both exports, an 80-column report, bad input."""

import csv
import json

import pytest

from app.cli import main as cli
from app.cli.study import format_study
from app.core.runtime.events import Finished
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.export import FORMAT
from app.core.study.runner import StudyRun

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs")


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_one_preset_per_line_name_first(capsys):
    code, out, _ = run(capsys, "study", "--list")
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 5
    assert lines[0].startswith("aes-key-sizes ") and lines[0].endswith("(Yudiono et al. 2026)")
    assert all("seed" not in line for line in lines)  # a paper's name, not a random seed
    starts = {len(line) - len(line[line.index(" ") :].lstrip()) for line in lines}
    assert len(starts) == 1  # what each compares starts in one column
    assert [line.split()[0] for line in lines] == [
        "aes-key-sizes",
        "classic-ciphers",
        "aes-vs-blowfish",
        "pure-python",
        "gcm-vs-chacha",
    ]


def test_tiny_study_writes_json_and_csv(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out_json, out_csv, saved = tmp_path / "x.json", tmp_path / "x.csv", tmp_path / "s.toml"
    code, out, err = run(
        capsys,
        "study",
        "aes-key-sizes",
        "--sizes",
        "2KB,4KB",
        "--repeat",
        "2",
        "--rounds",
        "2",
        "--max-rounds",
        "2",
        "--out",
        str(out_json),
        "--out",
        str(out_csv),
        "--save-definition",
        str(saved),
    )
    assert code == 0, err
    assert "Input: 2 KB" in out and "Input: 4 KB" in out and "Comparisons" in out
    assert "Time against size" in out and "interleaved" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    doc = json.loads(out_json.read_text())
    assert doc["format"] == FORMAT and doc["how_run"]["rounds"] == 2
    assert len(doc["results"]) == 6 and doc["results"][0]["encrypt"]["samples_s"]
    assert doc["fits"] and doc["comparisons"] and doc["study"]["sizes"] == ["2 KB", "4 KB"]
    assert doc["published"] and doc["units"] == "MB/s"
    rows = list(csv.reader(out_csv.read_text(encoding="utf-8").splitlines()))
    assert rows[0][:4] == ["Algorithm", "Library", "Input", "Size (bytes)"]
    assert "Enc. throughput (MB/s)" in rows[0] and len(rows) == 7
    assert saved.read_text().startswith('name = "aes-key-sizes"')
    code, out, err = run(
        capsys, "study", str(saved), "--repeat", "1", "--rounds", "1", "--units", "KB/s", "--quiet"
    )
    assert code == 0 and "ENC KB/s" in out and err == ""


def test_report_fits_80_columns_with_long_names(scratch_tmp):
    study = Study(
        "wide",
        (CipherChoice("chacha20-poly1305", "cryptography"), CipherChoice("des-ede3-cbc")),
        sizes=(SizeInput("2 KB", 2000),),
        repeat=1,
        warmup=0,
        measure_memory=False,
        min_time_s=0.0,
        units="KB/s",
        max_rounds=8,
        time_budget_s=5.0,
    )
    events = list(StudyRun(study, environment=False).events())
    assert isinstance(events[-1], Finished)
    text = format_study(events[-1].result, 80)
    assert [line for line in text.splitlines() if len(line) > 80] == []
    assert "des-ede3-cbc" in text and "chacha20-poly1305" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["study"], "name a study"),
        (["study", "nope"], "unknown study"),
        (["study", "aes-key-sizes", "--sizes", "10XB"], "unknown unit"),
        (["study", "aes-key-sizes", "--units", "GB/h"], "invalid choice"),
        (
            ["study", "aes-key-sizes", "--rounds", "5", "--max-rounds", "3"],
            "max_rounds must be at least rounds",
        ),
        (["study", "aes-key-sizes", "--precision", "-1"], "must be a number, 0 or more"),
        (["study", "aes-key-sizes", "--files", "{tmp}/missing.txt"], "no such file"),
        (["study", "aes-key-sizes", "--sizes", "2KB", "--out", "{tmp}/r.docx"], "not supported"),
        (
            ["study", "aes-vs-blowfish", "--sizes", "2KB", "--out", "{tmp}/no/r.csv"],
            "does not exist",
        ),
        (["study", "{tmp}/missing.toml"], "no such study file"),
    ],
)
def test_bad_input_is_one_line(capsys, tmp_path, argv, message):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_one_run_writes_all_four_formats(capsys, tmp_path):
    outs = [tmp_path / f"study.{ext}" for ext in ("json", "csv", "xlsx", "html")]
    argv = ["study", "aes-key-sizes", "--sizes", "2KB,40KB", "--repeat", "3", "--rounds", "1"]
    for out in outs:
        argv += ["--out", str(out)]
    code, _, err = run(capsys, *argv, "--quiet")
    assert code == 0, err
    assert [f"wrote {out}" for out in outs] == err.strip().splitlines()
    page = outs[3].read_text(encoding="utf-8")
    assert page.count("<svg") == 5 and "above the worker&#x27;s baseline" in page
    assert outs[2].read_bytes()[:2] == b"PK"  # a zip: the workbook
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in outs)


def test_an_unknown_suffix_is_refused_before_the_run(capsys, tmp_path):
    code, out, err = run(
        capsys, "study", "aes-key-sizes", "--sizes", "2KB", "--out", str(tmp_path / "r.DOCX")
    )
    assert code == 2 and out == "" and list(tmp_path.iterdir()) == []
    assert "'.docx' is not supported; use .html, .xlsx, .csv, .json, .md, .tex, .svg, .pdf" in err


@pytest.mark.usefixtures("in_process_transfers")
def test_seed_004_runs_transfers_and_its_report_fits_80_columns(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out_html = tmp_path / "t.html"
    code, out, err = run(
        capsys,
        "study",
        "gcm-vs-chacha",
        "--sizes",
        "10485B,100KB",  # the paper's "0.01 MB" (its MiB), so its figures stand beside ours
        "--repeat",
        "2",
        "--rounds",
        "2",
        "--time-budget",
        "0",
        "--out",
        str(out_html),
    )
    assert code == 0, err
    assert "Loopback transfers:" in out and "Input: 100 KB (100,000 bytes)" in out
    for cipher in ("aes-256-gcm (cryptography)", "chacha20-poly1305 (cryptography)", "none"):
        assert cipher in out
    assert "Every run verified" in out and "The paper's published figures" in out
    assert "; here aes-256-gcm (cryptography): " in " ".join(out.split())  # beside the paper
    assert max(len(line) for line in out.splitlines()) <= 80
    assert out_html.read_text().count("<svg") == 4
