"""A study's claims in words, shared by the terminal report and the Study window: how it ran
(the preamble), the fits of time against size, the pairwise comparisons with their intervals,
the speed-ups, the paper's published figures, warnings and failures.

Each function returns lines. ``width`` wraps them to that many columns (continuation lines
indented); ``None`` leaves each statement on one line, for a panel that wraps by itself.
``units`` is the throughput unit shown (a key of ``UNITS``; default: the study's).
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import replace
from typing import TYPE_CHECKING

from app.core.bench.load_all import workload_sentences
from app.core.bench.machine_state import machine_warnings
from app.core.document.estimate import CELL_TIME
from app.core.document.numbers import rate_text, ratio_text, seconds_text
from app.core.document.terminal import render
from app.core.leak.document import leak_document
from app.core.profile.document import profile_document
from app.core.study import warning_lines
from app.core.study.analysis import FitInterval, LinearFit
from app.core.study.budget_note import budget_note
from app.core.study.claim_verdicts import check_claims
from app.core.study.definition import UNITS, Study
from app.core.study.paper import match_published
from app.core.study.paper import source as paper_source
from app.core.study.result import StudyResult

if TYPE_CHECKING:
    from app.core.study.transfer_result import TransferStudyResult


def wrap(text: str, width: int | None, indent: str = "  ") -> list[str]:
    """``text`` in lines of at most ``width`` columns after ``indent`` (one line: None)."""
    if width is None:
        return [indent + text]
    return textwrap.wrap(
        text,
        width=width,
        initial_indent=indent,
        subsequent_indent=indent + "  ",
        break_on_hyphens=False,  # "warm-up", "aes-128-cbc" stay whole
    ) or [indent]


def fit_text(fit: LinearFit, units: str, interval: FitInterval | None = None) -> str:
    """``time = 1.20 µs + size / 123.4 MB/s (R² = 0.9999, 3 sizes)``, and the interval over
    rounds when given."""
    if math.isinf(fit.bytes_per_second):
        rate = "no throughput"
    else:
        rate = f"size / {rate_text(fit.bytes_per_second / UNITS[units])} {units}"
    r2 = "R² undefined" if math.isnan(fit.r_squared) else f"R² = {fit.r_squared:.4f}"
    fixed = seconds_text(fit.fixed_s)
    text = f"time = {fixed} + {rate} ({r2}, {fit.n_points} sizes)"
    if interval is not None:
        text += f"; {fit_interval_text(interval, units)}"
    return text + (f"; {fit.note}" if fit.note else "")


def fit_interval_text(interval: FitInterval, units: str) -> str:
    """``95 % CI over rounds: throughput 480-520 MB/s, fixed cost 1.1-1.4 µs``."""
    unit = UNITS[units]

    def rate(x: float) -> str:
        return "∞" if math.isinf(x) else rate_text(x / unit)

    return (
        f"95 % CI over {interval.min_rounds}+ rounds: throughput "
        f"{rate(interval.bytes_per_second_low)}-{rate(interval.bytes_per_second_high)} "
        f"{units}, fixed cost {seconds_text(interval.fixed_low_s)} to "
        f"{seconds_text(interval.fixed_high_s)}"
    )


def title(study: Study, width: int | None) -> list[str]:
    """``Study NAME (after PAPER): TITLE``: the first line of a study's report (of either
    kind)."""
    heading = f"Study {study.name}" + (f" (after {study.after()})" if study.after() else "")
    return wrap(heading + (f": {study.title}" if study.title else ""), width, indent="")


def what_ran(result: StudyResult | TransferStudyResult) -> str:
    """``"What ran: aes-128-cbc [pycryptodome] and aes-256-cbc [pycryptodome] on 2 KB
    (2,000 bytes) and 4 KB (4,000 bytes)."``: the entries and inputs of the results, not the
    preset's words."""
    sizes = {r.input_label: r.input_bytes for r in result.results}
    inputs = [f"{label} ({n:,} bytes)" for label, n in sizes.items()]
    if not inputs:
        return "What ran: nothing (the study stopped before its first cell)."
    return f"What ran: {_and(result.cipher_labels())} on {_and(inputs)}."


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def preamble(result: StudyResult, width: int | None, units: str | None = None) -> list[str]:
    """The title, what ran, how, what the times, throughputs and memory mean."""
    study = result.study
    units = units or result.units
    lines = title(study, width) + wrap(what_ran(result), width, indent="")
    repetitions = sorted({len(r.encrypt.samples_s) for r in result.results})
    reps = "-".join(str(n) for n in (repetitions[0], repetitions[-1])) if repetitions else "0"
    if len(repetitions) == 1:
        reps = str(repetitions[0])
    text = (
        f"Data mode {study.data_mode}; {result.how_run()}. Each time is {CELL_TIME} "
        f"({reps} timed repetitions in all), ±IQR the interquartile range of the repetitions; "
        "throughput is the input over that time, "
        f"{units} = {UNITS[units]:,} bytes/s; MEM = peak resident memory above the worker's "
        "baseline (MiB = 2^20 bytes)."
    )
    text = " ".join([text, *workload_sentences(study.memory_workload)])
    lines.extend(wrap(text, width, indent=""))
    return lines


