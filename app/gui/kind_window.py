"""The window of any kind made from its definition (:mod:`app.core.runtime.definition`): a form
of its options, Run and Cancel, a progress bar, its document (:class:`DocumentView`) and
Export in every format of its document. The run goes on in a worker; the result is stored in
the history as every run is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import UserError
from app.core.kinds.table import Kind, resolve
from app.core.runtime.definition import Definition, Option
from app.core.runtime.events import Finished, Progress
from app.core.text import display_text
from app.gui.document_view import DocumentView
from app.gui.file_filters import ask_save_path, save_or_warn
from app.gui.kind_views import extra_view
from app.gui.label import Label
from app.gui.menus import add_close_controls
from app.gui.screen_fit import ScreenFit, fit_to_screen
from app.gui.worker import ProgressWorker, TaskRunner


class KindWorker(ProgressWorker):
    """Relays a defined kind's run: progress throttled, the result last; cancel stops its
    running worker process."""

    def __init__(self, definition: Definition, values: dict[str, Any]) -> None:
        # The kind's run module is imported in the pool thread, not the window's.
        super().__init__(lambda cancel: resolve(definition.run)(values, cancel))


class ChoiceField(QComboBox):
    """An option with choices, picked from a list; read and locked as a line edit is."""

    def __init__(self, choices: tuple[str, ...], default: str) -> None:
        super().__init__()
        self.addItems(list(choices))
        self.setCurrentText(default)

    def text(self) -> str:
        return self.currentText()

    def setText(self, text: str) -> None:
        self.setCurrentText(text)

    def setReadOnly(self, read_only: bool) -> None:
        self.setEnabled(not read_only)


def _label_of(option: Option) -> str:
    """The form's label of an option: its own, or from its name (``"rounds"`` -> ``"Rounds"``)."""
    return option.label or option.name.replace("_", " ").capitalize()


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    return ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)


