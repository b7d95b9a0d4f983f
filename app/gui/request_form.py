"""The form of a tool window built on :class:`app.gui.form_tool_window.FormToolWindow`: a
widget that says what to run, as the request its window's controller starts."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget


class RequestForm(QWidget):
    """What to run, as the controller's request."""

    def request(self) -> Any:
        """What the form asks to run; ``UserError`` for a choice that cannot run."""
        raise NotImplementedError
