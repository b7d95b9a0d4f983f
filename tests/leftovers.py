"""What CipherBench left behind: files in a temporary folder, worker processes (the fault
tests expect nothing)."""

import contextlib
import time
from collections.abc import Iterator
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


@contextlib.contextmanager
def no_workers_outlive(message: str, grace_s: float = 3.0) -> Iterator[None]:
    """Fails with ``message`` if a worker (:func:`spawned_children`) started in the block still
    runs ``grace_s`` seconds after it."""

    def workers() -> set[int]:
        return {p.pid for p in spawned_children()}

    before = workers()
    yield
    deadline = time.monotonic() + grace_s
    while workers() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not workers() - before, message


def outlived(processes: list[psutil.Process], seconds: float) -> list[psutil.Process]:
    """Those of ``processes`` still running ``seconds`` after now. A process that is not our
    child is a zombie from its death until whoever adopted it reaps it (init here reaps about
    once a second), so a zombie counts as ended, where ``psutil.wait_procs`` waits for the
    reaping."""

    def running(proc: psutil.Process) -> bool:
        try:  # is_running: not a new process that got the same pid
            return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    deadline = time.monotonic() + seconds
    while (left := [p for p in processes if running(p)]) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left
