"""A :class:`Document` as a LaTeX document that compiles on its own with ``pdflatex``: each
table a booktabs table between ``% --- table`` lines (paste it into a paper; it needs
``\\usepackage{booktabs}``), the sections as paragraphs, then the Methods paragraph.

Every table fits the page (A4 landscape, 2 cm margins): a table whose names would run wider
than the line wraps its text columns, the widest first, in paragraph columns (``p{..em}``);
a table of more rows than a page holds is a ``longtable`` (``\\usepackage{longtable}``),
its header repeated on each page."""

from __future__ import annotations

import math
import re
import textwrap

from app.core.document.model import Document, Table
from app.core.text import visible_text

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",  # an em dash in the default font otherwise
    "`": r"\textasciigrave{}",  # an opening quote otherwise
    "±": r"$\pm$",
    "µ": r"$\mu$",
    "²": r"$^2$",
}
_POWER = re.compile(r"\b(\d+)\^(\d+)\b")  # 10^6, 2^20: set as powers


def text(value: str) -> str:
    """``value`` safe in LaTeX text: specials escaped, ``10^6`` set as a power, ``--`` kept two
    hyphens (not an en dash: an option's name), a control character shown as ``\\x1b``
    (pdflatex stops at one), other non-ASCII characters dropped to ``?``
    (pdflatex's default encoding cannot set them)."""
    parts = _POWER.split(visible_text(value, keep="\n"))  # text, base, exponent, text, ...
    out = []
    for i, part in enumerate(parts):
        if i % 3 == 1:
            out.append(f"${part}^{{{parts[i + 1]}}}$")
        elif i % 3 == 0:
            out += [_char(ch) for ch in part]
    return re.sub(r"-(?=-)", "-{}", "".join(out))


def _char(ch: str) -> str:
    if ch in _SPECIAL:
        return _SPECIAL[ch]
    return ch if ord(ch) < 128 else "?"


HEADER_LINE = 18  # a header's name is set in lines of at most this many characters


def _header_lines(header: str) -> list[str]:
    """``header`` as it is stacked: its name in lines of :data:`HEADER_LINE` characters, its
    unit on a line of its own (``Encryption`` over ``(MB/s)``)."""
    name, sep, unit = header.rpartition(" (")
    if not sep or not name:
        return [header]
    return [*textwrap.wrap(name, HEADER_LINE, break_long_words=False), "(" + unit]


def _header(header: str, align: str) -> str:
    """``header`` stacked (:func:`_header_lines`), so that a table of many figures still
    fits a page."""
    lines = _header_lines(header)
    if len(lines) == 1:
        return text(header)
    stacked = r"\\".join(text(line) for line in lines)
    return r"\begin{tabular}[b]{@{}" + align + r"@{}}" + stacked + r"\end{tabular}"


def _figure(cell: str) -> str:
    """A figure's cell; its leading ``~`` (an estimate) set as a tilde of mathematics."""
    return r"$\sim$" + text(cell[1:]) if cell.startswith("~") else text(cell)


LINE_EM = 66  # the line of A4 landscape with 2 cm margins, in em of the 10 pt font (~729 pt)
PAGE_LINES = 26  # lines of a table a page holds; a longer table breaks across pages (longtable)
_CELL_EM = 0.5  # an average character of the 10 pt font, in em
_GAP_EM = 1.2  # between two columns (2 x \tabcolsep)
_NARROWEST_EM = 6.0  # a text column is never wrapped narrower


def natural_widths(table: Table) -> list[float]:
    """Each column's width in em on one line: its widest cell or stacked header."""
    rows = table.text_rows()
    return [
        max([_header_chars(h), *(len(row[i]) for row in rows)]) * _CELL_EM
        for i, h in enumerate(table.headers)
    ]


def column_widths(table: Table) -> list[float | None]:
    """Each column's paragraph width in em, or None where it keeps its natural width: when
    the table's natural width passes :data:`LINE_EM`, its widest text columns are cut to one
    width (never below :data:`_NARROWEST_EM` nor a column's longest word) until it fits."""
    rows = table.text_rows()
    natural = natural_widths(table)
    spare = LINE_EM - sum(natural) - _GAP_EM * len(natural)
    texts = sorted((w, i) for i, w in enumerate(natural) if not table.numeric(i))
    if spare >= 0 or not texts:
        return [None] * len(natural)
    # Water-filling: the text columns share what the figures leave, the narrow ones whole.
    room = sum(w for w, _ in texts) + spare
    cap = room / len(texts)
    for k, (width, _) in enumerate(texts):
        if width > cap:
            break
        room -= width
        cap = room / max(1, len(texts) - k - 1)
    out: list[float | None] = [None] * len(natural)
    for width, i in texts:
        words = [len(w) for row in rows for w in row[i].split()] or [0]
        narrowest = max(_NARROWEST_EM, max(words) * _CELL_EM)
        if width > max(cap, narrowest):
            out[i] = round(max(cap, narrowest), 1)
    return out


