"""A study file: reading one strictly (:func:`load_study`), writing one (:func:`to_toml`), and
checking that its paper's figures and claims name what the study measures.

The schema is in :mod:`app.core.study.definition`. A study *file* is held to more than a study
built in code: each published figure and each claim must name an entry and an input of its own
(a figure naming nothing would silently never be shown beside ours). A study run on other inputs
than its paper's is saved without the figures and claims that no longer name anything
(:func:`matched_paper`).
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.core.errors import UserError
from app.core.runtime.output_checks import file_kind, protect
from app.core.study.definition import Study
from app.core.study.figures import names_entry, same_input
from app.core.study.paper_claims import PaperClaim
from app.core.study.published import PublishedFigure
from app.core.transfer.framing import transfer_spec

MAX_STUDY_BYTES = 2**20  # a study file is a page of text; the largest preset is 7 KB
MAX_KEY_PARTS = 64  # a dotted key's parts: tomllib takes quadratic time over them


def load_study(path: str | Path) -> Study:
    """The study in the TOML file ``path``, or ``UserError`` naming the file and the fault.
    The file is read only when it is a regular file of at most :data:`MAX_STUDY_BYTES`
    (not a device, a pipe or a link to ``/dev/zero``), and parsed only when no key has more
    than :data:`MAX_KEY_PARTS` parts and nothing nests deeper than Python can follow."""
    p = Path(path).expanduser()
    protect(p, "the study file")
    text = _read_study_text(p)
    _check_key_parts(p, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{p} is not valid TOML: {exc}") from None
    except RecursionError:
        raise UserError(f"{p}: arrays or tables nest too deeply to be a study") from None
    try:
        return check_paper(Study.from_dict(data, base=p.parent))
    except UserError as exc:
        raise UserError(f"{p}: {exc}") from None


def _read_study_text(p: Path) -> str:
    try:
        # Non-blocking: opening a named pipe would wait for a writer.
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        with open(fd, "rb") as f:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise UserError(f"{p} is {file_kind(st.st_mode)}, not a study file")
            if hasattr(os, "set_blocking"):
                os.set_blocking(fd, True)
            data = f.read(MAX_STUDY_BYTES + 1)
    except FileNotFoundError:
        raise UserError(f"no such study file: {p}") from None
    except OSError as exc:
        raise UserError(f"cannot read {p}: {exc.strerror or exc}") from None
    if len(data) > MAX_STUDY_BYTES:
        raise UserError(f"{p} is larger than a study file can be ({MAX_STUDY_BYTES:,} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"cannot read {p}: not UTF-8 text ({exc.reason})") from None


_QUOTED = re.compile(r'"(?:\\.|[^"\\])*"|\'[^\']*\'')


def _check_key_parts(p: Path, text: str) -> None:
    """Refuse a key (before ``=``, or a ``[table]`` header) of more than
    :data:`MAX_KEY_PARTS` dotted parts, before tomllib spends minutes on it."""
    for number, line in enumerate(text.splitlines(), start=1):
        bare = _QUOTED.sub("", line)
        key = bare.partition("=")[0] if "=" in bare else bare if bare.lstrip()[:1] == "[" else ""
        if key.count(".") >= MAX_KEY_PARTS:
            raise UserError(f"{p}: line {number}: a key of more than {MAX_KEY_PARTS} parts")


# --- a TOML writer for this flat schema ---------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return repr(value)
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, str):
        # A JSON string is a valid TOML basic string (same escapes, \uXXXX for controls).
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def to_toml(study: Study) -> str:
    """The TOML text of ``study``: scalars and lists first, then ``[[cipher]]`` and
    ``[[published]]`` tables. :func:`load_study` reads it back to an equal study."""
    doc = study.to_dict()
    tables = {key: doc.pop(key) for key in ("cipher", "published", "claim")}
    lines = [f"{key} = {_toml_value(value)}" for key, value in doc.items()]
    for key, rows in tables.items():
        for row in rows:
            lines.append(f"\n[[{key}]]")
            lines.extend(f"{k} = {_toml_value(v)}" for k, v in row.items())
    return "\n".join(lines) + "\n"


# --- what a study's paper names ----------------------------------------------------------------


def check_paper(study: Study) -> Study:
    """``study`` when every published figure and every claim names entries and inputs of
    this study (as written in its file: a run on other sizes may leave some unmatched),
    else ``UserError`` naming the first that names nothing."""
    for fault in (_figure_fault(study, f) for f in study.published):
        if fault:
            raise UserError(fault)
    for fault in (_claim_fault(study, c) for c in study.claims):
        if fault:
            raise UserError(fault)
    return study


def matched_paper(study: Study) -> Study:
    """``study`` without the published figures and claims that name nothing of it (what a
    study saved as run keeps, when it ran on other inputs than its paper's)."""
    figures = tuple(f for f in study.published if not _figure_fault(study, f))
    claims = tuple(c for c in study.claims if not _claim_fault(study, c))
    return replace(study, published=figures, claims=claims)


def _inputs(study: Study) -> list[str]:
    """The labels a figure or a claim may name an input by: sizes, file slots, files."""
    files = [Path(f).name for f in study.files]
    return [s.label for s in study.sizes] + list(study.file_slots) + files


def _figure_fault(study: Study, figure: PublishedFigure) -> str:
    """Why ``figure`` names nothing of this study, or ``""``."""
    entries = _entry_names(study)
    inputs = _inputs(study)
    if not any(names_entry(figure.entry, figure.cipher, *e) for e in entries):
        named = ", ".join(figure.entry) if figure.entry else figure.cipher
        return (
            f"the published figure ({figure.describe()}) names no cipher of the study "
            f"({named!r}); give its entry, e.g. entry = {entries[0][2]!r}"
        )
    if not any(same_input(figure.input, i) for i in inputs):
        return (
            f"the published figure ({figure.describe()}) names no input of the study; "
            f"use one of {', '.join(inputs)}, or '.ext (size)' for a file slot"
        )
    return ""


def _claim_fault(study: Study, claim: PaperClaim) -> str:
    """Why ``claim`` names nothing (or the wrong thing) of this study, or ``""``."""
    entries = _entry_names(study)
    for name in (*claim.a, *claim.b):
        if not any(names_entry((name,), "", *e) for e in entries):
            return (
                f"the claim {claim.says!r} names {name!r}, no cipher of the study; use "
                f"one of {', '.join(e[2] for e in entries)}"
            )
    for paper_input in claim.inputs:
        if not any(same_input(paper_input, i) for i in _inputs(study)):
            return (
                f"the claim {claim.says!r} names the input {paper_input!r}, none of the "
                f"study's ({', '.join(_inputs(study))})"
            )
    transfer = study.workload == "transfer"
    if any((d == "transfer") != transfer for d in claim.directions):
        wanted = "transfer" if transfer else "encrypt, decrypt or program"
        return f"the claim {claim.says!r} has direction {claim.direction!r}; use {wanted}"
    return ""


def _entry_names(study: Study) -> list[tuple[str, str | None, str]]:
    """``(id, library, label)`` of each entry, labelled as its results will be."""
    if study.workload == "transfer":
        out: list[tuple[str, str | None, str]] = []
        for choice in study.ciphers:
            spec = transfer_spec(choice.cipher_id)
            library = choice.library or (spec.library if spec else None)
            label = f"{choice.cipher_id} ({library})" if library else choice.cipher_id
            out.append((choice.cipher_id, library, label))
        return out
    return [(s.id, s.library, f"{s.id} [{s.library}]") for s in study.specs()]
