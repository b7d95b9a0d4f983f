"""Results as an Excel workbook (openpyxl), with native Excel charts.

Sheets, in order:

* ``Results``: one row per job, the unit in every header, number formats, frozen header row
  and first column, autofilter. Column A, ``Job``, is a label unique within the run; the charts
  use it as their categories.
* ``Charts``: two clustered column charts drawn from ``Results``: encryption and decryption
  throughput (MB/s, 10^6 bytes per second) per job, and encryption and decryption median time
  (s) per job. Absent data (every job failed) leaves a note instead.
* ``Failures`` (only when a job failed): cipher, library, reason.
* ``Samples``: every raw timing sample: job, direction (encrypt, decrypt, key setup), kind
  (timed or warm-up), repetition, seconds.
* ``Monitor`` (only when the run recorded it): the worker's CPU and RSS every 50 ms.
* ``Environment``: key/value: the run (times, options, tool) then the machine.

Use ``exporters.export`` for an atomic write.
"""

from __future__ import annotations

import io
import math
import os
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from os import PathLike
from typing import Any

from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference, Series
from openpyxl.chart.data_source import (
    AxDataSource,
    NumData,
    NumFmt,
    NumVal,
    StrData,
    StrRef,
    StrVal,
)
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet import _writer as openpyxl_sheet_writer
from openpyxl.worksheet.worksheet import Worksheet

from app.core.bench.results import JobResult, RunResult
from app.core.document.svg_bars import wants_log
from app.core.export.flat_rows import environment_rows, flatten
from app.core.export.schema import (
    BYTES,
    FIELDS,
    INTEGER,
    PERCENT,
    SAMPLE_SECONDS,
    job_row,
)
from app.core.runtime import scratch
from app.core.runtime.safe_files import write_all
from app.core.text import visible_text

_HEADER_FONT = Font(bold=True)
_HEADER_FILL = PatternFill("solid", fgColor="DDEBF7")
_MAX_WIDTH = 60


@dataclass(frozen=True)
class Column:
    key: str  # a schema field key, or "job" for the label
    header: str  # shown in row 1, with the unit
    number_format: str | None = None


RESULT_COLUMNS: tuple[Column, ...] = (
    Column("job", "Job"),
    *(Column(f.key, f.header, f.number_format) for f in FIELDS),
)

# (title, y-axis title, [(series title, column key)]) for each chart on the Charts sheet.
CHARTS: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Throughput per job (higher is faster)",
        "Throughput (MB/s)",
        (("Encryption", "enc_throughput_mb_s"), ("Decryption", "dec_throughput_mb_s")),
    ),
    (
        "Median time per job (lower is faster)",
        "Median time (s)",
        (("Encryption", "enc_median_s"), ("Decryption", "dec_median_s")),
    ),
)
LABEL_COLUMN = 40  # column AN of the Charts sheet: the bars' labels, right of every chart
CHART_ROWS = 27  # rows between the tops of two charts (a chart is 12.5 cm high)


def write_xlsx(run: RunResult, path: str | PathLike[str]) -> None:
    """Write ``run`` to ``path`` as an .xlsx workbook (see the module docstring). Not atomic."""
    wb = Workbook()
    results = wb.active
    assert results is not None
    results.title = "Results"
    labels = [_text(label) for label in job_labels(run.results)]
    _write_results(results, run, labels)
    _write_charts(wb.create_sheet("Charts"), run, results, labels)
    if run.failures:
        write_table(
            wb.create_sheet("Failures"),
            ("Cipher", "Library", "Reason"),
            ((f.cipher, f.library, f.message) for f in run.failures),
        )
    write_table(
        wb.create_sheet("Samples"),
        ("Job", "Cipher", "Library", "Input", "Direction", "Kind", "Repetition", "Seconds (s)"),
        _sample_rows(run.results, labels),
        (None, None, None, None, None, None, INTEGER, SAMPLE_SECONDS),
    )
    if any(j.monitor for j in run.results):
        write_table(
            wb.create_sheet("Monitor"),
            ("Job", "Time since start (s)", "CPU (% of one core)", "RSS (bytes)"),
            (
                (label, m.t_s, m.cpu_percent, m.rss_bytes)
                for job, label in zip(run.results, labels, strict=True)
                for m in job.monitor
            ),
            (None, "0.000", PERCENT, BYTES),
        )
    write_table(
        wb.create_sheet("Environment"),
        ("Key", "Value"),
        _environment_rows(run),
    )
    tool = run.tool.version
    wb.properties.creator = f"CipherBench {tool}" if tool else "CipherBench"
    save_workbook(wb, path)


def _scratch_temporary_file(suffix: str = "") -> str:
    """openpyxl's ``create_temporary_file``, in our scratch folder. While it saves, openpyxl
    writes each worksheet to a file of its own in the system's temp folder and deletes it at
    exit, which a SIGKILL skips: 6 of 80 kills left an ``openpyxl.*`` file there for good. In
    the scratch folder the janitor deletes them (app.core.runtime.scratch)."""
    fd, name = tempfile.mkstemp(suffix=suffix, prefix="openpyxl.", dir=scratch.root())
    os.close(fd)
    openpyxl_sheet_writer.ALL_TEMP_FILES.append(name)
    return name


