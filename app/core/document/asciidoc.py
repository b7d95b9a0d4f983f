"""A :class:`Document` as AsciiDoc (Asciidoctor's tables): each table as a titled block with
a header row, names left and figures right, its notes after it, the sections as lists, then
the Methods paragraph. A cell's ``|`` and ``{`` are escaped (a column break, an attribute
reference), its ``< > &`` left to the converter, which escapes them, and its control
characters shown (:func:`visible_text`)."""

from __future__ import annotations

from app.core.document.model import Document, Table
from app.core.text import visible_text

_MARKUP = str.maketrans({"|": r"\|", "{": r"\{", "\n": " "})


def text(value: str) -> str:
    """``value`` on one line, as AsciiDoc shows it and never reads it as a cell break or an
    attribute."""
    return visible_text(value, keep="\n").translate(_MARKUP)


def paragraph(value: str) -> str:
    """``value`` as a paragraph of its own, kept from reading as a block's markup (a line
    that starts ``=``, ``*``, ``.``, ``[`` or ``-``)."""
    line = text(value)
    return "{empty}" + line if line[:1] in "=*.[-/:" else line


def table_lines(table: Table) -> list[str]:
    columns = ",".join(">" if table.numeric(i) else "<" for i in range(len(table.headers)))
    lines = [f".{text(table.caption)}"] if table.caption else []
    lines += [f'[cols="{columns}",options="header"]', "|==="]
    lines.append(" ".join(f"|{text(h)}" for h in table.headers))
    lines += [" ".join(f"|{text(c)}" for c in row) for row in table.text_rows()]
    lines.append("|===")
    return lines


def render(document: Document) -> str:
    lines = [f"= {text(document.title)}", ""] if document.title else []
    for table in document.tables:
        lines += [*table_lines(table), ""]
        lines += [line for note in table.notes for line in (paragraph(note), "")]
    for section in document.sections:
        lines += [f"*{text(section.heading)}*", "", *(f"* {text(n)}" for n in section.lines), ""]
    if document.method:
        lines += ["*Methods.* " + text(document.method), ""]
    return "\n".join(lines)
