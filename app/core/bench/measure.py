"""Measuring one job, in the process that runs it (normally a fresh worker, see isolation.py).

Order, as benchmark libraries do it:

1. Memory pass (optional, untimed): the kernel's peak-RSS mark is reset, then one full
   encrypt + decrypt + verify runs with tracemalloc on. Its figures are the job's memory; its
   times are thrown away (tracemalloc slows the code it watches).
2. Warm-up runs, timed but discarded (kept in the result, as pyperf does).
3. Timed repetitions: at least ``repeat``; tiny inputs repeat until each direction has run
   ``min_time_s`` in total (at most ``max_repeat``). In memory mode a call shorter than a
   millisecond is timed in a batch of calls (each with its context made before the clock
   starts) long enough to time, calibrated after the warm-up as the sweep and pyperf do; a
   sample is then the time per call of its batch (``calls_per_sample``). In memory mode the
   samples of one direction run in slices of about 20 ms in a row, each after an untimed
   warm-up, as the sweep times its points; each slice's last decryption is checked against the
   input (every warm-up's too), after the next slice's encryptions.
   Their span on the machine-wide monotonic clock and the CPU time spent in it are kept
   (:class:`~app.core.bench.results.TimedSpan`), for the aggregate of ``--processes``.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import secrets
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

from app.core.bench.inputs import check_unchanged
from app.core.bench.job_progress import JobProgressReport, Progress
from app.core.bench.jobs import LOAD_ALL, Job
from app.core.bench.kept import JobSecret
from app.core.bench.load_all import measure_load_all
from app.core.bench.memory_probe import current_rss_bytes, peak_rss_bytes, reset_peak
from app.core.bench.results import DirectionMemory, JobResult, TimedSpan, WorkloadMemory
from app.core.bench.slices import Slices, Timings, in_a_row
from app.core.bench.stats import TOO_SHORT_S, TimingStats, stability_warnings, summarize
from app.core.bench.workloads import (
    Clock,
    Material,
    MemoryWorkload,
    StreamWorkload,
    sha256_file,
)
from app.core.ciphers.adapters import get_adapter
from app.core.ciphers.registry import CipherSpec, lookup
from app.core.errors import UserError, VerificationError
from app.core.runtime import scratch

Workload = MemoryWorkload | StreamWorkload
CONTENDED_CPU_PERCENT = 85.0


def random_key_iv(spec: CipherSpec) -> tuple[bytes, bytes]:
    """A fresh random key and IV/nonce, its block counter (if any) at zero so a long input never
    runs the 32-bit counter into its limit (:meth:`CipherSpec.fresh_iv`)."""
    return secrets.token_bytes(spec.key_bytes), spec.fresh_iv(secrets.token_bytes)


@dataclass
class _Memory:
    peak_rss: int | None = None
    baseline_rss: int | None = None
    python_peak: int | None = None
    exact: bool = True
    workload: WorkloadMemory | None = None  # a paper's program shape (load_all.py)
    by_direction: DirectionMemory | None = None


def run_job(
    job: Job,
    progress: Progress | None = None,
    clock: Clock = time.perf_counter_ns,
    work_dir: str | None = None,
) -> tuple[JobResult, JobSecret | None]:
    """Measure ``job`` in this process. Raises ``UserError`` for bad input (also an input that
    changed or vanished meanwhile, and a file error) and ``VerificationError`` if a round trip
    does not give the input back."""
    try:
        return _measure(job, progress, clock, work_dir)
    except (VerificationError, OSError) as exc:
        # An input rewritten in place makes the decryption differ from the digest taken at the
        # start, a deleted one makes open() fail: say that, not "verification failed".
        check_unchanged(job.input)
        if isinstance(exc, OSError):
            raise UserError(_file_error(exc)) from None
        raise


def _file_error(exc: OSError) -> str:
    name = f" ({os.path.basename(os.fsdecode(exc.filename))})" if exc.filename else ""
    if exc.errno == errno.ENOSPC:
        return f"the disk is full{name}: stream mode needs room for two copies of the input"
    return f"a file could not be read or written{name}: {exc.strerror or exc}"


@dataclass
class _Samples:
    """What the repetitions gathered, in seconds: warm-ups apart from the timed runs."""

    warmup_encrypt_s: list[float]
    warmup_decrypt_s: list[float]
    encrypt_s: list[float]
    decrypt_s: list[float]
    setup_s: list[float]
    cpu_ns: int
    wall_ns: int
    round_trips: int  # verified: each warm-up and each slice (its last decryption)
    span: TimedSpan
    calls: int = 1  # calls timed per sample (each sample's time is per call)


def _clocks() -> tuple[int, int]:
    """The machine-wide monotonic clock (CLOCK_MONOTONIC on Linux: one clock for every
    process, so the copies of ``--processes`` compare their spans) and this process's CPU."""
    return time.monotonic_ns(), time.process_time_ns()


