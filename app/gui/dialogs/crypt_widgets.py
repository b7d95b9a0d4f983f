"""Widgets shared by the encryption dialogs: a path with Browse, password fields with a strength
hint, a message line, and the progress row that runs the work in the pool with Cancel."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QElapsedTimer, Qt, Signal, Slot
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QWidget,
)

from app.core.units import MB, file_size
from app.gui.dialogs.crypt_texts import password_hint
from app.gui.label import Label
from app.gui.settings import AppSettings
from app.gui.worker import TaskRunner, TaskWorker

BAR_STEPS = 1000
_ERROR_STYLE = "color: #b3261e;"
_OK_STYLE = "color: #1e6b34;"
_WARN_STYLE = "color: #8a5300;"


def monospace_font() -> QFont:
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def form_label(text: str, width: int = 0) -> QLabel:
    """A form label; the same ``width`` for every label lines up nested forms."""
    label = Label(text)
    if width:
        label.setFixedWidth(width)
    return label


def label_width(widget: QWidget, texts: list[str]) -> int:
    """The width that fits the longest of ``texts`` in ``widget``'s font."""
    metrics = widget.fontMetrics()
    return max(metrics.horizontalAdvance(t) for t in texts) + 6


def grow_to_fit(window: QWidget) -> None:
    """Make ``window`` taller when its content grew (a longer wrapped text); never smaller."""
    layout = window.layout()
    if layout is None:
        return
    # Containers cache their children's height-for-width; a wrapped label whose text changed
    # (or changed while hidden) leaves a stale height behind, and the text would be clipped.
    for child in window.findChildren(QWidget):
        if child.layout() is not None:
            child.updateGeometry()
    layout.invalidate()
    layout.activate()
    height = layout.heightForWidth(window.width()) if layout.hasHeightForWidth() else -1
    height = max(height, layout.minimumSize().height())
    if window.height() < height:
        window.resize(window.width(), height)


