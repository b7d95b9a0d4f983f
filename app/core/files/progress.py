"""Progress, cancel and chunked reading for the file operations (containers, raw exports).

``on_progress(done_bytes, total_bytes)`` is called at most once per :data:`PROGRESS_INTERVAL_S`,
plus the first and the last call; ``cancel`` is a callable returning True or a
``threading.Event``, checked before every chunk, and raises :class:`Cancelled`.
"""

from __future__ import annotations

import io
import os
import threading
import time
from collections.abc import Callable, Iterator

from app.core.errors import Cancelled
from app.core.runtime.safe_files import read_full

ProgressCallback = Callable[[int, int], None]
CancelCheck = Callable[[], bool] | threading.Event

# At most one call per 50 ms (a GUI froze with one per MiB).
PROGRESS_INTERVAL_S = 0.05


class Progress:
    """Throttles ``on_progress(done, total)`` to one call per :data:`PROGRESS_INTERVAL_S`, plus
    the first and the last; also raises :class:`Cancelled` when ``cancel`` says so."""

    __slots__ = ("_callback", "_cancelled", "_next", "total")

    def __init__(
        self, callback: ProgressCallback | None, cancel: CancelCheck | None, total: int
    ) -> None:
        self._callback = callback
        self.total = total
        if cancel is None:
            self._cancelled: Callable[[], bool] = lambda: False
        elif isinstance(cancel, threading.Event):
            self._cancelled = cancel.is_set
        else:
            self._cancelled = cancel
        self._next = 0.0
        self.update(0)

    def check_cancel(self) -> None:
        if self._cancelled():
            raise Cancelled("cancelled")

    def update(self, done: int) -> None:
        if self._callback is None:
            return
        now = time.monotonic()
        if now >= self._next:
            self._next = now + PROGRESS_INTERVAL_S
            self._callback(done, self.total)

    def finish(self) -> None:
        if self._callback is not None:
            self._callback(self.total, self.total)


def read_chunks(
    fin: io.FileIO, chunk_bytes: int, progress: Progress, path: str | os.PathLike[str]
) -> Iterator[tuple[memoryview, bool]]:
    """Yield ``(chunk, last)`` for every ``chunk_bytes`` piece of ``fin`` (the last one shorter;
    one empty chunk for an empty file), checking ``cancel`` before each and reporting the bytes
    read after each. One chunk of look-ahead says which is the last, however the file size
    changes while it is read. Two buffers serve every chunk: use a chunk before the next one."""
    bufs = (memoryview(bytearray(chunk_bytes)), memoryview(bytearray(chunk_bytes)))
    cur = bufs[0]
    n = read_full(fin, cur, path)
    done, index = n, 0
    while True:
        progress.check_cancel()
        nxt = bufs[(index + 1) % 2]
        n_next = read_full(fin, nxt, path) if n == chunk_bytes else 0
        last = n_next == 0
        yield cur[:n], last
        progress.update(done)
        if last:
            return
        cur, n = nxt, n_next
        done += n
        index += 1
