"""Turning choices (entries, an input, options) into a list of jobs, and how long they take
where a library is slow enough for that to matter."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

from app.core.bench.jobs import (
    DATA_MODES,
    LOAD_ALL,
    MAX_CHUNK_BYTES,
    MAX_REPEAT,
    MAX_WARMUP,
    MEMORY_WORKLOADS,
    MIN_CHUNK_BYTES,
    BenchOptions,
    InputSpec,
    Job,
)
from app.core.ciphers.registry import CipherSpec, Kind
from app.core.document.numbers import duration_text
from app.core.errors import UserError
from app.core.text import counted
from app.core.units import MIB, format_bytes

# Libraries slow enough to warn about, at the speed measured here (pure Python AES: 85 MB took
# about 40 minutes a job). The compiled libraries run at hundreds of MB/s: not estimated.
SLOW_LIBRARY_BYTES_PER_SECOND = {"pyaes": 0.4e6}
SLOW_RUN_SECONDS = 30.0  # warn before starting when the slow jobs take longer than this


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
    if options.memory_workload not in MEMORY_WORKLOADS:
        raise UserError(
            f"unknown memory workload {options.memory_workload!r}; use load-all, or leave it out"
        )
    if options.memory_workload and not options.measure_memory:
        raise UserError(
            "a memory workload runs in the memory pass: it cannot be measured with memory "
            "measurement switched off"
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


# Room a worker needs besides its buffers (interpreter, libraries, page tables).
WORKER_OVERHEAD_BYTES = 96 * MIB


def expected_worker_bytes(job: Job) -> int:
    """About the most memory the worker of ``job`` holds: in memory mode the input and a
    second buffer for the output (the timed runs keep it apart for every library; the memory
    pass, in place where the library allows, reports less); in stream mode a
    chunk in and a chunk out; the papers' load-all program, when measured, three copies of the
    input (:mod:`app.core.bench.load_all`); the interpreter and its libraries besides."""
    options = job.options
    size = job.input.size_bytes
    buffers = 2 * (size if options.data_mode == "memory" else options.chunk_bytes)
    if options.measure_memory and options.memory_workload == LOAD_ALL:
        buffers = max(buffers, 3 * size)
    return buffers + WORKER_OVERHEAD_BYTES


def passes_per_job(options: BenchOptions) -> int:
    """Passes over the input a job makes: both directions of the memory pass, the warm-up and
    the timed runs (tiny inputs may repeat more, but those are quick)."""
    return 2 * ((1 if options.measure_memory else 0) + options.warmup + options.repeat)


def estimated_job_seconds(library: str, input_bytes: int, options: BenchOptions) -> float | None:
    """About how long a job of ``library`` on ``input_bytes`` takes; None for a library not
    known to be slow (it takes seconds at most)."""
    speed = SLOW_LIBRARY_BYTES_PER_SECOND.get(library)
    if speed is None:
        return None
    return passes_per_job(options) * input_bytes / speed


def slow_run_note(libraries: Sequence[str], input_bytes: int, options: BenchOptions) -> str | None:
    """A sentence for the user when the jobs of slow libraries among ``libraries`` (one entry
    per job) on ``input_bytes`` take longer than ``SLOW_RUN_SECONDS``; else None."""
    for library, speed in SLOW_LIBRARY_BYTES_PER_SECOND.items():
        jobs = sum(1 for name in libraries if name == library)
        seconds = jobs * (estimated_job_seconds(library, input_bytes, options) or 0.0)
        if seconds > SLOW_RUN_SECONDS:
            return (
                f"{library} (pure Python) runs at about {speed / 1e6:g} MB/s; its "
                f"{counted(jobs, 'job')} on {format_bytes(input_bytes, binary=False)} "
                f"will take about {duration_text(seconds)}"
            )
    return None
