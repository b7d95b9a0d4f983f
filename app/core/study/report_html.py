"""A study as one self-contained HTML file: no script, no external file, printable to PDF.

Sections: title; the method in a few sentences (how it ran, the statistics, what memory means,
the units); the paper-style table per input; charts against size (inline SVG from
:mod:`app.core.document.svg_chart`: time, throughput and memory, one line per cipher entry, a log
size axis when the sizes span more than a decade); the fits of time against size; the
comparisons with their intervals; the speed-ups; the paper's published figures, labelled as
the paper's; warnings and failures; the environment. Every text from the study (labels, file
names, messages) is escaped.
"""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING

from app.core.bench.results import JobResult
from app.core.document.html import STYLE, table_html
from app.core.document.numbers import mib_text, rate_text, ratio_text, seconds_text
from app.core.document.svg_bars import BarSeries, PaperMark, bar_chart, wants_log
from app.core.document.svg_chart import ChartSeries, line_chart, text
from app.core.leak.document import leak_document
from app.core.leak.exports import t_curve_chart
from app.core.profile.document import profile_document
from app.core.study import warning_lines
from app.core.study.paper_report import html_table as _table
from app.core.study.paper_report import paper_html
from app.core.study.report_data import (
    Quantity,
    by_input_charts,
    environment_rows,
    fit_rows,
    method_sentences,
    pairs_without_interval,
    paper_points,
    quantities,
    series,
    size_label,
    spans_decades,
)
from app.core.study.report_text import what_ran, whole_programs
from app.core.study.result import StudyResult, memory_mib, rate
from app.core.units import prefixes_note

if TYPE_CHECKING:
    from app.core.study.transfer_result import TransferStudyResult


