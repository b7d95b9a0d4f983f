"""What CipherBench left behind: files in a temporary folder, worker processes (the fault
tests expect nothing)."""

import contextlib
from pathlib import Path
from typing import Any

import psutil

from app.core.runtime import scratch


def leftovers(folder: Path) -> list[str]:
    """Every CipherBench file or folder under ``folder`` and its scratch root's contents."""
    found = []
    for entry in folder.iterdir():
        if entry.name.startswith("cipherbench-"):
            found.append(entry.name)
            if entry.is_dir():
                found.extend(f"{entry.name}/{p.name}" for p in entry.iterdir())
    return found


def _is_janitor(proc: psutil.Process) -> bool:
    """Ours by its pid (it may still be starting), another process's by its name."""
    return proc.pid == scratch.janitor_pid() or proc.name() == scratch.JANITOR_NAME


def spawned_children(parent: int | None = None, *, recursive: bool = True) -> list[Any]:
    """The multiprocessing workers (``spawn_main`` in their command line) still running under
    ``parent`` (default: this process); multiprocessing's resource tracker is not one, nor is
    the scratch folder's janitor, which lives as long as the folder."""
    found = []
    with contextlib.suppress(psutil.Error):
        for proc in psutil.Process(parent).children(recursive=recursive):
            with contextlib.suppress(psutil.Error):
                if proc.status() == psutil.STATUS_ZOMBIE or _is_janitor(proc):
                    continue
                if "spawn_main" in " ".join(proc.cmdline()):
                    found.append(proc)
    return found
