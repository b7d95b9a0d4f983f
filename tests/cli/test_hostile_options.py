"""Hostile names and options: a file name that is not UTF-8 never loses the results, options
are bounded with one clear line, and the report shows what actually ran (repetitions, chunk)."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import sys
from pathlib import Path

import pytest
from hostile import assert_one_line_error, forbid_workers, run, small_job, small_run
from openpyxl import load_workbook

from app.cli import bench as cli_bench
from app.cli import main as cli
from app.cli.report import format_results
from app.core.bench import isolation
from app.core.bench.inputs import inspect_file
from app.core.bench.jobs import MAX_CHUNK_BYTES, BenchOptions, InputSpec, Job
from app.core.bench.plan import check_options, make_jobs
from app.core.bench.presets import PRESETS
from app.core.bench.runner import memory_mode_shortfall
from app.core.ciphers import registry
from app.core.ciphers.registry import REGISTRY, lookup, select
from app.core.errors import UserError
from app.core.kinds import formats
from app.core.text import display_text
from app.core.units import MIB, parse_size

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs")

QUICK = ["--library", "cryptography", "--warmup", "0", "--no-memory"]
ESCAPED = "data\\xff.bin"  # how b"data\xff.bin" is shown: a backslash, x, f, f
needs_bytes_names = pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="file names must be valid text here"
)


# --- 3. a file name that is not UTF-8 ------------------------------------------------------


def test_display_text() -> None:
    assert display_text(os.fsdecode(b"data\xff.bin")) == ESCAPED
    assert display_text("a\ud800b") == "a\\ud800b"  # a surrogate no byte made
    assert display_text("héllo, 東京") == "héllo, 東京"


@needs_bytes_names
def test_inspect_file_gives_a_label_any_writer_accepts(tmp_path: Path) -> None:
    path = os.path.join(os.fsencode(tmp_path), b"data\xff.bin")
    with open(path, "wb") as f:
        f.write(b"x" * 100)
    spec = inspect_file(os.fsdecode(path))
    assert spec.label == ESCAPED
    assert os.path.exists(spec.path)  # the path keeps the real name
    spec.label.encode("utf-8")


@pytest.mark.parametrize("ext", [".json", ".csv", ".xlsx"])
def test_every_exporter_keeps_a_label_that_is_not_utf8(tmp_path: Path, ext: str) -> None:
    """The exporters cope even with a label made elsewhere (lone surrogates included)."""
    label = os.fsdecode(b"data\xff.bin")
    run_ = small_run(small_job(label), small_job("b\ud800.bin", cipher="rc4"))
    target = formats.save(run_, tmp_path / f"r{ext}")
    if ext == ".json":
        doc = json.loads(target.read_text(encoding="utf-8"))
        assert [r["input_label"] for r in doc["results"]] == [ESCAPED, "b\\ud800.bin"]
        assert doc["options"]["inputs"][0]["label"] == ESCAPED
    elif ext == ".csv":
        with open(target, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert [r["input_label"] for r in rows] == [ESCAPED, "b\\ud800.bin"]
    else:
        ws = load_workbook(target)["Results"]
        col = [c.value for c in ws[1]].index("Input") + 1
        assert [ws.cell(2, col).value, ws.cell(3, col).value] == [ESCAPED, "b\\ud800.bin"]


def test_terminal_report_keeps_a_label_that_is_not_utf8() -> None:
    text = format_results(small_run(small_job(os.fsdecode(b"data\xff.bin"))))
    assert ESCAPED in text
    text.encode("utf-8")  # what print() to a UTF-8 terminal needs


@needs_bytes_names
def test_bench_of_a_file_named_in_bytes_writes_every_export(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The whole run completed, then the JSON and CSV exports failed: results lost."""
    path = os.path.join(os.fsencode(tmp_path), b"data\xff.bin")
    with open(path, "wb") as f:
        f.write(os.urandom(3000))
    outs = [tmp_path / f"r.{ext}" for ext in ("json", "csv", "xlsx")]
    argv: list[object] = ["bench", os.fsdecode(path), "--cipher", "rc4", *QUICK, "--repeat", "1"]
    for out in outs:
        argv += ["--out", out]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert ESCAPED in out
    assert json.loads(outs[0].read_text())["results"][0]["input_label"] == ESCAPED
    assert ESCAPED in outs[1].read_text(encoding="utf-8")
    assert load_workbook(outs[2])["Results"].cell(2, 1).value == "rc4 [cryptography]"


# --- 4. the chunk: capped, and never more than the input needs --------------------------------


def test_chunk_is_capped(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(UserError, match="at most 64 MiB"):
        check_options(BenchOptions(data_mode="stream", chunk_bytes=MAX_CHUNK_BYTES + 64))
    check_options(BenchOptions(data_mode="stream", chunk_bytes=MAX_CHUNK_BYTES))
    code, _, err = run(capsys, "bench", "--size", "1KB", "--cipher", "rc4", "--chunk", "128MiB")
    assert_one_line_error(code, err)
    assert "at most 64 MiB" in err


def _input(size: int) -> InputSpec:
    return InputSpec("/nowhere", "x", size, 0)


def test_each_job_uses_no_more_chunk_than_its_input_needs() -> None:
    specs = [lookup("rc4", "cryptography"), lookup("aes-128-cbc", "cryptography")]
    stream = BenchOptions(data_mode="stream", chunk_bytes=MIB)
    small = make_jobs(specs, _input(5000), stream)
    assert [j.options.chunk_bytes for j in small] == [5000, 5008]  # rounded up to 16-byte blocks
    big = make_jobs(specs, _input(10 * MIB), stream)
    assert [j.options.chunk_bytes for j in big] == [MIB, MIB]
    memory = make_jobs(specs, _input(5000), BenchOptions(chunk_bytes=MIB))
    assert [j.options.chunk_bytes for j in memory] == [MIB, MIB]  # unused, left as asked


def test_report_and_exports_show_the_chunk_and_repetitions_used(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = tmp_path / "small.bin"
    data.write_bytes(os.urandom(5000))
    outs = [tmp_path / "r.json", tmp_path / "r.csv"]
    code, out, err = run(
        capsys, "bench", data, "--cipher", "rc4", "--cipher", "aes-128-cbc", *QUICK,
        "--repeat", "2", "--data-mode", "stream", "--chunk", "1MiB",
        "--out", outs[0], "--out", outs[1],
    )  # fmt: skip
    assert code == 0, err
    results = json.loads(outs[0].read_text())["results"]
    assert [r["chunk_bytes"] for r in results] == [5000, 5008]
    with open(outs[1], newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["chunk_bytes"] for r in rows] == ["5000", "5008"]
    assert "stream chunks of 5,000 bytes or 5,008 bytes" in out
    # Tiny inputs repeat until 0.1 s: the report shows the real counts, not "at least 2".
    counts = sorted(len(r["encrypt"]["samples_s"]) for r in results)
    shown = str(counts[0]) if counts[0] == counts[1] else f"{counts[0]}..{counts[1]}"
    assert f"; {shown} timed repetitions" in out and "at least" not in out


# --- 5. --repeat and --warmup bounded ------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--repeat", "1001", "at most 1000"),
        ("--repeat", "0", "at least 1"),
        ("--repeat", "9" * 400, "at most 1000"),
        ("--repeat", "9" * 5000, "not a whole number"),
        ("--repeat", "abc", "not a whole number"),
        ("--warmup", "101", "at most 100"),
        ("--warmup", "-1", "at least 0"),
        ("--warmup", "1.5", "not a whole number"),
        ("--key-bits", "9" * 400, "at most 4096"),
    ],
)
def test_counts_are_bounded_with_one_line(
    capsys: pytest.CaptureFixture[str], option: str, value: str, said: str
) -> None:
    code, _, err = run(capsys, "bench", "--size", "1KB", "--cipher", "bf-cbc", f"{option}={value}")
    assert_one_line_error(code, err)
    assert option in err and said in err


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"repeat": 1001}, "at most 1000"),
        ({"warmup": 101}, "at most 100"),
        ({"repeat": 0}, "at least 1"),
    ],
)
def test_check_options_bounds_the_counts(changes: dict[str, int], said: str) -> None:
    with pytest.raises(UserError, match=said):
        check_options(dataclasses.replace(BenchOptions(), **changes))


def test_report_shows_the_repetitions_of_each_job() -> None:
    text = format_results(small_run(small_job(samples=3), small_job(samples=231, cipher="rc4")))
    assert "; 3..231 timed repetitions" in text
    header = next(line for line in text.splitlines() if line.startswith("CIPHER"))
    assert header.split()[4] == "N"
    rows = [line.split() for line in text.splitlines() if line.startswith(("aes-", "rc4 "))]
    assert [r[4] for r in rows[:2]] == ["3", "231"]


# --- 7. --cipher all with one library -----------------------------------------------------------


@pytest.mark.parametrize("library", ["cryptography", "pycryptodome", "pyaes"])
def test_cipher_all_takes_what_the_library_offers(library: str) -> None:
    args = cli.build_parser().parse_args(["bench", "--cipher", "all", "--library", library])
    specs = cli_bench._resolve_specs(args)
    assert specs == [s for s in REGISTRY if s.library == library]
    assert select(["all"], library) == specs


def test_a_named_cipher_must_still_be_offered() -> None:
    with pytest.raises(UserError, match="not offered by pyaes"):
        registry.select(["all", "chacha20-poly1305"], "pyaes")
    with pytest.raises(UserError, match="unknown library"):
        registry.select(["all"], "nope")


# --- 8. the memory shortfall advises stream mode only in memory mode ----------------------------


def _job(data_mode: str) -> Job:
    options = BenchOptions(data_mode=data_mode)
    return Job("aes-128-ctr", "cryptography", 128, _input(10 * MIB), options)


def test_memory_shortfall_advice_fits_the_mode() -> None:
    said = memory_mode_shortfall(_job("memory"), available=0)
    assert said is not None and "stream" in said
    assert memory_mode_shortfall(_job("stream"), available=0) is None
    message, _ = isolation.failure_message(_job("stream"), MemoryError())
    assert "stream data mode" not in message
    message, _ = isolation.failure_message(_job("memory"), MemoryError())
    assert "stream data mode" in message


# --- 2. (units) sizes beyond any disk ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [("9" * 400, "too large"), ("1." + "0" * 399 + "1", "not a whole number"), ("2EB", "unit")],
)
def test_parse_size_refuses_huge_and_overlong(text: str, said: str) -> None:
    with pytest.raises(UserError, match=said) as info:
        parse_size(text)
    assert len(str(info.value)) < 200


def test_parse_size_is_exact() -> None:
    assert parse_size(str(2**53 + 1)) == 2**53 + 1  # a float would say 2**53
    assert parse_size("1.5KiB") == 1536
    assert parse_size("0.0000000000009094947017729282379150390625TiB") == 1


# --- 9. an empty value is refused, never taken for "not given" (issue 17) ------------------------


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        # The preset's own sizes ran instead (exit 0).
        (["study", "aes-key-sizes", "--sizes", ""], "give at least one size"),
        (["study", "aes-key-sizes", "--sizes", " "], "give at least one size"),
        (["study", "aes-key-sizes", "--sizes", " , ,"], "give at least one size"),
        # Skipped: nothing saved, and nothing said.
        (["study", "aes-key-sizes", "--sizes", "1KB", "--save-definition", ""], "empty name"),
        (["study", "aes-key-sizes", "--sizes", "1KB", "--out", ""], "empty name"),
        (["study", "aes-key-sizes", "--files", ""], "an input file name is empty"),
        (["study", "aes-key-sizes", "--files", "{data}", ""], "an input file name is empty"),
        # Ignored: only the --cipher ran.
        (["bench", "--size", "1KB", "--cipher", "rc4", "--preset", ""], "unknown preset ''"),
        (["bench", "--size", "1KB", "--cipher", ""], "the cipher id is empty"),
        (["bench", "--size", "1KB", "--cipher", " "], "the cipher id is empty"),
        (["bench", "--size", "1KB", "--cipher", "rc4", "--out", ""], "empty name"),
        (["bench", "", "--cipher", "rc4"], "an input file name is empty"),  # was ". is a folder"
        (["bench", "{data}", "", "--cipher", "rc4"], "an input file name is empty"),
        # Generated data was sent instead of the FILE "".
        (["transfer", "", "--size", "1KB"], "not both"),
        (["transfer", ""], "an input file name is empty"),
        (["transfer", "--size", "1KB", "--cipher", ""], "the cipher id is empty"),
        (["transfer", "--size", "1KB", "--out", ""], "empty name"),
    ],
)
def test_an_empty_value_is_one_sentence_before_any_run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
    said: str,
) -> None:
    data = tmp_path / "data.bin"
    data.write_bytes(os.urandom(1000))
    monkeypatch.chdir(tmp_path)
    started = forbid_workers(monkeypatch)
    code, _, err = run(capsys, *(a.format(data=data) for a in argv), "--no-history", "--quiet")
    assert_one_line_error(code, err)
    assert said in err and "'.'" not in err and " . " not in err
    assert started == []
    assert os.listdir(tmp_path) == ["data.bin"]


# --- 10. an unknown preset is said alone (issue 17) ---------------------------------------------


@pytest.mark.parametrize(
    "extra", [[], ["--size", "1KB"], ["--size", "1KB", "--key-bits", "128"]], ids=str
)
def test_an_unknown_preset_is_named_with_the_known_ones(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, extra: list[str]
) -> None:
    """It said "--key-bits None does not fit --preset nope: unknown preset ..."."""
    started = forbid_workers(monkeypatch)
    code, _, err = run(capsys, "bench", "--preset", "nope", *extra)
    assert_one_line_error(code, err)
    assert err.startswith("cipherbench: error: unknown preset 'nope'; choose from ")
    assert "--key-bits" not in err and "None" not in err
    assert all(p.name in err for p in PRESETS)
    assert started == []


def test_a_file_names_control_characters_are_shown_not_obeyed_in_its_label(tmp_path: Path) -> None:
    """A newline in a file name forged a line of the report ("Input: new" then "line.bin,
    20,000 bytes"), and the window showed it raw: the label writes it as \\x0a everywhere."""
    path = tmp_path / "new\nline\t\x1b[31mred\u202e.bin"
    path.write_bytes(b"x" * 100)
    spec = inspect_file(str(path))
    assert spec.label == "new\\x0aline\\x09\\x1b[31mred\\u202e.bin"
    assert Path(spec.path).read_bytes() == b"x" * 100  # the file itself, opened by its name
