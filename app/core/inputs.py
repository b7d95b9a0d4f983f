"""Checking the input file and generating random test data, with plain messages for users."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from app.core.errors import UserError
from app.core.jobs import InputSpec
from app.core.units import MIB, format_bytes


def inspect_file(path: str | os.PathLike[str]) -> InputSpec:
    """An :class:`InputSpec` for ``path``, or a ``UserError`` saying what is wrong with it."""
    p = Path(path).expanduser()
    try:
        st = p.stat()
    except FileNotFoundError:
        raise UserError(f"no such file: {p}") from None
    except PermissionError:
        raise UserError(f"cannot read {p}: permission denied") from None
    except OSError as exc:
        raise UserError(f"cannot read {p}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise UserError(f"{p} is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise UserError(f"{p} is not a regular file")
    try:
        with open(p, "rb") as fh:
            fh.read(1)
    except PermissionError:
        raise UserError(f"cannot read {p}: permission denied") from None
    except OSError as exc:
        raise UserError(f"cannot read {p}: {exc.strerror or exc}") from None
    if st.st_size == 0:
        raise UserError(f"{p} is empty: there is nothing to encrypt")
    return InputSpec(
        path=str(p.resolve()), label=p.name, size_bytes=st.st_size, mtime_ns=st.st_mtime_ns
    )


def check_unchanged(spec: InputSpec) -> None:
    """Raise ``UserError`` if the input file vanished or changed since it was inspected."""
    try:
        st = os.stat(spec.path)
    except OSError:
        raise UserError(f"{spec.label} vanished during the run") from None
    if st.st_size != spec.size_bytes or st.st_mtime_ns != spec.mtime_ns:
        raise UserError(
            f"{spec.label} changed during the run (size or modification time differs); "
            "its results would mix two different files"
        )


def generated_input(
    size_bytes: int, directory: str | None = None, label: str | None = None
) -> InputSpec:
    """Random (incompressible) data of ``size_bytes`` in a temporary file, as seed 000 does."""
    if size_bytes <= 0:
        raise UserError("the generated input must be at least 1 byte")
    fd, path = tempfile.mkstemp(prefix="cipherbench-input-", suffix=".bin", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            left = size_bytes
            while left:
                n = min(left, 4 * MIB)
                fh.write(os.urandom(n))
                left -= n
    except OSError as exc:
        os.unlink(path)
        if exc.errno == errno.ENOSPC:
            raise UserError(
                f"no room for {format_bytes(size_bytes)} of test data in {os.path.dirname(path)}"
            ) from None
        raise UserError(f"cannot write test data: {exc.strerror or exc}") from None
    st = os.stat(path)
    return InputSpec(
        path=path,
        label=label or f"random {format_bytes(size_bytes, binary=False)}",
        size_bytes=size_bytes,
        mtime_ns=st.st_mtime_ns,
        generated=True,
    )


def cleanup_generated(spec: InputSpec) -> None:
    if spec.generated:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(spec.path)
