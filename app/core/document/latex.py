"""A :class:`Document` as a LaTeX document that compiles on its own with ``pdflatex``: each
table a booktabs table between ``% --- table`` lines (paste it into a paper; it needs
``\\usepackage{booktabs}``), the sections as paragraphs, then the Methods paragraph."""

from __future__ import annotations

import re

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


def _header(header: str, align: str) -> str:
    """``header`` with its unit on a line of its own (``Encryption`` over ``(MB/s)``), so that
    a table of many figures still fits a page."""
    name, sep, unit = header.rpartition(" (")
    if not sep or not name:
        return text(header)
    stacked = text(name) + r"\\(" + text(unit)
    return r"\begin{tabular}[b]{@{}" + align + r"@{}}" + stacked + r"\end{tabular}"


def _figure(cell: str) -> str:
    """A figure's cell; its leading ``~`` (an estimate) set as a tilde of mathematics."""
    return r"$\sim$" + text(cell[1:]) if cell.startswith("~") else text(cell)


def table_lines(table: Table) -> list[str]:
    aligns = ["r" if table.numeric(i) else "l" for i in range(len(table.headers))]
    body = [
        " & ".join(_figure(c) if table.numeric(i) else text(c) for i, c in enumerate(row)) + r" \\"
        for row in table.text_rows()
    ]
    return [
        "% --- table: paste from here (needs \\usepackage{booktabs})",
        r"\begin{table}[ht]",
        r"\centering",
        r"\caption{" + text(table.caption) + "}",
        r"\begin{tabular}{" + "".join(aligns) + "}",
        r"\toprule",
        " & ".join(_header(h, a) for h, a in zip(table.headers, aligns, strict=True)) + r" \\",
        r"\midrule",
        *body,
        r"\bottomrule",
        r"\end{tabular}",
        *(r"\par\smallskip\footnotesize " + text(n) for n in table.notes),
        r"\end{table}",
        "% --- table: to here",
    ]


def render(document: Document) -> str:
    lines = [
        r"\documentclass{article}",
        r"\usepackage[T1]{fontenc}",
        r"\usepackage{booktabs}",
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
