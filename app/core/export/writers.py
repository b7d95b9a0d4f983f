"""Checking an output and writing it atomically, for every file CipherBench saves.

:func:`write_atomically` writes into an unnamed file beside the target, flushes it to disk and
links it in under its name when complete: readers see the old file or the complete new one,
never a partial file, and nothing is left behind on failure. Every failure is a ``UserError``
whose message starts with ``cannot write <path>:``. :func:`check_target` refuses a target
before anything is written; :func:`check_targets` checks every output of a run before it starts.
Which writer a suffix takes is :mod:`app.core.kinds.formats`' table.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
from collections.abc import Callable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import TypeVar

from app.core.errors import UserError
from app.core.runtime.output_checks import OutputRefused, check_output, check_outputs
from app.core.runtime.safe_files import StagedFile

W = TypeVar("W")  # a writer of any kind: of a run, of a study, of a study definition


def check_target(
    path: str | PathLike[str],
    writers: Mapping[str, W],
    inputs: Sequence[str | PathLike[str]] = (),
    *,
    what: str = "results",
) -> W:
    """The entry of ``writers`` (keyed by lower-case extension) for ``path``, or a
    ``UserError`` when it has another extension (``cannot save <what> to <path>: ...``), is a
    folder, a device, a pipe or a socket, is one of ``inputs`` (a link to one included), or
    sits in a missing or read-only folder (``cannot write <path>: ...``). An existing regular
    file is fine: a write replaces it."""
    known = ", ".join(writers)
    if not os.fspath(path).strip():  # Path("") is ".", which would name the current folder
        raise UserError(f"cannot save {what} under an empty name; give one ending in {known}")
    target = Path(path)
    ext = suffix_of(target, writers)
    if ext not in writers:
        unsupported = f"the extension {ext!r}" if ext else "a file name without an extension"
        raise UserError(
            f"cannot save {what} to {target}: {unsupported} is not supported; use {known}"
        )
    try:
        check_output(target, force=True, inputs=inputs)
    except OutputRefused as exc:
        raise UserError(f"cannot write {target}: {exc.reason}") from None
    # Said now rather than after a long run (the write itself would fail too).
    if not os.access(os.path.dirname(os.path.abspath(target)), os.W_OK):
        raise UserError(f"cannot write {target}: permission denied")
    return writers[ext]


def suffix_of(path: Path, writers: Mapping[str, object]) -> str:
    """The longest of ``writers``' suffixes that ``path``'s name ends with (any case), so
    ``x.speedscope.json`` is not ``x.json``; else its last suffix."""
    name = path.name.lower()
    return max((s for s in writers if name.endswith(s)), key=len, default=path.suffix.lower())


def check_targets(
    paths: Sequence[str | PathLike[str]],
    writers: Mapping[str, W],
    inputs: Sequence[str | PathLike[str]] = (),
    *,
    what: str = "results",
) -> None:
    """:func:`check_target` for each of ``paths``, and none of them given twice (``r.json``
    and ``./r.json`` included): all of a run's outputs, checked before it starts rather than
    found unusable after it (and its results lost)."""
    for path in paths:
        check_target(path, writers, inputs, what=what)
    check_outputs(paths, inputs=inputs, force=True)


def write_atomically(target: Path, write: Callable[[Path], None]) -> None:
    """Call ``write`` on a temporary file beside ``target``, flush it to disk, give it the
    permissions of :func:`new_file_mode` and rename it over ``target``; nothing is left behind
    on failure, which is a ``UserError`` starting ``cannot write <target>:``."""
    mode = new_file_mode(target)
    try:
        with StagedFile(target, mode=0o600) as staged:
            staged.file.close()  # the writers write by path
            write(staged.path)
            staged.sync()
            with contextlib.suppress(OSError):  # e.g. a file system without permissions
                os.chmod(staged.path, mode)
            staged.place()
    except Exception as exc:
        raise UserError(f"cannot write {target}: {failure_reason(exc, target)}") from exc


def failure_reason(exc: BaseException, target: Path) -> str:
    """Why writing ``target`` failed, in a few words. A writer that fails while handling the
    system's error (matplotlib's PDF writer on a full disk: "'Stream' object has no attribute
    'pos'") is worded by that error, or by the disk being full."""
    exc = _system_error(exc) or exc
    if not isinstance(exc, OSError) and _disk_full(target):
        return "no space left on the device"
    if isinstance(exc, PermissionError):
        if sys.platform == "win32" and target.exists():
            return "permission denied (is the file open in another program?)"
        return "permission denied"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__


def _system_error(exc: BaseException) -> OSError | None:
    """The first error of the operating system in ``exc``'s chain (itself, its cause, the error
    it was raised while handling), if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.strerror:
            return current
        current = current.__cause__ or current.__context__
    return None


def _disk_full(target: Path) -> bool:
    try:
        return shutil.disk_usage(target.parent if str(target.parent) else ".").free == 0
    except OSError:
        return False


def new_file_mode(target: Path) -> int:
    """The permissions the file should get: those of the file it replaces, else 0o666 minus
    the umask (the temporary file is created 0o600, which would hide results from others)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    try:  # Linux >= 4.7: read it without changing it (os.umask is process-wide, not atomic)
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
