"""Where a command writes its results, for every command alike: each ``--out PATH`` in the
format its suffix names, or, for a folder (a path ending in ``/``), the
paper set of :mod:`app.core.publish.paper_set` (every table and figure for a paper, the
paper's own figures too, and ``methods.txt``). All are checked before the run starts, so a
long run never ends unable to write."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from app.core.errors import UserError
from app.core.kinds import formats
from app.core.kinds.table import ResultKind
from app.core.publish.paper_set import PAPER_SUFFIXES, check_folder, write_paper_set
from app.core.text import display_text

Paths = Sequence[str | PathLike[str]]


def is_folder(out: str | PathLike[str]) -> bool:
    """A folder for the paper set: said so by a trailing ``/`` (an existing folder named
    without one is refused as an output, not written into by surprise)."""
    return os.fspath(out).endswith(("/", os.sep))


def check_outputs(kind: ResultKind, outs: Paths, inputs: Paths = ()) -> None:
    """Every ``--out`` of a command writing ``kind``, before its run: ``UserError`` naming
    the first that will not do."""
    formats.check_outputs(kind, [o for o in outs if not is_folder(o)], inputs)
    for folder in (Path(o) for o in outs if is_folder(o)):
        if not any(f.suffix in PAPER_SUFFIXES for f in kind.formats):
            raise UserError(f"{kind.what} has no format for a paper: give --out a file name")
        if not folder.exists() and not folder.parent.is_dir():
            raise UserError(f"cannot write the paper set to {folder}: no folder {folder.parent}")
        check_folder(folder if folder.exists() else folder.parent)


def write_outputs(result: object, outs: Paths, inputs: Paths = ()) -> None:
    """Write ``result`` to each of ``outs``, saying each file written on stderr."""
    for out in outs:
        if is_folder(out):
            folder = Path(out)
            try:
                folder.mkdir(exist_ok=True)
            except OSError as exc:
                raise UserError(f"cannot make the folder {folder}: {exc.strerror}") from None
            written = write_paper_set(result, folder, inputs=inputs)
        else:
            written = [formats.save(result, out, inputs=inputs)]
        for path in written:
            print(display_text(f"wrote {path}"), file=sys.stderr)
