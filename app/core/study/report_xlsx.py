"""A study as an Excel workbook (openpyxl): a sheet per table and native charts against size.

Sheets, in order:

* ``Results``: the paper-style table, one row per (cipher entry, input), grouped by input;
  units in every header; memory in MiB above the worker's baseline.
* ``Charts``: scatter charts (lines and markers, one series per cipher entry) of encryption
  and decryption time, throughput (the study's unit) and memory against input size, the size
  axis logarithmic when the sizes span more than a decade. Drawn from ``Chart data``.
* ``Chart data``: the charted values, one block of rows per cipher entry sorted by size.
* ``Fits``, ``Comparisons``, ``Speed-ups``: the claims (fits of time against size with R²,
  pairwise claims with their intervals over rounds, speed-up factors).
* ``Published``: the paper's own figures, labelled as the paper's (only when the study has some).
* ``Failures`` (only when a cell failed), ``Samples`` (every raw timing sample), ``Method``
  and ``Environment``.

Built in memory and written with one write (``xlsx_export.save_workbook``); use
``export.export_study`` for the atomic replace.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from os import PathLike
from typing import Any

from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference, ScatterChart, Series
from openpyxl.chart.data_source import NumData, NumFmt, NumVal
from openpyxl.chart.marker import Marker
from openpyxl.chart.shapes import GraphicalProperties
from openpyxl.drawing.line import LineProperties
from openpyxl.worksheet.worksheet import Worksheet

from app.core.columns import headers, values
from app.core.document.svg_bars import wants_log
from app.core.document.svg_chart import OKABE_ITO

# The benchmark workbook's cell helpers: formulas stored as text, NaN as empty, fitted widths,
# and its in-memory save with one write.
from app.core.export.xlsx_export import put, save_workbook, write_table
from app.core.study.columns import STUDY_COLUMNS
from app.core.study.paper_report import write_paper_sheets
from app.core.study.report_data import (
    COMPARISON_HEADER,
    SPEEDUP_HEADER,
    by_input_charts,
    comparison_rows,
    environment_rows,
    fit_header,
    fit_rows,
    method_sentences,
    quantities,
    spans_decades,
    speedup_rows,
)
from app.core.study.result import StudyResult
from app.core.study.result_derived import Speedup

SECONDS = "0.000000"
CHART_ROWS = 22  # rows between the tops of two charts (a chart is 10 cm high)
MARKERS = ("circle", "square", "triangle", "diamond", "x")


def write_study_xlsx(result: StudyResult, path: str | PathLike[str]) -> None:
    """Write ``result`` to ``path`` as an .xlsx workbook (see the module). Not atomic."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Results"
    rows = [
        values(STUDY_COLUMNS, r, result.units)
        for group in result.by_input().values()
        for r in group
    ]
    formats = [c.number_format for c in STUDY_COLUMNS]
    write_table(ws, headers(STUDY_COLUMNS, result.units), rows, formats, freeze="B2")
    charts = wb.create_sheet("Charts")
    data = wb.create_sheet("Chart data")
    _write_charts(charts, data, result)
    if by_input_charts(result):
        _write_bar_charts(wb.create_sheet("Charts by input"), data, result)
    _write_claim_sheets(wb, result)
    write_paper_sheets(wb, result)
    _write_record_sheets(wb, result)
    version = result.environment.cipherbench_version
    wb.properties.creator = f"CipherBench {version}" if version else "CipherBench"
    save_workbook(wb, path)


def _write_claim_sheets(wb: Workbook, result: StudyResult) -> None:
    """``Fits``, ``Comparisons``, ``Speed-ups`` and (when timed) ``Whole programs``."""
    write_table(
        wb.create_sheet("Fits"),
        fit_header(result.units),
        fit_rows(result),
        (None, None, SECONDS, "#,##0.0", "0.0000", "0", SECONDS, SECONDS, "#,##0.0", "#,##0.0"),
    )
    write_table(
        wb.create_sheet("Comparisons"),
        COMPARISON_HEADER,
        comparison_rows(result),
        (None, None, None, None, "0.0000", "0.0000", "0.0000", "0.0", None, "0", "0", "0", "0"),
    )
    write_table(
        wb.create_sheet("Speed-ups"),
        SPEEDUP_HEADER,
        speedup_rows(result),
        (None,) * 3 + ("0.00", "0.00", "0.00", "0"),
    )
    if result.programs:
        write_table(
            wb.create_sheet("Whole programs"),
            ("Input", "Program", "Median (s)", "Against", "Factor (x)", "CI low", "CI high"),
            [_program_row(result, s) for s in result.program_speedups],
            (None, None, "0.000000", None, "0.00", "0.00", "0.00"),
        )


