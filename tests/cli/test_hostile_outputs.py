"""Hostile output paths: an output never replaces an input, is never anything but a regular file
or a new name (``--force`` included), and a name that cannot be looked up is one clear line
(exit 2), never an internal error. Every writer goes through ``output_checks.check_output``."""

from __future__ import annotations

import errno
import gc
import io
import json
import os
import socket
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from disk_full import disk_full, needs_rlimit
from hostile import assert_one_line_error, run, small_job, small_run
from kdf_files import PASSWORD

from app.cli import main as cli
from app.core.errors import UserError
from app.core.export import xlsx_export as export_xlsx
from app.core.kinds import formats
from app.core.runtime.output_checks import NotRegularFileError, check_output, check_paths
from app.core.runtime.safe_files import AtomicOutput, StagedFile

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs", "cheap_kdf")
# The data fixture and the cheap key derivation: tests/cli/conftest.py.

QUICK = ["--cipher", "rc4", "--library", "cryptography", "--repeat", "1", "--warmup", "0"]
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes")
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


@pytest.fixture
def null_link(tmp_path: Path) -> Path:
    """/dev/null as an output, through a link: a regression would replace the link in
    tmp_path, never the device itself (tests may run as root)."""
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    path = tmp_path / "null.json"
    path.symlink_to("/dev/null")
    return path


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    path = tmp_path / "loop.json"
    path.symlink_to(path.name)  # ln -s loop.json loop.json
    return path


def names(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


# --- 1. an output is never an input ---------------------------------------------------------


@pytest.mark.parametrize("spelling", ["same", "symlink", "hardlink", "dotdot"])
def test_bench_never_exports_over_its_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Path, spelling: str
) -> None:
    """`bench data.csv --out data.csv` replaced the input with the results (exit 0)."""
    out = {
        "same": data,
        "symlink": tmp_path / "link.csv",
        "hardlink": tmp_path / "hard.csv",
        "dotdot": tmp_path / "sub" / ".." / "data.csv",
    }[spelling]
    if spelling == "symlink":
        out.symlink_to(data)
    elif spelling == "hardlink":
        os.link(data, out)
    elif spelling == "dotdot":
        (tmp_path / "sub").mkdir()
    before = data.read_bytes()
    code, _, err = run(capsys, "bench", data, *QUICK, "--out", out)
    assert_one_line_error(code, err)
    assert "is the input file" in err
    assert data.read_bytes() == before


def test_raw_decrypt_never_writes_over_its_key_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Path
) -> None:
    ct, key = tmp_path / "ct.bin", tmp_path / "k.json"
    assert run(capsys, "encrypt", data, "-o", ct, "--raw", "--key-out", key)[0] == 0
    key_text = key.read_text()
    code, _, err = run(capsys, "decrypt", ct, "-o", key, "--raw", "--key-in", key, "--force")
    assert_one_line_error(code, err)
    assert "is the input file" in err and key.read_text() == key_text


def test_check_paths_takes_every_input(tmp_path: Path, data: Path) -> None:
    key = tmp_path / "key.json"
    key.write_text("{}")
    (tmp_path / "key-link").symlink_to(key)
    for out in (key, tmp_path / "key-link"):
        with pytest.raises(UserError, match="is the input file"):
            check_paths(data, out, force=True, inputs=[key])
    check_paths(data, tmp_path / "new", force=True, inputs=[key, tmp_path / "missing"])


def test_export_refuses_an_input(tmp_path: Path, data: Path) -> None:
    before = data.read_bytes()
    with pytest.raises(UserError, match=r"cannot write .*data\.csv: it is the input file"):
        formats.save(small_run(), data, inputs=[data])
    assert data.read_bytes() == before


# --- 1. nothing but a regular file or a new name, --force included ---------------------------


