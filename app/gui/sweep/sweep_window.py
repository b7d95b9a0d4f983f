"""The Message lengths and hardware window (Run > Message lengths & hardware…): the sweep (each
cipher entry on messages from 16 B to 16 MiB, in cycles per byte) and the hardware ladder (one
AES cipher with the CPU's AES instructions, without them, in pure Python), as ``python main.py
sweep`` and ``ladder`` run them.

Non-modal; the main window keeps working. Each round runs in a fresh worker process; closing the
window during a run cancels it (the engine kills the worker) and closes once the worker thread
has stopped, so no process outlives it. The right side shows the last run of the tab chosen on
the left; Export writes that one.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QStackedWidget,
    QWidget,
)

from app.core.errors import UserError
from app.core.kinds.formats import SWEEP as SWEEP_FORMATS
from app.core.sweep.results import LADDER
from app.core.text import display_text
from app.gui.form_tool_window import FormToolWindow
from app.gui.menus import add_menu
from app.gui.results.sweep_view import LadderResultView, SweepResultView
from app.gui.results.throttled_chart import ThrottledChart
from app.gui.settings import AppSettings
from app.gui.sweep.sweep_controller import SweepController
from app.gui.sweep.sweep_form import SweepForm
from app.gui.tool_window import show_owned


class SweepWindow(FormToolWindow):
    """The sweep and the ladder."""

    TITLE = "CipherBench – Message lengths and hardware"
    EXPORTED = "results"
    CONTROLLER = SweepController
    FORM = SweepForm
    RUN_TEXT = "Run"
    READY = "Choose the entries and the message lengths, or a cipher for the ladder, then Run."
    COLUMN_SIZES = (330, 1000)
    STOPPING = "Stopping the run before closing…"
    controller: SweepController
    form: SweepForm

    # --- building ------------------------------------------------------------------------------

    def _build_results(self) -> QWidget:
        self.sweep_view = SweepResultView()
        self.ladder_view = LadderResultView()
        self.views = QStackedWidget()
        self.views.addWidget(self.sweep_view)
        self.views.addWidget(self.ladder_view)
        return self.views

    def _create_actions(self) -> None:
        self._run_actions("&Run")
        self.save_chart_action = self._action("Save c&hart…", self._on_chart_save_requested)
        self.close_action = self._action("C&lose", self.close, QKeySequence.StandardKey.Close)
        add_menu(
            self,
            "&Sweep",
            (self.run_action, self.cancel_action),
            (self.export_action, self.paper_action, self.save_chart_action, self.close_action),
        )

    def _connect(self) -> None:
        self._connect_run()
        for view in (self.sweep_view, self.ladder_view):
            view.chart.save_requested.connect(self._on_chart_save_requested)
        self.form.mode_changed.connect(self.controller.show_kind)
        self.controller.failed.connect(self._warn)

    # --- what is shown -------------------------------------------------------------------------

    @property
    def view(self) -> SweepResultView | LadderResultView:
        """The view of the kind shown (the last sweep's or the last ladder's)."""
        return self.ladder_view if self.controller.kind == LADDER else self.sweep_view

    @property
    def chart(self) -> ThrottledChart:
        return self.view.chart

    # --- actions -------------------------------------------------------------------------------

    def _not_run(self, exc: UserError) -> None:
        self.status_label.setText(display_text(f"Not run: {exc}."))
        self._warn(f"Cannot run the {'ladder' if self.form.mode == LADDER else 'sweep'}", str(exc))

    @Slot()
    def _on_export_action_triggered(self) -> None:
        name = f"cipherbench-{self.controller.kind}.html"
        self._export_as("Export the results", name, SWEEP_FORMATS.file_filters(), ".html")

    @Slot()
    def _on_chart_save_requested(self) -> None:
        self._save_chart(self.chart, f"cipherbench-{self.controller.kind}")

    def save_chart_to(self, path: str) -> Path | None:
        """Save the chart shown as PNG, or SVG for ``.svg``; a warning when it cannot."""
        return self.write_chart(self.chart, path)

    # --- the controller's news -----------------------------------------------------------------

    @Slot()
    def _on_controller_results_changed(self) -> None:
        self.views.setCurrentWidget(self.view)
        self.view.set_result(self.controller.result())
        self._update_actions()

    def _update_actions(self) -> None:
        super()._update_actions()
        running = self.controller.running
        self.save_chart_action.setEnabled(not running and self.controller.result() is not None)

    def _has_results_to_export(self) -> bool:
        """A finished (or cancelled) run of the kind shown with at least one entry."""
        result = self.controller.result()
        return not self.controller.running and result is not None and bool(result.entries)


def open_sweep_window(owner: QWidget, settings: AppSettings | None = None) -> SweepWindow:
    """Show the owner's Message lengths and hardware window, made on first use (sharing
    ``settings``) and kept as ``owner.sweep_window``."""
    return show_owned(owner, "sweep_window", lambda: SweepWindow(settings=settings))
