"""The leak test's worker entry: the AES instructions off first when the job asks (before any
cipher library is loaded), then :mod:`.measure`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.core.leak.job import LeakJob


def leak_round(job: LeakJob, progress: Callable[..., None]) -> dict[str, Any]:
    if not job.aes_instructions:
        from app.core.ciphers.hardware import switch_off

        switch_off()
    from app.core.leak.measure import measure

    return measure(job, progress)
