"""A full disk for the history's tests, without root or a tiny file system.

The kernel refuses to let any file grow past ``LIMIT_BYTES`` (``RLIMIT_FSIZE``: the write fails
with EFBIG; Python ignores SIGXFSZ), and the disk reports no free space (``shutil.disk_usage``).
SQLite then fails as it does on a full disk: it cannot grow the WAL's 32 KiB shared-memory
index ("disk I/O error", SQLITE_IOERR_SHMSIZE) nor append to the WAL. A small file (an export
of a tiny run) can still be written, as a full disk still takes what fits in its last blocks.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import pytest

LIMIT_BYTES = 16 * 1024

needs_rlimit = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")


class _Usage(NamedTuple):
    total: int
    used: int
    free: int


@contextmanager
def disk_full(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Inside the block, the disk is full. Nothing may print to a file meanwhile (pytest's
    own capture of file descriptors included): use ``capsys``."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    with monkeypatch.context() as patched:
        patched.setattr(shutil, "disk_usage", lambda path: _Usage(2**30, 2**30, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT_BYTES, hard))
        try:
            yield
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
