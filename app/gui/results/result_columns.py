"""The results table's columns: how a :class:`JobResult` shows in each, sorts, explains itself
(header and cell tooltips) and copies as raw numbers. Headers and units come from the one
result schema (:mod:`app.core.export.schema`) wherever a column shows one of its fields.
"""

from __future__ import annotations

import math
import mimetypes
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.bench.results import JobResult
from app.core.bench.stats import TimingStats
from app.core.document.numbers import figure, mib_text, rate_text
from app.core.export import schema
from app.core.units import MIB, file_size, format_bytes, format_seconds

PREVIEW_SHOWN_BYTES = 4  # in the cell (enough to see it differs); the tooltip and copies have all


def _decimals_for(value: float, significant: int = 4) -> int:
    """Decimals that keep about ``significant`` digits: 1234.5 -> 0, 1.2345 -> 3, 0.0123 -> 5."""
    if value <= 0 or not math.isfinite(value):
        return 2
    return max(0, min(7, significant - 1 - math.floor(math.log10(value))))


def _time_text(stats: TimingStats) -> str:
    # The one spread statistic of every view (the CLI's ±IQR column, the exports' iqr_s):
    # the interquartile range, which, like the median, one outlier cannot move.
    return f"{figure(stats.median_s * 1e3)} ±{figure(stats.iqr_s * 1e3)}"  # the CLI's "±IQR"


def _time_tip(stats: TimingStats, direction: str) -> str:
    n = len(stats.samples_s)
    warm = len(stats.warmup_s)
    return (
        f"{direction}: median {format_seconds(stats.median_s)}, standard deviation "
        f"{format_seconds(stats.stdev_s)} ({stats.stdev_percent:.1f} % of the mean)\n"
        f"min {format_seconds(stats.min_s)}, mean {format_seconds(stats.mean_s)}, "
        f"max {format_seconds(stats.max_s)}, interquartile range {format_seconds(stats.iqr_s)}\n"
        f"{n} timed run{'s' if n != 1 else ''}, {warm} warm-up run{'s' if warm != 1 else ''} "
        "not counted"
    )


def _memory_mib(r: JobResult) -> float | None:
    above = r.memory_above_baseline_bytes
    return None if above is None else above / MIB


def _memory_tip(r: JobResult) -> str:
    if r.peak_rss_bytes is None:
        return "Memory was not measured (the option was off)."
    lines = [
        "Peak resident memory of the job's worker process, above what it used before the "
        "measured round trip (a separate, untimed pass).",
        f"Peak: {format_bytes(r.peak_rss_bytes)}",
    ]
    if r.baseline_rss_bytes is not None:
        lines.append(f"Baseline: {format_bytes(r.baseline_rss_bytes)}")
    if r.python_peak_bytes is not None:
        lines.append(f"Python allocations (tracemalloc peak): {format_bytes(r.python_peak_bytes)}")
    d = r.direction_memory
    if d is not None:
        enc, dec = r.memory_above_baseline("encrypt"), r.memory_above_baseline("decrypt")
        lines.append(
            f"By direction, above the baseline: encrypt {format_bytes(enc or 0)}, "
            f"decrypt {format_bytes(dec or 0)}"
        )
    w = r.workload_memory
    if w is not None:
        lines.append(
            "The papers' load-all program (file read whole, padded copy, new ciphertext), "
            "tracemalloc peak / RSS after minus before:"
        )
        for direction in ("encrypt", "decrypt"):
            lines.append(
                f"  {direction}: {format_bytes(w.python_peak(direction))} / "
                f"{format_bytes(w.rss_delta(direction))}"
            )
    return "\n".join(lines)


def _preview_text(r: JobResult) -> str:
    hex_ = r.ciphertext_preview_hex[: PREVIEW_SHOWN_BYTES * 2]
    more = "…" if len(r.ciphertext_preview_hex) > len(hex_) else ""
    return " ".join(hex_[i : i + 2] for i in range(0, len(hex_), 2)) + more


@dataclass(frozen=True)
class Column:
    """One table column: how a result shows, sorts, explains itself and copies."""

    header: str
    tooltip: str
    text: Callable[[JobResult], str]
    sort_key: Callable[[JobResult], Any]
    copy_headers: tuple[str, ...] = ()  # default: (header,)
    copy_values: Callable[[JobResult], tuple[str, ...]] | None = None
    numeric: bool = True
    cell_tip: Callable[[JobResult], str] | None = None


