"""Output names of a whole run (issue 17): every --out target is checked before the run starts,
so that a target found unusable never costs the results (with --no-history, nothing else keeps
them); and a target name of 255 bytes, legal on Linux, is written by every command, since no
writer stages under a name longer than its target's."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from hostile import assert_one_line_error, forbid_workers, run

from app.core.runtime import safe_files
from app.core.runtime.staging_names import STAGING_PREFIX

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs", "cheap_kdf")
# The data fixture and the cheap key derivation: tests/cli/conftest.py.

NAME_MAX = 255  # bytes in one name: Linux, and most file systems elsewhere
QUICK = ["--repeat", "1", "--no-history", "--quiet"]
COMMANDS = {
    "bench": ["bench", "{data}", "--cipher", "rc4", "--library", "cryptography", "--warmup", "0"],
    "study": ["study", "aes-key-sizes", "--files", "{data}", "--rounds", "1", "--max-rounds", "1"],
    "transfer": ["transfer", "{data}", "--warmup", "0"],
}


def long_name(folder: Path, tag: str, ext: str = "") -> Path:
    """``folder/<tag>nnn...<ext>``, the name exactly :data:`NAME_MAX` bytes long."""
    return folder / (tag + "n" * (NAME_MAX - len(tag) - len(ext)) + ext)


# --- 4. every --out target is checked before the run ------------------------------------------


def _refusal(problem: str, tmp_path: Path, data: Path) -> tuple[list[object], str]:
    """The --out options that show ``problem``, and what the one line says about it."""
    if problem == "missing folder":
        return ["--out", tmp_path / "nowhere" / "r.json"], "does not exist"
    if problem == "read-only folder":
        return ["--out", tmp_path / "ro" / "r.json"], "permission denied"
    if problem == "a folder":
        return ["--out", tmp_path / "adir.json"], "it is a folder"
    if problem == "unknown suffix":
        return ["--out", tmp_path / "r.docx"], "the extension '.docx' is not supported"
    if problem == "name too long":
        return ["--out", tmp_path / ("r" * NAME_MAX + ".json")], "file name too long"
    if problem == "given twice":
        twice = tmp_path / "adir.json" / ".." / "r.csv"
        return ["--out", tmp_path / "r.csv", "--out", "r.json", "--out", twice], "given twice"
    if problem == "the input":
        return ["--out", tmp_path / "r.json", "--out", data], "is the input file"
    raise AssertionError(problem)


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    "problem",
    [
        "missing folder",
        "read-only folder",
        "a folder",
        "unknown suffix",
        "name too long",
        "given twice",
        "the input",
    ],
)
def test_every_out_target_is_checked_before_the_run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    data: Path,
    command: str,
    problem: str,
) -> None:
    """`--out r.csv --out ./r.csv` ran everything and wrote the file twice; the rest must fail
    as fast: one sentence, exit 2, and no worker started."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir.json").mkdir()
    read_only = tmp_path / "ro"
    read_only.mkdir(mode=0o555)
    if os.access(read_only, os.W_OK):  # root writes anywhere: the check is what is tested
        real_access = os.access
        refused = str(read_only)
        monkeypatch.setattr(
            os, "access", lambda p, mode, **kw: p != refused and real_access(p, mode, **kw)
        )
    before = sorted(os.listdir(tmp_path))
    started = forbid_workers(monkeypatch)
    outs, said = _refusal(problem, tmp_path, data)
    argv = [a.format(data=data) for a in COMMANDS[command]]
    code, out, err = run(capsys, *argv, *QUICK, *outs)
    assert_one_line_error(code, err.replace("r" * NAME_MAX, "r...r"))  # a name it must echo
    assert said in err and out == ""
    assert started == []  # the run never began
    assert sorted(os.listdir(tmp_path)) == before and os.listdir(read_only) == []


def test_a_study_definition_is_never_saved_over_an_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`study ... --files grid.toml --save-definition grid.toml` replaced the data measured
    with the definition, then measured that."""
    data = tmp_path / "grid.toml"
    data.write_bytes(b"measured data\n" * 100)
    before = data.read_bytes()
    started = forbid_workers(monkeypatch)
    argv = ["study", "aes-key-sizes", "--files", data, "--save-definition", data, *QUICK]
    code, _, err = run(capsys, *argv)
    assert_one_line_error(code, err)
    assert "is the input file" in err and started == []
    assert data.read_bytes() == before


# --- 3. a 255-byte output name is written by every command -------------------------------------


def _write_everything(capsys: pytest.CaptureFixture[str], folder: Path, data: Path) -> list[Path]:
    """Every kind of output, each under a name of 255 bytes; returns them."""
    written: list[Path] = []

    def ok(*argv: object) -> None:
        code, _, err = run(capsys, *argv)
        assert code == 0, err

    sealed, opened = long_name(folder, "enc"), long_name(folder, "dec")
    ok("encrypt", data, "-o", sealed, "--password-env", "CB_PASSWORD")
    ok("decrypt", sealed, "-o", opened, "--password-env", "CB_PASSWORD")
    raw, key, raw_opened = (long_name(folder, tag) for tag in ("raw", "key", "rdec"))
    ok("encrypt", data, "-o", raw, "--raw", "--key-out", key)
    ok("decrypt", raw, "-o", raw_opened, "--raw", "--key-in", key)
    keyed, key_file = long_name(folder, "kenc"), long_name(folder, "kfile")
    ok("encrypt", data, "-o", keyed, "--new-key-file", key_file)
    assert opened.read_bytes() == raw_opened.read_bytes() == data.read_bytes()
    written += [sealed, opened, raw, key, raw_opened, keyed, key_file]
    for command, exts in (
        ("bench", [".json", ".csv", ".xlsx"]),
        ("study", [".json", ".csv", ".xlsx", ".html"]),
        ("transfer", [".json", ".csv", ".xlsx"]),
    ):
        outs = [long_name(folder, command, ext) for ext in exts]
        extra: list[object] = [a for out in outs for a in ("--out", out)]
        if command == "study":
            outs.append(long_name(folder, "def", ".toml"))
            extra += ["--save-definition", outs[-1]]
        argv = [a.format(data=data) for a in COMMANDS[command]]
        ok(*argv, "--repeat", "1", "--quiet", *extra)
        written += outs
    exported = long_name(folder, "history", ".json")
    ok("history", "export", "1", "--out", exported)
    assert json.loads(exported.read_text(encoding="utf-8"))
    return [*written, exported]


@pytest.mark.skipif(sys.platform != "linux", reason="the 255-byte limit of Linux names")
@pytest.mark.parametrize("staging", ["unnamed", "named"])
def test_every_output_takes_a_name_of_255_bytes(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    data: Path,
    staging: str,
) -> None:
    """Staged as ``.<name>.<random>.part``, a target name over 240 bytes was refused as "file
    name too long". ``named``: a file system without O_TMPFILE, staged under a short name."""
    if staging == "named":
        monkeypatch.setattr(safe_files, "_O_TMPFILE", 0)
    folder = tmp_path / "out"
    folder.mkdir()
    written = _write_everything(capsys, folder, data)
    assert all(len(os.fsencode(p.name)) == NAME_MAX for p in written)
    assert sorted(os.listdir(folder)) == sorted(p.name for p in written)  # nothing else left
    assert not any(name.startswith(STAGING_PREFIX) for name in os.listdir(folder))
    for path in written:
        assert path.stat().st_size > 0, path.name[:12]
