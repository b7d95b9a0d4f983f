"""The Decrypt dialog's preview of the plaintext: a "Preview" group box with a caption over a
read-only, unwrapped monospace view wide enough for a whole hex dump line
(:func:`build_preview_box`), filled from the decrypted file by :func:`show_plaintext` (its first
:data:`~app.gui.dialogs.preview.PREVIEW_BYTES`, as UTF-8 text or as hex)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from PySide6.QtWidgets import QGroupBox, QLabel, QPlainTextEdit, QVBoxLayout

from app.gui.dialogs.crypt_widgets import monospace_font
from app.gui.dialogs.preview import PREVIEW_BYTES, Preview, read_preview
from app.gui.label import Label


class PreviewBox(NamedTuple):
    box: QGroupBox
    caption: QLabel  # the size, how much is shown and how
    text: QPlainTextEdit  # the plaintext's start


def build_preview_box() -> PreviewBox:
    """The box with its caption and text view, both empty."""
    box = QGroupBox("Preview")
    caption = Label("")
    caption.setWordWrap(True)
    text = QPlainTextEdit()
    text.setReadOnly(True)
    text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    text.setFont(monospace_font())
    text.setMinimumHeight(220)
    # A hex dump line is 79 characters: show it whole.
    text.setMinimumWidth(
        text.fontMetrics().horizontalAdvance("0" * 80)
        + text.verticalScrollBar().sizeHint().width()
        + 12
    )
    preview_layout = QVBoxLayout(box)
    preview_layout.addWidget(caption)
    preview_layout.addWidget(text, 1)
    return PreviewBox(box, caption, text)


def show_plaintext(path: Path, caption: QLabel, text: QPlainTextEdit) -> None:
    """Show the start of the decrypted file ``path``, or in the caption why it cannot be read."""
    try:
        preview = read_preview(path, PREVIEW_BYTES)
    except OSError as exc:
        caption.setText(f"No preview: {exc.strerror}.")
        text.clear()
    else:
        caption.setText(preview_caption(preview))
        text.setPlainText(preview.text)


def preview_caption(preview: Preview) -> str:
    """The size of the plaintext, how much of it is shown, and as what."""
    size = f"{preview.total_bytes:,} bytes"
    if preview.kind == "empty":
        return "The plaintext is empty (0 bytes)."
    part = (
        "all"
        if preview.shown_bytes == preview.total_bytes
        else f"the first {preview.shown_bytes:,}"
    )
    kind = "UTF-8 text" if preview.kind == "text" else "binary data, as hex"
    return f"Plaintext: {size}; {part} shown, {kind}."
