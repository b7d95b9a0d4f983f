"""Hand-built engine values for GUI tests that do not need the real engine."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import factories

from app.core.bench.events import JobFinished, JobSecret, RunFinished, RunStarted
from app.core.bench.jobs import Job
from app.core.bench.measure import random_key_iv
from app.core.bench.results import JobResult, MonitorSample, RunResult
from app.core.ciphers.adapters import get_adapter
from app.core.ciphers.message import encrypt_bytes
from app.core.ciphers.registry import lookup


def job_result(
    cipher: str = "aes-256-ctr",
    library: str = "cryptography",
    *,
    algorithm: str = "AES",
    mode: str = "CTR",
    key_bits: int = 256,
    input_bytes: int = 1_000_000,
    enc_s: tuple[float, ...] = (0.001, 0.0011, 0.0009),
    dec_s: tuple[float, ...] = (0.002, 0.0021, 0.0019),
    warnings: tuple[str, ...] = (),
    peak_rss: int | None = 80 * 2**20,
) -> JobResult:
    """tests/factories.job_result with a live monitor trace, as a finished worker sends it."""
    return factories.job_result(
        cipher=cipher,
        library=library,
        algorithm=algorithm,
        mode=mode,
        key_bits=key_bits,
        input_bytes=input_bytes,
        enc_s=enc_s,
        dec_s=dec_s,
        peak_rss=peak_rss,
        warnings=warnings,
        monitor=(MonitorSample(0.05, 50.0, 30 * 2**20), MonitorSample(0.1, 100.0, 60 * 2**20)),
    )


class KeepingRun:
    """A stand-in for the engine that finishes every job at once, with a real kept ciphertext
    (one message, as memory mode keeps it): what "Save encrypted…" needs, in milliseconds.
    ``data_mode`` overrides what the results say (the kept file stays one message)."""

    def __init__(self, jobs: list[Job], data_mode: str | None = None) -> None:
        self.jobs = jobs
        self.data_mode = data_mode
        self.cancelled = threading.Event()

    def cancel(self) -> None:
        self.cancelled.set()

    def events(self) -> Iterator[Any]:
        yield RunStarted(len(self.jobs))
        results = []
        for i, job in enumerate(self.jobs):
            spec = lookup(job.cipher_id, job.library, job.key_bits)
            data = Path(job.input.path).read_bytes()
            key, iv = random_key_iv(spec)
            secret = None
            if job.keep_ciphertext_path:
                ct = encrypt_bytes(spec, get_adapter(spec.library), key, iv, data)
                Path(job.keep_ciphertext_path).write_bytes(ct)
                secret = JobSecret(job.keep_ciphertext_path, key, iv)
            result = dataclasses.replace(
                job_result(
                    spec.id,
                    spec.library,
                    algorithm=spec.algorithm,
                    mode=spec.mode,
                    key_bits=spec.key_bits,
                    input_bytes=len(data),
                ),
                input_label=job.input.label,
                data_mode=self.data_mode or job.options.data_mode,
                chunk_bytes=job.options.chunk_bytes if self.data_mode == "stream" else None,
            )
            results.append(result)
            yield JobFinished(i, result, secret)
        yield RunFinished(RunResult(tuple(results), (), {}, {}, "t0", "t1"))
