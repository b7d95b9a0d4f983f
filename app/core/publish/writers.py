"""A publication table as Markdown (GitHub's pipe tables) or as a LaTeX document with a
booktabs table, each with its caption, notes and the Methods paragraph; a writer pair per kind
of result (study, bench, transfer, transfer study, sweep or ladder) for ``formats``. The LaTeX
file compiles on its own with ``pdflatex``; the table between the ``% --- table`` lines pastes
into a paper (it needs ``\\usepackage{booktabs}``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.core.publish.bench_table import bench_methods, bench_table
from app.core.publish.methods import study_methods
from app.core.publish.sweep_table import sweep_methods, sweep_table
from app.core.publish.table import PublicationTable, study_table
from app.core.publish.transfer_table import (
    transfer_methods,
    transfer_study_methods,
    transfer_study_table,
    transfer_table,
)
from app.core.text import display_text

Writer = Callable[[Any, Path], None]

_LATEX_SPECIAL = {
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


def latex_text(value: str) -> str:
    """``value`` safe in LaTeX text: specials escaped, ``10^6`` set as a power, ``--`` kept two
    hyphens (not an en dash: an option's name), other non-ASCII characters dropped to ``?``
    (pdflatex's default encoding cannot set them)."""
    parts = _POWER.split(display_text(value))  # text, base, exponent, text, ...
    out = []
    for i, part in enumerate(parts):
        if i % 3 == 1:
            out.append(f"${part}^{{{parts[i + 1]}}}$")
        elif i % 3 == 0:
            out += [_latex_char(ch) for ch in part]
    return re.sub(r"-(?=-)", "-{}", "".join(out))


def _latex_char(ch: str) -> str:
    if ch in _LATEX_SPECIAL:
        return _LATEX_SPECIAL[ch]
    return ch if ord(ch) < 128 else "?"


def _md_cell(value: str) -> str:
    return display_text(value).replace("|", r"\|").replace("\n", " ")


def markdown(table: PublicationTable, methods: str) -> str:
    rows = table.text_rows()
    numeric = [i for i in range(len(table.headers)) if i >= table.text_columns]
    lines = [f"**{_md_cell(table.caption)}**", ""]
    lines.append("| " + " | ".join(_md_cell(h) for h in table.headers) + " |")
    lines.append(
        "|" + "|".join("---:" if i in numeric else "---" for i in range(len(table.headers))) + "|"
    )
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    lines.append("")
    lines += [f"{_md_cell(n)}" for n in table.notes]
    lines += ["", "**Methods.** " + _md_cell(methods), ""]
    return "\n".join(lines)


def _latex_header(header: str, align: str) -> str:
    """``header`` with its unit on a line of its own (``Encryption`` over ``(MB/s)``), so that
    a table of many figures still fits a page."""
    name, sep, unit = header.rpartition(" (")
    if not sep or not name:
        return latex_text(header)
    stacked = latex_text(name) + r"\\(" + latex_text(unit)
    return r"\begin{tabular}[b]{@{}" + align + r"@{}}" + stacked + r"\end{tabular}"


def _latex_figure(cell: str) -> str:
    """A figure's cell; its leading ``~`` (an estimate) set as a tilde of mathematics."""
    return r"$\sim$" + latex_text(cell[1:]) if cell.startswith("~") else latex_text(cell)


def latex(table: PublicationTable, methods: str) -> str:
    aligns = ["l" if i < table.text_columns else "r" for i in range(len(table.headers))]
    spec = "".join(aligns)
    body = [
        " & ".join(
            latex_text(c) if i < table.text_columns else _latex_figure(c) for i, c in enumerate(row)
        )
        + r" \\"
        for row in table.text_rows()
    ]
    lines = [
        r"\documentclass{article}",
        r"\usepackage[T1]{fontenc}",
        r"\usepackage{booktabs}",
        r"\usepackage[margin=2cm,landscape]{geometry}",
        r"\begin{document}",
        "% --- table: paste from here (needs \\usepackage{booktabs})",
        r"\begin{table}[ht]",
        r"\centering",
        r"\caption{" + latex_text(table.caption) + "}",
        r"\begin{tabular}{" + spec + "}",
        r"\toprule",
        " & ".join(_latex_header(h, a) for h, a in zip(table.headers, aligns, strict=True))
        + r" \\",
        r"\midrule",
        *body,
        r"\bottomrule",
        r"\end{tabular}",
        *(r"\par\smallskip\footnotesize " + latex_text(n) for n in table.notes),
        r"\end{table}",
        "% --- table: to here",
        "",
        r"\paragraph{Methods.} " + latex_text(methods),
        r"\end{document}",
        "",
    ]
    return "\n".join(lines)


def _writers(
    table: Callable[[Any], PublicationTable], methods: Callable[[Any], str]
) -> tuple[Writer, Writer]:
    """The Markdown and the LaTeX writer of one kind of result, ``(result, path)`` each."""

    def write_markdown(result: Any, path: Path) -> None:
        Path(path).write_text(markdown(table(result), methods(result)), encoding="utf-8")

    def write_latex(result: Any, path: Path) -> None:
        Path(path).write_text(latex(table(result), methods(result)), encoding="utf-8")

    return write_markdown, write_latex


write_study_markdown, write_study_latex = _writers(study_table, study_methods)
write_bench_markdown, write_bench_latex = _writers(bench_table, bench_methods)
write_transfer_markdown, write_transfer_latex = _writers(transfer_table, transfer_methods)
write_transfer_study_markdown, write_transfer_study_latex = _writers(
    transfer_study_table, transfer_study_methods
)
write_sweep_markdown, write_sweep_latex = _writers(sweep_table, sweep_methods)
