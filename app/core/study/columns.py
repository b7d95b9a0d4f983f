"""The columns of a study's table, declared once: a cipher study's rows (one per cipher entry
and input) and a transfer study's (the loopback study). The CSV, the XLSX ``Results`` sheet, the
transfer study's HTML table and the Study window's table all read these tuples.

Times are the median and the interquartile range (IQR) of the timed repetitions; throughputs in
the study's unit from the median; memory is the peak resident memory above the baseline, in MiB
(2^20 bytes).
"""

from __future__ import annotations

from typing import Any

from app.core.bench.results import JobResult
from app.core.columns import Column
from app.core.document.numbers import mib_text, rate_text
from app.core.document.numbers import seconds_text as time_text
from app.core.study.result import memory_mib, rate
from app.core.study.transfer_result import end_mib, transfer_rate
from app.core.text import display_text
from app.core.transfer.results import TransferResult

SECONDS = "0.000000"
BYTES = "#,##0"
RATE = "#,##0.0"
MIB_FORMAT = "0.0"
COUNT = "0"


def _text(value: Any) -> str:
    return display_text(str(value))


def _times(direction: str, word: str) -> tuple[Column[JobResult], Column[JobResult]]:
    name = {"encrypt": "encryptions", "decrypt": "decryptions"}[direction]
    return (
        Column(
            f"{direction}_median_s",
            f"{word} time (s)",
            lambda r, _u: getattr(r, direction).median_s,
            SECONDS,
            time_text,
            label=f"{word} time",
            tip=f"Median of the timed {name} (warm-up not counted)",
        ),
        Column(
            f"{direction}_iqr_s",
            f"{word} IQR (s)",
            lambda r, _u: getattr(r, direction).iqr_s,
            SECONDS,
            time_text,
            label=f"{word} IQR",
            tip=f"Interquartile range of the timed {name}: the spread every view shows",
        ),
    )


def _rate(direction: str, word: str) -> Column[JobResult]:
    return Column(
        f"{direction}_throughput",
        f"{word} throughput ({{units}})",
        lambda r, u: rate(r, direction, u),
        RATE,
        rate_text,
        label=f"{word} {{units}}",
    )


STUDY_COLUMNS: tuple[Column[JobResult], ...] = (
    Column("cipher", "Algorithm", lambda r, _u: r.cipher, text=_text),
    Column("library", "Library", lambda r, _u: r.library, text=_text),
    Column("input", "Input", lambda r, _u: r.input_label, text=_text),
    Column("input_bytes", "Size (bytes)", lambda r, _u: r.input_bytes, BYTES),
    *_times("encrypt", "Enc."),
    *_times("decrypt", "Dec."),
    _rate("encrypt", "Enc."),
    _rate("decrypt", "Dec."),
    Column(
        "memory_mib",
        "Memory above baseline (MiB)",
        lambda r, _u: memory_mib(r),
        MIB_FORMAT,
        mib_text,
        tip="Peak resident memory above the worker's baseline, MiB = 2^20 bytes",
    ),
    Column("repetitions", "Repetitions", lambda r, _u: len(r.encrypt.samples_s), COUNT, str),
)


def _end(end: str, word: str) -> tuple[Column[TransferResult], Column[TransferResult]]:
    return (
        Column(
            f"{end}_cpu_percent",
            f"{word} CPU (%)",
            lambda r, _u: getattr(r, end).cpu_percent,
            MIB_FORMAT,
            lambda v: f"{v:.0f}",
            label=f"{word} CPU %",
            tip=f"CPU time over wall time of the {end} (100 = one core)",
        ),
        Column(
            f"{end}_memory_mib",
            f"{word} memory above baseline (MiB)",
            lambda r, _u: end_mib(r, end),
            MIB_FORMAT,
            mib_text,
            label=f"{word} MiB",
            tip=f"The {end}'s peak resident memory above its baseline, MiB = 2^20 bytes",
        ),
    )


_SENDER_CPU, _SENDER_MIB = _end("sender", "Sender")
_RECEIVER_CPU, _RECEIVER_MIB = _end("receiver", "Receiver")

TRANSFER_STUDY_COLUMNS: tuple[Column[TransferResult], ...] = (
    Column("cipher", "Cipher", lambda r, _u: r.label, text=_text),
    Column("input", "Input", lambda r, _u: r.input_label, text=_text),
    Column("input_bytes", "Size (bytes)", lambda r, _u: r.input_bytes, BYTES),
    Column(
        "total_median_s",
        "Total time (s)",
        lambda r, _u: r.timing.median_s,
        SECONDS,
        time_text,
        label="Total time",
        tip="Median of the timed transfers, first byte sent to last byte verified",
    ),
    Column(
        "total_iqr_s",
        "IQR (s)",
        lambda r, _u: r.timing.iqr_s,
        SECONDS,
        time_text,
        label="IQR",
        tip="Interquartile range of the timed transfers",
    ),
    Column(
        "throughput",
        "Throughput ({units})",
        lambda r, u: transfer_rate(r, u),
        RATE,
        rate_text,
        label="{units}",
    ),
    _SENDER_CPU,
    _RECEIVER_CPU,
    _SENDER_MIB,
    _RECEIVER_MIB,
    Column("runs", "Runs", lambda r, _u: len(r.runs), COUNT, str),
    Column(
        "verified",
        "Verified",
        lambda r, _u: "yes" if r.verified else "NO",
        tip="Every chunk authenticated and both ends' SHA-256 digests equal, in every run",
    ),
)
