"""What the commands that run something (``bench``, ``study``, ``transfer``) share on the command
line: the argparse types of their numbers, ``--yes`` and the question it answers, the one
progress line of a run's events (:func:`follow`), and what they say when Ctrl-C or a signal
stops a run. Their ``--out``, ``--quiet`` and ``--no-history`` are
:mod:`app.cli.run_outputs`."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from app.cli.terminal import clear_line, over_the_echo, redraw
from app.core.ciphers.registry import check_library
from app.core.errors import UserError
from app.core.runtime.events import Finished, Outcome, Progress
from app.core.runtime.termination import Terminated, exit_code

PROG = "cipherbench"


def _shown(text: str) -> str:
    """``text`` as an error message quotes it: never hundreds of characters."""
    return text if len(text) <= 24 else text[:20] + "..."


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an int from ``low`` to ``high``, else a one-line error (argparse adds
    the option's name) that does not echo hundreds of digits."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:  # also more digits than int() reads (4300)
            raise argparse.ArgumentTypeError(f"not a whole number: {_shown(text)!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be at least {low} and at most {high}")
        return value

    return parse


def library_name(*, allow_all: bool = False) -> Callable[[str], str]:
    """An argparse type: a library's name (or ``all``), else a one-line error naming the
    nearest and every choice."""

    def parse(text: str) -> str:
        try:
            return check_library(text.strip().lower(), allow_all=allow_all)
        except UserError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def non_negative(text: str) -> float:
    """An argparse type: a finite number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {_shown(text)!r}") from None
    if not (value >= 0 and value < float("inf")):
        raise argparse.ArgumentTypeError("must be a number, 0 or more")
    return value


def stop_reason(exc: KeyboardInterrupt) -> str:
    """``"stopped by SIGTERM"`` for a signal (see termination.py), else ``"cancelled"``."""
    if isinstance(exc, Terminated):
        return f"stopped by {exc.signal_name}"
    return "cancelled"


def stopped(exc: KeyboardInterrupt) -> int:
    """Say on stderr that the run stopped with no results written; the exit code to end with."""
    over_the_echo()
    print(f"{PROG}: {stop_reason(exc)}; no results written", file=sys.stderr)
    return exit_code(exc)


def add_yes_option(p: argparse.ArgumentParser) -> None:
    """``--yes`` on a command that asks before a long or unusual run."""
    p.add_argument(
        "--yes", action="store_true", help="run without asking (a long grid, files outside)"
    )


def confirm(reason: str, yes: bool) -> None:
    """Go on when ``yes`` or when the user answers y on a terminal; otherwise ``UserError``
    with ``reason`` (on a pipe or in a script nobody can answer: give --yes)."""
    if yes:
        return
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        raise UserError(f"{reason}; give --yes to run it")
    print(f"{PROG}: {reason}.", file=sys.stderr)
    try:
        answer = input("Run it? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise UserError("not run: nothing was measured")


def follow(
    events: Iterator[Any],
    cancel: threading.Event,
    *,
    quiet: bool = False,
    on_outcome: Callable[[Any], None] | None = None,
    on_kept: Callable[[Progress], None] | None = None,
    line: Callable[[Progress], str] | None = None,
    log_steps: bool = True,
) -> Any:
    """Run an engine's events (:class:`Progress` ..., :class:`Finished`) to their result: on a
    terminal one self-rewriting progress line (at most 10 redraws a second; ``line`` makes it,
    else "45% what: note"), in a pipe or a log a line each time a step starts (unless
    ``log_steps`` is false: a command that prints its own lines per entry); each
    :class:`Outcome`'s value handed to ``on_outcome`` as it comes, each progress marked
    ``keep`` to ``on_kept`` (both may print: the progress line is cleared first). Ctrl-C stops
    the run's workers and raises again."""
    from app.cli.report import terminal_width

    tty = sys.stderr.isatty() and not quiet
    width = max(20, (terminal_width(sys.stderr) or 80) - 1)
    shown = line or (lambda p: f"{p.fraction * 100:3.0f}% {p.text}")
    last, step = 0.0, ""
    try:
        for event in events:
            if isinstance(event, Finished):
                if tty:
                    clear_line(width)
                return event.result
            if isinstance(event, Outcome) and on_outcome is not None:
                if tty:
                    clear_line(width)
                on_outcome(event.value)
            elif isinstance(event, Progress):
                if event.keep and on_kept is not None:
                    if tty:
                        clear_line(width)
                    on_kept(event)
                if quiet:
                    continue
                if tty and (event.what != step or time.monotonic() - last >= 0.1):
                    last = time.monotonic()
                    redraw(shown(event), width)
                elif not tty and log_steps and event.what != step:
                    print(f"{event.fraction * 100:3.0f}% {event.what}", file=sys.stderr)
                step = event.what
    except KeyboardInterrupt:
        cancel.set()
        if tty:
            clear_line(width)
        raise
    finally:
        close = getattr(events, "close", None)
        if close is not None:
            close()  # a generator: stops the running worker
    raise RuntimeError("the run ended without a result")
