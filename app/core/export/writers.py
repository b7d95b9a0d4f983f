"""Save a run to a file, the format chosen by the extension, atomically.

``export(run, "results.xlsx")`` writes a temporary file next to the target, flushes it to disk
and renames it over the target: readers see the old file or the complete new one, never a
partial file, and nothing is left behind on failure. Every failure is a ``UserError`` whose
message starts with ``cannot write <path>:``.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable, Sequence
from os import PathLike
from pathlib import Path

from app.core.bench.results import RunResult
from app.core.errors import UserError
from app.core.export.csv_export import write_csv
from app.core.export.json_export import write_json
from app.core.export.xlsx_export import write_xlsx
from app.core.safe_files import OutputRefused, StagedFile, check_output

Writer = Callable[[RunResult, Path], None]

WRITERS: dict[str, Writer] = {
    ".json": write_json,
    ".csv": write_csv,
    ".xlsx": write_xlsx,
}


def supported_extensions() -> list[str]:
    """``[".json", ".csv", ".xlsx"]``, e.g. for a save dialog's filters."""
    return list(WRITERS)


def check_target(path: str | PathLike[str], inputs: Sequence[str | PathLike[str]] = ()) -> Writer:
    """The writer for ``path``, or a ``UserError`` (``cannot write <path>: ...``) when it has
    an unknown extension, is a folder, a device, a pipe or a socket, is one of ``inputs`` (a
    link to one included), or sits in a missing folder. An existing regular file is fine: an
    export replaces it."""
    target = Path(path)
    ext = target.suffix.lower()
    writer = WRITERS.get(ext)
    if writer is None:
        known = ", ".join(WRITERS)
        what = f"the extension {ext!r}" if ext else "a file name without an extension"
        raise UserError(f"cannot save results to {target}: {what} is not supported; use {known}")
    try:
        check_output(target, force=True, inputs=inputs)
    except OutputRefused as exc:
        raise UserError(f"cannot write {target}: {exc.reason}") from None
    return writer


def export(
    run: RunResult, path: str | PathLike[str], *, inputs: Sequence[str | PathLike[str]] = ()
) -> Path:
    """Write ``run`` to ``path`` (.json, .csv or .xlsx, any case) and return the path written.

    Replaces an existing regular file, never one of ``inputs`` (the files benchmarked). Raises
    ``UserError`` for what :func:`check_target` refuses, no permission, a full disk and any
    other failure.
    """
    target = Path(path)
    writer = check_target(target, inputs)
    mode = new_file_mode(target)
    try:
        with StagedFile(target, mode=0o600) as staged:
            staged.file.close()  # the writers write by path
            writer(run, staged.path)
            staged.sync()
            with contextlib.suppress(OSError):  # e.g. a file system without permissions
                os.chmod(staged.path, mode)
            staged.place()
    except Exception as exc:
        raise UserError(f"cannot write {target}: {failure_reason(exc, target)}") from exc
    return target


def failure_reason(exc: BaseException, target: Path) -> str:
    if isinstance(exc, PermissionError):
        if sys.platform == "win32" and target.exists():
            return "permission denied (is the file open in another program?)"
        return "permission denied"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__


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