def claims(result: StudyResult, width: int | None, units: str | None = None) -> list[str]:
    """Fits, comparisons with their intervals, speed-ups and the paper's own figures."""
    units = units or result.units
    lines: list[str] = []
    fits = [(f, f.fit) for f in result.fits if f.fit is not None]
    if fits:
        lines.append("\nTime against size (least squares over the medians):")
        for f, fit in fits:
            text = fit_text(fit, units, f.interval)
            lines.extend(wrap(f"{f.cipher_label} {f.direction}s: {text}", width))
    if result.comparisons:
        heading = f"Comparisons (rounds as the unit of evidence; {_how(result)}):"
        lines += ["", *wrap(heading, width, indent="")]
        several = len(result.by_input()) > 1
        current = None
        for c in result.comparisons:
            if c.input_label != current and several:
                lines.append(f" on {c.input_label}:")
            current = c.input_label
            lines.extend(wrap(c.sentence(), width))
        note = budget_note(result)
        if note:
            lines += ["", *wrap(note, width, indent="")]
    if show_speedups(result):
        lines.append(f"\nEncryption speed-up against {result.study.baseline_name}:")
        for s in result.speedups:
            if s.cipher_label != s.baseline_label:
                text = (
                    f"{s.cipher_label} on {s.input_label}: {ratio_text(s.factor)} "
                    f"({s.interval_text()})"
                )
                lines.extend(wrap(f"{text} (against {s.baseline_label})", width))
    lines.extend(whole_programs(result, width))
    lines.extend(profile_lines(result, width))
    lines.extend(leak_lines(result, width))
    lines.extend(published(result, width))
    return lines


def profile_lines(result: StudyResult, width: int | None) -> list[str]:
    """Where each entry's time goes (the study's profile; none run: no lines)."""
    if result.profile is None:
        return []
    document = profile_document(result.profile)
    shown = replace(document, tables=document.tables[:-1], method="")  # not its cost
    return ["", *render(shown, width).splitlines()]


def leak_lines(result: StudyResult, width: int | None) -> list[str]:
    """Whether each entry's time depends on its data (the study's leak test; none: no lines)."""
    if result.leak is None:
        return []
    document = leak_document(result.leak)
    shown = replace(document, tables=document.tables[:1], method="", sections=document.sections[:1])
    return ["", *render(shown, width).splitlines()]


