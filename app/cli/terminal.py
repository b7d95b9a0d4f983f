"""What the command line writes to a terminal: text, never commands to it.

A file name, a host name carried in a colleague's JSON or a study's title can hold escape
sequences (``\\e]0;title\\a`` retitles the terminal, ``\\e[2J`` clears it), a carriage return
that draws over a warning, or a right-to-left override that reverses a verdict. While a
command runs, :func:`visible_streams` puts a filter over ``sys.stdout`` and ``sys.stderr`` that
shows every such character as ``\\x1b`` or ``\\u202e`` (:func:`app.core.text.visible_text`);
line breaks and tabs pass. The one thing written past it is the progress line's own carriage
return: :func:`redraw`, :func:`clear_line` and :func:`over_the_echo`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from app.core.text import visible_text


class Visible:
    """A text stream whose ``write`` shows control characters instead of passing them on;
    everything else (``flush``, ``isatty``, ``fileno``, ``buffer``) is the stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self.raw = stream

    def write(self, text: str) -> int:
        self.raw.write(visible_text(text, keep="\n\t"))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


@contextmanager
def visible_streams() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` behind :class:`Visible` for the duration."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = (s if isinstance(s, Visible) else Visible(s) for s in saved)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def _raw(stream: Any) -> Any:
    return stream.raw if isinstance(stream, Visible) else stream


def redraw(line: str, width: int) -> None:
    """Replace the progress line on standard error with ``line`` (its controls shown), cut
    or padded to ``width`` columns: one column short of the terminal's, since a full line
    would wrap and every redraw would then start a new line. The cursor is left at the
    line's start, so that the terminal's echo of a Ctrl-C (``^C``) lands inside the line and
    :func:`clear_line` blanks it, instead of wrapping to a line of its own."""
    stream = _raw(sys.stderr)
    stream.write("\r" + visible_text(line)[:width].ljust(width) + "\r")
    stream.flush()


def clear_line(width: int) -> None:
    """Blank the progress line and put the cursor at its start."""
    stream = _raw(sys.stderr)
    stream.write("\r" + " " * width + "\r")
    stream.flush()


def over_the_echo() -> None:
    """On a terminal, put the cursor at the line's start, so that the line said after a
    Ctrl-C is written over the terminal's ``^C`` echo instead of after it."""
    if sys.stderr.isatty():
        stream = _raw(sys.stderr)
        stream.write("\r")
        stream.flush()
