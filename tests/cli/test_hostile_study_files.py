"""Hostile study files are refused in one line, quickly, before anything is measured: a link to
a device, a named pipe, a file larger than a study can be, arrays nested 100,000 deep, a dotted
key of 100,000 parts."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hostile import assert_one_line_error, forbid_workers, run


def _link_to_zero(path: Path) -> None:
    os.symlink("/dev/zero", path)


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _large(path: Path) -> None:
    path.write_text("# " + "x" * (2**20 + 10) + "\n")


def _deep(path: Path) -> None:
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")


def _dotted(path: Path) -> None:
    path.write_text(".".join(["a"] * 100_000) + " = 1\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX files")
@pytest.mark.parametrize(
    "make,says",
    [
        (_link_to_zero, "is a device, not a study file"),
        (_fifo, "is a named pipe, not a study file"),
        (_large, "larger than a study file can be"),
        (_deep, "nest too deeply"),
        (_dotted, "a key of more than 64 parts"),
    ],
)
def test_a_hostile_study_file_is_one_line_within_two_seconds(
    make, says, tmp_path, capsys, monkeypatch
) -> None:
    started = forbid_workers(monkeypatch)
    path = tmp_path / "x.toml"
    make(path)
    begun = time.monotonic()
    code, _, err = run(capsys, "study", path)
    assert time.monotonic() - begun < 2.0
    assert_one_line_error(code, err)
    assert says in err and not started


STUDY = 'name = "s"\nsizes = ["1 KB"]\n[[cipher]]\nid = "aes-128-ctr"\n'
PUBLISHED = '[[published]]\ncipher = "aes-128-ctr"\ninput = "1 KB"\nquantity = "encrypt_s"\n'


@pytest.mark.parametrize(
    "text,says",
    [
        ("data_seed = 99999999999999999999\n" + STUDY, "larger than a study can hold"),
        (STUDY + PUBLISHED + 'value = nan\nunit = "s"\n', "finite numbers only"),
        (STUDY + PUBLISHED + 'value = inf\nunit = "s"\n', "finite numbers only"),
    ],
)
def test_what_a_study_cannot_export_it_refuses_up_front(
    text, says, tmp_path, capsys, monkeypatch
) -> None:
    """A study its own export could not be imported from (a seed beyond 64 bits, a published
    figure that is not finite) is refused before it runs."""
    started = forbid_workers(monkeypatch)
    path = tmp_path / "s.toml"
    path.write_text(text)
    code, _, err = run(capsys, "study", path)
    assert_one_line_error(code, err)
    assert says in err and not started


def test_a_grid_of_hours_asks_first_and_a_script_is_told_to_say_yes(
    tmp_path, capsys, monkeypatch
) -> None:
    started = forbid_workers(monkeypatch)
    sizes = ", ".join(f'"{n} B"' for n in range(1, 20_001))
    path = tmp_path / "wide.toml"
    path.write_text(f'name = "wide"\nsizes = [{sizes}]\n[[cipher]]\nid = "aes-128-ctr"\n')
    begun = time.monotonic()
    code, _, err = run(capsys, "study", path)
    assert time.monotonic() - begun < 2.0
    assert_one_line_error(code, err)
    assert "runs 20,000 cells" in err and "hours" in err and "--yes" in err and not started


def test_rerun_asks_before_reading_files_outside_the_exports_folder(
    tmp_path, capsys, monkeypatch
) -> None:
    from app.core.kinds import formats
    from tests.core.publish_factories import made_study

    started = forbid_workers(monkeypatch)
    export = tmp_path / "received.json"
    formats.save(made_study(files=(("id_ed25519", 400),)), export)  # names /data/id_ed25519
    code, _, err = run(capsys, "rerun", export)
    assert_one_line_error(code, err)
    assert "outside its folder (/data/id_ed25519)" in err and "--yes" in err and not started