def _measure(
    job: Job, progress: Progress | None, clock: Clock, work_dir: str | None
) -> tuple[JobResult, JobSecret | None]:
    opts = job.options
    spec = lookup(job.cipher_id, job.library, job.key_bits)
    adapter = get_adapter(job.library)
    key, iv = random_key_iv(spec)
    check_unchanged(job.input)
    size = job.input.size_bytes
    planned = (1 if opts.measure_memory else 0) + opts.warmup + opts.repeat
    prog = JobProgressReport(progress, planned, size)

    # Stream mode checks decryptions against the input's digest: read the file for it once,
    # not once per workload (the memory pass and the timed runs each make one).
    digest = sha256_file(job.input.path) if opts.data_mode == "stream" else None

    # The worker's supervisor owns work_dir (and removes it whatever happens to this process);
    # run in-process, the job gets a scratch folder of its own for the length of the block.
    with contextlib.ExitStack() as stack:
        tmp = work_dir or stack.enter_context(scratch.scratch_dir("job-"))
        material = Material(spec, adapter, key, iv, job.input.path, size)
        make = _workload_factory(job, material, tmp, clock, prog, digest)
        memory = _Memory()
        if opts.measure_memory:
            prog.step("memory pass")
            memory = _memory_pass(make)
            if opts.memory_workload == LOAD_ALL:
                memory.workload = measure_load_all(material, tmp)
            prog.finish_step()

        wl = make(False)
        try:
            samples = _time_repetitions(wl, job, prog, spec.label)
            check_unchanged(job.input)
            secret = None
            if job.keep_ciphertext_path:
                wl.save_ciphertext(job.keep_ciphertext_path)
                secret = JobSecret(job.keep_ciphertext_path, key, iv)
            output_bytes, preview = wl.output_bytes, wl.preview
        finally:
            wl.close()

    return _job_result(job, spec, samples, memory, output_bytes, preview), secret


def _workload_factory(
    job: Job,
    material: Material,
    tmp: str,
    clock: Clock,
    prog: JobProgressReport,
    digest: bytes | None,
) -> Callable[[bool], Workload]:
    """Makes the job's workloads: one for the memory pass (``in_place`` where the library
    allows), one for the timed runs (the ciphertext apart)."""
    opts = job.options

    def make(in_place: bool) -> Workload:
        if opts.data_mode == "stream":
            return StreamWorkload(
                material,
                opts.chunk_bytes,
                tmp,
                clock=clock,
                on_bytes=prog.bytes_done,
                digest=digest,
            )
        return MemoryWorkload(material, clock=clock, in_place=in_place)

    return make


def _time_repetitions(wl: Workload, job: Job, prog: JobProgressReport, label: str) -> _Samples:
    """Warm-ups, then at least ``repeat`` timed round trips; tiny inputs go on until each
    direction has run ``min_time_s`` in total, never beyond ``max_repeat``. Only the
    workload's own calls are timed; the bookkeeping here happens between them.

    In memory mode the samples come in batches and slices (:mod:`app.core.bench.slices`), as
    the sweep times its points. A run of decryptions starts on a plaintext with its ends
    spoiled (a decryption that writes nothing fails the check) and is checked against the
    input once, after the next run of encryptions (which only reads the plaintext), not
    between the decryptions and the encryptions: hashing 16 MiB there left the encryption's
    output buffer idle for 10-20 ms and its next calls read 10 % slower (pycryptodome's
    AES-GCM)."""
    opts = job.options
    t = Timings()
    rep = 0
    first = last = (0, 0)  # _clocks() at the first timed repetition's start, the last's end
    # A clock given by a test counts steps, not time: nothing to calibrate or slice against.
    slices = Slices(isinstance(wl, MemoryWorkload) and wl.clock is time.perf_counter_ns)
    while True:
        warm = rep < opts.warmup
        prog.step("warm-up" if warm else "encrypt / decrypt")
        if not warm and not t.enc:
            if slices.on:
                assert isinstance(wl, MemoryWorkload)
                slices.start(wl, job, t, label)
            first = _clocks()
        n = 1 if warm else slices.now(t, opts)
        warm_up = not warm and slices.warms_up(n)
        encs = in_a_row(wl.encrypt, n, warm_up, slices.calls == 1)
        if rep:  # the last decryption's output, checked before the next one overwrites it
            wl.check(label)
        if isinstance(wl, MemoryWorkload):
            wl.spoil_plaintext()
        decs = in_a_row(wl.decrypt, n, warm_up, slices.calls == 1)
        prog.finish_step(n)
        rep += 1
        if warm:
            t.warm_e.append(encs[0][1] / 1e9)
            t.warm_d.append(decs[0][1] / 1e9)
            continue
        last = _clocks()
        for e, d in zip(encs, decs, strict=True):
            t.add(e, d)
        if slices.on and not slices.sample_ns:  # no warm-up to size the slices by: this one
            slices.size(max(encs[0][1], decs[0][1]) * slices.calls)
        if len(t.enc) >= opts.max_repeat or (
            len(t.enc) >= opts.repeat
            and min(sum(t.enc), sum(t.dec)) * slices.calls * 1e9 >= opts.min_time_s * 1e9
        ):
            break
    wl.check(label)
    span = TimedSpan(first[0], last[0], last[1] - first[1], t.enc_cpu, t.dec_cpu)
    return _Samples(
        t.warm_e, t.warm_d, t.enc, t.dec, t.setup, t.enc_cpu + t.dec_cpu, t.wall_ns, rep, span,
        slices.calls,
    )  # fmt: skip