class KindWindow(QMainWindow):
    """One defined kind's window (module doc)."""

    def __init__(self, kind: Kind, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        definition = kind.defined()
        assert definition is not None
        self.kind, self.definition = kind, definition
        self.setWindowTitle(f"{definition.title} — CipherBench")
        self.runner = TaskRunner(parent=self)
        self.worker: KindWorker | None = None
        self.result: Any = None
        self._last: Any = None  # the result shown before a run: shown again if the run fails
        self.fields: dict[str, QLineEdit | ChoiceField] = {}
        form = QFormLayout()
        for option in definition.options:
            field: QLineEdit | ChoiceField
            if option.choices and not option.many:
                field = ChoiceField(option.choices, _as_text(option.default))
            else:
                field = QLineEdit(_as_text(option.default))
            several = "; several: separate them with commas" if option.many else ""
            field.setToolTip(option.help + several)
            if isinstance(field, QLineEdit):
                field.setPlaceholderText(option.help + several)
            self.fields[option.name] = field
            form.addRow(_label_of(option), field)
        self.run_button = QPushButton("Run")
        self.cancel_button = QPushButton("Cancel")
        self.export_button = QPushButton("Export…")
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.export_button.clicked.connect(self.export)
        buttons = QHBoxLayout()
        for button in (self.run_button, self.cancel_button, self.export_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.status = Label(definition.summary)
        self.status.setWordWrap(True)
        self.view = DocumentView()
        column = QVBoxLayout()
        column.addLayout(form)
        column.addLayout(buttons)
        column.addWidget(self.progress)
        column.addWidget(self.status)
        self.extra = extra_view(kind.name)
        if self.extra is None:
            column.addWidget(self.view, 1)
        else:
            self.tabs = tabs = QTabWidget()
            tabs.addTab(self.view, "Tables")
            tabs.addTab(self.extra[1], self.extra[0])
            column.addWidget(tabs, 1)
        # Close, Ctrl+W and Esc, as in the History window's views (a run is cancelled first)
        self.buttons = add_close_controls(self, column)
        central = QWidget()
        central.setLayout(column)
        self.setCentralWidget(central)
        self.statusBar()  # made now: its first message ("Saved to history…") moves nothing
        fit_to_screen(self, ScreenFit(1280, 860, 0.9, 0.92, 900, 600))
        self._update_buttons()

    @property
    def running(self) -> bool:
        return self.worker is not None and not self.worker.done

    def values(self) -> dict[str, Any]:
        """The options as typed, parsed; ``UserError`` for a wrong one, naming the field as
        the form does (not the command line's ``--rounds``)."""
        given: dict[str, Any] = {}
        for option in self.definition.options:
            text = self.fields[option.name].text().strip()
            if option.many:
                given[option.name] = [t.strip() for t in text.split(",") if t.strip()]
            else:
                given[option.name] = text or None
        try:
            return self.definition.values(given)
        except UserError as exc:
            said = str(exc)
            for option in self.definition.options:
                said = said.replace(f"--{option.name}", _label_of(option))
            raise UserError(said) from None

    def run(self) -> None:
        if self.running:
            return
        try:
            values = self.values()
        except UserError as exc:
            self._said_failure(str(exc))
            return
        worker = KindWorker(self.definition, values)
        worker.signals.progressed.connect(self._on_worker_progressed)
        worker.signals.finished_run.connect(self._on_worker_finished_run)
        worker.signals.failed.connect(self._on_worker_failed)
        worker.signals.finished.connect(self._update_buttons)
        self.worker = worker
        self._last, self.result = self.result or self._last, None  # back if this run fails
        self.view.set_document(None)  # no table of an earlier run beside this one's progress
        if self.extra is not None:
            self.extra[1].set_result(None)
            if self._live_view() is not None:
                self.tabs.setCurrentWidget(self.extra[1])  # the tables come at the end
        self.progress.setValue(0)
        self.status.setText("Starting…")
        self.runner.start(worker, busy=True)
        self._update_buttons()

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.status.setText("Cancelling: the running worker is stopped…")

    def export(self) -> None:
        if self.result is None:
            return
        filters = self.kind.files.file_filters()
        start = str(Path.home() / self.definition.command)  # not the program's own folder
        path = ask_save_path(self, "Export", start, filters)
        written = save_or_warn(self, self.result, path) if path else None
        if written is not None:
            self.status.setText(display_text(f"Wrote {written}"))

    def _live_view(self) -> Any:
        """The extra view when it shows a run's progress, else None."""
        view = self.extra[1] if self.extra is not None else None
        return view if hasattr(view, "show_progress") else None

    def _on_worker_progressed(self, event: Progress) -> None:
        self.progress.setValue(int(event.fraction * 1000))
        self.status.setText(display_text(event.text))
        if event.detail is not None and (view := self._live_view()) is not None:
            view.show_progress(event.detail)

    def _on_worker_finished_run(self, event: Finished) -> None:
        result = event.result
        measured = bool(getattr(result, "results", True))
        failures = getattr(result, "failures", ())
        self.view.set_document(self.kind.document_of(result))
        if self.extra is not None:
            self.extra[1].set_result(result)
            if self._live_view() is not None:
                self.tabs.setCurrentWidget(self.view)  # the verdicts, now that there are some
        if getattr(result, "cancelled", False):
            what = "the tables hold what finished" if measured else "nothing had finished"
            self.status.setText(f"Cancelled: {what}.")
        elif not measured:
            first = failures[0].message if failures else "nothing was measured"
            self._said_failure(f"every entry failed: {first}")
        else:
            self.progress.setValue(1000)
            failed = f"Done; {len(failures)} entry(ies) failed (see the notes)."
            self.status.setText(failed if failures else "Done.")
        if not measured:
            self._show_last()
            return  # an empty run is neither kept nor exported
        self.result = result
        self._update_buttons()  # Export, whether the worker's end came before this or after
        from app.gui.recorder import history_recorder

        history_recorder().record(result, self)

    def _on_worker_failed(self, text: str) -> None:
        self._said_failure(text.splitlines()[0] if text else text)
        self._show_last()

    def _show_last(self) -> None:
        """A run that failed (a mistyped cipher, say) leaves the last run's tables shown and
        exportable, as they were before it."""
        last = self._last
        if self.result is not None or last is None:
            return
        self.result = last
        self.view.set_document(self.kind.document_of(last))
        if self.extra is not None:
            self.extra[1].set_result(last)
        self.status.setText(self.status.text() + " The tables are the last run's.")
        self._update_buttons()

    def _said_failure(self, text: str) -> None:
        """A run that could not start or measured nothing: said in the status line, in red."""
        self.progress.setValue(0)
        self.status.setText(display_text(f"Failed: {text}"))
        self.status.setStyleSheet("color: #b00020;")

    def _update_buttons(self) -> None:
        running = self.running
        if running:
            self.status.setStyleSheet("")
        for field in self.fields.values():
            field.setReadOnly(running)
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.export_button.setEnabled(self.result is not None and not running)

    def closeEvent(self, event: QCloseEvent) -> None:
        """While a run goes on: cancel it, and close once its worker has stopped (the window
        stays responsive meanwhile)."""
        if self.running and self.worker is not None:
            self.worker.signals.finished.connect(self.close)
            self.cancel()
            event.ignore()
            return
        super().closeEvent(event)


def open_kind_window(owner: QWidget, kind: Kind) -> KindWindow:
    """Show ``owner``'s window of ``kind``, made on first use and kept."""
    windows: dict[str, KindWindow] = owner.__dict__.setdefault("kind_windows", {})
    window = windows.get(kind.name)
    if window is None:
        window = windows[kind.name] = KindWindow(kind, owner)
    window.show()
    window.raise_()
    return window
