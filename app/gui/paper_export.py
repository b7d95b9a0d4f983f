"""*Export for a paper…*: a folder dialog, then the result's paper set
(:func:`app.core.publish.paper_set.write_paper_set`: tables, figures, Methods) written in the
thread pool.

Every window that shows a result (the main window, Study, Transfer, Sweep) has the action;
this is what they share. The figures are drawn by matplotlib, whose import takes a few tenths
of a second and whose first use on a machine builds a font cache for seconds, so the writing
runs in a :class:`~app.gui.worker.TaskWorker` like the window's other file tasks; the window
hears ``written`` (for the status bar) or ``failed`` (worth a message box) in the GUI thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QThreadPool, Signal, Slot
from PySide6.QtWidgets import QFileDialog, QWidget

from app.core.publish import paper_set
from app.core.publish.paper_set import paper_set_names, write_paper_set
from app.core.text import display_text
from app.gui.questions import ask_yes_no
from app.gui.worker import TaskRunner

ACTION_TEXT = "Export for a &paper…"
ACTION_TIP = "Write the tables (Markdown, LaTeX), the figures (SVG, PDF) and the Methods "
ACTION_TIP += "paragraph into one folder"
FAILED_TITLE = "Cannot export for a paper"


def has_paper_set(result: object | None) -> bool:
    """Whether ``result`` has anything for a paper (its kind may have no paper format yet)."""
    return result is not None and paper_set.has_paper_set(result)


def written_text(paths: Sequence[Path]) -> str:
    """``"Wrote 5 files for a paper to /x: a.md, a.tex, ..."`` for the status bar."""
    if not paths:
        return "Nothing was written."
    names = ", ".join(p.name for p in paths)
    n = len(paths)
    return display_text(
        f"Wrote {n} file{'s' if n != 1 else ''} for a paper to {paths[0].parent}: {names}"
    )


class PaperExporter(QObject):
    """One paper set at a time, written off the GUI thread."""

    written = Signal(object)  # list[Path] written, all in one folder
    failed = Signal(str, str)  # title, text
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self._runner = TaskRunner(pool, self)
        self._runner.busy_changed.connect(self.busy_changed)

    @property
    def busy(self) -> bool:
        return self._runner.busy

    def ask_and_start(
        self,
        parent: QWidget,
        result: object | None,
        start_folder: str,
        inputs: Sequence[str] = (),
    ) -> bool:
        """Ask for a folder (starting in ``start_folder``), ask before replacing files of the
        same names there, and start writing; False when nothing was started."""
        if self.busy or not has_paper_set(result):
            return False
        folder = QFileDialog.getExistingDirectory(
            parent, "Export for a paper: choose a folder", start_folder
        )
        if not folder:
            return False
        there = [name for name in paper_set_names(result) if (Path(folder) / name).exists()]
        if there and not ask_yes_no(
            parent,
            "Replace the files?",
            display_text(f"{folder} already holds {', '.join(there)}. Replace them?"),
        ):
            return False
        self.start(result, folder, inputs)
        return True

    def start(self, result: object, folder: str, inputs: Sequence[str] = ()) -> None:
        """Write ``result``'s paper set into ``folder`` in the thread pool."""
        self._runner.run_task(
            partial(write_paper_set, inputs=list(inputs)),
            result,
            folder,
            on_result=self._on_worker_resulted,
            on_failure=self._on_worker_failed,
            busy=True,
        )

    @Slot(object)
    def _on_worker_resulted(self, paths: list[Path]) -> None:
        self.written.emit(paths)

    @Slot(str)
    def _on_worker_failed(self, text: str) -> None:
        self.failed.emit(FAILED_TITLE, text)
