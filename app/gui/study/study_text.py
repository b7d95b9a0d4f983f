"""The study's claims in words, for the window's read-only panel: how it ran, the fits of time
against size, the pairwise comparisons with their intervals, speed-ups, the paper's figures,
warnings and failures."""

from __future__ import annotations

import math

from app.core.study.analysis import LinearFit
from app.core.study.definition import UNITS
from app.core.study.result import StudyResult
from app.core.text import display_text
from app.gui.study.study_table import format_rate, format_time

EMPTY = "Fits of time against size and the comparisons appear here when a study has run."


def fit_text(fit: LinearFit, units: str) -> str:
    fixed = ("-" + format_time(-fit.fixed_s)) if fit.fixed_s < 0 else format_time(fit.fixed_s)
    if math.isinf(fit.bytes_per_second):
        rate = "no throughput"
    else:
        rate = f"size / {format_rate(fit.bytes_per_second / UNITS[units])} {units}"
    r2 = "R² undefined" if math.isnan(fit.r_squared) else f"R² = {fit.r_squared:.4f}"
    text = f"time = {fixed} + {rate} ({r2}, {fit.n_points} sizes)"
    return text + (f"; {fit.note}" if fit.note else "")


def claims_text(result: StudyResult | None) -> str:
    """Everything the results say beyond the table, as plain text."""
    if result is None:
        return EMPTY
    study = result.study
    lines = [
        f"Study {study.name}" + (f" (seed {study.seed})" if study.seed else ""),
        f"How it ran: {result.how_run()}; data {study.data_mode}.",
        f"Times are medians; throughput from the median, {study.units} = "
        f"{UNITS[study.units]:,} bytes/s; memory is the peak above the worker's baseline "
        "(MiB = 2^20 bytes).",
    ]
    fits = [f for f in result.fits if f.fit is not None]
    if fits:
        lines.append("\nTime against size (least squares over the medians):")
        lines.extend(
            f"  {f.cipher_label} {f.direction}s: {fit_text(f.fit, study.units)}"
            for f in fits
            if f.fit is not None
        )
    if result.comparisons:
        lines.append("\nComparisons (bootstrap of the ratio of medians, 95 % interval):")
        several = len(result.by_input()) > 1
        for c in result.comparisons:
            lines.append(f"  {'on ' + c.input_label + ': ' if several else ''}{c.sentence()}")
    if len(result.speedups) > 1:
        lines.append("\nEncryption speed-up against the slowest on each input:")
        lines.extend(
            f"  {s.cipher_label} on {s.input_label}: {s.factor:,.2f}x (against {s.baseline_label})"
            for s in result.speedups
            if s.cipher_label != s.baseline_label
        )
    lines.extend(_notes(result))
    return display_text("\n".join(lines))


def _notes(result: StudyResult) -> list[str]:
    lines: list[str] = []
    study = result.study
    if study.published:
        lines.append(f"\nThe paper's published figures ({study.paper or 'seed ' + study.seed}):")
        lines.extend(
            f"  {p.cipher}, {p.input}: {p.quantity} = {p.value:g} {p.unit}" for p in study.published
        )
    warnings = [f"  {r.label} on {r.input_label}: {w}" for r in result.results for w in r.warnings]
    if warnings:
        lines.append("\nWarnings:")
        lines.extend(warnings)
    if result.failures:
        lines.append("\nFailed:")
        lines.extend(f"  {f.cipher_label} on {f.input_label}: {f.message}" for f in result.failures)
    if result.cancelled:
        lines.append("\n(a run was cancelled before every round ran; its partial results are kept)")
    return lines
