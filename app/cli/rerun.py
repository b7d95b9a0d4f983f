"""``rerun``: run an exported study again, here, exactly as it was defined, and show it beside
the original.

    python main.py rerun FILE.json [--out merged.html ...] [--save-run NEW.json] [--quiet]
                                   [--no-history]

FILE is a portable result: a ``study --out x.json`` file (or a ``history export`` of a study)
holds the study's definition (ciphers, sizes or files, rounds, repetitions, data seed), the
machine it ran on, every raw sample and a digest. The study runs with that definition unchanged;
the new run is stored in the history and printed merged with the original (``merge``'s table:
one column group each, the normalised view, what differs); ``--out`` writes that merged
table, ``--save-run`` the new run itself. A file changed since it was written is run anyway,
with a warning. Exit codes: 0, 1 a cell failed, 2 bad input, 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from app.cli.report import terminal_width
from app.cli.run_outputs import RunOutputs, add_out_option, add_quiet_and_history_options
from app.cli.running import add_yes_option, confirm, stopped
from app.core.errors import UserError
from app.core.kinds import formats


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``rerun``'s arguments (its name and help: :func:`app.cli.main._commands`)."""
    p.add_argument("file", metavar="FILE.json", help="an exported study")
    add_out_option(p, formats.MERGED, "the original and the rerun side by side")
    p.add_argument("--save-run", metavar="NEW.json", help="also save the new run (.json, ...)")
    add_quiet_and_history_options(p)
    add_yes_option(p)


def cmd_rerun(args: argparse.Namespace) -> int:
    from app.cli.merge import format_merged
    from app.cli.study import execute_study, study_summary
    from app.core.export.digest import CHANGED
    from app.core.history.exchange import read_export
    from app.core.history.merging import rerun_sources
    from app.core.publish.merge import merge_results
    from app.core.study.result import StudyResult
    from app.core.study.runner import StudyRun

    path = Path(args.file)
    kind, _doc, original, meta = read_export(path)
    if not isinstance(original, StudyResult):
        what = "a transfer study" if kind == "study" else f"a {kind} run"
        raise UserError(f"cannot rerun {path}: it is {what}; rerun takes an exported cipher study")
    study = original.study
    _confirm_what_it_measures(path, study, args.yes)
    run = StudyRun(study)
    inputs = [str(path), *(f.path for f in run.files)]
    outputs = RunOutputs.of(args)  # --out: the merged table; the new run is --save-run
    outputs.check(formats.MERGED, inputs)
    if args.save_run:
        formats.check_output(formats.STUDY, args.save_run, inputs)
    if meta.get("digest_state") == CHANGED:
        print(
            f"warning: {path} was changed after CipherBench wrote it (its digest does not "
            "match); rerunning the definition it holds now",
            file=sys.stderr,
        )
    if not outputs.quiet:
        print(f"rerunning {study_summary(study)}", file=sys.stderr)
    try:
        final = execute_study(run, quiet=outputs.quiet)
    except KeyboardInterrupt as exc:
        return stopped(exc)
    assert isinstance(final, StudyResult)
    outputs.store(final)
    if args.save_run:
        print(f"wrote {formats.save(final, args.save_run, inputs=inputs)}", file=sys.stderr)
    host = meta.get("hostname") if isinstance(meta.get("hostname"), str) else None
    state = str(meta.get("digest_state", ""))
    sources = rerun_sources(original, path.name, host, state, final)
    merged = merge_results(sources, units=original.units)
    print()
    print(format_merged(merged, terminal_width()))
    outputs.write(merged, inputs)
    return 1 if final.failures else 0


def _confirm_what_it_measures(path: Path, study: Any, yes: bool) -> None:
    """A received export decides which files are read and for how long: files outside the
    export's folder, and a long grid, are run only when the user agrees (or gives --yes)."""
    from app.core.study.grid_cost import files_outside, grid_cost, outside_sentence

    outside = files_outside(study, path.parent)
    if outside:
        confirm(outside_sentence(str(path), outside), yes)
    cost = grid_cost(study)
    if cost.long:
        confirm(cost.sentence(), yes)
