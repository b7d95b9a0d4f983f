"""Storing a finished run in the history, for the commands that make one (``bench``, ``study``,
``transfer``): the ``--quiet`` and ``--no-history`` options and :func:`store_run`. The ``history``
command that reads the runs back is :mod:`app.cli.history`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from app.core.errors import UserError
from app.core.text import display_text

PROG = "cipherbench"


def add_no_history_option(p: argparse.ArgumentParser) -> None:
    """``--no-history`` on a command that stores its run."""
    p.add_argument(
        "--no-history",
        action="store_true",
        help="do not store this run in the history (CIPHERBENCH_NO_HISTORY=1 for every run)",
    )


def add_quiet_and_history_options(p: argparse.ArgumentParser) -> None:
    """``--quiet`` (no progress, nor the id the run is stored as) and ``--no-history``: what
    every command that shows its progress on stderr and stores its run ends with."""
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_no_history_option(p)


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
