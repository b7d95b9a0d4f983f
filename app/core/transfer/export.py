"""Saving a transfer run to a file, the format chosen by the extension, atomically.

* ``.json``: the run's document (:func:`app.core.transfer.results.transfer_document`), what
  ``transfer --out`` writes and :meth:`TransferRun.from_dict` reads back.
* ``.csv``: one row per cipher (:data:`COLUMNS`, the unit at the end of each column name); a
  cipher whose transfer failed has a row with ``failed: <reason>`` in ``warnings``.
* ``.xlsx``: ``Results`` (the same columns, units in the headers) with a throughput bar chart
  beside them, ``Runs`` (every timed run of each end), ``Load every 50 ms`` (:data:`LOAD`)
  and ``Environment``.
* ``.load.csv``: both ends' CPU % and memory every 50 ms of every timed run (:data:`LOAD`).

Every failure is a ``UserError`` starting ``cannot write <path>:`` (or ``cannot save the
transfer to <path>:`` for an extension no writer has), as for the benchmark's exports.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from app.core.columns import headers, values
from app.core.export.csv_export import write_rows
from app.core.export.digest import with_digest
from app.core.export.flat_rows import result_rows
from app.core.export.xlsx_export import save_workbook, write_table
from app.core.runtime.envelope import NamedFailure
from app.core.transfer.columns import COLUMNS
from app.core.transfer.results import (
    TransferRun,
    transfer_document,
)
from app.core.units import MIB

Writer = Callable[[TransferRun, Path], None]


def write_json(run: TransferRun, path: Path) -> None:
    """The run as JSON with its digest (as every export: a changed file is told apart)."""
    text = json.dumps(with_digest(transfer_document(run)), indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def _rows(run: TransferRun) -> Iterator[list[Any]]:
    for r in run.results:
        yield values(COLUMNS, r, "")
    for failure in run.failures:
        yield _failure_row(failure)


def _failure_row(failure: NamedFailure) -> list[Any]:
    row: list[Any] = [None] * len(COLUMNS)
    row[0] = failure.label
    row[-1] = f"failed: {failure.message}"
    return row


def write_csv(run: TransferRun, path: Path) -> None:
    write_rows(path, [[field.key for field in COLUMNS], *_rows(run)])


def write_xlsx(run: TransferRun, path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.chart import BarChart, Reference

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Results"
    rows = list(_rows(run))
    write_table(ws, headers(COLUMNS, ""), rows, [f.number_format for f in COLUMNS])
    if run.results:
        chart = BarChart()
        chart.type = "bar"
        chart.title = "Throughput per cipher (MB/s, higher is faster)"
        chart.x_axis.title = "Cipher"
        chart.y_axis.title = "Throughput (MB/s)"
        chart.x_axis.delete = False  # openpyxl >= 3.1 hides the axes otherwise
        chart.y_axis.delete = False
        chart.legend = None
        column = 1 + [f.key for f in COLUMNS].index("throughput_mb_s")
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
    write_table(wb.create_sheet("Runs"), runs_headers, list(_run_rows(run)))
    write_table(wb.create_sheet("Load every 50 ms"), list(LOAD), list(_load_rows(run)))
    env = wb.create_sheet("Environment")
    write_table(env, ["Key", "Value"], [list(kv) for kv in result_rows(run)])
    save_workbook(wb, path)


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


# The series' columns (CPU %: 100 = one core busy; memory: resident, MiB = 2^20 bytes).
LOAD = (
    "Cipher",
    "Run",
    "Time (s)",
    "Sender CPU (%)",
    "Sender memory (MiB)",
    "Receiver CPU (%)",
    "Receiver memory (MiB)",
    "Other programs CPU (%)",
)


def _load_rows(run: TransferRun) -> Iterator[list[Any]]:
    for r in run.results:
        for n, sample in enumerate(r.runs, start=1):
            for p in sample.series:
                yield [
                    r.cipher_id,
                    n,
                    round(p.seconds, 4),
                    round(p.sender_cpu_percent, 1),
                    round(p.sender_rss_bytes / MIB, 2),
                    round(p.receiver_cpu_percent, 1),
                    round(p.receiver_rss_bytes / MIB, 2),
                    round(p.others_cpu_percent, 1),
                ]


def write_load_csv(run: TransferRun, path: Path) -> None:
    write_rows(path, [list(LOAD), *_load_rows(run)])
