"""A publication table as Markdown (GitHub's pipe tables) or as a LaTeX document with a
booktabs table, each with its caption, notes and the Methods paragraph. The LaTeX file compiles
on its own with ``pdflatex``; the table between the ``% --- table`` lines pastes into a paper
(it needs ``\\usepackage{booktabs}``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.publish.methods import study_methods
from app.core.publish.table import PublicationTable, study_table
from app.core.text import display_text

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


def latex_text(value: str) -> str:
    """``value`` safe in LaTeX text: specials escaped, other non-ASCII characters dropped to
    ``?`` (pdflatex's default encoding cannot set them)."""
    out = []
    for ch in display_text(value):
        if ch in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[ch])
        elif ord(ch) < 128:
            out.append(ch)
        else:
            out.append("?")
    return "".join(out)


def _md_cell(value: str) -> str:
    return display_text(value).replace("|", r"\|").replace("\n", " ")


def markdown(table: PublicationTable, methods: str) -> str:
    rows = table.text_rows()
    numeric = [i for i in range(len(table.headers)) if i >= 3]
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


def latex(table: PublicationTable, methods: str) -> str:
    spec = "lll" + "r" * (len(table.headers) - 3)
    body = [" & ".join(latex_text(c) for c in row) + r" \\" for row in table.text_rows()]
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
        " & ".join(latex_text(h) for h in table.headers) + r" \\",
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


def write_study_markdown(result: Any, path: Path) -> None:
    Path(path).write_text(markdown(study_table(result), study_methods(result)), encoding="utf-8")


def write_study_latex(result: Any, path: Path) -> None:
    Path(path).write_text(latex(study_table(result), study_methods(result)), encoding="utf-8")
