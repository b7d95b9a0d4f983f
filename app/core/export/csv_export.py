"""Results as CSV: one row per job, flat columns, the unit at the end of each column name.

Read back with ``csv.DictReader(open(path, newline="", encoding="utf-8"))``. Numbers are
written at full precision (``repr``), empty cells mean "not measured", ``verified`` is
``true``/``false``; ``chunk_bytes`` is the chunk a stream-mode job used and ``repetitions`` the
timed runs it made. A file name byte that is not UTF-8 is written as the text ``\\xff``. Jobs
that failed get a row too: cipher and library, no numbers, and ``failed: <reason>`` in
``warnings``. Use ``exporters.export`` for an atomic write.
"""

from __future__ import annotations

import csv
import statistics
from os import PathLike
from typing import Any

from app.core.bench.results import JobFailure, JobResult, RunResult
from app.core.bench.stats import TimingStats
from app.core.text import display_text

WARNING_SEPARATOR = " | "

_TIMING_FIELDS = ("median_s", "min_s", "mean_s", "stdev_s", "iqr_s")
_RATE_FIELDS = ("throughput_mb_s", "throughput_mib_s")

CSV_COLUMNS: tuple[str, ...] = (
    "cipher",
    "library",
    "algorithm",
    "key_bits",
    "mode",
    "data_mode",
    "chunk_bytes",
    "input_label",
    "input_bytes",
    "output_bytes",
    "verified",
    *(f"enc_{f}" for f in _TIMING_FIELDS + _RATE_FIELDS),
    *(f"dec_{f}" for f in _TIMING_FIELDS + _RATE_FIELDS),
    "key_setup_median_s",
    "peak_rss_bytes",
    "baseline_rss_bytes",
    "memory_above_baseline_bytes",
    "python_peak_bytes",
    "cpu_percent",
    "repetitions",
    "ciphertext_preview_hex",
    "warnings",
)


def _timing(prefix: str, stats: TimingStats) -> dict[str, Any]:
    return {f"{prefix}_{f}": getattr(stats, f) for f in _TIMING_FIELDS + _RATE_FIELDS}


def job_row(job: JobResult) -> dict[str, Any]:
    """The flat record of one job, keyed by ``CSV_COLUMNS``; values are Python numbers,
    strings, bools or None (not measured). Shared by the CSV and Excel exporters."""
    row: dict[str, Any] = {
        "cipher": job.cipher,
        "library": job.library,
        "algorithm": job.algorithm,
        "key_bits": job.key_bits,
        "mode": job.mode,
        "data_mode": job.data_mode,
        "chunk_bytes": job.chunk_bytes,  # the chunk this job used (stream mode only)
        "input_label": job.input_label,
        "input_bytes": job.input_bytes,
        "output_bytes": job.output_bytes,
        "verified": job.verified,
        **_timing("enc", job.encrypt),
        **_timing("dec", job.decrypt),
        "key_setup_median_s": statistics.median(job.key_setup_s) if job.key_setup_s else None,
        "peak_rss_bytes": job.peak_rss_bytes,
        "baseline_rss_bytes": job.baseline_rss_bytes,
        "memory_above_baseline_bytes": job.memory_above_baseline_bytes,
        "python_peak_bytes": job.python_peak_bytes,
        "cpu_percent": job.cpu_percent,
        "repetitions": len(job.encrypt.samples_s),
        "ciphertext_preview_hex": job.ciphertext_preview_hex,
        "warnings": WARNING_SEPARATOR.join(job.warnings),
    }
    return row


def failure_row(failure: JobFailure) -> dict[str, Any]:
    """A ``CSV_COLUMNS`` record for a job that failed: names and the reason, nothing else."""
    row: dict[str, Any] = dict.fromkeys(CSV_COLUMNS)
    row.update(
        cipher=failure.cipher, library=failure.library, warnings=f"failed: {failure.message}"
    )
    return row


def _cell(value: Any) -> str:
    if isinstance(value, str):
        return display_text(value)  # UTF-8 cannot hold a file name's stray byte as it is
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write_csv(run: RunResult, path: str | PathLike[str]) -> None:
    """Write ``run`` to ``path`` (UTF-8, comma-separated, header row). Not atomic."""
    rows = [job_row(j) for j in run.results] + [failure_row(f) for f in run.failures]
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            writer.writerow([_cell(row[c]) for c in CSV_COLUMNS])