def _write_record_sheets(wb: Workbook, result: StudyResult) -> None:
    """``Failures`` (when a cell failed), ``Samples``, ``Method`` and ``Environment``."""
    if result.failures:
        write_table(
            wb.create_sheet("Failures"),
            ("Cipher", "Input", "Reason"),
            [(f.cipher_label, f.input_label, f.message) for f in result.failures],
        )
    write_table(
        wb.create_sheet("Samples"),
        ("Cipher", "Input", "Size (bytes)", "Direction", "Kind", "Repetition", "Seconds (s)"),
        _sample_rows(result),
        (None, None, "#,##0", None, None, "0", "0.000000000"),
    )
    write_table(wb.create_sheet("Method"), ("Method",), [[s] for s in method_sentences(result)])
    write_table(wb.create_sheet("Environment"), ("Item", "Value"), environment_rows(result))


def _program_row(result: StudyResult, s: Speedup) -> list[Any]:
    """A whole program's row: its median time and its factor against the baseline."""
    median = next(
        p.median_s
        for p in result.programs
        if p.label == s.cipher_label and p.input_label == s.input_label
    )
    return [s.input_label, s.cipher_label, median, s.baseline_label, s.factor, s.low, s.high]


def _sample_rows(result: StudyResult) -> Iterator[list[Any]]:
    for r in result.results:
        head = [r.label, r.input_label, r.input_bytes]
        for direction in ("encrypt", "decrypt"):
            stats = getattr(r, direction)
            for kind, samples in (("warm-up", stats.warmup_s), ("timed", stats.samples_s)):
                for rep, seconds in enumerate(samples, start=1):
                    yield [*head, direction, kind, rep, seconds]


# --- charts -----------------------------------------------------------------------------------


def _write_charts(
    charts: Worksheet, data: Worksheet, result: Any, qs: Sequence[Any] | None = None
) -> None:
    """Per cipher a block of rows on ``data`` sorted by size, then one scatter chart per
    quantity on ``charts`` with a series per block. ``result`` is a study's result (or a
    transfer study's, with its own ``qs``: each has ``title``, ``axis`` and ``value``)."""
    qs = quantities(result) if qs is None else qs
    header = ["Cipher", "Size (bytes)", *(f"{q.title} ({q.axis})" for q in qs)]
    rows: list[list[Any]] = []
    blocks: list[tuple[str, int, int]] = []  # label, first row, last row (1-based, on data)
    for label in result.cipher_labels():
        mine = sorted((r for r in result.results if r.label == label), key=lambda r: r.input_bytes)
        first = len(rows) + 2
        rows += [[label, r.input_bytes, *(q.value(result, r) for q in qs)] for r in mine]
        blocks.append((label, first, len(rows) + 1))
    write_table(data, header, rows, (None, "#,##0", *(["General"] * len(qs))))
    if not rows:
        put(charts, 1, 1, "No results to chart.")
        return
    log_x = spans_decades([r[1] for r in rows])
    for i, q in enumerate(qs):
        chart = ScatterChart()
        chart.title = f"{q.title} against input size"
        chart.style = 13
        chart.width, chart.height = 18.0, 10.0
        for k, (label, first, last) in enumerate(blocks):
            chart.series.append(_series(data, rows, label, first, last, 3 + i, k))
        chart.x_axis.title = "Input size (bytes" + (", log scale)" if log_x else ")")
        log_y = wants_log([r[2 + i] for r in rows])  # one entry 10x another: else it vanishes
        chart.y_axis.title = q.axis + (" (log scale)" if log_y else "")
        if log_x:
            chart.x_axis.scaling.logBase = 10
        if log_y:
            chart.y_axis.scaling.logBase = 10
        chart.x_axis.numFmt = NumFmt(formatCode="#,##0", sourceLinked=False)
        chart.y_axis.numFmt = NumFmt(formatCode="General", sourceLinked=False)
        # openpyxl >= 3.1 writes <c:delete val="1"/> unless told otherwise: axes would vanish.
        chart.x_axis.delete = False
        chart.y_axis.delete = False
        chart.legend.position = "b"
        charts.add_chart(chart, f"A{1 + i * CHART_ROWS}")