# WorksheetWriter looks the function up when it writes a sheet (checked by a test).
openpyxl_sheet_writer.create_temporary_file = _scratch_temporary_file


def save_workbook(wb: Workbook, path: str | PathLike[str]) -> None:
    """Zip the workbook in memory, then write it with one plain write. openpyxl's own save
    leaves its ZipFile open when a write fails (a full disk), and that ZipFile's ``__del__``
    writes again later and prints "Exception ignored in ...". A workbook is a few MB at most."""
    buffer = io.BytesIO()
    wb.save(buffer)
    with buffer.getbuffer() as data, open(path, "wb", buffering=0) as f:
        write_all(f, data)


def job_labels(jobs: Sequence[JobResult]) -> list[str]:
    """A short label per job, unique within ``jobs``: ``cipher [library]``, plus the input, the
    data mode or the key size when those differ between jobs, plus ``#n`` if still ambiguous."""
    labels = [j.label for j in jobs]
    for extra in (
        lambda j: j.input_label,
        lambda j: j.data_mode,
        lambda j: f"{j.key_bits} bits",
    ):
        if len(set(labels)) == len(labels):
            break
        dupes = {lab for lab, n in Counter(labels).items() if n > 1}
        labels = [
            f"{lab}, {extra(j)}" if lab in dupes and len({extra(k) for k in jobs}) > 1 else lab
            for lab, j in zip(labels, jobs, strict=True)
        ]
    seen: Counter[str] = Counter()
    counts = Counter(labels)
    out = []
    for lab in labels:
        seen[lab] += 1
        out.append(f"{lab} #{seen[lab]}" if counts[lab] > 1 else lab)
    return out


def column_index(key: str) -> int:
    """The 1-based ``Results`` column holding ``key`` (e.g. ``"enc_median_s"`` -> 12)."""
    for i, col in enumerate(RESULT_COLUMNS, start=1):
        if col.key == key:
            return i
    raise KeyError(key)


# ---- sheets -------------------------------------------------------------------------------


def _write_results(ws: Worksheet, run: RunResult, labels: Sequence[str]) -> None:
    write_table(
        ws,
        [c.header for c in RESULT_COLUMNS],
        (
            [label if c.key == "job" else row[c.key] for c in RESULT_COLUMNS]
            for label, row in zip(labels, (job_row(j) for j in run.results), strict=True)
        ),
        [c.number_format for c in RESULT_COLUMNS],
        freeze="B2",
    )
    notes = []
    if run.failures:
        notes.append(f"{len(run.failures)} job(s) failed: see the Failures sheet.")
    if run.cancelled:
        notes.append("The run was cancelled: jobs after the last row did not run.")
    if not run.results:
        notes.append("No job finished.")
    for i, note in enumerate(notes):
        put(ws, len(run.results) + 3 + i, 1, note).font = Font(italic=True)


def _write_charts(ws: Worksheet, run: RunResult, results: Worksheet, labels: Sequence[str]) -> None:
    n_jobs = len(labels)
    if n_jobs == 0:
        put(ws, 1, 1, "No results to chart.")
        return
    rows = [job_row(j) for j in run.results]
    libraries = {j.library for j in run.results}
    if len(libraries) == 1:  # one library: its name on every bar only crowds the labels
        labels = [label.replace(f" [{next(iter(libraries))}]", "") for label in labels]
    # The bars' labels, kept beside the charts (a spreadsheet draws them from cells).
    put(ws, 1, LABEL_COLUMN, "Job (chart label)")
    for n, label in enumerate(labels):
        put(ws, 2 + n, LABEL_COLUMN, label)
    categories = AxDataSource(
        strRef=StrRef(
            f=str(Reference(ws, min_col=LABEL_COLUMN, min_row=2, max_row=n_jobs + 1)),
            strCache=StrData(
                ptCount=n_jobs, pt=[StrVal(idx=i, v=lab) for i, lab in enumerate(labels)]
            ),
        )
    )
    width_cm = min(max(16.0, 1.6 * n_jobs + 6), 60.0)
    for i, (title, y_title, series) in enumerate(CHARTS):
        chart = BarChart()
        chart.type = "col"
        chart.grouping = "clustered"
        chart.title = title
        chart.style = 10
        chart.width, chart.height = width_cm, 12.5  # room for turned labels below the bars
        for name, key in series:
            values = Reference(results, min_col=column_index(key), min_row=2, max_row=n_jobs + 1)
            s = Series(values, title=name)
            # Cached values: viewers that do not recalculate (previews) still draw the bars.
            assert s.val is not None and s.val.numRef is not None
            s.val.numRef.numCache = NumData(
                ptCount=n_jobs,
                pt=[
                    NumVal(idx=r, v=row[key])
                    for r, row in enumerate(rows)
                    if isinstance(row[key], float) and math.isfinite(row[key])
                ],
            )
            s.cat = categories
            chart.series.append(s)
        chart.x_axis.title = "Job"
        chart.x_axis.axPos = "b"
        # The window's rule: a log axis when one value is ten times another, so the small
        # bars (a .txt beside a .zip) are not buried under the large ones.
        charted = [row[key] for row in rows for _, key in series]
        log_y = wants_log([v for v in charted if isinstance(v, float) and math.isfinite(v)])
        chart.y_axis.title = y_title + (" (log scale)" if log_y else "")
        if log_y:
            chart.y_axis.scaling.logBase = 10
        # "General" instead of the cells' fixed decimals: 0.03 rather than 0.030000 on the axis.
        chart.y_axis.numFmt = NumFmt(formatCode="General", sourceLinked=False)
        # openpyxl >= 3.1 writes <c:delete val="1"/> unless told otherwise: axes would vanish.
        chart.x_axis.delete = False
        chart.y_axis.delete = False
        chart.legend.position = "b"
        ws.add_chart(chart, f"A{1 + i * CHART_ROWS}")


