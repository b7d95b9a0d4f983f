"""A :class:`Document` on a terminal: each table under its caption, columns two spaces apart
(names left, figures right), split into stacked tables that repeat the leading name columns
when a table is wider than the terminal, so no line wraps; notes, sections and the method
wrapped to the width. ``width`` None leaves every line whole (a pipe, a file)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from app.core.document.model import Document, Table
from app.core.text import visible_text


def text_table(rows: Sequence[Sequence[str]], right: Sequence[bool] = ()) -> str:
    """Columns two spaces apart; the first row is the header; ``right[i]`` right-aligns
    column ``i`` (default: every column left-aligned). A cell's control characters are shown
    (:func:`visible_text`), never sent to the terminal."""
    rows = [[visible_text(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    aligned = list(right) + [False] * (len(widths) - len(right))
    return "\n".join(
        "  ".join(
            c.rjust(w) if aligned[i] else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    )


def fitted_table(
    rows: Sequence[Sequence[str]],
    width: int | None,
    keep: int = 2,
    right: Sequence[bool] = (),
    together: int = 1,
) -> str:
    """:func:`text_table`, split into stacked tables (each repeating the first ``keep``
    columns) when it is wider than ``width``: a terminal's columns, so no line wraps. The
    columns after ``keep`` come in runs of ``together`` that are never split (one figure of
    several merged runs)."""
    whole = text_table(rows, right)
    if width is None or max(len(line) for line in whole.splitlines()) <= width:
        return whole
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    base = sum(widths[:keep]) + 2 * keep
    if not runs_fit(rows, width, keep, together):
        together = 1  # a run of columns wider than the terminal alone: split it after all
    groups: list[list[int]] = [[]]
    used = base
    for start in range(keep, len(widths), together):
        run = list(range(start, min(start + together, len(widths))))
        wide = sum(widths[i] + 2 for i in run) - 2
        if groups[-1] and used + wide > width:
            groups.append([])
            used = base
        groups[-1] += run
        used += wide + 2
    aligned = list(right) + [False] * (len(widths) - len(right))
    parts = [
        text_table(
            [[r[i] for i in (*range(keep), *group)] for r in rows],
            [aligned[i] for i in (*range(keep), *group)],
        )
        for group in groups
    ]
    return "\n\n".join(parts)


def runs_fit(rows: Sequence[Sequence[str]], width: int, keep: int, together: int) -> bool:
    """Whether each run of ``together`` columns after the first ``keep`` fits ``width``
    beside those (:func:`fitted_table` then never splits one)."""
    widths = [max(len(visible_text(r[i])) for r in rows) for i in range(len(rows[0]))]
    base = sum(widths[:keep]) + 2 * keep
    return all(
        base + sum(widths[i] + 2 for i in range(s, min(s + together, len(widths)))) - 2 <= width
        for s in range(keep, len(widths), together)
    )


# A figure and its unit stay on one line ("±4.6 %", "12.3 MB/s", "5 ms"): the space between
# them is held as a character textwrap does not break at while the text is wrapped.
_UNIT_SPACE = re.compile(r"(?<=\d) (?=(?:%|[kKMGT]i?B(?:/s)?|[mµn]?s|B|x)(?:[\s,;:.)]|$))")
_HELD = "\ue000"  # a private-use character: no text of ours holds one


def wrapped(
    text: str, width: int | None, indent: str = "", *, split_words: bool = True
) -> list[str]:
    """``text`` as lines shorter than ``width`` (one line when there is no limit), the later
    ones indented by ``indent``; dashed names (``aes-128-cbc``) are not split, nor a figure
    from its unit; a word longer than a line is split unless ``split_words`` is False (a
    path in an error, to copy whole)."""
    if width is None:
        return [text]
    held = text if _HELD in text else _UNIT_SPACE.sub(_HELD, text)
    lines = textwrap.wrap(
        held,
        width - 1,
        subsequent_indent=indent,
        break_on_hyphens=False,
        break_long_words=split_words,
    )
    return [line.replace(_HELD, " ") for line in lines] or [text]


def _header_rows(table: Table, every: bool = False) -> list[list[str]]:
    """The header; for the runs of a merge (``group_labels``), each figure's header over its
    runs' columns (once, as benchstat prints it; over ``every`` column when they may be
    split) and the runs' labels under it."""
    labels, names = table.group_labels, table.text_columns
    if table.group < 2:
        return [list(table.headers)]
    top, under = list(table.headers[:names]), [""] * names
    for i, header in enumerate(table.headers[names:]):
        label = labels[i % table.group]
        first = every or i % table.group == 0
        top.append(header.removeprefix(f"{label}: ") if first else "")
        under.append(label)
    return [top, under]


def table_lines(table: Table, width: int | None) -> list[str]:
    keep = max(1, min(table.text_columns, len(table.headers) - 1))
    rows = [*_header_rows(table), *table.text_rows()]
    if width is not None and not runs_fit(rows, width, keep, table.group):
        rows = [*_header_rows(table, every=True), *table.text_rows()]
    right = [table.numeric(i) for i in range(len(table.headers))]
    lines = wrapped(table.caption, width, "  ") if table.caption else []
    lines += fitted_table(rows, width, keep, right, table.group).splitlines()
    for note in table.notes:
        lines += wrapped(note, width, "  ")
    return lines


def render(document: Document, width: int | None = 80) -> str:
    lines = wrapped(document.title, width, "  ") if document.title else []
    for table in document.tables:
        lines += ["", *table_lines(table, width)] if lines else table_lines(table, width)
    for section in document.sections:
        lines += ["", *wrapped(section.heading + ":", width, "  ")]
        for line in section.lines:
            lines += wrapped("  " + line, width, "    ")
    if document.method:
        lines += ["", *wrapped("Method: " + document.method, width, "  ")]
    return visible_text("\n".join(lines), keep="\n")
