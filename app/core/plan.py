"""Turning choices (entries, an input, options) into a list of jobs."""

from __future__ import annotations

import os

from app.core.errors import UserError
from app.core.jobs import DATA_MODES, BenchOptions, InputSpec, Job
from app.core.registry import CipherSpec, Kind


def check_options(options: BenchOptions) -> None:
    if options.data_mode not in DATA_MODES:
        raise UserError(f"unknown data mode {options.data_mode!r}; use memory or stream")
    if options.repeat < 1:
        raise UserError("repetitions must be at least 1")
    if options.warmup < 0:
        raise UserError("warm-up runs cannot be negative")
    if options.chunk_bytes < 64 or options.chunk_bytes % 64:
        raise UserError("the chunk size must be a multiple of 64 bytes (e.g. 64KiB, 1MiB)")


def make_jobs(
    specs: list[CipherSpec],
    input: InputSpec,
    options: BenchOptions,
    keep_ciphertext_dir: str | None = None,
) -> list[Job]:
    """One job per entry, in the order given; duplicates are dropped."""
    check_options(options)
    jobs: list[Job] = []
    seen: set[tuple[str, str, int]] = set()
    for spec in specs:
        key = (spec.id, spec.library, spec.key_bits)
        if key in seen:
            continue
        seen.add(key)
        keep = None
        if keep_ciphertext_dir is not None:
            name = f"{len(jobs):03d}-{spec.id}-{spec.library}-{spec.key_bits}.bin"
            keep = os.path.join(keep_ciphertext_dir, name)
        jobs.append(Job(spec.id, spec.library, spec.key_bits, input, options, keep))
    return jobs


def stream_chunk_ok(spec: CipherSpec, chunk_bytes: int) -> bool:
    """Block modes need whole blocks per chunk; every registry block size divides 64."""
    return spec.kind is not Kind.BLOCK or chunk_bytes % spec.block_bytes == 0