COPY_SIGNIFICANT = 6  # digits a copied number keeps: more than any timer here resolves


def _g(value: float | None) -> str:
    """A number as copied: about six significant digits, no thousands separators, never in
    e-notation (a spreadsheet reads it as a number; 1234.56789 -> 1234.57)."""
    if value is None:
        return ""
    value = float(value)
    if not math.isfinite(value):
        return repr(value)
    text = f"{value:.{_decimals_for(abs(value), COPY_SIGNIFICANT)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _raw(value: Any) -> str:
    """A schema value as copied to the clipboard: floats rounded (:func:`_g`), ints as digits."""
    return _g(value) if isinstance(value, float) else str(value)


def _field_column(
    key: str,
    tooltip: str,
    text: Callable[[JobResult], str] | None = None,
    *,
    sort_key: Callable[[JobResult], Any] | None = None,
    copy_raw: bool = False,
    numeric: bool = True,
    cell_tip: Callable[[JobResult], str] | None = None,
) -> Column:
    """A column showing one schema field: header (with its unit) and value come from the
    schema; ``text`` only formats it for the eye, ``copy_raw`` copies the raw value."""
    f = schema.field(key)
    return Column(
        f.header,
        tooltip,
        text or (lambda r: str(f.get(r))),
        sort_key or f.get,
        copy_values=(lambda r: (_raw(f.get(r)),)) if copy_raw else None,
        numeric=numeric,
        cell_tip=cell_tip,
    )


# (attribute of JobResult, header prefix, word) for encryption and decryption.
DIRECTIONS = (("encrypt", "Enc.", "encryption"), ("decrypt", "Dec.", "decryption"))


def _time_column(direction: tuple[str, str, str]) -> Column:
    attr, short, word = direction
    return Column(
        f"{short} time (ms)",
        f"{word.capitalize()} time: median ± interquartile range (IQR) of the timed runs, in "
        "milliseconds",
        lambda r: _time_text(getattr(r, attr)),
        lambda r: getattr(r, attr).median_s,
        (f"{short} time median (ms)", f"{short} time IQR (ms)"),
        lambda r: (_g(getattr(r, attr).median_s * 1e3), _g(getattr(r, attr).iqr_s * 1e3)),
        cell_tip=lambda r: _time_tip(getattr(r, attr), word.capitalize()),
    )


def _throughput_column(direction: tuple[str, str, str]) -> Column:
    attr, _short, word = direction
    return _field_column(
        f"{attr[:3]}_throughput_mb_s",
        f"Input size / median {word} time, in 10^6 bytes per second",
        lambda r: rate_text(getattr(r, attr).throughput_mb_s),
        copy_raw=True,
        cell_tip=lambda r: (
            f"{rate_text(getattr(r, attr).throughput_mib_s)} MiB/s (2^20 bytes per second)"
        ),
    )


AGGREGATE_HEADER = "Aggregate enc./dec. (MB/s)"
_AGGREGATE_KEYS = (
    "aggregate_processes",
    "aggregate_enc_throughput_mb_s",
    "aggregate_dec_throughput_mb_s",
)


def _aggregate_text(r: JobResult) -> str:
    a = r.aggregate
    if a is None:
        return "—"
    enc, dec = a.encrypt_throughput_mb_s, a.decrypt_throughput_mb_s
    return f"{enc:,.0f} / {dec:,.0f} ({a.processes} proc.)"


def _aggregate_tip(r: JobResult) -> str:
    a = r.aggregate
    if a is None:
        return "Run with several processes (Options) to measure every core at once."
    lines = [f"{a.processes} copies of this job at once, in separate processes:"]
    for word, value, single in (
        ("encryption", a.encrypt_throughput_mb_s, r.encrypt.throughput_mb_s),
        ("decryption", a.decrypt_throughput_mb_s, r.decrypt.throughput_mb_s),
    ):
        ratio = f", {value / single:.2f}x one process" if single > 0 else ""
        lines.append(f"{word} {value:,.1f} MB/s ({value * 1e6 / MIB:,.1f} MiB/s){ratio}")
    return "\n".join(lines)


def _aggregate_copy(r: JobResult) -> tuple[str, str, str]:
    a = r.aggregate
    if a is None:
        return ("", "", "")
    return (str(a.processes), _g(a.encrypt_throughput_mb_s), _g(a.decrypt_throughput_mb_s))


