"""The window's one Yes/No question (No by default: a stray Enter never replaces or discards)."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


def ask_yes_no(parent: QWidget, title: str, text: str) -> bool:
    """Ask ``text``; True when the user answers Yes."""
    answer = QMessageBox.question(
        parent,
        title,
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes
