"""``history`` on the command line, end to end with real small runs: every finished bench,
study and transfer is stored (unless --no-history), listed in 80 columns, shown, compared,
exported, imported and deleted; faults are one line and never fail a benchmark."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from disk_full import disk_full, needs_rlimit

from app.cli import main as cli

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs")

BENCH = ["bench", "--size", "64KB", "--cipher", "aes-128-ctr", "--library", "cryptography"]
BENCH += ["--repeat", "3"]


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bench_runs_are_stored_listed_shown_and_compared(capsys, history_db: Path) -> None:
    code, _, err = run(capsys, *BENCH)
    assert code == 0 and "saved to history as run 1" in err
    code, _, err = run(capsys, *BENCH, "--cipher", "aes-256-gcm")
    assert code == 0 and "saved to history as run 2" in err
    assert history_db.exists()

    code, out, _ = run(capsys, "history", "list")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3 and max(map(len, lines)) <= 80
    assert lines[0].split() == ["ID", "DATE", "MACHINE", "KIND", "INPUT", "CIPHERS"]
    assert lines[1].split()[0] == "1" and lines[1].endswith("bench     random 64 KB  aes-128-ctr")
    assert lines[2].endswith("random 64 KB  aes-128-ctr, aes-256-gcm")
    code, out, _ = run(capsys, "history", "list", "--json")
    runs = json.loads(out)
    assert [(r["id"], r["kind"], r["ciphers"]) for r in runs] == [
        (1, "bench", ["aes-128-ctr"]),
        (2, "bench", ["aes-128-ctr", "aes-256-gcm"]),
    ]

    code, out, _ = run(capsys, "history", "show", "2")
    assert code == 0 and out.startswith("Run 2: bench, ")
    assert "Input: random 64 KB" in out and "ENC MEDIAN" in out and "aes-256-gcm" in out

    code, out, _ = run(capsys, "history", "compare", "1", "2")
    assert code == 0 and max(map(len, out.splitlines())) <= 80
    assert "aes-128-ctr [cryptography] on random 64 KB" in out
    assert "RATIO" in out and "95 % CI" in out and "encrypt" in out and "decrypt" in out
    assert "Only in run 2: aes-256-gcm [cryptography] on random 64 KB" in out
    code, out, _ = run(capsys, "history", "compare", "1", "2", "--json")
    doc = json.loads(out)
    (job,) = doc["jobs"]
    assert [d["direction"] for d in job["directions"]] == ["encrypt", "decrypt"]
    # A plain bench runs each job in one worker: one round a side, so no interval.
    assert all(d["ci_low"] is None and d["verdict"] == "too few rounds" for d in job["directions"])
    assert doc["run_a"]["id"] == 1 and doc["run_b"]["id"] == 2


def test_export_import_delete_and_path(capsys, tmp_path: Path, monkeypatch, history_db) -> None:
    run(capsys, *BENCH)
    out_file = tmp_path / "run1.json"
    code, _, err = run(capsys, "history", "export", "1", "--out", str(out_file))
    assert code == 0 and f"wrote {out_file}" in err
    assert json.loads(out_file.read_text())["format"] == "cipherbench-results"

    other = tmp_path / "other" / "history.sqlite3"
    monkeypatch.setenv("CIPHERBENCH_HISTORY", str(other))
    code, out, _ = run(capsys, "history", "path")
    assert code == 0 and out.strip() == str(other)
    code, out, _ = run(capsys, "history", "import", str(out_file))
    assert code == 0 and out.startswith("imported as run 1: aes-128-ctr on random 64 KB")
    code, out, _ = run(capsys, "history", "list")
    assert "(imported) aes-128-ctr" in out
    code, _, err = run(capsys, "history", "import", str(out_file))
    assert code == 2 and "is already in the history as run 1" in err
    code, _, err = run(capsys, "history", "delete", "1")
    assert code == 0 and "deleted run 1" in err
    code, out, err = run(capsys, "history", "list")
    assert code == 0 and out == "" and "no runs in the history yet" in err
    code, _, err = run(capsys, "history", "delete", "1")
    assert code == 2 and err.strip() == "cipherbench: error: there is no run 1 in the history"


def test_no_history_stores_nothing(capsys, monkeypatch, history_db: Path) -> None:
    code, _, err = run(capsys, *BENCH, "--no-history")
    assert code == 0 and "saved to history" not in err
    monkeypatch.setenv("CIPHERBENCH_NO_HISTORY", "1")
    code, _, err = run(capsys, *BENCH)
    assert code == 0 and "saved to history" not in err
    assert not history_db.exists()


@pytest.mark.usefixtures("in_process_transfers")
def test_studies_and_transfers_are_stored_too(capsys, history_db: Path, tmp_path: Path) -> None:
    study = ["study", "aes-key-sizes", "--sizes", "2KB", "--repeat", "1", "--rounds", "1"]
    code, _, err = run(capsys, *study, "--quiet")
    assert code == 0 and err == ""  # --quiet: stored without a word
    code, _, err = run(capsys, *study, "--no-history")
    assert code == 0 and "saved to history" not in err
    transfer = ["transfer", "--size", "50KB", "--repeat", "2", "--warmup", "0"]
    code, _, err = run(capsys, *transfer, "--cipher", "aes-256-gcm")
    assert code == 0 and "saved to history as run 2" in err
    code, _, err = run(capsys, *transfer, "--no-history")
    assert code == 0 and "saved to history" not in err
    code, out, _ = run(capsys, "history", "list", "--json")
    assert [r["kind"] for r in json.loads(out)] == ["study", "transfer"]
    code, out, _ = run(capsys, "history", "show", "1")
    assert code == 0 and "Study aes-key-sizes" in out and "Input: 2 KB" in out
    code, out, _ = run(capsys, "history", "show", "2")
    assert code == 0 and "Transfer of random 50 KB over 127.0.0.1" in out
    assert "aes-256-gcm" in out
    # A stored study's paper set, as its own --out FOLDER/ would have written it.
    code, _, err = run(capsys, "history", "export", "1", "--out", f"{tmp_path}/kit/")
    written = {p.name for p in (tmp_path / "kit").iterdir()}
    assert code == 0 and {"aes-key-sizes.md", "aes-key-sizes-time.pdf", "methods.txt"} <= written
    assert err.count("wrote ") == len(written)
    assert "Table 2 as the paper printed it" in (tmp_path / "kit/aes-key-sizes.md").read_text()


@pytest.mark.usefixtures("in_process_transfers")
def test_a_study_of_transfers_is_stored_and_shown(capsys) -> None:
    code, _, err = run(
        capsys, "study", "gcm-vs-chacha", "--sizes", "10KB", "--repeat", "3", "--rounds", "3",
        "--time-budget", "0",
    )  # fmt: skip
    assert code == 0 and "saved to history as run 1" in err
    code, out, _ = run(capsys, "history", "show", "1")
    assert code == 0 and "Loopback transfers" in out and "chacha20-poly1305" in out
    code, out, _ = run(capsys, "history", "compare", "1", "1")
    assert code == 0 and "transfer" in out and "compared with itself" in out


def test_a_history_that_cannot_store_is_a_warning_not_a_failure(
    capsys, tmp_path: Path, monkeypatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("CIPHERBENCH_HISTORY", str(blocker / "history.sqlite3"))
    code, out, err = run(capsys, *BENCH)
    assert code == 0 and "aes-128-ctr" in out
    assert "cipherbench: warning: the run was not stored in the history: cannot open" in err
    assert "Traceback" not in err


def test_a_newer_history_is_read_only_and_a_damaged_one_set_aside(capsys, history_db: Path) -> None:
    run(capsys, *BENCH)
    conn = sqlite3.connect(history_db)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    code, _, err = run(capsys, *BENCH)
    assert code == 0 and "newer CipherBench" in err and "not stored" in err
    code, out, err = run(capsys, "history", "list")
    assert code == 0 and "read-only" in err and len(out.splitlines()) == 2

    for name in ("history.sqlite3-wal", "history.sqlite3-shm"):
        (history_db.parent / name).unlink(missing_ok=True)
    history_db.write_bytes(b"this is not a database" * 100)
    code, out, err = run(capsys, "history", "list")
    assert code == 0 and "was damaged" in err and "set aside" in err and out == ""
    assert len(list(history_db.parent.glob("history.sqlite3.corrupt-*"))) == 1


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["history", "show", "99"], "there is no run 99 in the history"),
        (["history", "show", "abc"], "not a run id: 'abc'"),
        (["history", "compare", "1"], "the following arguments are required: ID_B"),
        (["history"], "the following arguments are required: ACTION"),
        (["history", "export", "1"], "the following arguments are required: --out"),
    ],
)
def test_bad_input_is_one_line(capsys, argv, said) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("cipherbench: error: ") and said in err and len(err.splitlines()) == 1


def test_importing_other_files_is_refused(capsys, tmp_path: Path) -> None:
    for name, content in (("p.json", b'{"name": "x"}'), ("i.png", b"\x89PNG\r\n\x1a\n")):
        path = tmp_path / name
        path.write_bytes(content)
        code, out, err = run(capsys, "history", "import", str(path))
        assert code == 2 and out == "" and len(err.splitlines()) == 1
        assert err.startswith(f"cipherbench: error: cannot import {path}: it is not a CipherBench")


def test_bench_in_rounds_gives_speed_ups_and_comparisons_with_intervals(
    capsys, history_db: Path
) -> None:
    """--rounds 4: the speed-up against the slowest carries its interval over the rounds, and
    two such runs compare with a verdict (plain bench runs have one round: no interval)."""
    argv = ["bench", "--size", "16KB", "--cipher", "aes-128-ctr", "--cipher", "rc4"]
    argv += ["--library", "cryptography", "--repeat", "8", "--rounds", "4", "--no-memory"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "in 4 rounds (each job in a fresh worker per round" in out
    assert "(95 % CI over 4 rounds, each job a fresh worker per round)" in out
    code, out, err = run(capsys, *argv)
    assert code == 0
    code, out, _ = run(capsys, "history", "compare", "1", "2", "--json")
    doc = json.loads(out)
    for job in doc["jobs"]:
        for d in job["directions"]:
            assert d["rounds_a"] == d["rounds_b"] == 4
            assert d["ci_low"] <= d["ratio"] <= d["ci_high"]
            assert d["verdict"] != "too few rounds"
    code, out, _ = run(capsys, *argv[:-3], "--no-memory")  # one round: says how to get one
    assert "no interval: 1 round per job; --rounds 4 or more" in out


# --- issue 17: bad input is one sentence and exit 2, never an internal error -----------------

HUGE_ID = "9" * 40


@pytest.mark.parametrize(
    "argv",
    [
        ["show", HUGE_ID],
        ["delete", HUGE_ID],
        ["export", HUGE_ID, "--out", "never.json"],
        ["compare", "1", HUGE_ID],
        ["compare", HUGE_ID, "1"],
        ["show", str(2**63)],
        ["show", str(2**63 - 1)],
    ],
)
def test_ids_no_run_has_are_one_sentence(capsys, tmp_path: Path, monkeypatch, argv) -> None:
    """An id beyond SQLite's integers was "internal error ... OverflowError", exit 3."""
    from hostile import assert_one_line_error, small_run

    from app.core.history.store import History

    with History.open() as h:
        h.record(small_run())
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "history", *argv)
    assert_one_line_error(code, err)
    missing = next(a for a in argv[1:] if a != "1")
    assert err.strip() == f"cipherbench: error: there is no run {missing} in the history"
    assert out == "" and not (tmp_path / "never.json").exists()


def test_an_id_of_thousands_of_digits_names_no_run(capsys) -> None:
    code, _, err = run(capsys, "history", "show", "9" * 5000)
    assert code == 2 and err.strip() == (
        "cipherbench: error: there is no run 99999999999999999999... (5,000 digits) in the history"
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("key_bits", "1" + "0" * 400), "results[0].key_bits is a number of 401 digits"),
        (("input_bytes", str(2**70)), "results[0].input_bytes is 1180591620717411303424, too"),
        (("median_s", "NaN"), "results[0].encrypt.median_s is NaN"),
        (("median_s", "Infinity"), "results[0].encrypt.median_s is Infinity"),
        (("input_bytes", "-1"), "results[0].input_bytes is -1: a size in bytes cannot be neg"),
        (("cipher", json.dumps("A" * 10_000_000)), "results[0].cipher is 10,000,000 characters"),
    ],
)
def test_imports_holding_impossible_values_are_refused(
    capsys, tmp_path: Path, history_db: Path, change, said
) -> None:
    """NaN, Infinity and 10^400 were internal errors (exit 3); a negative size and a 10 MB
    cipher name were imported, and `history show` then printed 130 MB."""
    from hostile import assert_one_line_error, small_run

    from app.core.history.store import History

    good = tmp_path / "good.json"
    with History.open(tmp_path / "other.sqlite3") as other:
        other.export(other.record(small_run()), good)
    doc = json.loads(good.read_text())
    key, literal = change
    job = doc["results"][0]
    (job["encrypt"] if key == "median_s" else job)[key] = "@@"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc).replace('"@@"', literal, 1), encoding="utf-8")
    code, out, err = run(capsys, "history", "import", str(bad))
    assert_one_line_error(code, err)
    assert err.startswith(f"cipherbench: error: cannot import {bad}: {said}")
    code, out, _ = run(capsys, "history", "list", "--json")
    assert code == 0 and json.loads(out) == []


def test_a_negative_schema_version_is_set_aside(capsys, history_db: Path) -> None:
    """It failed with "table runs already exists" at every command."""
    from hostile import small_run

    from app.core.history.store import History

    with History.open() as h:
        h.record(small_run())
        h._conn.execute("PRAGMA user_version = -1")
    code, out, err = run(capsys, "history", "list")
    assert code == 0 and out == ""
    assert "was damaged (impossible schema version -1)" in err and "set aside" in err
    code, out, err = run(capsys, "history", "list")
    assert code == 0 and out == "" and "damaged" not in err
    assert len(list(history_db.parent.glob("history.sqlite3.corrupt-*"))) == 1


@needs_rlimit
def test_a_full_disk_is_said_and_the_history_still_read(
    capsys, tmp_path: Path, monkeypatch, history_db: Path
) -> None:
    """`history list` failed with "disk I/O error" on a full disk."""
    from hostile import small_run

    from app.core.history.store import History

    with History.open() as h:
        h.record(small_run())
    out_file = tmp_path / "run1.json"
    warning = f"cipherbench: warning: the disk holding the history {history_db} is full ("
    with disk_full(monkeypatch):
        listing = run(capsys, "history", "list")
        shown = run(capsys, "history", "show", "1")
        exported = run(capsys, "history", "export", "1", "--out", str(out_file))
        deleted = run(capsys, "history", "delete", "1")
    for code, _, err in (listing, shown, exported):
        assert code == 0 and err.startswith(warning) and "open read-only" in err
    assert listing[1].splitlines()[1].split()[0] == "1"
    assert shown[1].startswith("Run 1: bench, ")
    assert json.loads(out_file.read_text())["history"]["id"] == 1
    code, _, err = deleted
    assert code == 2 and err.startswith("cipherbench: error: the disk holding the history")
    assert len(err.splitlines()) == 1
    code, out, err = run(capsys, "history", "list")
    assert code == 0 and err == "" and len(out.splitlines()) == 2