def _crypt_argv(kind: str, tmp_path: Path, data: Path, target: Path) -> list[object]:
    enc = tmp_path / "enc.cbf"
    if kind == "bench":
        return ["bench", data, *QUICK, "--out", target]
    if kind == "encrypt":
        return ["encrypt", data, "-o", target, "--password-env", "CB_PASSWORD", "--force"]
    if kind == "decrypt":
        assert (
            cli.main(["encrypt", str(data), "-o", str(enc), "--password-env", "CB_PASSWORD"]) == 0
        )
        return ["decrypt", enc, "-o", target, "--password-env", "CB_PASSWORD", "--force"]
    if kind == "raw-ciphertext":
        return ["encrypt", data, "-o", target, "--raw", "--key-out", tmp_path / "k", "--force"]
    if kind == "raw-key":
        return ["encrypt", data, "-o", tmp_path / "ct", "--raw", "--key-out", target, "--force"]
    if kind == "raw-decrypt":
        key = tmp_path / "k.json"
        argv = ["encrypt", str(data), "-o", str(enc), "--raw", "--key-out", str(key)]
        assert cli.main(argv) == 0
        return ["decrypt", enc, "-o", target, "--raw", "--key-in", key, "--force"]
    if kind == "new-key-file":
        return ["encrypt", data, "-o", tmp_path / "e", "--new-key-file", target, "--force"]
    raise AssertionError(kind)


WRITERS = ["bench", "encrypt", "decrypt", "raw-ciphertext", "raw-key", "raw-decrypt"]


@needs_fifo
@pytest.mark.parametrize("kind", [*WRITERS, "new-key-file"])
def test_every_writer_refuses_a_pipe(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Path, fifo: Path, kind: str
) -> None:
    argv = _crypt_argv(kind, tmp_path, data, fifo)
    capsys.readouterr()
    before = set(names(tmp_path))
    code, _, err = run(capsys, *argv)
    assert_one_line_error(code, err)
    assert "--force" not in err  # no advice that cannot work
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert set(names(tmp_path)) == before  # no key file, no temporary file


def _assert_link_refused(
    capsys: pytest.CaptureFixture[str], kind: str, tmp_path: Path, data: Path, link: Path, says: str
) -> None:
    """Writer ``kind`` told to write to the symbolic link ``link``: one line that ``says`` why,
    no advice to use --force, and the link left as it was."""
    argv = _crypt_argv(kind, tmp_path, data, link)
    capsys.readouterr()
    code, _, err = run(capsys, *argv)
    assert_one_line_error(code, err)
    assert says in err and "--force" not in err
    assert link.is_symlink()


@pytest.mark.parametrize("kind", WRITERS)
def test_every_writer_refuses_dev_null(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Path, null_link: Path, kind: str
) -> None:
    _assert_link_refused(capsys, kind, tmp_path, data, null_link, "a device")


def test_check_output_names_what_it_refuses(tmp_path: Path) -> None:
    if os.path.exists("/dev/null"):
        with pytest.raises(UserError, match=r"/dev/null is a device, not a regular file") as info:
            check_output("/dev/null", force=True)
        assert "--force" not in str(info.value)
    with pytest.raises(UserError, match="is a folder"):
        check_output(tmp_path, force=True)
    if hasattr(socket, "AF_UNIX"):
        path = tmp_path / "s"
        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind(str(path))
            with pytest.raises(UserError, match="is a socket, not a regular file") as info:
                check_output(path, force=False)
        assert "--force" not in str(info.value)


@needs_fifo
def test_export_refuses_a_pipe_without_blocking(tmp_path: Path, fifo: Path) -> None:
    with pytest.raises(UserError, match=r"cannot write .*pipe\.json: it is a named pipe"):
        formats.save(small_run(), fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and names(tmp_path) == ["pipe.json"]


@needs_fifo
def test_staged_file_checks_the_target_again_when_placing(tmp_path: Path) -> None:
    """Checked before the work began, the name may have become a pipe since."""
    target = tmp_path / "out"
    with pytest.raises(NotRegularFileError), StagedFile(target) as staged:
        staged.write(b"results")
        os.mkfifo(target)
        staged.place()
    assert stat.S_ISFIFO(os.lstat(target).st_mode) and names(tmp_path) == ["out"]


@needs_fifo
@pytest.mark.parametrize("force", [False, True])
def test_atomic_output_says_pipe_not_force(tmp_path: Path, force: bool) -> None:
    target = tmp_path / "out"
    with pytest.raises(UserError) as info, AtomicOutput(target, force=force) as out:
        out.write(b"ciphertext")
        os.mkfifo(target)
        out.commit()
    assert "not a regular file (a named pipe)" in str(info.value)
    assert "--force" not in str(info.value)
    assert names(tmp_path) == ["out"]


# --- 2. names that cannot be looked up, and sizes of 400 digits --------------------------------


@pytest.mark.parametrize("kind", WRITERS)
def test_a_symlink_loop_as_output_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Path, loop: Path, kind: str
) -> None:
    _assert_link_refused(capsys, kind, tmp_path, data, loop, "symbolic links")


