"""The names of CipherBench's named staging files, and sweeping the stale ones.

Where an unnamed file cannot be used (:class:`app.core.runtime.safe_files.StagedFile`: a file
system or platform without ``O_TMPFILE``), an output is staged as ``.cb-<pid>-<hex>.part``
beside its target: short, so that a target name of up to 255 bytes stays legal, and carrying
the writer's pid, so that a file left by a killed process is known for CipherBench's own and
removed the next time CipherBench writes in that folder, once that process is gone.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

STAGING_PREFIX = ".cb-"
STAGING_SUFFIX = ".part"


def staging_name() -> str:
    """A new staging file name for this process."""
    return f"{STAGING_PREFIX}{os.getpid()}-{secrets.token_hex(4)}{STAGING_SUFFIX}"


def sweep_stale(folder: Path) -> list[Path]:
    """Remove the named staging files CipherBench left in ``folder`` (its own pattern, the
    writing process gone: killed before it could clean up); returns what it removed."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(STAGING_PREFIX) and name.endswith(STAGING_SUFFIX)):
            continue
        pid_text = name[len(STAGING_PREFIX) :].split("-", 1)[0]
        if not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True
