"""A leak test's figure inline in a study's HTML report: the largest |t| against the calls
measured, one line an entry, with dudect's thresholds (4.5 and 10) drawn across it. Its print
figure (.svg, .pdf) is :func:`app.core.publish.kind_figures.leak_figure`."""

from __future__ import annotations

from app.core.document.numbers import count_text
from app.core.document.svg_chart import ChartSeries, line_chart
from app.core.leak.result import LeakResult
from app.core.leak.ttests import LEAK_T, POSSIBLE_T


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
