"""What the main window's runs leave for the user to save: the results exported to a file, and
the ciphertexts the jobs kept ("Keep each job's ciphertext").

:class:`RunOutputs` is the controller's: it writes the export, makes the kept ciphertexts'
folders (one per input and run, private to the user), removes them all at Reset and exit, and
says whether a job's ciphertext can be decrypted back (the controller then decrypts it in the
background). It tells what happened through the callables it is given (the controller's
signals' ``emit``) and opens no dialogs.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from app.core.bench.kept import FinishedJob
from app.core.bench.results import RunResult
from app.core.errors import UserError
from app.core.runtime import scratch
from app.gui.describe import sentence
from app.gui.settings import AppSettings


class RunOutputs:
    """Export and the kept ciphertexts. ``message(text)`` for the status bar, ``error(title,
    text)`` for a dialog."""

    def __init__(
        self,
        settings: AppSettings,
        *,
        message: Callable[[str], object],
        error: Callable[[str, str], object],
    ) -> None:
        self.settings = settings
        self._message = message
        self._error = error
        self._keep_dirs: list[str] = []  # one per input of each run that kept ciphertexts

    def export(self, run: RunResult | None, path: str) -> Path | None:
        """Write ``run`` to ``path`` (.xlsx, .csv or .json). None (and an error) if not."""
        if run is None:
            self._error("Nothing to export", "Run a benchmark first.")
            return None
        from app.core.kinds.formats import save

        try:
            written = save(run, path)
        except UserError as exc:
            self._error("Export failed", sentence(str(exc)))
            return None
        except OSError as exc:
            self._error("Export failed", f"Cannot write {path}: {exc.strerror or exc}")
            return None
        self.settings.last_folder = os.path.dirname(os.path.abspath(written))
        n = len(run.results)
        self._message(f"Exported {n} result{'s' if n != 1 else ''} to {written}")
        return Path(written)

    # --- kept ciphertexts -----------------------------------------------------------------------

    def keep_dir(self) -> str:
        """A new folder (0700) for the ciphertexts of one input's jobs in one run: the names
        inside repeat from one to the next."""
        folder = scratch.make_dir("kept-")
        self._keep_dirs.append(folder)
        return folder

    def remove_keep_dirs(self) -> None:
        """Delete every kept ciphertext (Reset, exit)."""
        for folder in self._keep_dirs:
            scratch.remove(folder)
        self._keep_dirs.clear()

    def kept_job(self, job: FinishedJob | None) -> FinishedJob | None:
        """``job`` if its ciphertext can be decrypted back (Save plaintext…); otherwise None,
        and an error says why (nothing selected, or the job kept no ciphertext)."""
        if job is None:
            self._error("Nothing selected", "Select a finished job in the table first.")
        elif not job.kept:
            self._error(
                "Ciphertext not kept",
                f"{job.result.label} did not keep its ciphertext. Turn on “Keep each job's "
                "ciphertext” in the options and run again.",
            )
            return None
        return job