def _job_result(
    job: Job,
    spec: CipherSpec,
    samples: _Samples,
    memory: _Memory,
    output_bytes: int,
    preview: bytes,
) -> JobResult:
    opts = job.options
    size = job.input.size_bytes
    e_stats = summarize(samples.encrypt_s, size, samples.warmup_encrypt_s)
    d_stats = summarize(samples.decrypt_s, size, samples.warmup_decrypt_s)
    cpu_percent = 100.0 * samples.cpu_ns / samples.wall_ns if samples.wall_ns else 0.0
    warnings = _warnings(job, e_stats, d_stats, cpu_percent, memory, samples.calls)
    return JobResult(
        cipher=spec.id,
        library=spec.library,
        algorithm=spec.algorithm,
        key_bits=spec.key_bits,
        mode=spec.mode,
        data_mode=opts.data_mode,
        input_label=job.input.label,
        input_bytes=size,
        output_bytes=output_bytes,
        chunk_bytes=opts.chunk_bytes if opts.data_mode == "stream" else None,
        verified_round_trips=samples.round_trips + (1 if opts.measure_memory else 0),
        encrypt=e_stats,
        decrypt=d_stats,
        key_setup_s=tuple(samples.setup_s),
        ciphertext_preview_hex=preview.hex(),
        peak_rss_bytes=memory.peak_rss,
        baseline_rss_bytes=memory.baseline_rss,
        python_peak_bytes=memory.python_peak,
        workload_memory=memory.workload,
        direction_memory=memory.by_direction,
        cpu_percent=cpu_percent,
        warnings=tuple(warnings),
        notes=spec.notes,
        timed_span=samples.span,
        calls_per_sample=samples.calls,
    )


def _warnings(
    job: Job,
    e_stats: TimingStats,
    d_stats: TimingStats,
    cpu_percent: float,
    memory: _Memory,
    calls: int = 1,
) -> list[str]:
    """Stability warnings of both directions, then CPU contention and an inexact memory peak."""
    opts = job.options
    warnings = stability_warnings(e_stats, "encryption", calls) + stability_warnings(
        d_stats, "decryption", calls
    )
    if (
        opts.data_mode == "memory"
        and cpu_percent < CONTENDED_CPU_PERCENT
        and e_stats.median_s * calls >= TOO_SHORT_S
    ):
        # In memory mode the cipher never waits for I/O: less than a full core means another
        # program took the CPU while we timed, and the figures are too slow.
        warnings.append(
            f"the worker got only {cpu_percent:.0f} % of a CPU core while timed: other programs "
            "competed for the CPU, so these times are too long"
        )
    if opts.measure_memory and not memory.exact:
        warnings.append(
            "peak memory includes the worker's start-up: this system cannot reset the "
            "high-water mark"
        )
    return warnings


def _memory_pass(make: Callable[[bool], Workload]) -> _Memory:
    """One untimed round trip with its own peak: RSS high-water mark and tracemalloc, each
    direction's apart where the high-water mark can be reset (both hold the buffers)."""
    gc.collect()
    exact = reset_peak()
    baseline = current_rss_bytes()
    tracemalloc.start()
    wl: Workload | None = None
    try:
        wl = make(True)  # may fail (MemoryError allocating the buffers): nothing to close then
        try:
            wl.encrypt()
            enc = peak_rss_bytes(), tracemalloc.get_traced_memory()[1]
            apart = exact and reset_peak()  # the job's peak stays exact either way
            tracemalloc.reset_peak()
            wl.decrypt()
            dec = peak_rss_bytes(), tracemalloc.get_traced_memory()[1]
            if not wl.verify():
                raise VerificationError("the decrypted output differs from the input")
        finally:
            wl.close()
    finally:
        tracemalloc.stop()
        wl = None  # the buffers go before the timed runs allocate their own
        gc.collect()
    memory = _Memory(max(enc[0], dec[0]), baseline, max(enc[1], dec[1]), exact)
    if apart:
        memory.by_direction = DirectionMemory(enc[0], dec[0], enc[1], dec[1])
    return memory
