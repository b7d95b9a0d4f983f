"""Safe file handling: atomic replacement leaves the old file or the new one and nothing else,
exact reads and full writes, the output checks."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from hostile import output_that_appeared_meanwhile

from app.core.errors import UserError
from app.core.runtime.output_checks import OutputExists, check_output
from app.core.runtime.safe_files import (
    AtomicOutput,
    StagedFile,
    move_into_place,
    read_exact,
    read_full,
    write_all,
)


def test_staged_file_replaces_the_target(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.write_bytes(b"old")
    with StagedFile(target) as staged:
        staged.write(b"new")
        assert target.read_bytes() == b"old"
        staged.place()
    assert target.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["out"]


def test_staged_file_left_by_an_error_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), StagedFile(target) as staged:
        staged.write(b"partial")
        raise RuntimeError("writer failed")
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["out"]


def test_staged_file_without_force_refuses_an_existing_target(tmp_path: Path) -> None:
    target = tmp_path / "out"
    with StagedFile(target) as staged:
        staged.write(b"new")
        target.write_bytes(b"appeared meanwhile")
        with pytest.raises(FileExistsError):
            staged.place(force=False)
    assert target.read_bytes() == b"appeared meanwhile"
    assert os.listdir(tmp_path) == ["out"]


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="no POSIX permission bits")
def test_staged_file_mode_and_sync(tmp_path: Path) -> None:
    target = tmp_path / "out"
    old = os.umask(0o022)
    try:
        with StagedFile(target, mode=0o600) as staged:
            staged.write(b"secret")
            staged.sync()
            staged.place()
    finally:
        os.umask(old)
    assert target.read_bytes() == b"secret"
    assert target.stat().st_mode & 0o777 == 0o600


def test_atomic_output_words_its_errors(tmp_path: Path) -> None:
    target = tmp_path / "out"
    error = output_that_appeared_meanwhile(target)
    # the core names no option; the command line adds "; overwrite it with --force"
    # (tests/cli/test_cli_messages.py)
    assert error.path == str(target) and error.reason == "it already exists"
    assert str(error) == f"{target} already exists" and "--" not in str(error)
    assert os.listdir(tmp_path) == ["out"]
    with pytest.raises(UserError, match=r"cannot write in .*missing"):
        AtomicOutput(tmp_path / "missing" / "out", force=True).__enter__()


@pytest.mark.parametrize("cross_device", [False, True])
def test_move_into_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cross_device: bool
) -> None:
    src, target = tmp_path / "work.bin", tmp_path / "kept.bin"
    src.write_bytes(b"ciphertext")
    target.write_bytes(b"old")
    if cross_device:
        real_replace = os.replace

        def replace(a: str | Path, b: str | Path, **kwargs: int) -> None:
            if Path(a) == src:
                raise OSError(18, "Invalid cross-device link")
            real_replace(a, b, **kwargs)

        monkeypatch.setattr(os, "replace", replace)
    move_into_place(src, target)
    assert target.read_bytes() == b"ciphertext"
    assert sorted(os.listdir(tmp_path)) == (
        ["kept.bin", "work.bin"] if cross_device else ["kept.bin"]
    )


class _Trickle(io.RawIOBase):
    """Reads and writes at most three bytes a call, as a pipe or a signal may."""

    def __init__(self, data: bytes = b"") -> None:
        self.data = bytearray(data)
        self.written = bytearray()

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n = min(3, len(buffer), len(self.data))
        buffer[:n] = self.data[:n]
        del self.data[:n]
        return n

    def write(self, buffer: memoryview) -> int:  # type: ignore[override]
        self.written += bytes(buffer[:3])
        return min(3, len(buffer))


def test_read_exact_and_write_all_loop_over_short_calls() -> None:
    view = memoryview(bytearray(10))
    assert read_exact(_Trickle(b"0123456789abc"), view) == 10
    assert bytes(view) == b"0123456789"
    assert read_exact(_Trickle(b"0123"), view) == 4  # end of file
    sink = _Trickle()
    write_all(sink, b"0123456789")
    assert bytes(sink.written) == b"0123456789"


def test_write_all_refuses_a_file_that_takes_nothing() -> None:
    class Full(_Trickle):
        def write(self, buffer: memoryview) -> int:  # type: ignore[override]
            return 0

    with pytest.raises(OSError, match="accepted no bytes"):
        write_all(Full(), b"data")


def test_read_full_words_a_read_error() -> None:
    class Broken(_Trickle):
        def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
            raise OSError(5, "Input/output error")

    with pytest.raises(UserError, match=r"cannot read in\.bin: Input/output error"):
        read_full(Broken(), memoryview(bytearray(4)), "in.bin")


def test_check_output(tmp_path: Path) -> None:
    (tmp_path / "there").write_bytes(b"x")
    with pytest.raises(UserError, match=r"the output .* is a folder"):
        check_output(tmp_path, force=True)
    with pytest.raises(UserError, match=r"the folder .*nowhere does not exist"):
        check_output(tmp_path / "nowhere" / "out", force=True)
    with pytest.raises(OutputExists) as caught:
        check_output(tmp_path / "there", force=False)
    assert caught.value.path == str(tmp_path / "there")
    assert str(caught.value) == f"{tmp_path / 'there'} already exists"
    assert "--" not in str(caught.value)
    with pytest.raises(UserError, match=r"^kept$"):
        check_output(tmp_path / "there", force=False, exists="kept")
    check_output(tmp_path / "there", force=True)
