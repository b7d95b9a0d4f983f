"""What the Study and the Transfer windows share: a non-modal window around a controller that
runs in a worker, with a form in a scrolling left column and results on the right.

The shared behaviour: the size it opens at, the remembered folder file dialogs start in, save
dialogs that add the chosen filter's extension, exporting with a one-sentence warning when it
cannot, the warn/ask helpers, and closing while a run goes on (cancel first, close once the
worker has stopped; quitting the program waits for the worker).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import UserError
from app.core.runtime.output_checks import check_output
from app.core.text import display_text
from app.gui.file_filters import CHART_FILTERS
from app.gui.form_column import form_column
from app.gui.label import Label
from app.gui.menus import add_action
from app.gui.panels.progress_panel import LazyProgressBar
from app.gui.paper_export import ACTION_TEXT, ACTION_TIP, PaperExporter, has_paper_set, written_text
from app.gui.questions import ask_yes_no
from app.gui.screen_fit import ScreenFit, fit_to_screen
from app.gui.settings import AppSettings
from app.gui.tool_controller import ToolController
from app.gui.wiring import connect_handlers

WAIT_ON_QUIT_MS = 10_000
STATUS_MS = 8000


class ToolWindow(QMainWindow):
    """Base of a tool window. A subclass calls :meth:`_setup` with its controller, which
    builds it (``_build``, ``_create_actions``, ``_connect``, each the subclass's own); it
    names its title in ``TITLE``, what it exports in ``EXPORTED`` ("study", "transfer") and
    its opening size in ``SCREEN_FIT``."""

    TITLE: ClassVar[str]
    EXPORTED: ClassVar[str]
    # (largest width, largest height, share of the screen's width, of its height, and the
    # size when the screen is unknown)
    SCREEN_FIT: ClassVar[ScreenFit]

    controller: ToolController

    def __init__(self, parent: QWidget | None, settings: AppSettings | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.TITLE)
        self.settings = settings or AppSettings()  # its last folder: where dialogs start
        self._close_requested = False

    def _setup(self, controller: ToolController) -> None:
        """With its ``controller``: build the window, its actions and their connections, then
        :meth:`_finish_setup`."""
        self.controller = controller
        self._build()
        self._create_actions()
        self._connect()
        self._finish_setup()

    def _build(self) -> None:
        raise NotImplementedError

    def _create_actions(self) -> None:
        raise NotImplementedError

    def _connect(self) -> None:
        raise NotImplementedError

    def _finish_setup(self) -> None:
        """After building: drops, size, the actions' state, and waiting for the worker when
        the program quits."""
        self.setAcceptDrops(True)
        self.statusBar()  # made now: its first message ("Saved to history…") moves nothing
        fit_to_screen(self, self.SCREEN_FIT)
        self._update_actions()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._on_app_about_to_quit)

    # --- building ------------------------------------------------------------------------------

    @staticmethod
    def _progress_bar() -> LazyProgressBar:
        bar = LazyProgressBar()
        bar.setRange(0, 1000)
        bar.setTextVisible(False)
        return bar

    def _form_column(self, run_text: str, ready_text: str) -> QWidget:
        """The footer of a form, kept in view below it by :meth:`_set_columns`: the Run,
        Cancel and Export… buttons, the progress bar and the status line (``run_button``,
        ``cancel_button``, ``export_button``, ``progress``, ``status_label``), for a window
        that runs one thing at a time."""
        self.run_button = QPushButton(run_text)
        self.run_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.export_button = QPushButton("Export…")
        self.progress = self._progress_bar()
        self.status_label = self._status_line(3)
        self.status_label.setText(ready_text)
        return self._footer(
            [(self.run_button, self.cancel_button, self.export_button)],
            self.progress,
            self.status_label,
        )

    @staticmethod
    def _status_line(lines: int) -> Label:
        """A wrapped label ``lines`` lines high, whatever it says: text that changes while a
        run goes on must not change a size hint (a relayout repaints the charts, 15-30 ms)."""
        label = Label("")
        label.setWordWrap(True)
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        label.setFixedHeight(lines * label.fontMetrics().lineSpacing() + 2)
        return label

    @staticmethod
    def _footer(rows: list[tuple[QPushButton, ...]], *below: QWidget) -> QWidget:
        """Rows of buttons over ``below`` (a progress bar, status lines): what stays in view
        under a scrolling form."""
        footer = QWidget()
        column = QVBoxLayout(footer)
        for buttons in rows:
            row = QHBoxLayout()
            for button in buttons:
                row.addWidget(button)
            column.addLayout(row)
        for widget in below:
            column.addWidget(widget)
        return footer

    def _set_columns(
        self, left: QWidget, right: QWidget, sizes: list[int], footer: QWidget | None = None
    ) -> None:
        """``left`` in a scroll area as wide as it needs (``left_scroll``) over ``footer``,
        which stays in view (a 1366 x 768 screen scrolls the form, never the buttons and the
        status out of sight), ``right`` taking the rest, in ``splitter`` as the central
        widget."""
        padded = QWidget()  # the form inside its margins, as the footer below it
        QVBoxLayout(padded).addWidget(left)
        side, self.left_scroll = form_column(padded, footer)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(side)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes(sizes)
        self.setCentralWidget(self.splitter)

    def _action(self, text: str, slot: Any, shortcut: Any = None) -> QAction:
        """An action of this window (its shortcut works anywhere in it)."""
        return add_action(self, text, slot, shortcut)

    def _run_actions(self, run_text: str) -> None:
        """The actions every tool window has: ``run_action`` (``run_text``, Ctrl+R, calls
        ``_on_run_action_triggered``), ``cancel_action`` (Esc), ``export_action`` (Ctrl+E, calls
        ``_on_export_action_triggered``) and ``paper_action``."""
        self.run_action = self._action(run_text, self._on_run_action_triggered, "Ctrl+R")
        self.cancel_action = self._action("&Cancel", self.controller.cancel, Qt.Key.Key_Escape)
        self.export_action = self._action("&Export…", self._on_export_action_triggered, "Ctrl+E")
        self.paper_action = self._paper_action()

    def _connect_run(self, *more: tuple[QPushButton, QAction]) -> None:
        """The Run, Cancel and Export… buttons (and ``more``) to their actions, and the
        controller's signals to this window's ``_on_controller_...`` handlers."""
        self._bind_buttons(
            (self.run_button, self.run_action),
            (self.cancel_button, self.cancel_action),
            (self.export_button, self.export_action),
            *more,
        )
        connect_handlers(self.controller, self, "controller")

    def _on_run_action_triggered(self) -> None:
        raise NotImplementedError

    def _on_export_action_triggered(self) -> None:
        raise NotImplementedError

    @staticmethod
    def _bind_buttons(*pairs: tuple[QPushButton, QAction]) -> None:
        """Each button triggers its action and is enabled when the action is: a click, the
        shortcut and the menu entry do the same, and :meth:`_update_actions` sets actions only."""
        for button, action in pairs:
            button.clicked.connect(action.trigger)
            action.enabledChanged.connect(button.setEnabled)
            button.setEnabled(action.isEnabled())

    def _update_actions(self) -> None:
        """Enable what the state allows; each window has its own actions."""
        raise NotImplementedError

    # --- files -----------------------------------------------------------------------------------

    def _folder(self) -> str:
        return self.settings.last_folder

    def _save_path(
        self, caption: str, suggested: str, filters: dict[str, str], default: str = ""
    ) -> str:
        """The path the user chose in a save dialog ('' when cancelled), with the chosen
        filter's extension (or ``default``) added when they typed none."""
        path, chosen = QFileDialog.getSaveFileName(self, caption, suggested, ";;".join(filters))
        if path and not Path(path).suffix:
            path += filters.get(chosen, default)
        return path

    def _save_chart(self, chart: Any, stem: str, inputs: list[str] | None = None) -> Path | None:
        """Ask where to save ``chart`` and save it there (:meth:`write_chart`). Nothing for a
        chart without data."""
        chart.flush()  # a chart hidden when its data came has not drawn it yet
        if not chart.has_data:
            return None
        suggested = str(Path(self._folder()) / f"{stem}.png")
        path = self._save_path("Save chart", suggested, CHART_FILTERS, ".png")
        return self.write_chart(chart, path, inputs) if path else None

    def write_chart(self, chart: Any, path: str, inputs: list[str] | None = None) -> Path | None:
        """Save ``chart`` as PNG, or SVG for ``.svg``, never over one of ``inputs``; a warning
        when it cannot."""
        try:
            check_output(path, force=True, inputs=inputs or [])
            written = chart.save(path)
        except UserError as exc:
            self._warn("Cannot save the chart", str(exc))
            return None
        return self._saved(written, "the chart")

    def _saved(self, written: Path, what: str) -> Path:
        """Remember ``written``'s folder and say where ``what`` went."""
        self.settings.last_folder = str(written.parent)
        self.statusBar().showMessage(display_text(f"Saved {what} to {written}"), STATUS_MS)
        return written

    def _paper_action(self) -> QAction:
        """The *Export for a paper…* action and the exporter behind it (``paper_exporter``);
        a subclass puts it in its menu next to Export and enables it with
        :meth:`_can_export_for_paper`."""
        self.paper_exporter = PaperExporter(self)
        self.paper_exporter.written.connect(self._on_paper_exporter_written)
        self.paper_exporter.failed.connect(self._warn)
        self.paper_exporter.busy_changed.connect(self._on_paper_exporter_busy_changed)
        return add_action(self, ACTION_TEXT, self._on_paper_action_triggered, tip=ACTION_TIP)

    def _can_export_for_paper(self) -> bool:
        source = self.controller.paper_source()
        return (
            not self.controller.running
            and not self.paper_exporter.busy
            and source is not None
            and has_paper_set(source[0])
        )

    @Slot()
    def _on_paper_action_triggered(self) -> None:
        source = self.controller.paper_source()
        if source is None or not self._can_export_for_paper():
            return
        result, inputs = source
        self.paper_exporter.ask_and_start(self, result, self._folder(), inputs)

    @Slot(object)
    def _on_paper_exporter_written(self, paths: list[Path]) -> None:
        if paths:
            self.settings.last_folder = str(paths[0].parent)
        self.statusBar().showMessage(written_text(paths), STATUS_MS)

    @Slot(bool)
    def _on_paper_exporter_busy_changed(self, _busy: bool) -> None:
        self._update_actions()

    def export_to(self, path: str) -> Path | None:
        """Write the results to ``path``; a warning in one sentence when it cannot."""
        try:
            written = self.controller.export(path)
        except UserError as exc:
            self._warn("Cannot export", str(exc))
            return None
        return self._saved(written, f"the {self.EXPORTED}")

    # --- asking, warning -------------------------------------------------------------------------

    def _ask(self, title: str, text: str) -> bool:
        return ask_yes_no(self, title, text)

    def _warn(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, display_text(text))

    # --- closing ---------------------------------------------------------------------------------

    @Slot(bool)
    def _on_controller_running_changed(self, running: bool) -> None:
        self._update_actions()
        if not running and self._close_requested:
            self.close()

    def _may_close(self, event: QCloseEvent) -> bool:
        """Whether closing goes on (a subclass may ask first)."""
        return True

    def _closing_after_run(self) -> None:
        """Closing waits for the run to stop (a subclass may say so)."""

    def _closing(self, event: QCloseEvent) -> None:
        """The window closes now, nothing running (a subclass may tidy up)."""

    def closeEvent(self, event: QCloseEvent) -> None:
        """A running job is cancelled first and the window closes once the worker has
        stopped, so no worker outlives it."""
        if not self._may_close(event):
            event.ignore()
            return
        if self.controller.running:
            self._close_requested = True
            self.controller.cancel()
            self._closing_after_run()
            event.ignore()  # closes when the worker has stopped
            return
        self._closing(event)
        self._close_requested = False
        super().closeEvent(event)

    @Slot()
    def _on_app_about_to_quit(self) -> None:
        self.controller.cancel_and_wait(WAIT_ON_QUIT_MS)


W = TypeVar("W", bound=QWidget)


def show_owned(owner: QWidget, attribute: str, make: Callable[[], W]) -> W:
    """Show the owner's window kept as ``owner.<attribute>``, made on first use."""
    window: W | None = getattr(owner, attribute, None)
    if window is None:
        window = make()
        setattr(owner, attribute, window)
    window.show()
    window.raise_()
    window.activateWindow()
    return window
