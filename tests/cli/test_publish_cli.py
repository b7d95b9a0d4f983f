"""``--out x.md`` and ``--out x.tex`` on every command that runs something: a table for a paper
with its Methods, from tiny runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main as cli

# Jobs and sweep rounds run in this process (tests/jobs_here.py, tests/rounds_here.py): these
# tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs", "in_process_rounds")

LOOPBACK_STUDY = """
name = "loop"
workload = "transfer"
sizes = ["10 KB"]
repeat = 1
warmup = 0
rounds = 1
units = "MiB/s"

[[cipher]]
id = "none"
"""
COMMANDS = {
    "bench": (
        ["bench", "--size", "10KB", "--cipher", "aes-128-ctr", "--library", "cryptography",
         "--repeat", "2", "--warmup", "0", "--no-memory"],
        "| Cipher | Library | Mode | Input | Encryption (MB/s) |",
    ),
    "transfer": (
        ["transfer", "--size", "100KB", "--chunk", "64KiB", "--cipher", "none", "--repeat", "1",
         "--warmup", "0"],
        "| Cipher | Library | Throughput (MB/s) | Sender CPU (%) |",
    ),
    "transfer study": (
        ["study", "{study}"],
        "| Cipher | Library | Input | Throughput (MiB/s) |",  # the study's own unit
    ),
    "sweep": (
        ["sweep", "--cipher", "aes-128-ctr", "--library", "cryptography", "--lengths", "64",
         "--rounds", "1", "--no-ad"],
        "| Cipher | Library | Message | Time per call | Throughput (MB/s) |",
    ),
    "ladder": (
        ["ladder", "aes-128-ctr", "--rounds", "1"],
        "| Step | Cipher | Message | Throughput (MB/s) | Cycles per byte |",
    ),
}  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_writes_a_paper_table_with_methods(
    command, capsys, monkeypatch, tmp_path: Path, tmp_path_factory
) -> None:
    from app.core.sweep import plan

    monkeypatch.setattr(plan, "LADDER_BYTES", 16 * 1024)  # a ladder in a second
    monkeypatch.setattr(plan, "PURE_PYTHON_BYTES", 256)
    argv, header = COMMANDS[command]
    study = tmp_path_factory.mktemp("study") / "loop.toml"  # not in the folder checked below
    study.write_text(LOOPBACK_STUDY, encoding="utf-8")
    argv = [str(study) if a == "{study}" else a for a in argv]
    md, tex = tmp_path / "t.md", tmp_path / "t.TEX"
    code = cli.main([*argv, "--quiet", "--no-history", "--out", str(md), "--out", str(tex)])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert f"wrote {md}" in err and f"wrote {tex}" in err
    text = md.read_text(encoding="utf-8")
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert table[0].startswith(header) and "**Methods.** Measurements" in text
    latex = tex.read_text(encoding="utf-8")
    assert r"\bottomrule" in latex and r"\paragraph{Methods.}" in latex
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.TEX", "t.md"]


FIGURE_COMMANDS = {
    "bench": ["bench", "--size", "1KB", "--cipher", "aes-128-ctr", "--library", "cryptography",
              "--repeat", "3", "--warmup", "0", "--no-memory"],
    "transfer": ["transfer", "--size", "64KiB", "--cipher", "none", "--repeat", "1",
                 "--warmup", "0"],
    "sweep": ["sweep", "--cipher", "aes-128-gcm", "--library", "cryptography", "--lengths",
              "16,1350", "--rounds", "1"],
}  # fmt: skip


@pytest.mark.parametrize("command", FIGURE_COMMANDS)
def test_every_command_writes_a_figure(command, capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    out = tmp_path / "out"
    out.mkdir()
    svg = out / "f.svg"
    code = cli.main([*FIGURE_COMMANDS[command], "--quiet", "--no-history", "--out", str(svg)])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert f"wrote {svg}" in err
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert [p.name for p in out.iterdir()] == ["f.svg"]


def test_out_a_folder_writes_the_paper_set_and_a_missing_one_fails_before_the_run(
    capsys, tmp_path: Path
) -> None:
    """`--out kit/` is the paper set, for every command (one writer of outputs); a folder
    whose parent is missing is refused before anything runs."""
    argv = [*FIGURE_COMMANDS["bench"], "--quiet", "--no-history"]
    code = cli.main([*argv, "--out", f"{tmp_path / 'no' / 'kit'}/"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "no folder" in err
    assert not (tmp_path / "no").exists()
    code = cli.main([*argv, "--out", f"{tmp_path / 'kit'}/"])
    _, err = capsys.readouterr()
    assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "kit").iterdir())
    stem = "cipherbench-bench"
    assert names == [*sorted(f"{stem}{s}" for s in (".md", ".pdf", ".svg", ".tex")), "methods.txt"]
    assert f"wrote {tmp_path / 'kit' / 'methods.txt'}" in err
