"""Saving a transfer run to a file, the format chosen by the extension, atomically.

* ``.json``: the run's document (:func:`app.core.transfer.results.transfer_document`), what
  ``transfer --out`` writes and :meth:`TransferRun.from_dict` reads back.
* ``.csv``: one row per cipher (:data:`FIELDS`, the unit at the end of each column name); a
  cipher whose transfer failed has a row with ``failed: <reason>`` in ``warnings``.
* ``.xlsx``: ``Results`` (the same columns, units in the headers) with a throughput bar chart
  beside them, ``Runs`` (every timed run of each end) and ``Environment``.

Every failure is a ``UserError`` starting ``cannot write <path>:`` (or ``cannot save the
transfer to <path>:`` for an extension no writer has), as for the benchmark's exports.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.export.xlsx_export import save_workbook
from app.core.text import display_text
from app.core.transfer.results import (
    TransferFailure,
    TransferResult,
    TransferRun,
    transfer_document,
)

Writer = Callable[[TransferRun, Path], None]


@dataclass(frozen=True)
class Field:
    key: str  # the CSV column
    header: str  # for people, with the unit
    get: Callable[[TransferResult], Any]
    number_format: str | None = None  # Excel


def _stat(name: str) -> Callable[[TransferResult], float]:
    return lambda r: float(getattr(r.timing, name))


def _end(end: str, name: str) -> Callable[[TransferResult], Any]:
    return lambda r: getattr(getattr(r, end), name)


FIELDS: tuple[Field, ...] = (
    Field("cipher", "Cipher", lambda r: r.cipher_id),
    Field("library", "Library", lambda r: r.library or ""),
    Field("input", "Input", lambda r: r.input_label),
    Field("input_bytes", "Size (bytes)", lambda r: r.input_bytes, "#,##0"),
    Field("chunk_bytes", "Chunk (bytes)", lambda r: r.chunk_bytes, "#,##0"),
    Field("chunks", "Chunks", lambda r: r.chunks, "0"),
    Field("runs", "Timed runs", lambda r: len(r.runs), "0"),
    Field("verified", "Verified", lambda r: r.verified),
    Field("median_s", "Total time median (s)", _stat("median_s"), "0.000000"),
    Field("iqr_s", "Total time IQR (s)", _stat("iqr_s"), "0.000000"),
    Field("min_s", "Total time min (s)", _stat("min_s"), "0.000000"),
    Field("max_s", "Total time max (s)", _stat("max_s"), "0.000000"),
    Field("throughput_mb_s", "Throughput (MB/s)", lambda r: r.throughput_mb_s, "#,##0.00"),
    Field("throughput_mib_s", "Throughput (MiB/s)", lambda r: r.throughput_mib_s, "#,##0.00"),
    *(
        field
        for end, word in (("sender", "Sender"), ("receiver", "Receiver"))
        for field in (
            Field(f"{end}_cpu_percent", f"{word} CPU (%)", _end(end, "cpu_percent"), "0.0"),
            Field(
                f"{end}_peak_rss_bytes",
                f"{word} peak RSS (bytes)",
                _end(end, "peak_rss_bytes"),
                "#,##0",
            ),
            Field(
                f"{end}_baseline_rss_bytes",
                f"{word} baseline RSS (bytes)",
                _end(end, "baseline_rss_bytes"),
                "#,##0",
            ),
            Field(
                f"{end}_peak_above_baseline_bytes",
                f"{word} peak above baseline (bytes)",
                _end(end, "peak_above_baseline_bytes"),
                "#,##0",
            ),
        )
    ),
    Field("warnings", "Warnings", lambda r: " | ".join(r.warnings)),
)


def write_json(run: TransferRun, path: Path) -> None:
    text = json.dumps(transfer_document(run), indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def _rows(run: TransferRun) -> Iterator[list[Any]]:
    for r in run.results:
        yield [f.get(r) for f in FIELDS]
    for failure in run.failures:
        yield _failure_row(failure)


def _failure_row(failure: TransferFailure) -> list[Any]:
    row: list[Any] = [None] * len(FIELDS)
    row[0] = failure.cipher
    row[-1] = f"failed: {failure.message}"
    return row


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return display_text(str(value))


def write_csv(run: TransferRun, path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow([field.key for field in FIELDS])
        for row in _rows(run):
            writer.writerow([_csv_cell(v) for v in row])


def write_xlsx(run: TransferRun, path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.chart import BarChart, Reference
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Results"
    rows = list(_rows(run))
    _table(ws, [f.header for f in FIELDS], rows, [f.number_format for f in FIELDS])
    if run.results:
        chart = BarChart()
        chart.type = "bar"
        chart.title = "Throughput per cipher (MB/s, higher is faster)"
        chart.x_axis.title = "Cipher"
        chart.y_axis.title = "Throughput (MB/s)"
        chart.x_axis.delete = False  # openpyxl >= 3.1 hides the axes otherwise
        chart.y_axis.delete = False
        chart.legend = None
        column = 1 + [f.key for f in FIELDS].index("throughput_mb_s")
        last = 1 + len(run.results)
        chart.add_data(
            Reference(ws, min_col=column, min_row=1, max_row=last), titles_from_data=True
        )
        chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=last))
        ws.add_chart(chart, f"A{len(rows) + 4}")  # below the failures too
    runs_headers = ["Cipher", "Run", "Total time (s)", "Verified"] + [
        f"{word} {what}"
        for word in ("Sender", "Receiver")
        for what in ("wall (s)", "CPU (s)", "CPU (%)", "peak RSS (bytes)", "baseline RSS (bytes)")
    ]
    _table(wb.create_sheet("Runs"), runs_headers, list(_run_rows(run)))
    env = wb.create_sheet("Environment")
    _table(env, ["Key", "Value"], [list(kv) for kv in _environment_rows(run)])
    for sheet in wb.worksheets:
        for cell in sheet[1]:
            cell.font = Font(bold=True)
    save_workbook(wb, path)


def _table(ws: Any, headers: list[str], rows: list[list[Any]], formats: Sequence[Any] = ()) -> None:
    from openpyxl.utils import get_column_letter

    ws.append(headers)
    for row in rows:
        ws.append([display_text(v) if isinstance(v, str) else v for v in row])
    for i, fmt in enumerate(formats, start=1):
        if fmt:
            for (cell,) in ws.iter_rows(min_row=2, min_col=i, max_col=i):
                cell.number_format = fmt
    for i, header in enumerate(headers, start=1):
        width = max([len(header)] + [len(str(r[i - 1])) for r in rows if r[i - 1] is not None])
        ws.column_dimensions[get_column_letter(i)].width = min(60, width + 2)
    ws.freeze_panes = "B2"


def _run_rows(run: TransferRun) -> Iterator[list[Any]]:
    for r in run.results:
        for n, sample in enumerate(r.runs, start=1):
            ends = [
                value
                for end in (sample.sender, sample.receiver)
                for value in (
                    end.wall_seconds,
                    end.cpu_seconds,
                    end.cpu_percent,
                    end.peak_rss_bytes,
                    end.baseline_rss_bytes,
                )
            ]
            yield [r.cipher_id, n, sample.total_seconds, sample.verified, *ends]


def _environment_rows(run: TransferRun) -> Iterator[tuple[str, Any]]:
    yield "run.started_at", run.started_at
    yield "run.finished_at", run.finished_at
    yield "run.cancelled", run.cancelled
    yield "run.cipherbench", run.cipherbench_version
    yield from _flatten("options", dict(run.options))
    yield from _flatten("environment", run.environment.to_dict())


def _flatten(prefix: str, value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flatten(f"{prefix}.{k}", v)
    elif value is None or isinstance(value, str | int | float | bool):
        yield prefix, value
    else:
        yield prefix, json.dumps(value, default=str)
