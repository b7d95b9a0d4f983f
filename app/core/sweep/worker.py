"""The sweep's worker: one round of one :class:`SweepJob`, run in a fresh worker process by
:mod:`app.core.runtime.rounds`.

This module imports no cipher library: a worker that runs with the AES instructions off must
set OpenSSL's capability mask before ``cryptography`` is loaded (app.core.ciphers.hardware).
"""

from __future__ import annotations

from collections.abc import Callable

from app.core.sweep.jobs import RoundSamples, SweepJob


def run_one_round(job: SweepJob, progress: Callable[[float], None]) -> RoundSamples:
    """Run one round of ``job`` in this (fresh) process, the AES instructions off first when
    the job asks."""
    if not job.aes_instructions:
        from app.core.ciphers.hardware import switch_off

        switch_off()
    from app.core.sweep.measure import run_round

    return run_round(job, progress)