# --- issue 20: which inputs each run had --------------------------------------------------------


def test_the_list_says_each_runs_input_so_runs_on_other_files_differ(
    capsys, tmp_path: Path
) -> None:
    """Two runs of the same cipher on different files looked identical in the list."""
    files = []
    for name in ("thesis.pdf", "notes.txt", "photo.jpg"):
        files.append(tmp_path / name)
        files[-1].write_bytes(b"x" * 3000)
    quick = ["--cipher", "aes-128-ctr", "--library", "cryptography", "--repeat", "1", "--quiet"]
    assert run(capsys, "bench", str(files[0]), *quick)[0] == 0
    assert run(capsys, "bench", *map(str, files), *quick)[0] == 0
    code, out, _ = run(capsys, "history", "list")
    head, first, second = out.splitlines()
    assert code == 0 and max(map(len, out.splitlines())) <= 80
    assert head.split()[4:] == ["INPUT", "CIPHERS"]
    assert "thesis.pdf  " in first and "notes.txt" not in first
    assert "thesis.pdf, notes.txt +1" in second or "thesis.pdf +2" in second
    code, out, _ = run(capsys, "history", "list", "--json")  # unchanged: every input
    assert [r["inputs"] for r in json.loads(out)] == [
        ["thesis.pdf"],
        ["thesis.pdf", "notes.txt", "photo.jpg"],
    ]


def test_long_and_many_inputs_stay_within_the_width() -> None:
    from app.cli.history_format import format_list
    from app.core.history.records import RunSummary

    def summary(run_id: int, inputs: list[str], ciphers: list[str], machine: str = "vm") -> Any:
        return RunSummary(
            run_id, "study", "t", "2026-11-01T10:00:00+00:00", "", "", machine, None,
            tuple(ciphers), tuple(inputs), "here", False, None,
        )  # fmt: skip

    runs = [
        summary(1, ["random 10 MB"], ["aes-256-gcm"]),
        summary(2, ["a.txt", "b.pdf", "c.zip", "d.bin"], ["aes-128-cbc", "aes-192-cbc"]),
        summary(3, ["a-very-long-name-of-the-final-thesis-2026.pdf"], ["rc4"], "a-long-hostname"),
        summary(4, [], []),
    ]
    for width in (80, 100, 60):
        lines = format_list(runs, width)
        assert max(map(len, lines)) <= width, (width, lines)
    wide = format_list(runs, 120)
    assert "random 10 MB" in wide[1] and "a.txt, b.pdf, c.zip, d.bin" in wide[2]
    narrow = format_list(runs, 80)
    assert "a.txt, b.pdf +2" in narrow[2] or "a.txt +3" in narrow[2]
    assert ".pdf" in narrow[3] and "..." in narrow[3]  # the start and the extension kept
    # An imported run's names hold escapes: written out first, the columns stay in line.
    hostile = [
        summary(5, ["\x1b[31mred.bin"], ["aes-128-ctr"], "evil\x1b]0;pwned\x07\nID  fake"),
        summary(6, ["plain.bin"], ["aes-128-ctr"]),
    ]
    lines = format_list(hostile, 100)
    assert not any(c in "".join(lines) for c in "\n\x1b\x07")
    assert lines[1].index("study") == lines[2].index("study")  # the KIND column in line
