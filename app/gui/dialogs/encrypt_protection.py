"""The Encrypt dialog's choice of protection: what each choice says (:data:`PROTECTION_TEXT`, in
the order of the radio buttons), the warnings that go with a key file, what is wrong with the
key file chosen (:func:`key_file_problem`), and the pieces of the form page each choice shows
(:func:`form_page`, :func:`warning_label`)."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

from app.gui.dialogs.crypt_tasks import Protection
from app.gui.dialogs.crypt_widgets import form_label
from app.gui.label import Label

PROTECTION_TEXT = {
    Protection.PASSWORD: "A password",
    Protection.NEW_KEY_FILE: "A new key file (random 256-bit key)",
    Protection.KEY_FILE: "A key file I already have",
    Protection.RAW: "Nothing: raw ciphertext + a key file, for OpenSSL and other tools",
}
NEW_KEY_WARNING = (
    "The key file unlocks the data: anyone who has it can decrypt the file. Keep it private "
    "and apart from the encrypted file, and keep a copy: without it the data is lost."
)
RAW_KEY_WARNING = (
    "The key file unlocks the ciphertext: anyone who has both can read it. Keep it private and "
    "apart from the ciphertext."
)


def key_file_problem(protection: Protection, key: str, output: str) -> str:
    """Why the key file ``key`` cannot go with ``protection`` and the encrypted ``output``, in
    one sentence, or ""."""
    if not key:
        return "Choose the key file."
    if key == output:
        return "The key file and the encrypted file need different names."
    if protection is Protection.NEW_KEY_FILE and os.path.exists(key):
        return (
            f"{key} already exists, and a key file is never replaced. Choose another "
            "name, or “A key file I already have” to encrypt with it."
        )
    if protection is Protection.KEY_FILE and not os.path.isfile(key):
        return f"The key file {key} does not exist."
    return ""


def form_page(width: int, *rows: tuple[str, QWidget]) -> QWidget:
    """A page of labelled rows (labels ``width`` wide); a label in a row wraps its text."""
    page = QWidget()
    form = QFormLayout(page)
    form.setContentsMargins(0, 0, 0, 0)
    for label, widget in rows:
        if isinstance(widget, QLabel):
            widget.setWordWrap(True)
        form.addRow(form_label(label, width), widget)
    return page


def warning_label(text: str) -> QLabel:
    """``text`` after a warning sign, wrapped, in the warning colour."""
    label = Label(f"⚠ {text}")
    label.setWordWrap(True)
    label.setStyleSheet("color: #8a5300;")
    return label
