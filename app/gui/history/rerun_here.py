"""Running a cipher study here again, from the History window: *Run this on my machine* (a
stored run) and *Run a study file here* (an export someone sent). What to run is read in the
pool; a received file that names files outside its folder, or a grid of hours, is asked about
first; the study runs in a progress row above the window's buttons (:mod:`rerun_panel`, the
Study window's own worker) and ends shown merged with the original."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QWidget

from app.core.errors import UserError
from app.core.history.location import storing_disabled
from app.gui.history import history_tasks
from app.gui.history.history_texts import not_a_cipher_study
from app.gui.questions import ask_yes_no
from app.gui.recorder import history_recorder

if TYPE_CHECKING:
    from app.core.study.result import StudyResult
    from app.gui.history.rerun_panel import Rerun, RerunPanel
    from app.gui.settings import AppSettings
    from app.gui.study.study_controller import StudyRunFactory

STATUS_MS = 10_000


class _Host(Protocol):
    """What this part asks of the History window (beside being its main window)."""

    path: Path
    settings: AppSettings

    def run_task(
        self,
        fn: Callable[..., Any],
        *args: Any,
        done: Callable[[Any], object],
        failed: Callable[[str], object],
    ) -> None: ...

    def insert_below_table(self, widget: QWidget) -> None: ...

    def update_buttons(self) -> None: ...

    def show_merged(self, sources: Any, merged: Any, warnings: Sequence[str] = ()) -> None: ...


class RerunHere(QObject):
    """The History window's part that runs a study here (one at a time)."""

    def __init__(self, window: QMainWindow, factory: StudyRunFactory | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.host = cast(_Host, window)
        self._factory = factory  # None: the real engine
        self.panel: RerunPanel | None = None  # made on the first run here
        self.close_requested = False  # the window closes once the study has stopped
        self._status: str | None = None  # said again with the new run's id once stored

    @property
    def running(self) -> bool:
        return self.panel is not None and self.panel.running

    def run_stored(self, run_id: int) -> None:
        """*Run this on my machine* for stored run ``run_id``."""
        self.window.statusBar().showMessage(f"Reading run {run_id}…")
        self.host.run_task(
            history_tasks.load,
            self.host.path,
            run_id,
            done=self._on_stored_loaded,
            failed=self._on_failed,
        )

    def run_file(self) -> None:
        """*Run a study file here*: the user picks an exported JSON (nothing is imported)."""
        settings = self.host.settings
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Run a study file here", settings.last_folder, "CipherBench study (*.json)"
        )
        if not path:
            return
        settings.last_folder = str(Path(path).parent)
        self.window.statusBar().showMessage(f"Reading {path}…")
        self.host.run_task(
            history_tasks.read_export_file, path, done=self._on_file_read, failed=self._on_failed
        )

    def cancel(self) -> None:
        if self.panel is not None:
            self.panel.cancel()

    def stored_as(self, run_id: int) -> str | None:
        """What the end of the run here said, with the id the history gave it (once)."""
        text, self._status = self._status, None
        return None if text is None else f"{text} Stored as run {run_id}."

    @Slot(object)
    def _on_stored_loaded(self, stored: Any) -> None:
        from app.core.study.result import StudyResult
        from app.gui.history.rerun_panel import Rerun

        if not isinstance(stored.result, StudyResult):
            QMessageBox.information(
                self.window, "Cannot run it here", not_a_cipher_study(f"Run {stored.id}", "study")
            )
            return
        self._start(Rerun(stored.result, f"run {stored.id}", stored.summary.hostname))

    @Slot(object)
    def _on_file_read(self, out: tuple[str, str, Any, dict[str, Any]]) -> None:
        from app.core.study.grid_cost import files_outside, grid_cost, outside_sentence
        from app.core.study.result import StudyResult
        from app.gui.history.rerun_panel import Rerun

        path, kind, result, meta = out
        name = Path(path).name
        if not isinstance(result, StudyResult):
            QMessageBox.information(
                self.window, "Cannot run it here", not_a_cipher_study(name, kind)
            )
            return
        outside = files_outside(result.study, Path(path).parent)
        asks = [outside_sentence(name, outside)] if outside else []
        cost = grid_cost(result.study)
        asks += [cost.sentence()] if cost.long else []
        for text in asks:
            if not ask_yes_no(self.window, "Run it here?", f"{text[0].upper()}{text[1:]}. Run it?"):
                self.window.statusBar().showMessage("Not run: nothing was measured.")
                return
        host = meta.get("hostname")
        integrity = str(meta.get("digest_state", ""))
        self._start(Rerun(result, name, host if isinstance(host, str) else None, integrity))

    def _made_panel(self) -> RerunPanel:
        """The progress row, made on first use (it brings the Study window's controller: not
        imported before it is needed), placed above the window's buttons."""
        if self.panel is None:
            from app.gui.history.rerun_panel import RerunPanel

            w = self.window
            self.panel = RerunPanel(w) if self._factory is None else RerunPanel(w, self._factory)
            self.host.insert_below_table(self.panel)
            self.panel.finished.connect(self._on_panel_finished)
            self.panel.failed.connect(self._on_failed)
            self.panel.running_changed.connect(self._on_running_changed)
        return self.panel

    def _start(self, rerun: Rerun) -> None:
        bar = self.window.statusBar()
        try:
            self._made_panel().start(rerun)
        except UserError as exc:
            bar.clearMessage()
            QMessageBox.warning(self.window, "Cannot run the study here", str(exc))
            return
        bar.showMessage(f"Running {rerun.name} ({rerun.origin}) on this machine…")
        self.host.update_buttons()

    @Slot(object, object)
    def _on_panel_finished(self, rerun: Rerun, new: StudyResult) -> None:
        from app.gui.history.rerun_panel import failure_lines, rerun_sources

        stored = history_recorder().enabled(self.window) and bool(new.results or new.failures)
        if new.cancelled:
            text = "Cancelled: nothing merged."
            if stored:
                text += " The cells that finished are stored as a cancelled run."
        else:
            sources = rerun_sources(rerun, new)
            self.host.show_merged(sources, None, rerun.warnings() + failure_lines(new))
            text = f"Ran {rerun.name} here ({len(new.results)} cells), beside {rerun.origin}."
            if storing_disabled():
                text += " Not stored: CIPHERBENCH_NO_HISTORY is set."
            elif not stored:
                text += " Not stored: keeping a history of runs is off (History menu)."
        # The recorder stores the run after this (analysed first): its id is added then.
        self._status = text if stored else None
        self.window.statusBar().showMessage(text, STATUS_MS)

    @Slot(str)
    def _on_failed(self, text: str) -> None:
        self.window.statusBar().clearMessage()
        QMessageBox.warning(self.window, "Cannot run the study here", text)

    @Slot(bool)
    def _on_running_changed(self, running: bool) -> None:
        self.host.update_buttons()
        if not running and self.close_requested:
            self.close_requested = False
            self.window.close()