@pytest.mark.parametrize("command", ["bench", "encrypt"])
def test_a_symlink_loop_as_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, loop: Path, command: str
) -> None:
    if command == "bench":
        argv: list[object] = ["bench", loop, *QUICK]
    else:
        argv = ["encrypt", loop, "-o", tmp_path / "e", "--password-env", "CB_PASSWORD"]
    code, _, err = run(capsys, *argv)
    assert_one_line_error(code, err)


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--size", "9" * 400, *QUICK],
        ["bench", "{data}", "--data-mode", "stream", "--chunk", "9" * 400, *QUICK],
        ["bench", "--size", "1." + "0" * 399 + "1", *QUICK],
        ["encrypt", "{data}", "-o", "{tmp}/e", "--chunk-size", "9" * 400],
    ],
    ids=["size", "chunk", "size-decimals", "encrypt-chunk"],
)
def test_sizes_of_400_digits_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Path, argv: list[str]
) -> None:
    filled = [a.format(data=data, tmp=tmp_path) for a in argv]
    code, _, err = run(capsys, *filled)
    assert_one_line_error(code, err)


# --- 6. a full disk during the .xlsx export ----------------------------------------------------


class _FullDisk(io.RawIOBase):
    """A file opened for writing on a disk with no room left."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def seek(self, offset: int, whence: int = 0) -> int:
        return int(self._real.seek(offset, whence))

    def tell(self) -> int:
        return int(self._real.tell())

    def close(self) -> None:
        self._real.close()
        super().close()


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every staged file opened for writing (an unnamed one through ``/proc/self/fd``, or a
    ``.part`` name) fails with ENOSPC, and
    whatever Python reports as unraisable (an exception in ``__del__``) is collected."""
    real_open = io.open
    unraisable: list[Any] = []

    def fake_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        f = real_open(file, mode, *args, **kwargs)
        staged = str(file).endswith(".part") or str(file).startswith("/proc/self/fd/")
        if staged and any(c in mode for c in "wa+"):
            return _FullDisk(f)
        return f

    monkeypatch.setattr(io, "open", fake_open)  # zipfile opens its file with io.open
    monkeypatch.setattr("builtins.open", fake_open)
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    yield unraisable
    gc.collect()


