"""Storing a finished run in the history, for the commands that make one (``bench``, ``study``,
``transfer``): :func:`store_run`, which :class:`app.cli.run_outputs.RunOutputs` calls unless
``--no-history``. The ``history`` command that reads the runs back is :mod:`app.cli.history`."""

from __future__ import annotations

import sys
from typing import Any

from app.core.errors import UserError
from app.core.text import display_text

PROG = "cipherbench"


def store_run(result: Any, *, enabled: bool = True, quiet: bool = False) -> int | None:
    """Store a finished run; its id, or None when storing is off or failed (a warning on
    stderr: a history problem never fails the benchmark it would have stored)."""
    from app.core.history.location import storing_disabled
    from app.core.history.store import History

    if not enabled or storing_disabled():
        return None
    try:
        with History.open() as history:
            if not history.read_only:  # read-only: the error below says why, once
                warn(history.warning)
            run_id = history.record(result)
    except UserError as exc:
        warn(f"the run was not stored in the history: {exc}")
        return None
    except Exception as exc:  # never lose a finished benchmark to its bookkeeping
        warn(f"the run was not stored in the history ({type(exc).__name__}: {exc})")
        return None
    if not quiet:
        print(f"saved to history as run {run_id}", file=sys.stderr)
    return run_id


def warn(message: str | None) -> None:
    """One warning line on stderr (nothing for None)."""
    if message:
        print(display_text(f"{PROG}: warning: {message}"), file=sys.stderr)