class PathField(QWidget):
    """A file path typed or chosen with "Browse…". ``mode`` is ``"open"`` (an existing file)
    or ``"save"`` (a new one; the dialog using it confirms any overwrite itself)."""

    changed = Signal(str)
    browsed = Signal(str)  # a path the user picked with Browse

    def __init__(
        self,
        mode: str,
        caption: str,
        settings: AppSettings,
        placeholder: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._mode = mode
        self._caption = caption
        self._settings = settings
        self.line_edit = QLineEdit()
        self.line_edit.setPlaceholderText(placeholder)
        self.line_edit.setClearButtonEnabled(True)
        self.line_edit.textChanged.connect(self.changed)
        self.browse_button = QPushButton("Browse…")
        self.browse_button.clicked.connect(self._on_browse_button_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.line_edit, 1)
        layout.addWidget(self.browse_button)

    def path(self) -> str:
        text = self.line_edit.text().strip()
        return os.path.abspath(os.path.expanduser(text)) if text else ""

    def set_path(self, path: str) -> None:
        self.line_edit.setText(path)

    @Slot()
    def _on_browse_button_clicked(self) -> None:
        current = self.path()
        start = current or self._settings.last_folder
        if self._mode == "open":
            path, _ = QFileDialog.getOpenFileName(self, self._caption, start)
        else:
            path, _ = QFileDialog.getSaveFileName(
                self,
                self._caption,
                start,
                "",
                options=QFileDialog.Option.DontConfirmOverwrite,
            )
        if path:
            self.set_path(path)
            self._settings.last_folder = str(Path(path).parent)
            self.browsed.emit(path)


class PasswordFields(QWidget):
    """One hidden password field, or two (``confirm``) with a length hint and a match check.
    :meth:`password` is "" until the fields hold a usable password. :meth:`clear` after use."""

    changed = Signal()

    def __init__(self, confirm: bool, label_width: int = 0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._confirm = confirm
        self.first_edit = QLineEdit()
        self.first_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.first_edit.setPlaceholderText("Password")
        self.second_edit = QLineEdit()
        self.second_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.second_edit.setPlaceholderText("The same password again")
        self.hint_label = Label("")
        self.hint_label.setWordWrap(True)
        for edit in (self.first_edit, self.second_edit):
            edit.textChanged.connect(self._on_edit_text_changed)
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(form_label("Password:", label_width), self.first_edit)
        if confirm:
            form.addRow(form_label("Again:", label_width), self.second_edit)
            form.addRow("", self.hint_label)
            self.hint_label.setText(
                "Argon2id makes every guess slow; length makes guessing hopeless."
            )
        else:
            self.second_edit.hide()
            self.hint_label.hide()

    def password(self) -> str:
        first = self.first_edit.text()
        if not first or (self._confirm and self.second_edit.text() != first):
            return ""
        return first

    def problem(self) -> str:
        """Why :meth:`password` is empty, for the dialog's message line."""
        if not self.first_edit.text():
            return "Type a password."
        if self._confirm and self.second_edit.text() != self.first_edit.text():
            return "The two passwords differ."
        return ""

    def clear(self) -> None:
        self.first_edit.clear()
        self.second_edit.clear()

    def focus(self) -> None:
        self.first_edit.setFocus()

    @Slot()
    def _on_edit_text_changed(self) -> None:
        if self._confirm:
            first, second = self.first_edit.text(), self.second_edit.text()
            hint = password_hint(first)
            if first and second and first != second:
                hint += " The two passwords differ." if hint else ""
                self.hint_label.setStyleSheet(_ERROR_STYLE)
            elif first and first == second:
                hint += " Both match."
                self.hint_label.setStyleSheet("" if len(first) >= 12 else _WARN_STYLE)
            else:
                self.hint_label.setStyleSheet("" if len(first) >= 12 or not first else _WARN_STYLE)
            self.hint_label.setText(
                hint or "Argon2id makes every guess slow; length makes guessing hopeless."
            )
        self.changed.emit()


class MessageLabel(QLabel):
    """The dialog's one line of feedback: an error, a warning or a success, in plain words."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.hide()

    def show_error(self, text: str) -> None:
        self._show(text, _ERROR_STYLE)

    def show_warning(self, text: str) -> None:
        self._show(text, _WARN_STYLE)

    def show_ok(self, text: str) -> None:
        self._show(text, _OK_STYLE)

    def show_info(self, text: str) -> None:
        self._show(text, "")

    def clear_message(self) -> None:
        self.clear()
        self.hide()

    def _show(self, text: str, style: str) -> None:
        self.setStyleSheet(style)
        self.setText(text)
        self.show()


class TaskPanel(QWidget):
    """Runs one file operation at a time in the global thread pool, with a progress bar, a rate
    and Cancel. Signals (in the GUI thread): ``succeeded(value)``, ``failed(message)``,
    ``cancelled()``, then always ``finished()``."""

    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    finished = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = QProgressBar()
        self.bar.setRange(0, BAR_STEPS)
        self.bar.setTextVisible(True)
        self.status_label = Label("")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop now; nothing is written")
        self.cancel_button.clicked.connect(self.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.status_label)
        layout.addWidget(self.cancel_button)
        self._runner = TaskRunner(parent=self)
        self._worker: TaskWorker | None = None
        self._clock = QElapsedTimer()
        self.hide()

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self, text: str, fn: Callable[..., Any], *args: Any, progress: bool = True) -> None:
        """Run ``fn(*args)`` (``progress``: with ``on_progress`` and ``cancel``)."""
        assert self._worker is None, "one operation at a time"
        worker = TaskWorker(fn, *args, progress=progress)
        s = worker.signals
        s.progressed.connect(self._on_worker_progressed)
        s.resulted.connect(self.succeeded)
        s.failed.connect(self.failed)
        s.cancelled.connect(self.cancelled)
        s.finished.connect(self._on_worker_finished)
        self._worker = worker
        self._text = text
        if progress:
            self.bar.setRange(0, BAR_STEPS)
            self.bar.setValue(0)
        else:
            self.bar.setRange(0, 0)  # busy indicator: no sizes to report
        self.bar.setFormat(f"{text}…")
        self.status_label.clear()
        self.cancel_button.setEnabled(progress)
        self.cancel_button.setText("Cancel")
        self._clock.start()
        self.show()
        self._runner.start(worker)

    @Slot()
    def cancel(self) -> None:
        if self._worker is not None and not self._worker.cancel_requested:
            self._worker.cancel()
            self.cancel_button.setEnabled(False)
            self.bar.setFormat("Cancelling…")

    @Slot(object, object)
    def _on_worker_progressed(self, done: int, total: int) -> None:
        if self._worker is None or self._worker.cancel_requested:
            return
        fraction = done / total if total else 0.0
        value = round(fraction * BAR_STEPS)
        if value != self.bar.value():
            self.bar.setValue(value)
        self.bar.setFormat(f"{self._text}… {int(fraction * 100)} %")
        seconds = self._clock.elapsed() / 1000
        rate = f", {done / seconds / MB:.0f} MB/s" if seconds > 0.3 and done else ""
        self.status_label.setText(f"{file_size(done)} of {file_size(total)}{rate}")

    @Slot()
    def _on_worker_finished(self) -> None:
        self._worker = None
        self.bar.setRange(0, BAR_STEPS)
        self.hide()
        self.finished.emit()
