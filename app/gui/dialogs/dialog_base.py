"""What the Encrypt and Decrypt dialogs share: :class:`CryptDialogBase`.

Both run one piece of work at a time in a :class:`~app.gui.dialogs.crypt_widgets.TaskPanel`
under a :class:`~app.gui.dialogs.crypt_widgets.MessageLabel`, with their action buttons beside
Close. Closing (Close, Esc, the window's close button) while the work runs cancels it, and the
dialog closes once the work has stopped, so no output is left half written. Secrets typed into
the dialog are forgotten when it closes.
"""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton, QWidget

from app.gui.dialogs.crypt_texts import plain_message
from app.gui.dialogs.crypt_widgets import MessageLabel, PasswordFields, TaskPanel, grow_to_fit
from app.gui.questions import ask_yes_no
from app.gui.settings import AppSettings

NOTHING_WRITTEN = " Nothing was written."


class CryptDialogBase(QDialog):
    """A dialog that runs file work in its task panel; subclasses build the form and say what
    a result means (:meth:`_on_task_succeeded`) and what to do when the work stops."""

    password_fields: PasswordFields  # made by the subclass; cleared when the dialog closes

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self._close_when_finished = False
        self.message = MessageLabel()
        self.task = TaskPanel()
        self.task.succeeded.connect(self._on_task_succeeded)
        self.task.failed.connect(self._on_task_failed)
        self.task.cancelled.connect(self._on_task_cancelled)
        self.task.finished.connect(self._on_task_finished)

    def _make_buttons(self, *actions: QPushButton) -> QDialogButtonBox:
        """``self.buttons``: the ``actions``, then Close (which closes as Esc does)."""
        self.buttons = QDialogButtonBox()
        for button in actions:
            self.buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.close_button.clicked.connect(self.reject)
        return self.buttons

    # --- asking and telling -----------------------------------------------------------------

    def _ask(self, title: str, text: str) -> bool:
        """A Yes/No question, No by default; True for Yes."""
        return ask_yes_no(self, title, text)

    def _ask_replace(self, text: str) -> bool:
        """The overwrite confirmation: True when the user agrees to replace."""
        return self._ask("Replace the file?", text)

    def _show_failure(self, text: str, tail: str = NOTHING_WRITTEN) -> None:
        """Show the worker's error ``text`` in plain words, followed by ``tail``."""
        self.message.show_error(plain_message(text) + tail)
        grow_to_fit(self)

    # --- the work's end ---------------------------------------------------------------------

    @Slot(object)
    def _on_task_succeeded(self, value: object) -> None:
        raise NotImplementedError

    @Slot(str)
    def _on_task_failed(self, text: str) -> None:
        self._show_failure(text)

    @Slot()
    def _on_task_cancelled(self) -> None:
        self._task_cancelled()
        self.message.show_info("Cancelled." + NOTHING_WRITTEN)

    @Slot()
    def _on_task_finished(self) -> None:
        self._task_stopped()
        if self._close_when_finished:
            self._release()
            super().done(QDialog.DialogCode.Rejected)
        else:
            self._task_settled()

    def _task_cancelled(self) -> None:
        """Hook: the work was cancelled (before the message says so)."""

    def _task_stopped(self) -> None:
        """Hook: the work has stopped, whatever its end; the controls come back here."""

    def _task_settled(self) -> None:
        """Hook: the work has stopped and the dialog stays open."""

    # --- closing ----------------------------------------------------------------------------

    def _release(self) -> None:
        """Forget what the dialog holds before it closes (the typed password)."""
        self.password_fields.clear()

    def done(self, result: int) -> None:
        """Closing while the work runs cancels it; the dialog closes when it has stopped."""
        if self.task.running:
            self._close_when_finished = True
            self.task.cancel()
            return
        self._release()
        super().done(result)
