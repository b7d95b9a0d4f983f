"""How long slow libraries take, estimated before a run (the CLI's note, the window's warning)."""

from __future__ import annotations

from dataclasses import replace

from app.core.bench.jobs import LOAD_ALL, BenchOptions, InputSpec, Job
from app.core.bench.plan import (
    WORKER_OVERHEAD_BYTES,
    estimated_job_seconds,
    expected_worker_bytes,
    passes_per_job,
    slow_run_note,
)
from app.core.ciphers.registry import lookup
from app.core.units import MIB

MB = 10**6


def test_passes_count_memory_warmup_and_timed_runs_both_ways() -> None:
    assert passes_per_job(BenchOptions(repeat=5, warmup=1, measure_memory=True)) == 14
    assert passes_per_job(BenchOptions(repeat=2, warmup=0, measure_memory=False)) == 4


def test_pyaes_on_85_mb_takes_most_of_an_hour() -> None:
    options = BenchOptions(repeat=5, warmup=1, measure_memory=True)
    seconds = estimated_job_seconds("pyaes", 85 * MB, options)
    assert seconds is not None and 40 * 60 <= seconds <= 60 * 60
    assert estimated_job_seconds("cryptography", 85 * MB, options) is None


def test_note_names_the_library_the_jobs_and_the_time() -> None:
    options = BenchOptions(repeat=5, warmup=1, measure_memory=True)
    note = slow_run_note(["cryptography", "pyaes", "pyaes"], 85 * MB, options)
    assert note == (
        "pyaes (pure Python) runs at about 0.4 MB/s; its 2 jobs on 85.00 MB will take about 1.7 h"
    )
    assert slow_run_note(["pyaes"], 100_000, options) is None  # 3.5 s: no note
    assert slow_run_note(["cryptography"], 85 * MB, options) is None


def test_rough_duration_reads_like_speech() -> None:
    from app.core.document.numbers import duration_text

    assert [duration_text(s) for s in (40, 2856, 6000)] == ["40 s", "48 min", "1.7 h"]


def test_a_workers_memory_is_its_buffers_and_the_interpreter() -> None:
    """Memory mode holds the input and a second buffer, whether or not the library works in
    place (the timed runs keep the ciphertext apart); stream mode a chunk in and a chunk out,
    whatever the input's size."""
    size = 256 * MIB

    def job(library: str, mode: str) -> Job:
        options = BenchOptions(data_mode=mode, chunk_bytes=MIB)
        return Job("aes-256-ctr", library, 256, InputSpec("/x", "x", size, 0), options)

    two, one = lookup("aes-256-ctr", "cryptography"), lookup("aes-256-ctr", "pycryptodome")
    assert not two.in_place and one.in_place
    assert expected_worker_bytes(job("cryptography", "memory")) == 2 * size + (
        WORKER_OVERHEAD_BYTES
    )
    # In place in the memory pass, apart in the timed runs: the worker holds two buffers.
    assert expected_worker_bytes(job("pycryptodome", "memory")) == 2 * size + (
        WORKER_OVERHEAD_BYTES
    )
    assert expected_worker_bytes(job("cryptography", "stream")) == 2 * MIB + (WORKER_OVERHEAD_BYTES)
    papers = replace(job("cryptography", "stream"), options=BenchOptions(
        data_mode="stream", chunk_bytes=MIB, memory_workload=LOAD_ALL
    ))  # fmt: skip
    assert expected_worker_bytes(papers) == 3 * size + WORKER_OVERHEAD_BYTES  # 3 copies
