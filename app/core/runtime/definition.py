"""What a kind declares so that its command line and its window are made for it: the options a
user chooses (each with its help, its parser, its default, its choices) and the function that
runs it, whose events are the one vocabulary of a run (:mod:`app.core.runtime.events`:
progress, then the result).

A kind with a :class:`Definition` in its row (:mod:`app.core.kinds.table`) gets a command
(``python main.py <command> --option ... --out F``), storing in the history, every format of
its document and ``history show``, without code of its own in the front-ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from app.core.errors import UserError
from app.core.runtime.events import Event


@dataclass(frozen=True)
class Option:
    name: str  # "rounds": the command's --rounds, the form's field
    help: str
    parse: Callable[[str], Any] = str  # the text as typed -> its value; UserError when wrong
    default: Any = None
    choices: tuple[str, ...] = ()
    many: bool = False  # given once per value (--cipher A --cipher B); its value is a tuple
    metavar: str = ""
    positional: bool = False  # typed without its --name on the command line
    label: str = ""  # the window's label, when its name capitalised is not it ("AES ...")

    def value(self, given: Any) -> Any:
        """The option's value from what was typed (a string, a list of them, or None)."""
        if given is None or given == []:
            return self._default_value()
        if self.many:
            return tuple(self._one(g) for g in given)
        return self._one(given)

    def _default_value(self) -> Any:
        """The default; one written as text (``"1MB"``) is parsed as if typed, as argparse does."""
        if isinstance(self.default, str):
            return (self._one(self.default),) if self.many else self._one(self.default)
        if self.many and isinstance(self.default, tuple):
            return tuple(self._one(d) if isinstance(d, str) else d for d in self.default)
        return self.default

    def _one(self, text: str) -> Any:
        if self.choices and text not in self.choices:
            raise UserError(f"--{self.name} takes one of {', '.join(self.choices)}, not {text!r}")
        try:
            return self.parse(text)
        except ValueError as exc:
            raise UserError(f"--{self.name}: {exc}") from None


Run = Callable[[Mapping[str, Any], threading.Event], Iterator[Event]]


@dataclass(frozen=True)
class Definition:
    command: str  # the command's name, and the window's
    title: str  # "Key setup"
    summary: str  # one line: what it measures
    options: tuple[Option, ...]
    run: str  # "module:function", a :data:`Run`

    def values(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value, from what was given (missing: its default)."""
        return {o.name: o.value(given.get(o.name)) for o in self.options}


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """A parser of a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise ValueError(f"{value} is not between {low} and {high}")
        return value

    return parse


def entry_options(default: str, also: str = "") -> tuple[Option, Option]:
    """The cipher entries a kind takes, as the profile and the leak test do: the ids (typed
    without ``--cipher``; ``also``: what else the kind accepts there) and the libraries."""
    return (
        Option(
            "cipher",
            f"a cipher id, e.g. {default} (python main.py list shows them){also}",
            default=(default,),
            many=True,
            positional=True,
        ),
        Option(
            "library",
            "cryptography, pycryptodome, pyaes or all (default: the compiled ones)",
            many=True,
        ),
    )