def study_html(result: StudyResult) -> str:
    """The whole report as a string (see the module docstring)."""
    study = result.study
    title = f"Study {study.name}" + (f" (after {study.after()})" if study.after() else "")
    if study.title:
        title += f": {study.title}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{text(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{text(title)}</h1>",
        _meta(result),
        "<h2>Method</h2>",
        *(f"<p>{text(s)}</p>" for s in method_sentences(result)),
        "<h2>Results</h2>",
        *_result_tables(result),
        *_charts(result),
        *_claims(result),
        *_whole_programs(result),
        *_profile(result),
        *_leak(result),
        *paper_html(result),
        *_notes(result),
        "<h2>Environment</h2>",
        _table(["Item", "Value"], [[text(k), text(v)] for k, v in environment_rows(result)]),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def write_study_html(result: StudyResult, path: str | PathLike[str]) -> None:
    """Write the report to ``path`` (UTF-8). Not atomic (use ``export.export_study``)."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(study_html(result))


# --- sections ---------------------------------------------------------------------------------


def _meta(result: StudyResult) -> str:
    study = result.study
    bits = [what_ran(result)]
    if study.description:
        bits.append(study.description)
    if study.paper:
        bits.append(f"Published figures from: {study.paper}.")
    when = f"Run from {result.started_at} to {result.finished_at}"
    bits.append(when + (" (cancelled before every round ran)." if result.cancelled else "."))
    return "".join(f'<p class="meta">{text(b)}</p>' for b in bits)


def _result_tables(result: StudyResult) -> list[str]:
    unit = result.units
    header = [
        "Algorithm",
        "Library",
        "Input",
        "Size",
        "Enc. time",
        "Dec. time",
        f"Enc. throughput ({unit})",
        f"Dec. throughput ({unit})",
        "Memory (MiB above the worker's baseline)",
    ]
    out: list[str] = []
    groups = result.by_input()
    if not groups:
        return ['<p class="note">No job finished.</p>']
    for input_label, group in groups.items():
        size = group[0].input_bytes
        out.append(f"<h3>Input {text(input_label)} ({size:,} bytes)</h3>")
        out.append(_table(header, [_result_cells(result, r) for r in group], numeric_from=3))
    out.append(
        '<p class="note">Times are medians, the interquartile range (IQR) of the timed '
        "repetitions beside them; throughput from the median.</p>"
    )
    return out


def _result_cells(result: StudyResult, r: JobResult) -> list[str]:
    mem = memory_mib(r)
    return [
        text(r.cipher),
        text(r.library),
        text(r.input_label),
        text(size_label(r.input_bytes)),
        _time_with_iqr(r.encrypt.median_s, r.encrypt.iqr_s),
        _time_with_iqr(r.decrypt.median_s, r.decrypt.iqr_s),
        rate_text(rate(r, "encrypt", result.units)),
        rate_text(rate(r, "decrypt", result.units)),
        mib_text(mem),
    ]


def _charts(result: StudyResult) -> list[str]:
    """The papers' forms: grouped bars per input where the inputs are files (or stand for the
    files of a study's slots) or one size, lines against size where there are several sizes;
    the paper's own
    values marked on them; a log axis where one value is ten times another."""
    if not result.results:
        return ['<p class="note">No results to chart.</p>']
    inputs = list(result.by_input())
    as_bars = by_input_charts(result)  # a study of file types: the papers' grouped bars
    out = ["<h2>" + ("Charts by input" if as_bars else "Charts against size") + "</h2>"]
    for q in quantities(result):
        marks = paper_points(result, q.key)
        svg = _bars(result, q, inputs, marks) if as_bars else _lines(result, q, marks)
        note = " Black diamonds: the paper's own values." if marks else ""
        form = "one bar per cipher entry in each input" if as_bars else "one line per entry"
        out.append(f"<figure>{svg}<figcaption>{text(q.title)}: {form}.{text(note)}")
        out.append("</figcaption></figure>")
    return out


def _bars(
    result: StudyResult, q: Quantity, inputs: list[str], marks: list[tuple[str, str, float, str]]
) -> str:
    labels = result.cipher_labels()
    cells = {(r.label, r.input_label): q.value(result, r) for r in result.results}
    bars = [BarSeries(label, tuple(cells.get((label, i)) for i in inputs)) for label in labels]
    paper = [
        PaperMark(inputs.index(i), labels.index(c), value, tip)
        for c, i, value, tip in marks
        if c in labels and i in inputs
    ]
    values = [v for b in bars for v in b.values] + [m.value for m in paper]
    return bar_chart(
        title=f"{q.title} by input",
        y_label=q.axis,
        groups=inputs,
        series=bars,
        paper=paper,
        log_y=wants_log(values),
    )


def _lines(result: StudyResult, q: Quantity, marks: list[tuple[str, str, float, str]]) -> str:
    lines = [ChartSeries(label, tuple(map(_float_point, pts))) for label, pts in series(result, q)]
    return against_size(result, q.title, q.axis, lines, marks)


def against_size(
    result: StudyResult | TransferStudyResult,
    title: str,
    y_label: str,
    lines: list[ChartSeries],
    marks: list[tuple[str, str, float, str]],
) -> str:
    """A quantity against input size, for both kinds of study: log axes where the values
    span decades, each size as the study wrote it (50 MiB as typed), the paper's own values
    (``marks``) as black diamonds."""
    log_x = spans_decades([r.input_bytes for r in result.results])
    size_of = {r.input_label: float(r.input_bytes) for r in result.results}
    paper = [
        ChartSeries(f"paper: {c}", ((size_of[i], value),))
        for c, i, value, _tip in marks
        if i in size_of
    ]
    values = [y for s in (*lines, *paper) for _x, y in s.points]
    scale = "logarithmic" if log_x else "linear"
    written = {float(r.input_bytes): r.input_label for r in result.results}
    return line_chart(
        title=f"{title} against input size",
        x_label=f"Input size ({scale} scale, {prefixes_note(written.values())})",
        y_label=y_label,
        series=lines,
        x_format=lambda x: written.get(x) or size_label(x),
        log_x=log_x,
        paper=paper,
        log_y=wants_log(values),
    )


def _float_point(p: tuple[int, float]) -> tuple[float, float]:
    return float(p[0]), p[1]


def _claims(result: StudyResult) -> list[str]:
    out = ["<h2>Time against size</h2>"]
    rows = fit_rows(result)
    if rows:
        out.append(
            '<p class="note">Least squares over the median times: time = fixed cost + '
            f"size / throughput (throughput in {text(result.units)}).</p>"
        )
        header = [
            "Cipher",
            "Direction",
            "Fixed cost",
            f"Throughput ({result.units})",
            "R²",
            "95 % CI over rounds",
            "Note",
        ]
        cells = [
            [
                text(c),
                text(d),
                seconds_text(fixed),
                "no throughput" if per_second is None else rate_text(per_second),
                "undefined" if r2 is None else f"{r2:.4f}",
                "—" if f_low is None else text(_fit_ci(f_low, f_high, r_low, r_high)),
                text(note),
            ]
            for c, d, fixed, per_second, r2, _, f_low, f_high, r_low, r_high, note in rows
        ]
        out.append(_table(header, cells, numeric_from=2, numeric_to=5))
    else:
        out.append('<p class="note">No fit: each cipher entry needs two sizes or more.</p>')
    out.append("<h2>Comparisons</h2>")
    if result.comparisons:
        out.append(
            '<p class="note">95 % confidence intervals over rounds, each a fresh worker '
            f"({text(result.rounds_text())}).</p><ul>"
        )
        out += [f"<li>{text(p.input_label)}: {text(p.sentence())}</li>" for p in result.comparisons]
        out.append("</ul>")
        missing = pairs_without_interval(result)
        if missing:
            out.append(f'<p class="note">{missing} comparison(s) without an interval.</p>')
    else:
        out.append('<p class="note">Nothing to compare: one cipher entry per input.</p>')
    if result.speedups:
        out.append("<h2>Speed-ups</h2>")
        cells = [
            [
                text(s.input_label),
                text(s.cipher_label),
                text(s.baseline_label),
                ratio_text(s.factor),
                text(s.interval_text()),
            ]
            for s in result.speedups
        ]
        header = ["Input", "Cipher", "Against", "Encryption speed-up", "Interval"]
        out.append(_table(header, cells, numeric_from=3))
    return out


def _maybe(value: float | None, fmt: str) -> str:
    return "—" if value is None else text(fmt.format(value))


def _profile(result: StudyResult) -> list[str]:
    """Where each entry's time goes (``profile = true``): the profile's tables."""
    if result.profile is None:
        return []
    parts = ["<h2>Where the time goes</h2>"]
    for table in profile_document(result.profile).tables:
        parts.extend(table_html(table))
    return parts


def _leak(result: StudyResult) -> list[str]:
    """Timing leakage (``leak = true``): its table, its verdicts and its figure."""
    if result.leak is None:
        return []
    document = leak_document(result.leak)
    parts = ["<h2>Timing leakage</h2>", *table_html(document.tables[0])]
    parts += [f"<p>{text(line)}</p>" for line in document.sections[0].lines]
    parts += [t_curve_chart(result.leak)]
    parts += [f"<p>{text(line)}</p>" for line in document.sections[1].lines]
    return parts


def _whole_programs(result: StudyResult) -> list[str]:
    lines = whole_programs(result, None)
    if not lines:
        return []
    heading, *items, why = [line.strip() for line in lines if line.strip()]
    return [
        "<h2>Whole programs</h2>",
        f"<p>{text(heading)}</p><ul>",
        *(f"<li>{text(item)}</li>" for item in items),
        f'</ul><p class="note">{text(why)}</p>',
    ]


def _notes(result: StudyResult) -> list[str]:
    """One line per row with warnings, in short words, as the terminal prints them (a busy
    machine made a page of them per report); the sentences stay in the exports."""
    rows = warning_lines.grouped(result.results, len(result.by_input()) > 1)
    out = []
    if rows or result.failures:
        out.append("<h2>Warnings and failures</h2><ul>")
        out += [f"<li>{text(f'{label}: {words}')}</li>" for label, words in rows]
        for f in result.failures:
            what = text(f"{f.cipher_label} on {f.input_label}: {f.message}")
            out.append(f"<li><strong>Failed</strong>: {what}</li>")
        out.append("</ul>")
        if rows:
            out.append(f'<p class="note">{text(warning_lines.DETAIL)}</p>')
    return out


# --- cells ------------------------------------------------------------------------------------


def _time_with_iqr(median_s: float, iqr_s: float) -> str:
    median, iqr = seconds_text(median_s), seconds_text(iqr_s)
    return f'{median} <span class="iqr">(IQR {iqr})</span>'


def _fit_ci(f_low: float, f_high: float, r_low: float | None, r_high: float | None) -> str:
    """ "480-520; 1.1 µs to 1.4 µs": the throughput's and the fixed cost's intervals."""

    def rate(x: float | None) -> str:
        return "∞" if x is None else rate_text(x)

    fixed = f"{seconds_text(f_low)} to {seconds_text(f_high)}"
    return f"{rate(r_low)}-{rate(r_high)}; {fixed}"
