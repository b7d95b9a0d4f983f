"""Every file format a result can be saved in: one registry keyed by result type and suffix.

After hyperfine's ``src/export/mod.rs``: each kind of result (a benchmark run, a study, a
transfer, a study of transfers) lists its formats once, with the words a file dialog shows and
the writer; the command line's ``--out`` (checked before a run, written after), the windows'
Export dialogs and filters, and ``history export`` all read this table, so

    adding a format is one writer module and one :class:`Format` line below.

A writer takes ``(result, path)`` and writes ``path`` plainly; :func:`save` makes it atomic
(:func:`app.core.export.writers.write_atomically`: an unnamed file linked in whole) and checks
the target first (never an input, a folder or a device). Every failure is a ``UserError``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.export.writers import check_target, check_targets, write_atomically
from app.core.kinds import table
from app.core.kinds.table import FIGURE, RENDER, Format, ResultKind

if TYPE_CHECKING:
    from app.core.document.model import Document

_EXPORT = "app.core.export."  # the writers' modules, imported when used
_STUDY = "app.core.study."
_TRANSFER_REPORT = "app.core.study.transfer_report:"
_TRANSFER = "app.core.transfer.export:"
_DOCUMENT = "app.core.document."  # the renderers of any kind's document
_MARKDOWN = Format(
    ".md", "Markdown table for a paper, with Methods", _DOCUMENT + "markdown:render", RENDER
)
_LATEX = Format(
    ".tex", "LaTeX (booktabs) table for a paper, with Methods", _DOCUMENT + "latex:render", RENDER
)
_HTML = Format(".html", "HTML page of the tables", _DOCUMENT + "html:render", RENDER)
_CSV = Format(".csv", "CSV, every table at full precision", _DOCUMENT + "csvfile:render", RENDER)
# The renderers of any kind's document: every kind gets each one whose suffix it has no writer
# of its own for. A new format is a renderer module in app/core/document and one line here.
RENDERERS = (
    _HTML,
    _CSV,
    _MARKDOWN,
    _LATEX,
    Format(".adoc", "AsciiDoc tables, with Methods", _DOCUMENT + "asciidoc:render", RENDER),
    Format(".xlsx", "Excel workbook, a sheet per table", _DOCUMENT + "xlsxfile:render", RENDER),
)


_STORED_JSON = Format(
    ".json", "JSON, everything with raw samples", "app.core.kinds.formats:write_stored_json"
)


def with_renderers(name: str, what: str, own: tuple[Format, ...]) -> ResultKind:
    """A kind's formats: its ``own`` writers first (the first is the default), then every
    renderer of :data:`RENDERERS` whose suffix it has no writer for."""
    mine = {f.suffix for f in own}
    return ResultKind(name, what, (*own, *(r for r in RENDERERS if r.suffix not in mine)))


def document_formats(
    name: str, what: str, own: tuple[Format, ...] = (), figure: str = "", stored: bool = True
) -> ResultKind:
    """The formats of a kind declared as data: every renderer of its document, its JSON as
    the history stores it (raw samples; ``history import`` and ``merge`` read it) or, for a
    kind the history does not store, its document as JSON, its ``own`` files (a profile's
    flame graph) and its print ``figure`` as .svg and .pdf."""
    figures = figure_formats(figure) if figure else ()
    json = _STORED_JSON if stored else _DOCUMENT_JSON
    return with_renderers(name, what, (_HTML, json, *own, *figures))


_DOCUMENT_JSON = Format(
    ".json",
    "JSON, the tables as shown (not importable)",
    "app.core.kinds.formats:write_stored_json",
)


def write_stored_json(result: object, path: Path) -> None:
    """``result``'s JSON export with its digest; a kind the history does not store: its
    document as JSON."""
    from app.core.document.jsonfile import as_dict
    from app.core.export.digest import with_digest
    from app.core.export.json_export import json_safe

    kind = table.kind_of(result)
    data = kind.json_of(result) if kind.stored else as_dict(kind.document_of(result))
    text = json.dumps(with_digest(json_safe(data)), indent=2, ensure_ascii=False, allow_nan=False)
    Path(path).write_text(text + "\n", encoding="utf-8")


_KIND_FIGURES = "app.core.publish.kind_figures:"  # matplotlib, imported when used
_FIGURES = "app.core.publish.study_figures:"


def figure_formats(figure: str) -> tuple[Format, ...]:
    """The print figure that ``figure`` ("module:function", result -> FigureData) makes, as
    SVG and PDF."""
    return tuple(
        Format(suffix, f"{suffix[1:].upper()} vector figure for a paper", figure, FIGURE)
        for suffix in (".svg", ".pdf")
    )


def _paper_formats(figure: str) -> tuple[Format, ...]:
    """A kind's publication kit: its document in Markdown and LaTeX, its ``figure`` in SVG
    and PDF."""
    return (_MARKDOWN, _LATEX, *figure_formats(figure))


BENCH = with_renderers(
    "bench",
    "results",
    (
        Format(".xlsx", "Excel workbook with charts", _EXPORT + "xlsx_export:write_xlsx"),
        Format(".csv", "CSV, one row per job", _EXPORT + "csv_export:write_csv"),
        Format(".json", "JSON, everything with raw samples", _EXPORT + "json_export:write_json"),
        *_paper_formats(_KIND_FIGURES + "bench_figure"),
    ),
)


def _study_formats(module: str, html: str, xlsx: str, csv: str, json: str) -> tuple[Format, ...]:
    """A study's four formats (a cipher study's and a transfer study's share their suffixes,
    since a study's definition may run either), written by ``module``'s functions."""
    return (
        Format(".html", "HTML report with charts", module + html),
        Format(".xlsx", "Excel workbook with charts", module + xlsx),
        Format(".csv", "CSV, the paper-style table", module + csv),
        Format(".json", "JSON, everything with raw samples", module + json),
    )


STUDY = with_renderers(
    "study",
    "a study",
    (
        *_study_formats(
            _STUDY,
            "report_html:write_study_html",
            "report_xlsx:write_study_xlsx",
            "export:write_study_csv",
            "export:write_study_json",
        ),
        *_paper_formats(_FIGURES + "study_figure"),
    ),
)
TRANSFER_STUDY = with_renderers(
    "study",
    "a study",
    (
        *_study_formats(_TRANSFER_REPORT, "write_html", "write_xlsx", "write_csv", "write_json"),
        *_paper_formats(_FIGURES + "transfer_study_figure"),
    ),
)
TRANSFER = with_renderers(
    "transfer",
    "the transfer",
    (
        Format(".xlsx", "Excel workbook with a chart", _TRANSFER + "write_xlsx"),
        Format(".csv", "CSV, one row per cipher", _TRANSFER + "write_csv"),
        Format(
            ".load.csv",
            "CSV, both ends' CPU and memory every 50 ms",
            _TRANSFER + "write_load_csv",
        ),
        Format(".json", "JSON, everything with raw samples", _TRANSFER + "write_json"),
        *_paper_formats(_KIND_FIGURES + "transfer_figure"),
    ),
)

_SWEEP = "app.core.sweep.export:"
SWEEP = with_renderers(
    "sweep",
    "the sweep",
    (
        Format(".html", "HTML report with a log-log chart", _SWEEP + "write_html"),
        Format(".xlsx", "Excel workbook with a log-log chart", _SWEEP + "write_xlsx"),
        Format(".csv", "CSV, one row per point", _SWEEP + "write_csv"),
        Format(".json", "JSON, everything with raw samples", _SWEEP + "write_json"),
        *_paper_formats(_KIND_FIGURES + "sweep_figure"),
    ),
)

_MERGED = "app.core.publish.merge_writers:"
MERGED = with_renderers(
    "merged",
    "merged results",
    (
        _HTML,
        Format(".xlsx", "Excel workbook, one column group per run", _MERGED + "write_xlsx"),
        _MARKDOWN,
        _LATEX,
        Format(".csv", "CSV, one row per entry, input and run", _MERGED + "write_csv"),
        Format(".json", "JSON, the merged table", _MERGED + "write_json"),
    ),
)

BY_NAME: dict[str, ResultKind] = {kind.name: kind for kind in (BENCH, STUDY, TRANSFER, SWEEP)}
IMPORTABLE_JSON = "CipherBench JSON, importable elsewhere"  # a history export (with its id)


def kind_of(result: object) -> ResultKind:
    """The formats ``result`` can be saved in; ``TypeError`` for anything CipherBench does not
    save."""
    return table.kind_of(result).files


def document_of(result: object) -> Document:
    """``result`` as the one document every renderer prints."""
    return table.kind_of(result).document_of(result)


def check_output(
    kind: ResultKind, path: str | PathLike[str], inputs: Sequence[str | PathLike[str]] = ()
) -> Format:
    """The format for ``path``, or ``UserError`` for a suffix ``kind`` has no format for, a
    folder, a device, one of ``inputs`` (the files measured), a missing or read-only folder."""
    return check_target(path, kind.writers, inputs, what=kind.what)


def check_outputs(
    kind: ResultKind,
    paths: Sequence[str | PathLike[str]],
    inputs: Sequence[str | PathLike[str]] = (),
) -> None:
    """:func:`check_output` for each of ``paths``, and none given twice: before a run starts,
    rather than finding an output unusable after it (and the results lost)."""
    check_targets(paths, kind.writers, inputs, what=kind.what)


def save(
    result: object, path: str | PathLike[str], *, inputs: Sequence[str | PathLike[str]] = ()
) -> Path:
    """Write ``result`` to ``path`` in the format its suffix names (any case), atomically, never
    over one of ``inputs``; returns the path written. ``UserError`` when it cannot."""
    target = Path(path)
    fmt = check_output(kind_of(result), target, inputs)
    write_atomically(target, lambda staged: fmt.write(result, staged))
    return target