def _set_width(table: Table, widths: list[float | None]) -> float:
    """The table's width in em once its text columns are ``widths``."""
    natural = natural_widths(table)
    set_to = [n if w is None else w for n, w in zip(natural, widths, strict=True)]
    return sum(set_to) + _GAP_EM * len(set_to)


# A table still wider than the line once its names wrap (its figures cannot): a smaller font
# and half the space between columns.
TIGHT = r"\small\setlength{\tabcolsep}{3pt}"


def _header_chars(header: str) -> int:
    """The width of a header as :func:`_header` sets it."""
    return max(len(line) for line in _header_lines(header))


def _row_lines(row: list[str], widths: list[float | None]) -> int:
    """How many lines ``row`` takes when its wrapped columns are ``widths`` em wide."""
    return max(
        [1, *(math.ceil(len(c) * _CELL_EM / w) for c, w in zip(row, widths, strict=True) if w)]
    )


def table_lines(table: Table) -> list[str]:
    aligns = ["r" if table.numeric(i) else "l" for i in range(len(table.headers))]
    widths = column_widths(table)
    columns = [
        a if w is None else r">{\raggedright\arraybackslash}p{" + f"{w:g}em" + "}"
        for a, w in zip(aligns, widths, strict=True)
    ]
    header = " & ".join(_header(h, a) for h, a in zip(table.headers, aligns, strict=True))
    body = [
        " & ".join(_figure(c) if table.numeric(i) else text(c) for i, c in enumerate(row)) + r" \\"
        for row in table.text_rows()
    ]
    notes = [r"\par\smallskip\footnotesize " + text(n) for n in table.notes]
    caption = r"\caption{" + text(table.caption) + "}"
    tight = [TIGHT] if _set_width(table, widths) > LINE_EM else []
    tall = sum(_row_lines(row, widths) for row in table.text_rows()) + len(table.notes) * 2
    if tall > PAGE_LINES:  # breaks across pages, its header on each
        return [
            "% --- table: paste from here (needs \\usepackage{booktabs,longtable,array})",
            r"\begingroup",
            *tight,
            r"\begin{longtable}{" + "".join(columns) + "}",
            caption + r" \\",
            r"\toprule",
            header + r" \\",
            r"\midrule",
            r"\endhead",
            *body,
            r"\bottomrule",
            r"\end{longtable}",
            *(["{" + "\n".join(notes) + r"\par}"] if notes else []),
            r"\endgroup",
            "% --- table: to here",
        ]
    needs = "booktabs,array" if columns != aligns else "booktabs"
    return [
        f"% --- table: paste from here (needs \\usepackage{{{needs}}})",
        r"\begin{table}[ht]",
        r"\centering",
        *tight,
        caption,
        r"\begin{tabular}{" + "".join(columns) + "}",
        r"\toprule",
        header + r" \\",
        r"\midrule",
        *body,
        r"\bottomrule",
        r"\end{tabular}",
        *notes,
        r"\end{table}",
        "% --- table: to here",
    ]


def render(document: Document) -> str:
    lines = [
        r"\documentclass{article}",
        r"\usepackage[T1]{fontenc}",
        r"\usepackage{booktabs}",
        r"\usepackage{longtable}",
        r"\usepackage{array}",
        r"\usepackage[margin=2cm,landscape]{geometry}",
        r"\begin{document}",
    ]
    for table in document.tables:
        lines += table_lines(table)
    for section in document.sections:
        lines += [r"\paragraph{" + text(section.heading) + "}", r"\begin{itemize}"]
        lines += [r"\item " + text(line) for line in section.lines]
        lines.append(r"\end{itemize}")
    lines.append("")
    if document.method:
        lines.append(r"\paragraph{Methods.} " + text(document.method))
    lines += [r"\end{document}", ""]
    return "\n".join(lines)
