"""The checks on every output before any work, and the files never to be replaced.

- :func:`check_paths` (an input and its outputs), :func:`check_outputs` and :func:`check_output`
  refuse, as :class:`OutputRefused` (:class:`OutputExists` for an existing file without
  ``force``), an output that is not a new name or a regular file, that is one of the inputs,
  or that sits in a missing folder. :func:`refuse_non_regular` checks a target again at the
  moment a staged file is moved into place (:mod:`.safe_files`).
- Files this process reads that hold what a user would lose (a password file, a study file,
  the history database) are registered with :func:`protect` when they are read, for one
  command (:func:`protecting`); every output check refuses them, ``--force`` or not.
- :func:`file_kind` names a non-regular file for messages.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from app.core.errors import UserError

PathLike = str | os.PathLike[str]


class OutputRefused(UserError):
    """A refused output. ``reason`` completes "cannot write <path>: ..." for callers that word
    their own messages (the exporters); the message itself is a whole sentence."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class NotRegularFileError(OSError):
    """The target of a write became something other than a regular file (a device, a pipe)."""


class OutputExists(OutputRefused):
    """An existing regular file ``path`` that may not be replaced (the caller did not allow it).
    The message names no option: each front-end adds how to allow it."""

    def __init__(self, path: PathLike) -> None:
        super().__init__(f"{path} already exists", "it already exists")
        self.path = str(path)


def file_kind(mode: int) -> str:
    """What a non-regular file is, for messages: ``'a folder'``, ``'a named pipe'``, ..."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def _lookup(path: Path, role: str) -> os.stat_result | None:
    """``path`` followed through links; None for a new name (or a link to nothing). A name that
    cannot be looked up (a symbolic link loop, no permission) is a :class:`OutputRefused`:
    os.stat raises where pathlib's exists() and is_dir() would quietly say False."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        reason = _strerror(exc)
        raise OutputRefused(f"cannot use {role} {path}: {reason}", reason) from None


def _strerror(exc: BaseException) -> str:
    text = (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__
    return text[0].lower() + text[1:]


# Files read by this process that are never an output: absolute name -> what they are.
_PROTECTED: dict[str, str] = {}


def protect(path: PathLike, what: str) -> None:
    """Never let any output of this process replace ``path``, ``what`` it is ("the password
    file", "the study file", "the history database"): a file read as an input."""
    with contextlib.suppress(OSError, ValueError):
        _PROTECTED[os.path.abspath(os.path.expanduser(path))] = what


@contextlib.contextmanager
def protecting() -> Iterator[None]:
    """The files :func:`protect` names while the block runs (one command) are protected for
    that block only: the next command in the same process (a test, the window) starts clean."""
    saved = dict(_PROTECTED)
    try:
        yield
    finally:
        _PROTECTED.clear()
        _PROTECTED.update(saved)


def _refuse_protected(out: Path, st: os.stat_result, role: str) -> None:
    for name, what in list(_PROTECTED.items()):
        try:
            same = os.path.samestat(st, os.stat(name))
        except (OSError, ValueError):
            continue
        if same:
            message = f"{role} {out} is {what} {name}, which this command reads"
            raise OutputRefused(f"{message}; choose another name", f"it is {what}")


def _input_stats(inputs: Sequence[PathLike]) -> list[tuple[PathLike, os.stat_result]]:
    """The inputs that exist (a missing one cannot be overwritten), with their identity."""
    found = []
    for source in inputs:
        with contextlib.suppress(OSError, ValueError):
            found.append((source, os.stat(source)))
    return found


def check_output(
    path: PathLike,
    *,
    force: bool,
    role: str = "the output",
    exists: str | None = None,
    inputs: Sequence[PathLike] = (),
) -> None:
    """Refuse, as :class:`OutputRefused`, an output (named by ``role``) that is anything but a
    regular file or a new name (a folder, a device, a pipe, a socket, a link loop, whatever
    ``force`` says), that is one of ``inputs`` (the same name, a hard or a symbolic link) or a
    file :func:`protect` names, that
    sits in a missing folder, or that exists without ``force`` (:class:`OutputExists`, or an
    :class:`OutputRefused` with the message ``exists`` where replacing is never allowed)."""
    if os.fspath(path) == "-":  # the usual name of standard output: a file named "-" appeared
        message = f"{role} '-' would be a file named '-': nothing is written to standard output"
        raise OutputRefused(message + "; give a file name", "it is '-'")
    out = Path(path)
    st = _lookup(out, role)
    if st is not None:
        if not stat.S_ISREG(st.st_mode):
            kind = file_kind(st.st_mode)
            if stat.S_ISDIR(st.st_mode):
                raise OutputRefused(f"{role} {out} is a folder; give a file name", "it is a folder")
            reason = f"it is {kind}, not a regular file"
            raise OutputRefused(
                f"{role} {out} is {kind}, not a regular file; give a file name", reason
            )
        for source, source_st in _input_stats(inputs):
            if os.path.samestat(st, source_st):
                named = "" if str(source) == str(out) else f" {source}"
                raise OutputRefused(
                    f"{role} {out} is the input file{named}; choose another name",
                    f"it is the input file{named}",
                )
        _refuse_protected(out, st, role)
    # abspath, as StagedFile: the file goes beside the name given, even when that is a link.
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        message = f"the folder {out.parent} does not exist"
        raise OutputRefused(message, message)
    if st is not None and not force:
        if exists is not None:
            raise OutputRefused(exists, "it already exists")
        raise OutputExists(out)


def check_outputs(outputs: Sequence[PathLike], *, inputs: Sequence[PathLike], force: bool) -> None:
    """:func:`check_output` for each of ``outputs``, and none of them given twice."""
    seen: list[tuple[str, os.stat_result | None]] = []
    for out in outputs:
        check_output(out, force=force, inputs=inputs)
        name = os.path.normcase(os.path.realpath(out))  # realpath: never raises on a loop
        st = _lookup(Path(out), "the output")
        for other_name, other_st in seen:
            if name == other_name or (st and other_st and os.path.samestat(st, other_st)):
                raise OutputRefused(
                    f"{out} is given twice as an output", "it is given twice as an output"
                )
        seen.append((name, st))


def check_paths(
    src: PathLike, *outputs: PathLike, force: bool, inputs: Sequence[PathLike] = ()
) -> None:
    """Refuse before any work: a missing or non-regular input ``src``, and every output that
    :func:`check_outputs` refuses. ``inputs``: the other files the command reads (a key file),
    which no output may replace either."""
    src_path = Path(src)
    try:
        st = os.stat(src_path)
    except (FileNotFoundError, NotADirectoryError):
        raise UserError(f"cannot read {src_path}: no such file") from None
    except (OSError, ValueError) as exc:
        raise UserError(f"cannot read {src_path}: {_strerror(exc)}") from None
    if not stat.S_ISREG(st.st_mode):
        raise UserError(f"cannot read {src_path}: not a regular file")
    check_outputs(outputs, inputs=[src, *inputs], force=force)


def refuse_non_regular(target: Path) -> None:
    """Raise :class:`NotRegularFileError` when ``target`` is now a folder, a device, a pipe or
    a socket: it was checked before the work began, but the name may have changed since."""
    try:
        st = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        return
    if not stat.S_ISREG(st.st_mode):
        kind = file_kind(st.st_mode)
        raise NotRegularFileError(errno.EINVAL, f"not a regular file ({kind})", str(target))
