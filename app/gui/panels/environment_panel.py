"""The machine the figures come from: CPU, crypto instructions, libraries, OS (read-only text)."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

from app.gui.label import Label


class EnvironmentPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.caption = Label(
            "Stored with every export. Figures from different machines are not comparable."
        )
        self.caption.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setPlainText("Reading the environment…")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.caption)
        layout.addWidget(self.text, 1)

    def set_text(self, text: str) -> None:
        self.text.setPlainText(text)
