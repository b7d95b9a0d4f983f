"""What the Message lengths and hardware and the Transfer windows share beyond every tool
window's: the left column of :meth:`~app.gui.tool_window.ToolWindow._form_column` (a scrolling
form, with Run, Cancel and Export…, the progress bar and a status line of three lines kept in
view below it), fed by a controller that
reports progress as a fraction and a sentence, and warnings in sentences.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from app.core.text import display_text
from app.gui.describe import sentence
from app.gui.screen_fit import ScreenFit
from app.gui.tool_window import ToolWindow


class FormToolWindow(ToolWindow):
    """Base of a tool window built on :meth:`_form_column` around its ``form``. A subclass
    says when there is something to export (:meth:`_has_results_to_export`) and what the
    status line says while closing waits for the run to stop (``STOPPING``)."""

    SCREEN_FIT = ScreenFit(1440, 900, 0.96, 0.9, 1240, 700)
    STOPPING: ClassVar[str]

    form: QWidget

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
