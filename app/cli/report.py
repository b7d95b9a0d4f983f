"""The benchmark's report on the terminal: one table per input, then warnings and failures.

Every figure is what ran, read from the results: the timed repetitions per job (tiny inputs
repeat until 0.1 s, so ``--repeat`` is only the least), the warm-ups and, in stream mode, the
chunk size each job used (never more than its input needs).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from app.core.bench.machine_state import machine_warnings
from app.core.bench.results import JobResult, RunResult
from app.core.document.estimate import CELL_TIME
from app.core.document.numbers import figure, mib_text, rate_text, ratio_text, seconds_text
from app.core.document.terminal import fitted_table, wrapped
from app.core.export.schema import field
from app.core.study import warning_lines
from app.core.study.claims import MIN_ROUNDS_FOR_INTERVAL
from app.core.text import display_text
from app.core.units import MIB, format_bytes

MIN_WIDTH = 40  # narrower terminals get 40-column lines (and wrap)


def _mib(value: int | None) -> str:
    return mib_text(None if value is None else value / MIB)


# (terminal header, schema field, text): a subset of the schema, in terse terminal form.
_RESULT_COLUMNS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("CIPHER", "cipher", str),
    ("LIBRARY", "library", str),
    ("KEY", "key_bits", str),
    ("MODE", "mode", str),
    ("N", "repetitions", str),
    ("ENC MEDIAN", "enc_median_s", seconds_text),
    ("±IQR", "enc_iqr_s", seconds_text),
    ("ENC MB/s", "enc_throughput_mb_s", rate_text),
    ("DEC MEDIAN", "dec_median_s", seconds_text),
    ("±IQR", "dec_iqr_s", seconds_text),
    ("DEC MB/s", "dec_throughput_mb_s", rate_text),
    ("MEM MiB", "memory_above_baseline_bytes", _mib),
    ("CPU %", "cpu_percent", lambda v: f"{v:.0f}"),
    ("OUT BYTES", "output_bytes", lambda v: f"{v:,}"),
    ("OK", "verified", lambda v: "yes" if v else "NO"),
)
_RESULT_HEADER = tuple(header for header, _, _ in _RESULT_COLUMNS)


def terminal_width(stream: TextIO | None = None) -> int | None:
    """The width to fit ``stream``'s lines to (stdout by default): the terminal's when it is
    one, or COLUMNS when set (``COLUMNS=80 cipherbench list | less``); None (no limit) for a
    pipe or a file otherwise."""
    stream = sys.stdout if stream is None else stream
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit():
        return max(MIN_WIDTH, int(columns) or 80)
    if not _isatty(stream):
        return None
    try:  # this stream's own terminal (stderr may be one while stdout goes to a file)
        return max(MIN_WIDTH, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, OSError, ValueError):
        return max(MIN_WIDTH, shutil.get_terminal_size((80, 24)).columns)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


def _span(values: Iterable[int]) -> str:
    """``"5"`` when every value is 5, else ``"5..231"``."""
    distinct = sorted(set(values))
    if not distinct:
        return "?"
    return str(distinct[0]) if len(distinct) == 1 else f"{distinct[0]}..{distinct[-1]}"


def _result_row(r: JobResult) -> tuple[str, ...]:
    return tuple(text(field(key).get(r)) for _, key, text in _RESULT_COLUMNS)


def _preamble(results: Sequence[JobResult]) -> str:
    modes = ", ".join(dict.fromkeys(r.data_mode for r in results))
    timed = _span(len(r.encrypt.samples_s) for r in results)
    counts = [len(r.encrypt.warmup_s) for r in results]
    warm = _span(counts) + (" warm-up" if set(counts) == {1} else " warm-ups")
    rounds = max((len(r.rounds) for r in results), default=0)
    how = (
        f" in {rounds} rounds (each job in a fresh worker per round, each round in a random "
        "order; warm-ups per round)"
        if rounds > 1
        else ""
    )
    return (
        f"Data mode {modes}; {timed} timed repetitions (N, per job) after {warm}"
        f"{how}; each time is {CELL_TIME}. MB/s = 10^6 bytes/s; MEM = peak resident "
        "memory above the worker's baseline (MiB = 2^20 bytes)."
    )


def _input_line(label: str, size: int, results: Sequence[JobResult]) -> str:
    line = f"Input: {label}, {size:,} bytes ({format_bytes(size)})"
    chunks = sorted({r.chunk_bytes for r in results if r.chunk_bytes})
    if chunks:
        line += "; stream chunks of " + " or ".join(f"{c:,} bytes" for c in chunks)
    return line


def _speed_ups(results: Sequence[JobResult], width: int | None = None) -> list[str]:
    """Seed 003's "speed-up factor": each job's median encryption time against the slowest,
    with the 95 % interval of that ratio over the rounds (``bench --rounds``), as every claim
    (:mod:`app.core.study.claims`)."""
    from app.core.study.cell_pairs import compare_results

    timed = [r for r in results if r.encrypt.median_s > 0]
    if len(timed) < 2:
        return []
    slowest = max(timed, key=lambda r: r.encrypt.median_s)
    rounds = min(len(r.round_samples("encrypt")) for r in timed)
    lines = [f"Encryption speed-up against the slowest ({slowest.label}):"]
    for r in sorted(timed, key=lambda r: r.encrypt.median_s):
        factor = slowest.encrypt.median_s / r.encrypt.median_s
        ci = ""
        if r is not slowest:
            c = compare_results(r, slowest, "encrypt", margin=0.0, target=0.0)
            ci = f"  {figure(c.low)}-{ratio_text(c.high)}" if c.has_interval else "  -"
        lines.append(f"  {r.label:<36} {ratio_text(factor):>11}{ci}")
    if rounds >= MIN_ROUNDS_FOR_INTERVAL:
        lines.append(f"  (95 % CI over {rounds} rounds, each job a fresh worker per round)")
    else:
        lines += wrapped(
            f"  (no interval: {rounds} round{'s' if rounds != 1 else ''} per job; "
            f"--rounds {MIN_ROUNDS_FOR_INTERVAL} or more gives one that covers what varies "
            "between workers)",
            width,
            "   ",
        )
    return lines


def aggregate_line(r: JobResult) -> str:
    """``bench --processes N``: the copies' aggregate beside the single-process figure."""
    a = r.aggregate
    assert a is not None
    enc, dec = r.encrypt.throughput_mb_s, r.decrypt.throughput_mb_s
    return (
        f"{a.processes} processes: encrypt {rate_text(a.encrypt_throughput_mb_s)} MB/s "
        f"({_ratio(a.encrypt_throughput_mb_s, enc)}), decrypt "
        f"{rate_text(a.decrypt_throughput_mb_s)} MB/s ({_ratio(a.decrypt_throughput_mb_s, dec)})"
    )


