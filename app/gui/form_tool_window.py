"""What the Message lengths and hardware and the Transfer windows share beyond every tool
window's: the left column of :meth:`~app.gui.tool_window.ToolWindow._form_column` (a scrolling
form, with Run, Cancel and Export…, the progress bar and a status line of three lines kept in
view below it), whose Run hands the form's request to a controller that reports progress as a
fraction and a sentence, and warnings in sentences.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from app.core.errors import UserError
from app.core.text import display_text
from app.gui.describe import sentence
from app.gui.request_form import RequestForm
from app.gui.screen_fit import ScreenFit
from app.gui.settings import AppSettings
from app.gui.tool_controller import StatusToolController
from app.gui.tool_window import ToolWindow


class FormToolWindow(ToolWindow):
    """Base of a tool window built on :meth:`_form_column` around its ``form``. A subclass
    names its controller and form classes (``CONTROLLER``, ``FORM``), the Run button's text
    and what the status line says before a run (``RUN_TEXT``, ``READY``), the columns' widths
    (``COLUMN_SIZES``) and what it shows on the right (:meth:`_build_results`); it says when
    there is something to export (:meth:`_has_results_to_export`) and what the status line
    says while closing waits for the run to stop (``STOPPING``)."""

    SCREEN_FIT = ScreenFit(1440, 900, 0.96, 0.9, 1240, 700)
    CONTROLLER: ClassVar[type[StatusToolController]]
    FORM: ClassVar[type[RequestForm]]
    RUN_TEXT: ClassVar[str]
    READY: ClassVar[str]
    COLUMN_SIZES: ClassVar[tuple[int, int]]
    STOPPING: ClassVar[str]

    controller: StatusToolController
    form: RequestForm

    def __init__(self, parent: QWidget | None = None, settings: AppSettings | None = None) -> None:
        """``settings`` (the main window's) gives the folder file dialogs start in."""
        super().__init__(parent, settings)
        self._setup(self.CONTROLLER(self))

    # --- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.form = self.FORM()
        footer = self._form_column(self.RUN_TEXT, self.READY)
        self._set_columns(self.form, self._build_results(), list(self.COLUMN_SIZES), footer)

    def _build_results(self) -> QWidget:
        """The right side: what the runs' results are shown in."""
        raise NotImplementedError

    # --- running -------------------------------------------------------------------------------

    @Slot()
    def _on_run_action_triggered(self) -> None:
        """Run the form's request; one the form or the controller refuses is said by
        :meth:`_not_run`."""
        if self.controller.running:
            return
        try:
            request = self.form.request()
            self._starting(request)
            self.progress.setValue(0)
            self.controller.start(request)
        except UserError as exc:
            self._not_run(exc)

    def _starting(self, request: Any) -> None:
        """Just before ``request`` starts (a subclass may clear what it shows)."""

    def _not_run(self, exc: UserError) -> None:
        """``exc`` refused the run: a warning naming what did not run."""
        self._warn(f"Cannot run the {self.controller.RUNS}", str(exc))

    def _has_results_to_export(self) -> bool:
        raise NotImplementedError

    def _update_actions(self) -> None:
        running = self.controller.running
        self.run_action.setEnabled(not running)
        self.cancel_action.setEnabled(running)
        self.export_action.setEnabled(self._has_results_to_export())
        self.paper_action.setEnabled(self._can_export_for_paper())
        self.form.setEnabled(not running)

    def _export_as(self, caption: str, name: str, filters: dict[str, str], default: str) -> None:
        """Export, when there is something to, to the file the user chooses (``name`` in the
        last folder suggested)."""
        if not self._has_results_to_export():
            return
        suggested = str(Path(self._folder()) / name)
        path = self._save_path(caption, suggested, filters, default)
        if path:
            self.export_to(path)

    def _warn(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, display_text(sentence(text)))

    # --- the controller's news -----------------------------------------------------------------

    @Slot(float, str)
    def _on_controller_progress_changed(self, fraction: float, text: str) -> None:
        self.progress.setValue(round(fraction * 1000))
        self.status_label.setText(display_text(text))

    @Slot(object)
    def _on_controller_run_finished(self, _result: object) -> None:
        self._update_actions()

    def _closing_after_run(self) -> None:
        """A running job is cancelled first; the window closes once it has stopped."""
        self.status_label.setText(self.STOPPING)
