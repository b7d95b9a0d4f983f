"""Results as JSON: everything a run holds, raw samples and the environment included.

The file is ``{"format": "cipherbench-results", "version": 1, **run.to_dict()}``, indented by
2, UTF-8. Non-finite floats (NaN, infinity) are written as ``null`` so the file stays valid JSON
for any reader; a file name byte that is not UTF-8 as the text ``\\xff`` (see
:mod:`app.core.text`). Use ``exporters.export`` for an atomic write; ``read_run`` loads a file
back as the :class:`RunResult` it was written from (``read_json`` as plain dicts).
"""

from __future__ import annotations

import json
import math
from os import PathLike
from typing import Any

from app.core.bench.results import RunResult
from app.core.errors import UserError
from app.core.export.digest import with_digest
from app.core.text import display_text

FORMAT = "cipherbench-results"
VERSION = 1


def run_document(run: RunResult) -> dict[str, Any]:
    """The JSON document for ``run``, as Python objects (what ``write_json`` writes)."""
    return {"format": FORMAT, "version": VERSION, **json_safe(run.to_dict())}


def write_json(run: RunResult, path: str | PathLike[str]) -> None:
    """Write ``run`` to ``path`` as indented JSON. Not atomic."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(with_digest(run_document(run)), f, indent=2, ensure_ascii=False, allow_nan=False)
        f.write("\n")


def read_json(path: str | PathLike[str]) -> dict[str, Any]:
    """Read a file written by ``write_json`` back as a dict.

    Raises ``UserError`` when the file cannot be read, is not JSON, is not a CipherBench results
    file, or was written by a newer CipherBench (a higher ``version``).
    """
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{path} is not a JSON file ({exc})") from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UserError(f"{path} is not a CipherBench results file")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise UserError(f"{path} has no valid results format version")
    if version > VERSION:
        raise UserError(
            f"{path} was written by a newer CipherBench (results format version {version}, "
            f"this one reads up to {VERSION}); update CipherBench to open it"
        )
    return doc


def read_run(path: str | PathLike[str]) -> RunResult:
    """Read a file written by ``write_json`` back as a :class:`RunResult` (the objects it was
    written from). Raises ``UserError`` for what ``read_json`` refuses and for a results file
    whose records are malformed."""
    doc = read_json(path)
    try:
        return RunResult.from_dict(doc)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UserError(f"{path} holds a malformed result ({type(exc).__name__}: {exc})") from exc


def json_safe(value: Any) -> Any:
    """``value`` with NaN and infinities replaced by None, tuples as lists, and text that UTF-8
    can hold: a lone surrogate (a file name's stray byte) would fail the whole write."""
    if isinstance(value, str):
        return display_text(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {json_safe(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value
