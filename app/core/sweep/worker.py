"""The sweep's worker process: one round of one :class:`SweepJob`, its samples sent back.

This module imports no cipher library: a worker that runs with the AES instructions off must
set OpenSSL's capability mask before ``cryptography`` is loaded (app.core.ciphers.hardware).
"""

from __future__ import annotations

import errno
import os
import traceback
from multiprocessing.connection import Connection
from typing import Any

from app.core.errors import UserError
from app.core.sweep.jobs import SweepJob


def worker_main(conn: Connection, job: SweepJob) -> None:
    """Run one round of ``job``; send ``("progress", fraction)`` messages, then ``("done",
    RoundSamples)`` or ``("failed", message, traceback)``."""
    try:
        if not job.aes_instructions:
            from app.core.ciphers.hardware import switch_off

            switch_off()
        from app.core.sweep.measure import run_round

        samples = run_round(job, lambda fraction: conn.send(("progress", fraction)))
        message: tuple[Any, ...] = ("done", samples)
    except BaseException as exc:  # reported; the supervisor decides how to show it
        if isinstance(exc, OSError) and exc.errno == errno.EPIPE:
            os._exit(1)
        if isinstance(exc, UserError | MemoryError):
            message = ("failed", str(exc) or "not enough memory", "")
        else:
            message = ("failed", f"{type(exc).__name__}: {exc}", traceback.format_exc())
    try:
        conn.send(message)
        conn.close()
    except OSError:
        os._exit(1)
