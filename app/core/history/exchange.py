"""Runs in and out of the history as files: CipherBench's own JSON exports.

Import takes what ``bench --out x.json``, ``study --out x.json`` and ``transfer --out x.json``
write, and what :func:`write_export` writes: that same document with a ``history`` section
(the run's id there, host name, title, source, when it was stored), so a run exported on one
machine keeps its host name on another. Anything else is refused in one sentence, and so is
an export holding a value no export holds (:mod:`app.core.history.limits`: NaN, integers SQLite
cannot store, negative sizes, a cipher name of megabytes).
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from app.core.errors import UserError
from app.core.export.digest import DIGEST_KEY, digest_state, with_digest
from app.core.export.writers import check_target, write_atomically
from app.core.history import documents, limits
from app.core.history.documents import Result
from app.core.history.records import RunSummary
from app.core.history.typecheck import WrongType, check_types
from app.core.units import MIB

MAX_IMPORT_BYTES = 256 * MIB  # a study of hundreds of jobs with raw samples is a few MB
HISTORY_KEY = "history"


def read_export(path: Path) -> tuple[str, dict[str, Any], Result, dict[str, Any]]:
    """``(kind, document, result, history section)`` of the export at ``path``; the document
    without its ``history`` and ``digest`` sections, the history section with one more key,
    ``digest_state`` (:func:`app.core.export.digest.digest_state`: intact, changed or
    absent). ``UserError`` for any file that is not one."""
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            raise UserError(f"cannot import {path}: it is not a regular file")
        if st.st_size > MAX_IMPORT_BYTES:
            raise UserError(
                f"cannot import {path}: at {st.st_size:,} bytes it is too large to be a "
                "CipherBench export"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        doc = limits.parse(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise UserError(
            f"cannot import {path}: it is not a CipherBench export (not a JSON file)"
        ) from None
    try:
        kind = documents.check_document(doc)
        limits.check_values(doc)
    except (documents.NotAnExport, limits.BadValue) as exc:
        raise UserError(f"cannot import {path}: {exc}") from None
    state = digest_state(doc)
    doc.pop(DIGEST_KEY, None)
    meta = doc.pop(HISTORY_KEY, None)
    try:
        result = documents.result_of(kind, doc)
        check_types(result)
        documents.exercise(result)
    except WrongType as exc:
        raise UserError(f"cannot import {path}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError, UserError) as exc:
        raise UserError(
            f"cannot import {path}: it holds a malformed {kind} result "
            f"({type(exc).__name__}: {exc})"
        ) from None
    return kind, doc, result, {**(meta if isinstance(meta, dict) else {}), "digest_state": state}


def write_export(path: Path, summary: RunSummary, doc: dict[str, Any]) -> Path:
    """Write ``doc`` with its ``history`` section to ``path`` (.json) atomically."""
    check_target(path, {".json": None}, what="a run")
    data = {
        **with_digest(doc),
        HISTORY_KEY: {
            "id": summary.id,
            "kind": summary.kind,
            "title": summary.title,
            "hostname": summary.hostname,
            "source": summary.source,
            "recorded_at": summary.recorded_at,
        },
    }
    text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"

    def write(staged: Path) -> None:
        staged.write_text(text, encoding="utf-8")

    write_atomically(path, write)
    return path