def whole_programs(result: StudyResult, width: int | None) -> list[str]:
    """Each entry as a whole program, its factor against the baseline program, and why that
    factor differs from the call's (none measured: no lines)."""
    if not result.programs:
        return []
    start = result.startup_s or 0.0
    runs = len(result.programs[0].samples_s)
    lines = [""]
    lines += wrap(
        "Whole programs (a fresh Python interpreter that imports the library, reads the input, "
        f"makes a key, encrypts and decrypts; spawn to exit, median of {runs} runs; the "
        f"interpreter's start alone takes {seconds_text(start)}):",
        width,
        indent="",
    )
    medians = {(p.input_label, p.label): p.median_s for p in result.programs}
    calls = {(s.input_label, s.cipher_label): s.factor for s in result.speedups}
    for s in result.program_speedups:
        text = f"{s.cipher_label} on {s.input_label}: "
        text += seconds_text(medians[s.input_label, s.cipher_label])
        if s.cipher_label != s.baseline_label:
            text += f", {ratio_text(s.factor)} against {s.baseline_label} ({s.interval_text()})"
            call = calls.get((s.input_label, s.cipher_label))
            if call is not None:
                text += f"; the cipher call alone: {ratio_text(call)}"
        lines.extend(wrap(text, width))
    lines.extend(
        wrap(
            "Why the two factors differ: the call is timed alone, with the key set up and the "
            "interpreter warm; a program also pays the interpreter's start, the library's "
            "import and the key schedule, a fixed cost that differs between libraries (their "
            "imports above all) and dilutes the cipher's own difference on a small input "
            "(the medians above). Both are true; a "
            "command-line tool is the program, a long-running service the call.",
            width,
        )
    )
    return lines


def published(result: StudyResult | TransferStudyResult, width: int | None) -> list[str]:
    """The paper's published figures, each beside ours, and its claims with their verdicts
    (none: no lines)."""
    study = result.study
    source = paper_source(result)
    lines: list[str] = []
    if study.paper_method:
        lines += ["", *wrap(f"The paper's method: {study.paper_method}", width, indent="")]
    if study.published:
        lines += ["", *wrap(f"The paper's published figures ({source}):", width, indent="")]
        for m in match_published(result):
            lines.extend(wrap(m.sentence(), width))
    if study.claims:
        heading = "The paper's claims, checked against the comparisons above:"
        lines += ["", *wrap(heading, width, indent="")]
        for v in check_claims(result):
            lines.extend(wrap(v.sentence(), width))
    return lines


def notes(
    result: StudyResult | TransferStudyResult,
    width: int | None,
    *,
    name_inputs: bool | None = None,
    cut_short: str = "every round ran",
) -> list[str]:
    """Warnings, failures and whether the study was cut short ("cancelled before
    ``cut_short``"). A warning names its input when ``name_inputs`` (default: when the study
    has several inputs)."""
    lines: list[str] = []
    several = len(result.by_input()) > 1 if name_inputs is None else name_inputs
    warnings = warning_lines.grouped(result.results, several)
    machine = machine_warnings(result.environment.get("machine_state"))
    if warnings or machine:
        lines.append("\nWarnings:")
        for w in machine:
            lines.extend(wrap(f"machine: {w}", width))
        for label, w in warnings:
            lines.extend(wrap(f"{label}: {w}", width))
        if warnings:
            lines.extend(wrap(warning_lines.DETAIL, width))
    if result.failures:
        lines.append("\nFailed:")
        for f in result.failures:
            lines.extend(wrap(f"{f.cipher_label} on {f.input_label}: {f.message}", width))
    if result.cancelled:
        lines.append(f"\n(cancelled before {cut_short})")
    return lines


def show_speedups(result: StudyResult) -> bool:
    """Seed 003's factor, where it says something: the paper gave one, or a factor >= 2."""
    wanted = any(p.quantity == "speedup" for p in result.study.published)
    return bool(result.speedups) and (wanted or max(s.factor for s in result.speedups) >= 2)


def _how(result: StudyResult) -> str:
    return result.rounds_text()
