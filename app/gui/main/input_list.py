"""The main window's inputs: the files and the generated data the next run measures, in order.

:class:`InputList` is the controller's list. A file is inspected when it is added and again
before a run (one changed since is used as it is now; one that cannot be read any more leaves
the list); each input gets a label unlike the others' (``data.csv (y)``); generated random data
is deleted when it leaves the list. It tells what happened through the callables it is given
(the controller's signals' ``emit``) and opens no dialogs.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import replace

from app.core.bench.accumulated import unique_label
from app.core.bench.jobs import InputSpec
from app.core.errors import UserError
from app.core.units import format_bytes
from app.gui.describe import input_info, sentence
from app.gui.panels.input_panel import InputInfo
from app.gui.settings import AppSettings


class InputList:
    """The inputs, and the recent files in ``settings``. ``changed(list[InputInfo])`` after
    every change, ``recent_files_changed(list[str])``, ``message(text)`` for the status bar,
    ``error(title, text)`` for a dialog."""

    def __init__(
        self,
        settings: AppSettings,
        *,
        changed: Callable[[list[InputInfo]], object],
        recent_files_changed: Callable[[list[str]], object],
        message: Callable[[str], object],
        error: Callable[[str, str], object],
    ) -> None:
        self.settings = settings
        self._changed = changed
        self._recent_files_changed = recent_files_changed
        self._message = message
        self._error = error
        self._inputs: list[InputSpec] = []

    @property
    def specs(self) -> list[InputSpec]:
        return list(self._inputs)

    def add_files(self, paths: list[str]) -> int:
        """Add the files among ``paths`` that can be used; one error names those that cannot.
        Returns how many were added."""
        from app.core.bench.inputs import inspect_file

        added: list[InputSpec] = []
        problems: list[str] = []
        for path in paths:
            try:
                added.append(inspect_file(path))
            except UserError as exc:
                problems.append(sentence(str(exc)))
                if path in self.settings.recent_files and not os.path.exists(path):
                    self._recent_files_changed(self.settings.remove_recent_file(path))
        if added:
            fresh = {spec.path for spec in added}
            kept = [s for s in self._inputs if s.path not in fresh]
            for i, spec in enumerate(added):  # x/data.csv and y/data.csv: "data.csv (y)"
                others = {s.label for s in kept + added[:i]}
                parent = os.path.basename(os.path.dirname(spec.path))
                added[i] = replace(spec, label=unique_label(spec.label, others, parent))
            self.set_specs(kept + added)
            self.settings.last_folder = os.path.dirname(added[-1].path)
            for spec in added:
                self._recent_files_changed(self.settings.add_recent_file(spec.path))
            last = added[-1]
            more = f" and {len(added) - 1} more" if len(added) > 1 else ""
            self._message(
                f"Input: {last.path} ({format_bytes(last.size_bytes)}){more}; "
                f"{len(self._inputs)} in the list"
            )
        if problems:
            title = "Cannot use this file" if len(paths) == 1 else "Some files cannot be used"
            self._error(title, "\n".join(problems))
        return len(added)

    def add_generated(self, spec: InputSpec) -> None:
        """Add generated random data (``app.core.bench.inputs.generated_input``'s)."""
        spec = replace(spec, label=unique_label(spec.label, {s.label for s in self._inputs}))
        self.set_specs([*self._inputs, spec])
        self._message(f"Input: {spec.label}, random data in {spec.path}")

    def remove(self, rows: list[int]) -> None:
        """Take the inputs at ``rows`` (of :attr:`specs`) out of the list."""
        gone = set(rows)
        self.set_specs([s for i, s in enumerate(self._inputs) if i not in gone])

    def set_specs(self, specs: list[InputSpec]) -> None:
        """The inputs become ``specs``; generated data no longer listed is deleted."""
        kept = {s.path for s in specs}
        for old in self._inputs:
            if old.generated and old.path not in kept:
                from app.core.bench.inputs import cleanup_generated

                cleanup_generated(old)
        self._inputs = list(specs)
        self._changed([input_info(s) for s in specs])

    def refreshed(self) -> list[InputSpec]:
        """The inputs as they are now. A file changed since it was chosen is used as it is now
        (the status bar says so); one that cannot be read any more leaves the list, and a
        ``UserError`` says which (the user runs again with the rest)."""
        from app.core.bench.inputs import inspect_file

        fresh_specs, gone = [], []
        for spec in self._inputs:
            if not spec.generated:
                try:
                    fresh = inspect_file(spec.path)
                except UserError as exc:
                    gone.append(sentence(str(exc)))
                    continue
                if (fresh.size_bytes, fresh.mtime_ns) != (spec.size_bytes, spec.mtime_ns):
                    self._message(
                        f"{spec.label} changed since it was chosen; using it as it is now."
                    )
                    spec = fresh
            fresh_specs.append(spec)
        if fresh_specs != self._inputs:
            self.set_specs(fresh_specs)
        if gone:
            left = "Run again to measure the others." if fresh_specs else ""
            gone.append(
                "It is no longer in the list."
                if len(gone) == 1
                else "They are no longer in the list."
            )
            raise UserError(" ".join([*gone, left]).strip())
        return fresh_specs

    def clear_recent_files(self) -> None:
        self.settings.clear_recent_files()
        self._recent_files_changed([])

    def delete_generated(self) -> None:
        """Delete the generated data in the list, leaving the list as it is (on exit)."""
        from app.core.bench.inputs import cleanup_generated

        for spec in self._inputs:
            if spec.generated:
                with contextlib.suppress(OSError):
                    cleanup_generated(spec)
