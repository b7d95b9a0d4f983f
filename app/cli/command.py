"""A subcommand declared as data (:class:`Command`), and :func:`add_commands`, which gives the
parser its commands: every one, from the list in :func:`app.cli.main._commands` (``crypt`` and
``kinds`` declare theirs: the first may be missing, the others are made from the kinds)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

Handler = Callable[[argparse.Namespace], int]


def _no_arguments(p: argparse.ArgumentParser) -> None:
    """A command that takes no arguments of its own."""


@dataclass(frozen=True)
class Command:
    """A subcommand: ``help`` is its line in the list of commands, ``description`` the
    paragraph its own ``--help`` starts with (none when None), ``arguments`` adds its arguments
    to its parser and ``handler`` runs it (None: a group of commands of its own)."""

    name: str
    help: str
    handler: Handler | None
    description: str | None = None
    arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments


def add_commands(sub: argparse._SubParsersAction[Any], commands: Iterable[Command]) -> None:
    """Add ``commands``, in order, to the subparsers ``sub``."""
    for command in commands:
        p = sub.add_parser(command.name, help=command.help, description=command.description)
        command.arguments(p)
        if command.handler is not None:
            p.set_defaults(handler=command.handler)