def test_xlsx_on_a_full_disk_fails_cleanly(
    tmp_path: Path, full_disk: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """openpyxl's save left a ZipFile open, whose __del__ printed a second traceback."""
    target = tmp_path / "r.xlsx"
    with pytest.raises(UserError, match=r"cannot write .*r\.xlsx: no space left on device"):
        formats.save(small_run(), target)
    gc.collect()
    assert full_disk == []
    assert capsys.readouterr().err == ""
    assert names(tmp_path) == []


@pytest.mark.parametrize("suffix", [".pdf", ".svg", ".html", ".csv"])
def test_every_format_on_a_full_disk_says_so(
    suffix: str, tmp_path: Path, full_disk: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """matplotlib's PDF writer, failing while it handled the full disk, said "'Stream' object
    has no attribute 'pos'"."""
    target = tmp_path / f"r{suffix}"
    with pytest.raises(UserError, match=rf"cannot write .*r\{suffix}: no space left on device$"):
        formats.save(small_run(), target)
    gc.collect()
    assert names(tmp_path) == []


@needs_rlimit
def test_a_pdf_figure_on_a_full_disk_names_the_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """matplotlib's PDF writer fails while handling the write error; the message is the
    system's (here EFBIG, the harness's full disk), not "'Stream' object has no attribute"."""
    formats.save(small_run(), tmp_path / "warm.pdf")  # matplotlib imported, fonts cached
    many = small_run(*(small_job(f"f{i}.bin", input_bytes=1000 + i) for i in range(40)))
    with disk_full(monkeypatch), pytest.raises(UserError) as refused:
        formats.save(many, tmp_path / "r.pdf")
    assert str(refused.value).endswith("r.pdf: file too large"), refused.value
    assert names(tmp_path) == ["warm.pdf"]


def test_xlsx_save_writes_one_complete_file(tmp_path: Path) -> None:
    target = tmp_path / "r.xlsx"
    export_xlsx.write_xlsx(small_run(), target)
    from openpyxl import load_workbook

    assert load_workbook(target)["Results"].cell(2, 2).value == "aes-128-ctr"


def test_small_run_exports_as_json(tmp_path: Path) -> None:
    formats.save(small_run(), tmp_path / "r.json")
    assert json.loads((tmp_path / "r.json").read_text())["results"][0]["input_label"] == "data.bin"


def test_encrypt_and_decrypt_never_replace_the_key_file_they_read(tmp_path, capsys):
    """`--key-file K -o K --force` would have turned the key file into the output."""
    from app.cli import main as cli

    source = tmp_path / "in.bin"
    source.write_bytes(b"secret data" * 100)
    key = tmp_path / "k.key"
    sealed = tmp_path / "in.cbf"
    assert cli.main(["encrypt", str(source), "-o", str(sealed), "--new-key-file", str(key)]) == 0
    key_bytes = key.read_bytes()
    for command in (
        ["encrypt", str(source), "-o", str(key), "--key-file", str(key), "--force"],
        ["decrypt", str(sealed), "-o", str(key), "--key-file", str(key), "--force"],
    ):
        assert cli.main(command) == 2
        err = capsys.readouterr().err
        assert "error:" in err and "--force" not in err
        assert key.read_bytes() == key_bytes


def test_new_key_file_on_a_device_is_refused_without_a_misleading_hint(tmp_path, capsys):
    from app.cli import main as cli

    source = tmp_path / "in.bin"
    source.write_bytes(b"x" * 100)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code = cli.main(
        ["encrypt", str(source), "-o", str(tmp_path / "o.cbf"), "--new-key-file", str(fifo)]
    )
    err = capsys.readouterr().err
    assert code == 2 and "--key-file" not in err and "--force" not in err


def test_files_a_command_reads_are_never_its_outputs(tmp_path, capsys, monkeypatch):
    """The password file, the study file and the history database are inputs, never outputs,
    --force or not: each refusal is one line and leaves the file as it was."""
    from app.cli import main as cli
    from app.core.study.presets import preset_files

    source = tmp_path / "notes.txt"
    source.write_bytes(b"notes " * 100)
    password = tmp_path / "pw.txt"
    password.write_text(PASSWORD + "\n")
    study = tmp_path / "mine.toml"
    study.write_bytes(preset_files()[0].read_bytes())
    history_db = tmp_path / "runs.json"  # a history under a name an export could take
    monkeypatch.setenv("CIPHERBENCH_HISTORY", str(history_db))
    assert cli.main(["bench", "--size", "1KB", *QUICK]) == 0  # the history holds a run
    capsys.readouterr()
    kept = {p: p.read_bytes() for p in (password, study, history_db)}
    for argv, what in (
        (["encrypt", source, "-o", password, "--password-file", password, "--force"], "password"),
        (["study", study, "--save-definition", study], "study file"),
        (["history", "export", "1", "--out", history_db], "history database"),
    ):
        code, _, err = run(capsys, *argv)
        assert_one_line_error(code, err)
        assert what in err
    assert {p: p.read_bytes() for p in kept} == kept