def _ratio(value: float, single: float) -> str:
    return ratio_text(value / single) if single > 0 else "-"


def _load_all(results: Sequence[JobResult], width: int | None = None) -> list[str]:
    """``--memory-workload load-all``: the papers' program's memory, by direction."""
    measured = [(r, r.workload_memory) for r in results if r.workload_memory is not None]
    if not measured:
        return []
    lines = wrapped(
        "Memory of the papers' load-all program (file read whole, padded copy, new "
        "ciphertext), MiB: tracemalloc peak / RSS after minus before:",
        width,
        "  ",
    )
    for r, w in measured:
        enc = f"{_mib(w.python_peak('encrypt'))} / {_mib(w.rss_delta('encrypt'))}"
        dec = f"{_mib(w.python_peak('decrypt'))} / {_mib(w.rss_delta('decrypt'))}"
        lines += wrapped(f"  {r.label}: encrypt {enc}, decrypt {dec}", width, "    ")
    return lines


def _aggregates(results: Sequence[JobResult], width: int | None = None) -> list[str]:
    with_copies = [r for r in results if r.aggregate is not None]
    if not with_copies:
        return []
    lines = ["Aggregate of N processes at once (all copies together; x: vs 1):"]
    for r in with_copies:
        lines += [f"  {r.label}", *wrapped(f"    {aggregate_line(r)}", width, "      ")]
    return lines


def format_results(run: RunResult) -> str:
    """One table per input (with the pyaes report's speed-up factors), then warnings and
    failures."""
    width = terminal_width()
    lines = wrapped(_preamble(run.results), width, "") if run.results else []
    groups: dict[tuple[str, int], list[JobResult]] = {}
    for r in run.results:
        groups.setdefault((r.input_label, r.input_bytes), []).append(r)
    for (label, size), results in groups.items():
        lines.append("")
        lines.extend(wrapped(_input_line(label, size, results), width, "  "))
        rows = [_RESULT_HEADER, *(_result_row(r) for r in results)]
        lines.append(fitted_table(rows, width))
        lines.extend(_speed_ups(results, width))
        lines.extend(_load_all(results, width))
        lines.extend(_aggregates(results, width))
    notes = warning_lines.grouped(run.results, several=len(groups) > 1)
    machine = machine_warnings(run.environment.get("machine_state"))
    if notes or machine:
        lines.append("\nWarnings:")
        for w in machine:
            lines.extend(wrapped(f"  machine: {w}", width, "    "))
        for label, w in notes:
            lines.extend(wrapped(f"  {label}: {w}", width, "    "))
        if notes:
            lines.extend(wrapped(f"  {warning_lines.DETAIL}", width, "    "))
    if run.failures:
        lines.append("\nFailed:")
        for f in run.failures:
            lines.extend(wrapped(f"  {f.cipher} [{f.library}]: {f.message}", width, "    "))
    if run.cancelled:
        lines.append("\n(cancelled before every job ran)")
    # A label or a message may hold a file name that is not UTF-8; stdout may refuse it.
    return display_text("\n".join(lines))