def _write_bar_charts(charts: Worksheet, data: Worksheet, result: StudyResult) -> None:
    """Per quantity, a table of inputs x cipher entries below the chart data, and a clustered
    bar chart of it: a group per input, a bar per entry (seeds 001 and 002's figures)."""
    inputs, labels = list(result.by_input()), result.cipher_labels()
    cells = {(r.label, r.input_label): r for r in result.results}
    top = data.max_row + 3
    for i, q in enumerate(quantities(result)):
        put(data, top, 1, f"{q.title} ({q.axis}) by input")
        for k, label in enumerate(labels):
            put(data, top + 1, 2 + k, label)
        values: list[float | None] = []
        for n, input_label in enumerate(inputs):
            put(data, top + 2 + n, 1, input_label)
            for k, label in enumerate(labels):
                r = cells.get((label, input_label))
                value = None if r is None else q.value(result, r)
                values.append(value)
                if value is not None:
                    data.cell(top + 2 + n, 2 + k, value)
        chart = BarChart()
        chart.type, chart.grouping, chart.style = "col", "clustered", 10
        chart.title = f"{q.title} by input"
        chart.width, chart.height = 18.0, 10.0
        span = (top + 1, top + 1 + len(inputs))
        refs = Reference(data, min_col=2, max_col=1 + len(labels), min_row=span[0], max_row=span[1])
        chart.add_data(refs, titles_from_data=True)
        chart.set_categories(Reference(data, min_col=1, min_row=top + 2, max_row=span[1]))
        log_y = wants_log(values)
        chart.y_axis.title = q.axis + (" (log scale)" if log_y else "")
        if log_y:
            chart.y_axis.scaling.logBase = 10
        chart.x_axis.delete = False
        chart.y_axis.delete = False
        chart.legend.position = "b"
        charts.add_chart(chart, f"A{1 + i * CHART_ROWS}")
        top = span[1] + 3


def _series(
    data: Worksheet, rows: list[list[Any]], label: str, first: int, last: int, col: int, k: int
) -> Series:
    x = Reference(data, min_col=2, min_row=first, max_row=last)
    y = Reference(data, min_col=col, min_row=first, max_row=last)
    s = Series(y, x, title=label)
    # Cached values: viewers that do not recalculate (previews) still draw the points.
    block = rows[first - 2 : last - 1]
    assert s.xVal is not None and s.xVal.numRef is not None
    assert s.yVal is not None and s.yVal.numRef is not None
    s.xVal.numRef.numCache = _cache([r[1] for r in block])
    s.yVal.numRef.numCache = _cache([r[col - 1] for r in block])
    colour = OKABE_ITO[k % len(OKABE_ITO)].lstrip("#")
    line = LineProperties(solidFill=colour, w=22000)  # EMU, about 1.75 pt
    s.graphicalProperties = GraphicalProperties(ln=line)
    s.marker = Marker(symbol=MARKERS[k % len(MARKERS)], size=7)
    s.marker.graphicalProperties = GraphicalProperties(
        solidFill=colour, ln=LineProperties(solidFill=colour)
    )
    s.smooth = False
    return s


def _cache(values: list[Any]) -> NumData:
    return NumData(
        ptCount=len(values),
        pt=[
            NumVal(idx=i, v=v)
            for i, v in enumerate(values)
            if isinstance(v, int | float) and math.isfinite(v)
        ],
    )
