"""A transfer study's tables, charts and files (the loopback study's shape): per cipher and input
the total time (median and IQR of first byte sent to last byte verified), the throughput, each
end's CPU % and peak memory above its baseline; charts of time, throughput and memory against size;
the fits and comparisons. Written as .json (everything), .csv (the table), .xlsx (sheets and native
charts) and .html (tables and inline SVG charts, printable)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from openpyxl import Workbook

from app.core.columns import headers, values
from app.core.document.numbers import figure
from app.core.document.svg_chart import ChartSeries, text
from app.core.export.csv_export import write_rows
from app.core.export.json_export import json_safe
from app.core.export.xlsx_export import save_workbook, write_table
from app.core.study.claims import method_text
from app.core.study.columns import TRANSFER_STUDY_COLUMNS
from app.core.study.paper_report import paper_html, paper_json, write_paper_sheets
from app.core.study.report_data import environment_rows, paper_points
from app.core.study.report_html import STYLE, against_size
from app.core.study.report_text import fit_text, what_ran
from app.core.study.report_xlsx import _write_charts
from app.core.study.transfer_result import TransferStudyResult, end_mib, transfer_rate
from app.core.transfer.results import TransferResult

FORMAT = "cipherbench-study"
VERSION = 1


def header(units: str) -> list[str]:
    return headers(TRANSFER_STUDY_COLUMNS, units)


def row(result: TransferStudyResult, r: TransferResult) -> list[Any]:
    return values(TRANSFER_STUDY_COLUMNS, r, result.units)


@dataclass(frozen=True)
class Quantity:
    title: str
    axis: str
    value: Callable[[TransferStudyResult, TransferResult], float]
    key: str = ""  # the paper's quantity drawn beside it (report_data.paper_points)


def quantities(result: TransferStudyResult) -> list[Quantity]:
    units = result.units
    return [
        Quantity(
            "Total time",
            "Median total time (ms)",
            lambda _s, r: r.timing.median_s * 1e3,
            "transfer_ms",
        ),
        Quantity(
            "Throughput",
            f"Throughput ({units})",
            lambda s, r: transfer_rate(r, s.units),
            "transfer_rate",
        ),
        Quantity(
            "Receiver memory",
            "Receiver peak above baseline (MiB)",
            lambda _s, r: end_mib(r, "receiver"),
        ),
        Quantity("Sender CPU", "Sender CPU (%)", lambda _s, r: r.sender.cpu_percent),
    ]


def claims(result: TransferStudyResult) -> list[str]:
    """The fits and the comparisons, one sentence each."""
    lines = [
        f"{f.cipher_label}: {fit_text(f.fit, result.units)}"
        for f in result.fits
        if f.fit is not None
    ]
    several = len(result.by_input()) > 1
    for c in result.comparisons:
        lines.append((f"On {c.input_label}: " if several else "") + c.sentence())
    return lines


def method(result: TransferStudyResult) -> str:
    return (
        f"Each cipher sent each input over TCP loopback ({result.how_run()}). A run's time is "
        "from the first byte sent to the last byte authenticated and digested by the receiver; "
        "the table gives the median and the interquartile range (IQR) of the timed runs. "
        f"Throughput is the input size over the median time ({result.units}). CPU % is each "
        "end's CPU time over its own wall time (100 % = one core); memory is each end's peak "
        "resident memory (kernel high-water mark) above its baseline before the run, the "
        "largest over the runs. "
        + method_text(result.study.margin_percent / 100, result.study.precision_percent / 100)
    )


# --- files ---------------------------------------------------------------------------------


def document(result: TransferStudyResult) -> dict[str, Any]:
    doc = {**result.to_dict(), **paper_json(result)}
    return {"format": FORMAT, "version": VERSION, **json_safe(doc)}


def write_json(result: TransferStudyResult, path: str | PathLike[str]) -> None:
    Path(path).write_text(
        json.dumps(document(result), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def write_csv(result: TransferStudyResult, path: str | PathLike[str]) -> None:
    write_rows(path, [header(result.units), *(row(result, r) for r in result.results)])


def write_html(result: TransferStudyResult, path: str | PathLike[str]) -> None:
    Path(path).write_text(html(result), encoding="utf-8")


def _chart(result: TransferStudyResult, q: Quantity) -> str:
    lines = [
        ChartSeries(
            label,
            tuple(
                (float(r.input_bytes), q.value(result, r))
                for r in result.results
                if r.label == label
            ),
        )
        for label in result.cipher_labels()
    ]
    marks = paper_points(result, q.key) if q.key else []
    return against_size(result, q.title, q.axis, lines, marks)


def html(result: TransferStudyResult) -> str:
    study = result.study
    title = f"Study {study.name}" + (f" (seed {study.seed})" if study.seed else "")
    charts = [_chart(result, q) for q in quantities(result)]
    cells = "".join(
        "<tr>" + "".join(f"<td>{text(_cell(v))}</td>" for v in row(result, r)) + "</tr>"
        for r in result.results
    )
    head = "".join(f"<th>{text(h)}</th>" for h in header(result.units))
    failures = "".join(
        f"<li>{text(f'{f.cipher_label} on {f.input_label}: {f.message}')}</li>"
        for f in result.failures
    )
    env = "".join(
        f"<tr><td>{text(str(k))}</td><td>{text(str(v))}</td></tr>"
        for k, v in environment_rows(result)  # type: ignore[arg-type]
    )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{text(title)}</title><style>{STYLE}</style></head><body>",
            f"<h1>{text(title)}{': ' + text(study.title) if study.title else ''}</h1>",
            f'<p class="meta">{text(what_ran(result))}</p>',
            *([f'<p class="meta">{text(study.description)}</p>'] if study.description else []),
            f"<p>{text(method(result))}</p>",
            f"<h2>Results</h2><table><tr>{head}</tr>{cells}</table>",
            "<h2>Against size</h2>",
            *charts,
            "<h2>Fits and comparisons</h2><ul>",
            *(f"<li>{text(line)}</li>" for line in claims(result)),
            "</ul>",
            *paper_html(result),
            f"<h2>Failures</h2><ul>{failures}</ul>" if failures else "",
            f"<h2>Environment</h2><table>{env}</table>",
            "</body></html>",
        ]
    )


def write_xlsx(result: TransferStudyResult, path: str | PathLike[str]) -> None:
    wb = Workbook()
    table = wb.active
    assert table is not None
    table.title = "Transfers"
    rows = [row(result, r) for r in result.results]
    formats = [c.number_format for c in TRANSFER_STUDY_COLUMNS]
    write_table(table, header(result.units), rows, formats)
    charts, data = wb.create_sheet("Charts"), wb.create_sheet("Chart data")
    _write_charts(charts, data, result, quantities(result))
    claims_sheet = wb.create_sheet("Fits and comparisons")
    write_table(claims_sheet, ("Statement",), [[c] for c in claims(result)])
    write_paper_sheets(wb, result)
    write_table(wb.create_sheet("Method"), ("Method",), [[method(result)]])
    env = environment_rows(result)  # type: ignore[arg-type]
    write_table(wb.create_sheet("Environment"), ("Item", "Value"), env)
    save_workbook(wb, path)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return figure(value)
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
