"""The window's one kind of text label: what it shows is text, never markup.

A ``QLabel`` guesses whether its text is rich text (``Qt.mightBeRichText``), so a file named
``<h1 style=color:red>big</h1>.txt`` or a host name from a colleague's JSON would be drawn as
a red heading, with links and images. :class:`Label` shows every character as it is; file
names and other names are given to it through :func:`app.core.text.visible_text`, so control
and bidirectional characters are shown too.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from app.core.text import visible_text


class Label(QLabel):
    """A ``QLabel`` whose text is always plain text."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)


def plain_tip(text: str) -> str:
    """``text`` as a tooltip shows it as it is: a tooltip guesses rich text as a label does,
    so the text goes escaped inside a paragraph of its own (an empty text clears the tip)."""
    if not text:
        return ""
    return "<p style='white-space:pre-wrap'>" + html.escape(visible_text(text, keep="\n")) + "</p>"
