"""What every command that runs something is told besides what to run, in one place: where to
write the result (``--out``), whether to show progress (``--quiet``) and whether to store the
run in the history (``--no-history``). Added to a command's parser here, read back as one
:class:`RunOutputs`, and used by it before and after the run."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

from app.cli.outputs import Paths, check_outputs, write_outputs
from app.cli.storing import store_run
from app.core.kinds.formats import ResultKind


def add_out_option(p: argparse.ArgumentParser, kind: ResultKind, what: str = "results") -> None:
    """``--out PATH``, repeatable: write ``what`` to each path, in the format of ``kind`` its
    extension names."""
    p.add_argument(
        "--out",
        action="append",
        default=[],
        metavar="PATH",
        help=f"write {what}, by extension: {kind.help_text()}; or a folder (ending in /): "
        "the paper set, every table and figure for a paper and methods.txt; repeatable",
    )


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


@dataclass(frozen=True)
class RunOutputs:
    """``--out``, ``--quiet`` and ``--no-history`` as a run uses them."""

    outs: Sequence[str] = ()
    quiet: bool = False
    history: bool = True

    @classmethod
    def of(cls, args: argparse.Namespace) -> RunOutputs:
        """The options of a command parsed with :func:`add_out_option` and
        :func:`add_quiet_and_history_options` (or its own ``--quiet``)."""
        return cls(tuple(args.out), quiet=args.quiet, history=not args.no_history)

    def check(self, kind: ResultKind, inputs: Paths = ()) -> None:
        """Before the run: ``UserError`` for the first ``--out`` that will not do (an input
        or another output replaced, a format ``kind`` lacks)."""
        check_outputs(kind, self.outs, inputs)

    def store(self, result: object) -> None:
        """Store the finished run in the history unless ``--no-history``; its id is said on
        stderr unless ``--quiet``."""
        store_run(result, enabled=self.history, quiet=self.quiet)

    def write(self, result: object, inputs: Paths = ()) -> None:
        """Write ``result`` to every ``--out``."""
        write_outputs(result, self.outs, inputs)
