"""A transfer's columns, declared once: one row per cipher. The CSV (keys), the XLSX ``Results``
sheet (headers, number formats) and the Transfer window's table (a subset, :data:`SHOWN`, with
each column's text and tooltip) read :data:`COLUMNS`.

Throughput in MB/s (10^6 bytes per second) and MiB/s (2^20); memory is each end's peak resident
memory (the largest of the timed runs) and its baseline before the run; CPU is each end's CPU
time over its wall time, the median of the timed runs, in % of one core.
"""

from __future__ import annotations

from typing import Any

from app.core.columns import Column
from app.core.document.numbers import mib_text, rate_text, seconds_text
from app.core.transfer.results import TransferResult
from app.core.units import MIB, format_bytes

SECONDS = "0.000000"
BYTES = "#,##0"
RATE = "#,##0.00"


def _time(name: str, word: str, tip: str) -> Column[TransferResult]:
    return Column(
        name,
        f"Total time {word} (s)",
        lambda r, _u: float(getattr(r.timing, name)),
        SECONDS,
        seconds_text,
        label=f"Time {word}",
        tip=tip,
        short={"median_s": "time", "iqr_s": "±IQR"}.get(name, word),
    )


def _rate(unit: str, divisor: str) -> Column[TransferResult]:
    return Column(
        f"throughput_{unit.lower().replace('/', '_')}",
        f"Throughput ({unit})",
        lambda r, _u: getattr(r, f"throughput_{unit.lower().replace('/', '_')}"),
        RATE,
        rate_text,
        tip=f"Size / median time, in {divisor} bytes per second",
        short=unit,
    )


def _end(end: str, word: str) -> tuple[Column[TransferResult], ...]:
    def get(name: str) -> Any:
        return lambda r, _u: getattr(getattr(r, end), name)

    return (
        Column(
            f"{end}_cpu_percent",
            f"{word} CPU (%)",
            get("cpu_percent"),
            "0.0",
            lambda v: f"{v:.0f}",
            short=f"{end[0]} CPU%",
            tip=f"The {end}'s CPU time over its part of each transfer / that part's wall time, "
            "in % of one core (median of the timed runs)",
        ),
        Column(f"{end}_peak_rss_bytes", f"{word} peak RSS (bytes)", get("peak_rss_bytes"), BYTES),
        Column(
            f"{end}_baseline_rss_bytes",
            f"{word} baseline RSS (bytes)",
            get("baseline_rss_bytes"),
            BYTES,
        ),
        Column(
            f"{end}_peak_above_baseline_bytes",
            f"{word} peak above baseline (bytes)",
            get("peak_above_baseline_bytes"),
            BYTES,
            lambda v: mib_text(v / MIB),
            label=f"{word} memory (MiB)",
            short=f"{end[0]} MiB",
            tip=f"The {end}'s peak resident memory above its baseline (kernel high-water "
            "mark), in 2^20 bytes: the largest of the timed runs",
        ),
    )


COLUMNS: tuple[Column[TransferResult], ...] = (
    Column(
        "cipher",
        "Cipher",
        lambda r, _u: r.cipher_id,
        short="cipher",
        tip="The AEAD sealing each chunk (its library in the tooltip); none: plaintext",
    ),
    Column("library", "Library", lambda r, _u: r.library or ""),
    Column("input", "Input", lambda r, _u: r.input_label),
    Column(
        "input_bytes",
        "Size (bytes)",
        lambda r, _u: r.input_bytes,
        BYTES,
        lambda v: format_bytes(v, binary=False),
        label="Size",
        tip="Bytes sent per transfer",
    ),
    Column("chunk_bytes", "Chunk (bytes)", lambda r, _u: r.chunk_bytes, BYTES),
    Column("chunks", "Chunks", lambda r, _u: r.chunks, "0"),
    Column("runs", "Timed runs", lambda r, _u: len(r.runs), "0"),
    Column(
        "verified",
        "Verified",
        lambda r, _u: r.verified,
        tip="Every chunk authenticated (none: every byte arrived) and both ends' stream digests "
        "equal, in every run",
    ),
    _time(
        "median_s",
        "median",
        "First byte sent to last byte verified: the median of the timed runs",
    ),
    _time("iqr_s", "IQR", "The interquartile range of the timed runs' total times"),
    _time("min_s", "min", "The fastest timed run"),
    _time("max_s", "max", "The slowest timed run"),
    _rate("MB/s", "10^6"),
    _rate("MiB/s", "2^20"),
    *_end("sender", "Sender"),
    *_end("receiver", "Receiver"),
    Column(
        "warnings",
        "Warnings",
        lambda r, _u: " | ".join(r.warnings),
        tip="What makes this measurement less trustworthy (from the engine)",
    ),
)
BY_KEY = {c.key: c for c in COLUMNS}
_TIMES = ("median_s", "iqr_s", "throughput_mb_s")
_ENDS = tuple(
    f"{end}_{what}"
    for end in ("sender", "receiver")
    for what in ("cpu_percent", "peak_above_baseline_bytes")
)


def _pick(*keys: str) -> tuple[Column[TransferResult], ...]:
    return tuple(BY_KEY[key] for key in keys)


# The Transfer window's table: what a reader compares first.
SHOWN = _pick("cipher", "input_bytes", *_TIMES, "throughput_mib_s", *_ENDS, "verified", "warnings")
# The terminal's table (80 columns; the warnings follow it as lines of their own).
TERMINAL = _pick("cipher", *_TIMES, *_ENDS)
