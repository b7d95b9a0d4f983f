"""The tables and series a study's reports share (HTML and XLSX), derived from a StudyResult.

Each table is a header (units in the names) and rows of plain values; numbers stay numbers
(seconds, bytes, the study's throughput unit, MiB) and the writers format them. Memory is the
peak resident memory of the worker above its baseline before the job, in MiB (2^20 bytes).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.core.bench.load_all import workload_sentences
from app.core.bench.results import JobResult
from app.core.document.estimate import CELL_TIME
from app.core.study.budget_note import budget_note
from app.core.study.claims import method_text
from app.core.study.definition import UNITS
from app.core.study.figures import BYTES, RATES, SECONDS
from app.core.study.paper import match_published
from app.core.study.result import StudyRecord, StudyResult, memory_mib, rate
from app.core.units import MIB

if TYPE_CHECKING:
    from app.core.study.transfer_result import TransferStudyResult

MEMORY_MEANING = (
    "peak resident memory of the worker process above the worker's baseline (its resident "
    "memory before the job), measured in a pass of its own, never while timing"
)
_DECIMAL = ((10**12, "TB"), (10**9, "GB"), (10**6, "MB"), (10**3, "KB"), (1, "B"))


def size_label(n_bytes: float) -> str:
    """``1_000_000`` -> ``"1 MB"``, ``2_618_000`` -> ``"2.62 MB"`` (decimal units, 3 digits)."""
    for unit, name in _DECIMAL:
        if n_bytes >= unit:
            return f"{n_bytes / unit:.3g} {name}"
    return f"{n_bytes:.3g} B"


def spans_decades(values: list[int] | list[float]) -> bool:
    """True when the positive ``values`` span more than a factor of ten (log axis)."""
    positive = [v for v in values if v > 0]
    return bool(positive) and max(positive) > 10 * min(positive)


# --- the paper-style table ------------------------------------------------------------------


# Its columns: app.core.study.columns (STUDY_COLUMNS).


# --- the claims -------------------------------------------------------------------------------

COMPARISON_HEADER = [
    "Input",
    "Direction",
    "A",
    "B",
    "Ratio B/A of times",
    "CI low",
    "CI high",
    "A faster by (%)",
    "Verdict",
    "Rounds A",
    "Rounds B",
    "n A",
    "n B",
    "Statement",
]
SPEEDUP_HEADER = [
    "Input",
    "Cipher",
    "Against",
    "Speed-up (x)",
    "CI low (x)",
    "CI high (x)",
    "Rounds",
]


def fit_header(units: str) -> list[str]:
    return [
        "Cipher",
        "Direction",
        "Fixed cost (s)",
        f"Throughput ({units})",
        "R²",
        "Points",
        "Fixed cost CI low (s)",
        "Fixed cost CI high (s)",
        f"Throughput CI low ({units})",
        f"Throughput CI high ({units})",
        "Note",
    ]


def fit_rows(result: StudyResult) -> list[list[Any]]:
    """Per cipher and direction with a fit: fixed cost, throughput (study's unit), R², points,
    the 95 % intervals over rounds, note. An infinite throughput (time not growing), an
    undefined R² and an interval not computed (too few rounds) are None."""
    unit = UNITS[result.units]

    def rate(bytes_per_second: float) -> float | None:
        return None if math.isinf(bytes_per_second) else bytes_per_second / unit

    rows = []
    for f in result.fits:
        if f.fit is None:
            continue
        i = f.interval
        rows.append(
            [
                f.cipher_label,
                f.direction,
                f.fit.fixed_s,
                rate(f.fit.bytes_per_second),
                None if math.isnan(f.fit.r_squared) else f.fit.r_squared,
                f.fit.n_points,
                None if i is None else i.fixed_low_s,
                None if i is None else i.fixed_high_s,
                None if i is None else rate(i.bytes_per_second_low),
                None if i is None else rate(i.bytes_per_second_high),
                f.fit.note,
            ]
        )
    return rows


def comparison_rows(result: StudyResult) -> list[list[Any]]:
    rows = []
    for p in result.comparisons:
        c = p.comparison
        rows.append(
            [
                p.input_label,
                p.direction,
                c.label_a,
                c.label_b,
                c.ratio,
                c.low if c.has_interval else None,
                c.high if c.has_interval else None,
                c.percent_faster,
                c.verdict,
                c.rounds_a,
                c.rounds_b,
                c.n_a,
                c.n_b,
                p.sentence(),
            ]
        )
    return rows


def speedup_rows(result: StudyResult) -> list[list[Any]]:
    """Each speed-up with its 95 % interval over rounds (None without one)."""
    return [
        [
            s.input_label,
            s.cipher_label,
            s.baseline_label,
            s.factor,
            None if math.isnan(s.low) else s.low,
            None if math.isnan(s.high) else s.high,
            s.rounds,
        ]
        for s in result.speedups
    ]


def pairs_without_interval(result: StudyResult) -> int:
    return sum(1 for p in result.comparisons if not p.comparison.has_interval)


# --- method and environment ----------------------------------------------------------------


def method_sentences(result: StudyResult) -> list[str]:
    """The method in a few sentences: how it ran, the statistics, memory, units."""
    study = result.study
    unit = result.units
    reps = sorted({len(r.encrypt.samples_s) for r in result.results})
    n = f"{reps[0]}" if len(reps) == 1 else f"{reps[0]} to {reps[-1]}" if reps else "no"
    tiny = (
        f" Inputs too small to time reliably repeat until each direction ran at least "
        f"{study.min_time_s:g} s in all."
        if study.min_time_s > 0
        else ""
    )
    return [
        f"Every cipher entry ran on every input ({study.data_mode} mode), {result.how_run()}; "
        "warm-up calls are kept apart and not counted, and each job runs in a worker process "
        f"of its own.{tiny}",
        f"Each time is {CELL_TIME}, of {n} timed repetitions per job in all "
        "(time.perf_counter_ns); the spread is the interquartile range (IQR) of those "
        f"repetitions, and throughput is the input size divided by that time, in {unit} "
        f"(1 {unit[:-2]} = "
        f"{UNITS[unit]:,} bytes).",
        "Time against size is a least-squares fit over the medians, time = fixed cost + "
        "size / throughput, with its R².",
        method_text(study.margin_percent / 100, study.precision_percent / 100),
        f"Memory is the {MEMORY_MEANING}, in MiB (2^20 bytes). Sizes are decimal "
        "(1 KB = 10^3, 1 MB = 10^6 bytes) unless written in KiB or MiB.",
        *workload_sentences(study.memory_workload),
        *([note] if (note := budget_note(result)) else []),
    ]


def environment_rows(result: StudyResult) -> list[tuple[str, str]]:
    """The machine, in words: CPU, cores, OS, Python, library versions, OpenSSL."""
    env = result.environment
    data = env.to_dict()
    section = data.get("cpu")
    cpu: dict[str, Any] = section if isinstance(section, dict) else {}
    features = ", ".join(k for k, v in env.cpu_features.items() if v) or "none found"
    cores = f"{cpu.get('physical_cores', '?')} physical, {env.logical_cores or '?'} logical"
    rows = [
        ("CPU", f"{env.cpu_model or 'unknown'} ({cpu.get('arch', '?')})"),
        ("Cores", cores),
        ("CPU features", features),
        ("OS", env.os_platform or "unknown"),
        ("Python", env.python_version or "unknown"),
        ("OpenSSL", str(data.get("openssl_version") or "unknown")),
    ]
    rows += [(f"{name} version", str(v or "not installed")) for name, v in env.packages.items()]
    rows += [
        ("CipherBench version", str(env.cipherbench_version or "unknown")),
        ("Study started", result.started_at),
        ("Study finished", result.finished_at),
    ]
    if not data:
        rows = [*rows[-2:], ("Machine", "not recorded for this run")]
    return rows


# --- series against size --------------------------------------------------------------------


@dataclass(frozen=True)
class Quantity:
    """A quantity charted against size: its chart title, its axis label, its value."""

    key: str
    title: str
    axis: str
    value: Callable[[StudyResult, JobResult], float | None]


def quantities(result: StudyResult) -> list[Quantity]:
    """Time (s), throughput (study's unit), memory (MiB above baseline) against size."""
    unit = result.units
    return [
        Quantity("enc_time", "Encryption time", "Median time (s)", lambda s, r: r.encrypt.median_s),
        Quantity("dec_time", "Decryption time", "Median time (s)", lambda s, r: r.decrypt.median_s),
        Quantity(
            "enc_rate",
            "Encryption throughput",
            f"Throughput ({unit})",
            lambda s, r: rate(r, "encrypt", s.units),
        ),
        Quantity(
            "dec_rate",
            "Decryption throughput",
            f"Throughput ({unit})",
            lambda s, r: rate(r, "decrypt", s.units),
        ),
        Quantity(
            "memory",
            "Memory above the worker's baseline",
            "Peak RSS above baseline (MiB)",
            lambda s, r: memory_mib(r),
        ),
    ]


def series(result: StudyResult, quantity: Quantity) -> list[tuple[str, list[tuple[int, float]]]]:
    """Per cipher entry, ``(size_bytes, value)`` sorted by size; unmeasured values left out."""
    out = []
    for label in result.cipher_labels():
        points = []
        for r in result.results:
            if r.label == label:
                value = quantity.value(result, r)
                if value is not None and math.isfinite(value):
                    points.append((r.input_bytes, value))
        out.append((label, sorted(points)))
    return out


# The published quantity and basis each charted quantity shows, and its unit's factor.
_CHARTED = {
    "enc_time": "encrypt_s",
    "dec_time": "decrypt_s",
    "enc_rate": "encrypt_rate",
    "dec_rate": "decrypt_rate",
    "memory": "memory",
    "transfer_ms": "transfer_s",  # a transfer study's total time, charted in ms
    "transfer_rate": "transfer_rate",
}


def paper_points(
    result: StudyResult | TransferStudyResult, key: str
) -> list[tuple[str, str, float, str]]:
    """The paper's figures of the charted quantity ``key`` in the chart's unit, each where it
    belongs: ``(our entry, our input, value, tooltip)``. A memory figure is drawn only when it
    is of the same kind as the chart's (above the baseline)."""
    wanted = _CHARTED.get(key)
    out = []
    for m in match_published(result):
        f = m.figure
        if f.quantity != wanted or m.cipher_label is None or m.input_label is None:
            continue
        if f.quantity == "memory" and f.basis:
            continue
        value = _in_chart_unit(f.quantity, f.value, f.unit, result.units)
        if value is not None and key.endswith("_ms"):
            value *= 1e3
        if value is not None:
            where = f" ({f.table})" if f.table else ""
            out.append(
                (m.cipher_label, m.input_label, value, f"paper{where}: {f.value:g} {f.unit}")
            )
    return out


def _in_chart_unit(quantity: str, value: float, unit: str, units: str) -> float | None:
    if quantity.endswith("_s"):
        return value / SECONDS[unit] if unit in SECONDS else None
    if quantity.endswith("_rate"):
        return value * RATES[unit] / UNITS[units] if unit in RATES else None
    return value * BYTES[unit] / MIB if unit in BYTES else None


def by_input_charts(result: StudyRecord[Any]) -> bool:
    """Whether the study compares files (or the sizes standing for a study's file slots, or
    one input): the papers draw those as grouped bars per input."""
    inputs = list(result.by_input())
    generated = {s.label for s in result.study.sizes}
    files = bool(result.study.file_slots) or any(label not in generated for label in inputs)
    return len(inputs) == 1 or files
