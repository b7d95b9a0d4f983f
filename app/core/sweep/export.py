"""Saving a sweep or a ladder: JSON (everything, raw samples), CSV (one row per point), Excel
(the points, the curves with a log-log chart, the environment) and one self-contained HTML
report (the tables and an inline SVG log-log chart). Writers write plainly; ``formats.save``
makes them atomic."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.core.document.svg_chart import ChartSeries, line_chart, text
from app.core.export.csv_export import write_rows
from app.core.export.digest import with_digest
from app.core.export.flat_rows import result_rows
from app.core.export.xlsx_export import save_workbook, write_table
from app.core.sweep.jobs import ENCRYPT
from app.core.sweep.report import (
    POINT_COLUMNS,
    ad_rows,
    curve_cells,
    curve_headers,
    ladder_steps,
    ladder_verdicts,
    length_label,
    method_text,
    ns_text,
    number,
    point_rows,
    summary_sentences,
)
from app.core.sweep.results import LADDER, SweepResult, sweep_document


def write_json(result: SweepResult, path: Path) -> None:
    text_ = json.dumps(with_digest(sweep_document(result)), indent=2, ensure_ascii=False)
    path.write_text(text_ + "\n", encoding="utf-8")


def write_csv(result: SweepResult, path: Path) -> None:
    rows: list[list[Any]] = [[key for key, _ in POINT_COLUMNS]]
    rows += [[row[key] for key, _ in POINT_COLUMNS] for row in point_rows(result)]
    rows += [[f.label, f"failed: {f.message}"] for f in result.failures]
    write_rows(path, rows)


def curve_table(result: SweepResult) -> tuple[list[str], list[list[Any]]]:
    """Cycles per byte (encryption) by message length, one column per entry: the chart's
    data."""
    lengths = sorted({p.message_bytes for e in result.entries for p in e.curve()})
    headers = ["Message (bytes)"] + [f"{e.label} (cycles/byte)" for e in result.entries]
    rows = []
    for n in lengths:
        row: list[Any] = [n]
        for e in result.entries:
            p = e.point(ENCRYPT, n)
            row.append(p.cycles_per_byte(e.clock_mhz) if p else None)
        rows.append(row)
    return headers, rows


def write_xlsx(result: SweepResult, path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.chart import Reference, ScatterChart, Series

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Curves"
    headers, rows = curve_table(result)
    write_table(ws, headers, rows, freeze="B2")
    if rows and result.entries:
        chart = ScatterChart()
        chart.title = "Cycles per byte against message length (encryption, log-log)"
        chart.style = 13
        chart.x_axis.title = "Message length (bytes)"
        chart.y_axis.title = "Cycles per byte"
        chart.x_axis.scaling.logBase = 10
        chart.y_axis.scaling.logBase = 10
        chart.x_axis.delete = False
        chart.y_axis.delete = False
        chart.height, chart.width = 10, 20
        xs = Reference(ws, min_col=1, min_row=2, max_row=len(rows) + 1)
        for col in range(2, len(headers) + 1):
            ys = Reference(ws, min_col=col, min_row=1, max_row=len(rows) + 1)
            series = Series(ys, xs, title_from_data=True)
            series.marker.symbol = "circle"
            chart.series.append(series)
        ws.add_chart(chart, f"{_letter(len(headers) + 2)}2")
    points = wb.create_sheet("Points")
    write_table(
        points,
        [title for _, title in POINT_COLUMNS],
        [[row[key] for key, _ in POINT_COLUMNS] for row in point_rows(result)],
    )
    notes = wb.create_sheet("Notes")
    lines = [[s] for e in result.entries for s in summary_sentences(e)]
    lines += [[v] for v in ladder_verdicts(result)]
    lines += [[f"{f.label} failed: {f.message}"] for f in result.failures]
    write_table(notes, ["Note"], lines)
    env = wb.create_sheet("Environment")
    write_table(env, ["Key", "Value"], [list(kv) for kv in _environment_rows(result)])
    save_workbook(wb, path)


def _letter(col: int) -> str:
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(col))


def _environment_rows(result: SweepResult) -> Iterator[tuple[str, Any]]:
    return result_rows(result, kind=result.kind)


# --- HTML ---------------------------------------------------------------------------------------

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222;
       line-height: 1.4; padding: 0 1em; }
h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; }
th { background: #eef3f9; text-align: left; } td.num { text-align: right; white-space: nowrap; }
.note { color: #555; } svg.chart { max-width: 100%; height: auto; }
"""