def _sample_rows(jobs: Sequence[JobResult], labels: Sequence[str]) -> Iterator[list[Any]]:
    for job, label in zip(jobs, labels, strict=True):
        head = [label, job.cipher, job.library, job.input_label]
        groups: list[tuple[str, str, tuple[float, ...]]] = [
            ("encrypt", "warm-up", job.encrypt.warmup_s),
            ("encrypt", "timed", job.encrypt.samples_s),
            ("decrypt", "warm-up", job.decrypt.warmup_s),
            ("decrypt", "timed", job.decrypt.samples_s),
            ("key setup", "timed", job.key_setup_s),
        ]
        for direction, kind, samples in groups:
            for rep, seconds in enumerate(samples, start=1):
                yield [*head, direction, kind, rep, seconds]


def _environment_rows(run: RunResult) -> Iterator[tuple[str, Any]]:
    facts = {
        "started_at": run.started_at,
        "finished_at": run.finished_at,
        "cancelled": run.cancelled,
        "jobs_finished": len(run.results),
        "jobs_failed": len(run.failures),
    }
    yield from environment_rows(facts, run.options.to_dict(), run.environment.to_dict())
    yield from flatten("tool", run.tool.to_dict())


# ---- cells --------------------------------------------------------------------------------


def write_table(
    ws: Worksheet,
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    formats: Sequence[str | None] = (),
    freeze: str = "A2",
) -> None:
    """Header row (bold, filled), data rows with number formats, frozen header, autofilter and
    column widths fitted to the content."""
    widths = [len(h) for h in headers]
    for c, header in enumerate(headers, start=1):
        cell = put(ws, 1, c, header)
        cell.font = _HEADER_FONT
        cell.fill = _HEADER_FILL
        cell.alignment = Alignment(vertical="center")
    n = 0
    for n, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            fmt = formats[c - 1] if c - 1 < len(formats) else None
            cell = put(ws, n + 1, c, value)
            if fmt and isinstance(value, int | float) and not isinstance(value, bool):
                cell.number_format = fmt
            widths[c - 1] = max(widths[c - 1], _display_len(value, fmt))
    for c, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(c)].width = min(width + 2, _MAX_WIDTH)
    ws.freeze_panes = freeze
    ws.auto_filter.ref = f"A1:{get_column_letter(len(headers))}{n + 1}"


def append(ws: Worksheet, values: Iterable[Any]) -> None:
    """Add ``values`` as the sheet's next row, each through :func:`put`: what every workbook
    writer uses instead of openpyxl's ``append`` (which stores ``=...`` as a formula)."""
    row = ws.max_row + 1 if ws.max_row > 1 or ws.cell(1, 1).value is not None else 1
    for col, value in enumerate(values, start=1):
        put(ws, row, col, value)


def put(ws: Worksheet, row: int, col: int, value: Any) -> Any:
    """Set a cell. Strings are stored as text, never as formulas (a file named ``=cmd.txt``
    stays a name), see :func:`_text`; NaN becomes empty."""
    if isinstance(value, str):
        cell = ws.cell(row=row, column=col, value=_text(value))
        cell.data_type = "s"
        return cell
    if isinstance(value, float) and not math.isfinite(value):
        value = None  # Excel has no NaN or infinity; an empty cell means "not measured"
    return ws.cell(row=row, column=col, value=value)


def _text(value: str) -> str:
    """``value`` as a workbook can hold it: its control characters (which Excel refuses) and
    a file name byte that is not UTF-8 (which the XML writer refuses) written as ``\\x1b``
    and ``\\xff``; the line breaks of a note kept."""
    return visible_text(value, keep="\n")


def _display_len(value: Any, fmt: str | None) -> int:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return 0
    if isinstance(value, bool):
        return 5
    if isinstance(value, int | float):
        decimals = len(fmt.split(".")[1]) if fmt and "." in fmt else 0
        digits = len(f"{abs(int(value)):,}")
        return digits + decimals + 2
    return len(str(value))
