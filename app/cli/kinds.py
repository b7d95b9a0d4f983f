"""The command of every kind made from its definition (:mod:`app.core.runtime.definition`): its
options as arguments, progress on stderr, its document on stdout fitted to the terminal, the
run stored in the history and written with ``--out`` in any of its formats."""

from __future__ import annotations

import argparse
import functools
import threading
from typing import Any

from app.cli.command import Command, Handler
from app.cli.report import terminal_width
from app.cli.run_outputs import RunOutputs, add_out_option, add_quiet_and_history_options
from app.cli.running import follow, stopped
from app.core.document.terminal import render
from app.core.kinds import table
from app.core.kinds.table import Kind, resolve
from app.core.runtime.definition import Definition


def commands() -> tuple[Command, ...]:
    """A command for each kind with a definition."""
    return tuple(_command(kind) for kind in table.defined_kinds())


def _command(kind: Kind) -> Command:
    definition = kind.defined()
    assert definition is not None
    return Command(
        definition.command,
        help=definition.summary,
        description=definition.summary,
        arguments=functools.partial(_arguments, kind, definition),
        handler=_handler(kind, definition),
    )


def _arguments(kind: Kind, definition: Definition, p: argparse.ArgumentParser) -> None:
    for option in definition.options:
        help_text = option.help + _default_text(option.default)
        if option.positional:
            p.add_argument(
                option.name,
                nargs="*" if option.many else "?",
                metavar=option.metavar or option.name.upper(),
                help=help_text,
            )
            continue
        p.add_argument(
            f"--{option.name.replace('_', '-')}",
            dest=option.name,
            action="append" if option.many else "store",
            metavar=option.metavar or None,
            help=help_text,
        )
    add_out_option(p, kind.files)
    add_quiet_and_history_options(p)


def _default_text(default: Any) -> str:
    if default is None or default == ():
        return ""
    shown = ", ".join(map(str, default)) if isinstance(default, tuple) else str(default)
    return f" (default: {shown})"


def _handler(kind: Kind, definition: Definition) -> Handler:
    def handle(args: argparse.Namespace) -> int:
        values = definition.values(vars(args))
        outputs = RunOutputs.of(args)
        outputs.check(kind.files)  # before a long run, not after it
        resolve(kind.document)  # its modules now: a missing package is said before it measures
        try:
            result = execute(definition, values, quiet=outputs.quiet)
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (see termination.py)
            return stopped(exc)
        print(render(kind.document_of(result), terminal_width()))
        if getattr(result, "results", True):  # an empty run is not kept
            outputs.store(result)
        outputs.write(result)
        return 1 if getattr(result, "failures", ()) else 0

    return handle


def execute(definition: Definition, values: dict[str, Any], *, quiet: bool = False) -> Any:
    """Run a defined kind to its result, with its progress line on a terminal (:func:`follow`).
    Ctrl-C stops its workers and raises again."""
    cancel = threading.Event()
    return follow(resolve(definition.run)(values, cancel), cancel, quiet=quiet)
