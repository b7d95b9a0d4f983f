"""Turning choices (entries, an input, options) into a list of jobs."""

from __future__ import annotations

import os
from dataclasses import replace

from app.core.bench.jobs import (
    DATA_MODES,
    MAX_CHUNK_BYTES,
    MAX_REPEAT,
    MAX_WARMUP,
    MIN_CHUNK_BYTES,
    BenchOptions,
    InputSpec,
    Job,
)
from app.core.ciphers.registry import CipherSpec, Kind
from app.core.errors import UserError
from app.core.units import MIB


def check_options(options: BenchOptions) -> None:
    """Refuse options out of their bounds (:mod:`app.core.bench.jobs`), in one sentence each."""
    if options.data_mode not in DATA_MODES:
        raise UserError(f"unknown data mode {options.data_mode!r}; use memory or stream")
    if not 1 <= options.repeat <= MAX_REPEAT:
        raise UserError(f"repetitions must be at least 1 and at most {MAX_REPEAT}")
    if not 0 <= options.warmup <= MAX_WARMUP:
        raise UserError(f"warm-up runs must be at least 0 and at most {MAX_WARMUP}")
    if options.chunk_bytes < MIN_CHUNK_BYTES or options.chunk_bytes % MIN_CHUNK_BYTES:
        raise UserError("the chunk size must be a multiple of 64 bytes (e.g. 64KiB, 1MiB)")
    if options.chunk_bytes > MAX_CHUNK_BYTES:
        raise UserError(
            f"the chunk size must be at most {MAX_CHUNK_BYTES // MIB} MiB "
            "(a larger buffer is no faster and takes memory twice over)"
        )


def job_chunk_bytes(spec: CipherSpec, input_bytes: int, chunk_bytes: int) -> int:
    """The chunk a stream-mode job reads: ``chunk_bytes``, but no more than the input rounded
    up to whole blocks, so a small file does not cost (and report) a 64 MiB buffer."""
    block = spec.block_bytes
    need = max(block, -(-input_bytes // block) * block)
    return min(chunk_bytes, need)


def make_jobs(
    specs: list[CipherSpec],
    input: InputSpec,
    options: BenchOptions,
    keep_ciphertext_dir: str | None = None,
) -> list[Job]:
    """One job per entry, in the order given; duplicates are dropped. In stream mode each job
    gets its own chunk size (:func:`job_chunk_bytes`)."""
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
        job_options = options
        if options.data_mode == "stream":
            chunk = job_chunk_bytes(spec, input.size_bytes, options.chunk_bytes)
            job_options = replace(options, chunk_bytes=chunk)
        jobs.append(Job(spec.id, spec.library, spec.key_bits, input, job_options, keep))
    return jobs


def stream_chunk_ok(spec: CipherSpec, chunk_bytes: int) -> bool:
    """Block modes need whole blocks per chunk; every registry block size divides 64."""
    return spec.kind is not Kind.BLOCK or chunk_bytes % spec.block_bytes == 0
