"""A leak test's figure: the largest |t| against the calls measured, one line an entry, with
dudect's thresholds (4.5 and 10) drawn across it."""

from __future__ import annotations

from pathlib import Path

from app.core.document.numbers import count_text
from app.core.document.svg_chart import ChartSeries, line_chart
from app.core.leak.result import LeakResult
from app.core.leak.ttests import LEAK_T, POSSIBLE_T


def t_curve_svg(result: LeakResult) -> str:
    """The figure as a standalone SVG file."""
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + t_curve_chart(result) + "\n"


def t_curve_chart(result: LeakResult) -> str:
    """The figure as an ``<svg>`` element (inline in an HTML report)."""
    series = [
        ChartSeries(e.label, tuple((float(n), t) for n, t in e.curve)) for e in result.results
    ]
    calls = [n for e in result.results for n, _ in e.curve]
    if calls:
        low, high = float(min(calls)), float(max(calls))
        ends = (low, high) if high > low else (low / 2, high * 2)  # a line, not a point
        for level, name in ((POSSIBLE_T, "possible leak"), (LEAK_T, "leak")):
            series.append(ChartSeries(f"|t| = {level:g}: {name}", tuple((x, level) for x in ends)))
    return line_chart(
        title="Timing leakage: the largest |t| as calls accumulate",
        x_label="calls measured",
        y_label="largest |t|",
        series=series,
        x_format=lambda x: count_text(round(x)),
        log_x=True,
    )


def write_svg(result: LeakResult, path: Path) -> None:
    Path(path).write_text(t_curve_svg(result), encoding="utf-8")
