"""The one flat result schema: every per-job column any export or table shows, declared once.

A :class:`Field` is a flat value of a :class:`JobResult`: its key (the CSV column name), the
header a person reads (unit included), the unit, the Excel number format and how to get the
value from a job. CSV, XLSX, the window's results table and the terminal report all take their
columns from :data:`FIELDS` (each a subset, in its own order); none flattens a job by hand.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.core.bench.results import JobResult

WARNING_SEPARATOR = " | "

# Excel number formats.
SECONDS = "0.000000"
SAMPLE_SECONDS = "0.000000000"
RATE = "#,##0.00"
BYTES = "#,##0"
INTEGER = "0"
PERCENT = "0.0"


@dataclass(frozen=True)
class Field:
    """One flat value of a job result."""

    key: str  # CSV column, XLSX column key
    header: str  # for people, with the unit: "Enc. median (s)"
    unit: str  # "s", "bytes", "MB/s", "%", "bits" or "" (text, flags, counts)
    get: Callable[[JobResult], Any]  # a Python number, str, bool or None (not measured)
    number_format: str | None = None  # Excel


def _key_setup_median(job: JobResult) -> float | None:
    return statistics.median(job.key_setup_s) if job.key_setup_s else None


def _attr(name: str) -> Callable[[JobResult], Any]:
    return lambda job: getattr(job, name)


# (attribute of TimingStats, header word, unit, Excel format)
_TIMING: tuple[tuple[str, str, str, str], ...] = (
    ("median_s", "median", "s", SECONDS),
    ("min_s", "min", "s", SECONDS),
    ("mean_s", "mean", "s", SECONDS),
    ("stdev_s", "stdev", "s", SECONDS),
    ("iqr_s", "IQR", "s", SECONDS),
    ("throughput_mb_s", "throughput", "MB/s", RATE),
    ("throughput_mib_s", "throughput", "MiB/s", RATE),
)


def _timing_fields(prefix: str, direction: str, short: str) -> tuple[Field, ...]:
    def getter(stat: str) -> Callable[[JobResult], Any]:
        return lambda job: getattr(getattr(job, direction), stat)

    return tuple(
        Field(f"{prefix}_{stat}", f"{short} {word} ({unit})", unit, getter(stat), fmt)
        for stat, word, unit, fmt in _TIMING
    )


def _direction_fields() -> tuple[Field, ...]:
    """The memory pass's peaks by direction (empty where the pass could not tell them apart)."""

    def above(direction: str) -> Callable[[JobResult], Any]:
        return lambda job: job.memory_above_baseline(direction) if job.direction_memory else None

    def python(direction: str) -> Callable[[JobResult], Any]:
        return lambda job: (
            job.direction_memory.python_peak(direction) if job.direction_memory else None
        )

    return tuple(
        field
        for d, short in (("encrypt", "Enc."), ("decrypt", "Dec."))
        for field in (
            Field(f"{d}_memory_above_baseline_bytes", f"{short} memory above baseline (bytes)",
                  "bytes", above(d), BYTES),
            Field(f"{d}_python_peak_bytes", f"{short} Python peak (bytes)", "bytes", python(d),
                  BYTES),
        )
    )  # fmt: skip


def _load_all_fields() -> tuple[Field, ...]:
    """The load-all program's memory by direction (empty where the job did not run it)."""

    def getter(stat: str, direction: str) -> Callable[[JobResult], Any]:
        def get(job: JobResult) -> int | None:
            w = job.workload_memory
            return None if w is None else int(getattr(w, f"{direction}_{stat}_bytes"))

        return get

    return tuple(
        Field(f"load_all_{d}_{stat}_bytes", f"Load-all {short} {words} (bytes)", "bytes",
              getter(stat, d), BYTES)
        for d, short in (("encrypt", "enc."), ("decrypt", "dec."))
        for stat, words in (("python_peak", "Python peak"), ("rss_delta", "RSS after - before"))
    )  # fmt: skip


FIELDS: tuple[Field, ...] = (
    Field("cipher", "Cipher", "", _attr("cipher")),
    Field("library", "Library", "", _attr("library")),
    Field("algorithm", "Algorithm", "", _attr("algorithm")),
    Field("key_bits", "Key (bits)", "bits", _attr("key_bits"), INTEGER),
    Field("mode", "Mode", "", _attr("mode")),
    Field("data_mode", "Data mode", "", _attr("data_mode")),
    Field("chunk_bytes", "Chunk (bytes)", "bytes", _attr("chunk_bytes"), BYTES),
    Field("input_label", "Input", "", _attr("input_label")),
    Field("input_bytes", "Original size (bytes)", "bytes", _attr("input_bytes"), BYTES),
    Field("output_bytes", "Encrypted size (bytes)", "bytes", _attr("output_bytes"), BYTES),
    Field("verified", "Verified", "", _attr("verified")),
    *_timing_fields("enc", "encrypt", "Enc."),
    *_timing_fields("dec", "decrypt", "Dec."),
    Field("key_setup_median_s", "Key setup median (s)", "s", _key_setup_median, SECONDS),
    # bench --processes N: N copies at once (empty without it)
    Field(
        "aggregate_processes",
        "Processes at once",
        "",
        lambda job: job.aggregate.processes if job.aggregate else None,
        INTEGER,
    ),
    Field(
        "aggregate_enc_throughput_mb_s",
        "Aggregate enc. throughput (MB/s)",
        "MB/s",
        lambda job: job.aggregate.encrypt_throughput_mb_s if job.aggregate else None,
        RATE,
    ),
    Field(
        "aggregate_dec_throughput_mb_s",
        "Aggregate dec. throughput (MB/s)",
        "MB/s",
        lambda job: job.aggregate.decrypt_throughput_mb_s if job.aggregate else None,
        RATE,
    ),
    Field("peak_rss_bytes", "Peak RSS (bytes)", "bytes", _attr("peak_rss_bytes"), BYTES),
    Field(
        "baseline_rss_bytes", "Baseline RSS (bytes)", "bytes", _attr("baseline_rss_bytes"), BYTES
    ),
    Field(
        "memory_above_baseline_bytes",
        "Memory above baseline (bytes)",
        "bytes",
        _attr("memory_above_baseline_bytes"),
        BYTES,
    ),
    Field("python_peak_bytes", "Python peak (bytes)", "bytes", _attr("python_peak_bytes"), BYTES),
    *_direction_fields(),
    *_load_all_fields(),
    Field("cpu_percent", "CPU (% of one core)", "%", _attr("cpu_percent"), PERCENT),
    Field("repetitions", "Repetitions", "", lambda job: len(job.encrypt.samples_s), INTEGER),
    Field(
        "verified_round_trips",
        "Verified round trips",
        "",
        _attr("verified_round_trips"),
        INTEGER,
    ),
    Field(
        "ciphertext_preview_hex", "Ciphertext preview (hex)", "", _attr("ciphertext_preview_hex")
    ),
    Field("warnings", "Warnings", "", lambda job: WARNING_SEPARATOR.join(job.warnings)),
)

BY_KEY: dict[str, Field] = {f.key: f for f in FIELDS}


def field(key: str) -> Field:
    """The field named ``key`` (``KeyError`` if there is none)."""
    return BY_KEY[key]


def job_row(job: JobResult) -> dict[str, Any]:
    """The flat record of one job, keyed by field key, in :data:`FIELDS` order; values are
    Python numbers, strings, bools or None (not measured)."""
    return {f.key: f.get(job) for f in FIELDS}
