"""Everything a paper needs from one result, in one folder: each "paper" format the result's
kind has in :mod:`app.core.kinds.formats` (tables as Markdown and LaTeX, figures as SVG and PDF:
whichever it offers, chosen by suffix, so a kind that gains one is covered) and
``methods.txt``, the Methods paragraph, when the kind has one.

Each file is written atomically (:func:`app.core.kinds.formats.save`), named after the result
(``aes-key-sizes.tex``); a file of the same name is replaced, never an input of the run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from importlib import import_module
from os import PathLike
from pathlib import Path
from typing import Any

from app.core.errors import UserError
from app.core.export.writers import check_target, write_atomically
from app.core.kinds import formats

PAPER_SUFFIXES = (".md", ".tex", ".svg", ".pdf")
METHODS_NAME = "methods.txt"
# The Methods paragraph of each type of result that has one: (module, class, "module:function"),
# imported when used, matched by the exact type (a transfer study is not a study here). A type
# without a line gets no methods.txt.
_P = "app.core.publish."
METHODS: tuple[tuple[str, str, str], ...] = (
    ("app.core.study.result", "StudyResult", _P + "methods:study_methods"),
    (
        "app.core.study.transfer_result",
        "TransferStudyResult",
        _P + "transfer_table:transfer_study_methods",
    ),
    ("app.core.bench.results", "RunResult", _P + "bench_table:bench_methods"),
    ("app.core.transfer.results", "TransferRun", _P + "transfer_table:transfer_methods"),
    ("app.core.sweep.results", "SweepResult", _P + "sweep_table:sweep_methods"),
)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def paper_formats(result: object) -> tuple[formats.Format, ...]:
    """The formats of ``result``'s kind that belong in a paper, in the registry's order."""
    return tuple(f for f in formats.kind_of(result).formats if f.suffix in PAPER_SUFFIXES)


def methods_function(result: object) -> Callable[[Any], str] | None:
    for module, name, function in METHODS:
        if type(result) is getattr(import_module(module), name):
            path, _, attribute = function.partition(":")
            found: Callable[[Any], str] = getattr(import_module(path), attribute)
            return found
    return None


def paper_stem(result: object) -> str:
    """The files' name before the suffix: the study's name, else ``cipherbench-<kind>``."""
    study = getattr(result, "study", None)
    name = getattr(study, "name", "") or f"cipherbench-{formats.kind_of(result).name}"
    return _UNSAFE.sub("-", name).strip(".-") or "cipherbench"


FIGURE_SUFFIXES = (".svg", ".pdf")


def _more_figures(result: object) -> dict[str, Any]:
    """The paper's other figures (time, memory) by file name, when the kind has figures."""
    from app.core.publish.study_figures import paper_figures

    if not any(f.suffix in FIGURE_SUFFIXES for f in paper_formats(result)):
        return {}
    stem = paper_stem(result)
    return {
        f"{stem}-{name}{suffix}": figure
        for name, figure in paper_figures(result).items()
        for suffix in FIGURE_SUFFIXES
    }


# Files of a part of a study that is a result of its own kind, written by that kind's writer:
# a study's profile (profile = true) gives the pyaes report's flame graph and its stacks.
ATTACHED: tuple[tuple[str, str, str], ...] = (
    ("profile", "-flame.svg", "app.core.profile.exports:write_svg"),
    ("profile", "-stacks.txt", "app.core.profile.exports:write_collapsed"),
)


def _attached(result: object) -> dict[str, tuple[object, str]]:
    """The files of the result's parts (:data:`ATTACHED`) by name: (part, writer)."""
    stem = paper_stem(result)
    out = {}
    for attribute, suffix, writer in ATTACHED:
        part = getattr(result, attribute, None)
        if part is not None and getattr(part, "results", None):
            out[stem + suffix] = (part, writer)
    return out


def has_paper_set(result: object) -> bool:
    """Whether :func:`write_paper_set` writes anything for ``result``: the names' test without
    drawing its figures or importing the figure code (the window asks on every update)."""
    return bool(paper_formats(result)) or methods_function(result) is not None


def paper_set_names(result: object) -> list[str]:
    """The names :func:`write_paper_set` writes for ``result`` (empty: nothing to write)."""
    stem = paper_stem(result)
    names = [stem + f.suffix for f in paper_formats(result)] + list(_more_figures(result))
    names += list(_attached(result)) if paper_formats(result) else []
    return names + ([METHODS_NAME] if methods_function(result) is not None else [])


def write_paper_set(
    result: object,
    folder: str | PathLike[str],
    *,
    inputs: Sequence[str | PathLike[str]] = (),
) -> list[Path]:
    """Write the paper set of ``result`` into ``folder`` (an existing, writable folder),
    never over one of ``inputs``; returns the paths written. ``UserError`` when the folder
    will not do, the kind has nothing for a paper, or a file cannot be written (those before
    it stay written)."""
    target = Path(folder)
    check_folder(target)
    names = paper_set_names(result)
    if not names:
        what = formats.kind_of(result).what
        raise UserError(f"{what} has no format for a paper yet; export it as a table instead")
    written = [
        formats.save(result, target / (paper_stem(result) + f.suffix), inputs=inputs)
        for f in paper_formats(result)
    ]
    for name, figure in _more_figures(result).items():
        path = target / name
        check_target(path, {path.suffix: None}, inputs, what="a figure")
        written.append(_drawn(figure, path))
    for name, (part, writer) in _attached(result).items() if paper_formats(result) else ():
        path = target / name
        check_target(path, {path.suffix: None}, inputs, what="a figure")
        written.append(_written_part(part, writer, path))
    methods = methods_function(result)
    if methods is not None:
        path = target / METHODS_NAME
        text = methods(result).rstrip() + "\n"
        check_target(path, {".txt": None}, inputs, what="the Methods paragraph")

        def write(staged: Path) -> None:
            staged.write_text(text, encoding="utf-8")

        write_atomically(path, write)
        written.append(path)
    return written


def _written_part(part: object, writer: str, path: Path) -> Path:
    module, _, function = writer.partition(":")
    write: Callable[[object, Path], None] = getattr(import_module(module), function)
    write_atomically(path, lambda staged: write(part, staged))
    return path


def _drawn(figure: Any, path: Path) -> Path:
    from app.core.publish.figure_drawing import draw

    write_atomically(path, lambda staged: draw(figure, staged, path.suffix[1:]))
    return path


def check_folder(folder: Path) -> None:
    if not str(folder).strip():
        raise UserError("choose a folder for the paper set")
    if not folder.exists():
        raise UserError(f"cannot write the paper set to {folder}: no such folder")
    if not folder.is_dir():
        raise UserError(f"cannot write the paper set to {folder}: not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"cannot write the paper set to {folder}: permission denied")