def sweep_html(result: SweepResult) -> str:
    ladder = result.kind == LADDER
    title = f"Hardware ladder: {result.title}" if ladder else "Message-length sweep"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{text(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{text(title)}</h1>",
        f'<p class="note">{text(method_text(result))}</p>',
    ]
    if ladder:
        parts += _ladder_html(result)
    else:
        parts.append(_chart(result))
        for e in result.entries:
            parts.append(f"<h2>{text(e.label)}</h2>")
            parts += [f'<p class="note">{text(s)}</p>' for s in summary_sentences(e)]
            parts.append(_curve_html(e))
            parts.append(_ad_html(e))
    parts += [
        f'<p class="note">{text(f.label)} failed: {text(f.message)}</p>' for f in result.failures
    ]
    parts.append("<h2>Environment</h2>")
    parts.append(
        _html_table(
            ["Item", "Value"],
            [[k, "" if v is None else str(v)] for k, v in _environment_rows(result)],
        )
    )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_html(result: SweepResult, path: Path) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(sweep_html(result))


def _chart(result: SweepResult) -> str:
    series = [
        ChartSeries(
            e.label,
            tuple(
                (float(p.message_bytes), c)
                for p in e.curve()
                if (c := p.cycles_per_byte(e.clock_mhz)) is not None
            ),
        )
        for e in result.entries
    ]
    estimated = any(not e.counter for e in result.entries)
    return line_chart(
        title="Cycles per byte against message length (encryption)",
        x_label="Message length",
        y_label="Cycles per byte" + (" (estimated)" if estimated else ""),
        series=series,
        x_format=_tick,
        log_x=True,
        log_y=True,
    )


def _tick(x: float) -> str:
    """An axis tick (powers of ten: "1 kB", "10 MB"), or a point's exact length in its tip."""
    n = round(x)
    for unit, size in (("MB", 10**6), ("kB", 10**3)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return length_label(n)


def _curve_html(e: Any) -> str:
    headers = curve_headers(terminal=False, counted=e.counter)
    rows = curve_cells(e)
    return _html_table(headers, rows, numeric_from=1)


def _ad_html(e: Any) -> str:
    table = ad_rows(e)
    if not table:
        return ""
    ads = sorted({ad for _, row in table for ad, _ in row})
    headers = ["Message"] + [f"AD {ad} B" for ad in ads]
    rows = []
    for n, row in table:
        by_ad = dict(row)
        rows.append(
            [length_label(n)] + [ns_text(by_ad[a].median_ns) if a in by_ad else "-" for a in ads]
        )
    return "<h3>Encryption time with associated data</h3>" + _html_table(
        headers, rows, numeric_from=1
    )


def _ladder_html(result: SweepResult) -> list[str]:
    rows = [
        [
            s.entry.label,
            length_label(s.point.message_bytes),
            number(s.point.mb_s),
            number(s.point.cycles_per_byte(s.entry.clock_mhz)),
            "-" if s.slower_than_first is None else f"{number(s.slower_than_first)}x",
            s.entry.note,
        ]
        for s in ladder_steps(result)
    ]
    headers = ["Step", "Message", "MB/s", "Cycles/byte", "Slower than the first step", "Note"]
    return [_html_table(headers, rows, numeric_from=1)] + [
        f"<p>{text(v)}</p>" for v in ladder_verdicts(result)
    ]


def _html_table(headers: list[str], rows: list[list[str]], numeric_from: int = 99) -> str:
    head = "".join(f"<th>{text(h)}</th>" for h in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="num">{text(c)}</td>' if i >= numeric_from else f"<td>{text(c)}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"
