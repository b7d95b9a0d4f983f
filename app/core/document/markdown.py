"""A :class:`Document` as Markdown (GitHub's pipe tables): each table under its caption in
bold, its notes, the sections, then the Methods paragraph."""

from __future__ import annotations

from app.core.document.model import Document, Table
from app.core.text import visible_text

_MARKUP = str.maketrans({"|": r"\|", "<": "&lt;", ">": "&gt;", "&": "&amp;", "\n": " "})


def cell(value: str) -> str:
    """``value`` safe in a pipe table's cell, on one line: ``|`` escaped, ``< > &`` as
    entities (renderers that pass HTML run none of it), control characters shown
    (:func:`visible_text`)."""
    return visible_text(value, keep="\n").translate(_MARKUP)


def table_lines(table: Table) -> list[str]:
    headers = table.headers
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |"]
    lines.append(
        "|" + "|".join("---:" if table.numeric(i) else "---" for i in range(len(headers))) + "|"
    )
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in table.text_rows()]
    return lines


def render(document: Document) -> str:
    lines = [f"# {cell(document.title)}", ""] if document.title else []
    for table in document.tables:
        lines += [f"**{cell(table.caption)}**", "", *table_lines(table), ""]
        if table.notes:
            lines += [*(cell(n) for n in table.notes), ""]
    for section in document.sections:
        lines += [f"**{cell(section.heading)}**", "", *(cell(n) for n in section.lines), ""]
    if document.method:
        lines += ["**Methods.** " + cell(document.method), ""]
    return "\n".join(lines)