def _input_type(r: JobResult) -> str:
    # The file's own name: without "(folder)", "#2" or "(run 3)" added to tell inputs apart.
    name = re.sub(r"(?: \([^()]*\)| #\d+)+$", "", r.input_label)
    kind, _encoding = mimetypes.guess_type(name, strict=False)
    if kind is None and re.fullmatch(r"random [\d.]+ \w+", name):
        return "random bytes (incompressible)"
    suffix = Path(name).suffix
    return kind or (f"{suffix} file" if suffix else "file")


COLUMNS: tuple[Column, ...] = (
    _field_column(
        "input_label",
        "The input the job ran on (a file's name, or generated random data) and its size. "
        "Sort by this column to group the rows by input",
        lambda r: f"{r.input_label} ({file_size(r.input_bytes)})",
        sort_key=lambda r: (r.input_label, r.input_bytes),
        copy_raw=True,
        numeric=False,
        cell_tip=lambda r: (
            f"{r.input_label}: {_input_type(r)}, {format_bytes(r.input_bytes)} "
            f"({r.input_bytes:,} bytes)"
        ),
    ),
    _field_column(
        "algorithm",
        "Cipher family",
        numeric=False,
        cell_tip=lambda r: f"{r.cipher} from {r.library}",
    ),
    _field_column("key_bits", "Key size in bits"),
    _field_column("mode", "Mode of operation", numeric=False),
    _field_column("library", "Python library that ran the cipher", numeric=False),
    *(_time_column(d) for d in DIRECTIONS),
    *(_throughput_column(d) for d in DIRECTIONS),
    Column(
        AGGREGATE_HEADER,
        "With several processes (Options): the copies' combined encryption / decryption "
        "throughput, in 10^6 bytes per second, like `openssl speed -multi`. Shown when a "
        "result has one.",
        _aggregate_text,
        lambda r: r.aggregate.encrypt_throughput_mb_s if r.aggregate else -1.0,
        tuple(schema.field(k).header for k in _AGGREGATE_KEYS),
        _aggregate_copy,
        cell_tip=_aggregate_tip,
    ),
    Column(
        "Memory above baseline (MiB)",
        "Peak resident memory of the job's process above its baseline, in 2^20 bytes",
        lambda r: mib_text(_memory_mib(r)),
        lambda r: _memory_mib(r) if _memory_mib(r) is not None else -1.0,
        copy_values=lambda r: (_g(_memory_mib(r)),),
        cell_tip=_memory_tip,
    ),
    Column(
        "CPU (%)",
        "Process CPU time / wall time over the timed runs, in % of one core",
        lambda r: f"{r.cpu_percent:.0f}",
        lambda r: r.cpu_percent,
        copy_values=lambda r: (_g(r.cpu_percent),),
    ),
    _field_column(
        "input_bytes",
        "Input size in bytes",
        lambda r: f"{r.input_bytes:,}",
        copy_raw=True,
        cell_tip=lambda r: f"{r.input_label}: {format_bytes(r.input_bytes)}",
    ),
    _field_column(
        "output_bytes",
        "Ciphertext size in bytes (padding and authentication tags included)",
        lambda r: f"{r.output_bytes:,}",
        copy_raw=True,
        cell_tip=lambda r: f"{r.expansion_bytes:+,} bytes against the input",
    ),
    _field_column(
        "verified",
        "The decrypted output equals the input, checked after every run of decryptions",
        lambda r: "yes" if r.verified else "NO",
        sort_key=lambda r: int(r.verified),
        numeric=False,
        cell_tip=lambda r: f"{r.verified_round_trips} round trips checked",
    ),
    _field_column(
        "ciphertext_preview_hex",
        "First bytes of the ciphertext, in hexadecimal",
        _preview_text,
        copy_raw=True,
        numeric=False,
        cell_tip=lambda r: r.ciphertext_preview_hex,
    ),
    _field_column(
        "warnings",
        "What makes this measurement less trustworthy (from the engine)",
        lambda r: "; ".join(r.warnings),
        sort_key=lambda r: len(r.warnings),
        numeric=False,
        cell_tip=lambda r: "\n".join(r.warnings),
    ),
)

COLUMN_INDEX = {c.header: i for i, c in enumerate(COLUMNS)}
# Read second: shown by the header's right-click menu. CPU is in the charts, and a job whose
# decryption did not match its input is a failure, not a row. Decryption throughput is shown:
# the papers report it (seed 002's Table V).
# The input's size is in the Input column; its exact bytes are one click away.
DEFAULT_HIDDEN = frozenset({"Original size (bytes)", "CPU (%)", "Verified"})
