"""Checking the input file and generating random test data, with plain messages for users."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from app.core.bench.jobs import InputSpec
from app.core.errors import Cancelled, UserError
from app.core.runtime import scratch
from app.core.text import visible_text
from app.core.units import MIB, format_bytes, whole_size


def inspect_file(path: str | os.PathLike[str]) -> InputSpec:
    """An :class:`InputSpec` for ``path``, or a ``UserError`` saying what is wrong with it."""
    if not os.fspath(path):  # Path("") is ".": it would be refused as "a folder"
        raise UserError("an input file name is empty; give the path of a file")
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
    # The label goes into tables and exports, which need text: a byte of the name that is not
    # UTF-8 shows as \xff there, a control character (a newline, an escape) as \x0a, \x1b: shown
    # in every table, terminal and export, never obeyed. The path keeps the real name.
    return InputSpec(
        path=str(p.resolve()),
        label=visible_text(p.name),
        size_bytes=st.st_size,
        mtime_ns=st.st_mtime_ns,
    )


def check_unchanged(spec: InputSpec) -> None:
    """Raise ``UserError`` if the input file vanished or changed since it was inspected."""
    try:
        st = os.stat(spec.path)
    except OSError:
        raise UserError(f"{spec.label} vanished during the run (deleted or moved)") from None
    if st.st_size != spec.size_bytes or st.st_mtime_ns != spec.mtime_ns:
        raise UserError(
            f"{spec.label} changed during the run (size or modification time differs); "
            "its results would mix two different files"
        )


def _random_blocks(size_bytes: int) -> Iterator[bytes]:
    left = size_bytes
    while left:
        n = min(left, 4 * MIB)
        yield os.urandom(n)
        left -= n


def generated_input(
    size_bytes: int,
    directory: str | None = None,
    label: str | None = None,
    blocks: Iterable[bytes] | None = None,
    cancel: threading.Event | None = None,
) -> InputSpec:
    """Random (incompressible) data of ``size_bytes`` in a temporary file, as the AES key-length
    study makes it: from ``os.urandom``, or the ``blocks`` given (a seeded generator, for a
    study someone can rerun). It lives in the caller's scratch folder (see
    :mod:`app.core.runtime.scratch`) unless ``directory`` is given; a partial file is deleted
    however the writing stops (Ctrl-C included, or ``cancel`` set: ``Cancelled``)."""
    if size_bytes <= 0:
        raise UserError("the generated input must be at least 1 byte")
    folder = directory if directory is not None else str(scratch.root())
    fd, path = tempfile.mkstemp(prefix="input-", suffix=".bin", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            for block in _random_blocks(size_bytes) if blocks is None else blocks:
                if cancel is not None and cancel.is_set():
                    raise Cancelled()
                fh.write(block)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(path)
        if not isinstance(exc, OSError):
            raise
        if exc.errno == errno.ENOSPC:
            raise UserError(
                f"no room for {format_bytes(size_bytes)} of test data in {folder}"
            ) from None
        raise UserError(f"cannot write test data: {exc.strerror or exc}") from None
    st = os.stat(path)
    return InputSpec(
        path=path,
        label=label or f"random {whole_size(size_bytes)}",
        size_bytes=size_bytes,
        mtime_ns=st.st_mtime_ns,
        generated=True,
    )


def cleanup_generated(spec: InputSpec) -> None:
    if spec.generated:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(spec.path)
