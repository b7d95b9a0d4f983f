"""Help > What the numbers mean (F1): a non-modal window with two pages: *What the numbers
mean* (``resources/help/measures.html``: time, throughput, the two memory figures, CPU %, the
warnings, the studies' intervals) and *How it measures* (``docs/method.md``, shipped as
``resources/help/method.md``: the figure of a cell, the claims, the trends)."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.core.resources import resource_path

HELP_PAGE = "help/measures.html"
METHOD_PAGE = "help/method.md"  # docs/method.md
TITLE = "What the numbers mean"
DEFAULT_SIZE = (760, 640)  # fits a 1366x768 screen with its title bar and task bar


class HelpDialog(QDialog):
    """The help page in a browser that follows its own anchors and opens web links outside."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{TITLE} — CipherBench")
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        path = resource_path(HELP_PAGE)
        if path.is_file():
            self.browser.setSource(QUrl.fromLocalFile(str(path)))
        else:  # a broken installation: say what is missing rather than show a blank page
            self.browser.setPlainText(f"The help page is missing from this installation: {path}")
        self.method = QTextBrowser()
        self.method.setOpenExternalLinks(True)
        method = resource_path(METHOD_PAGE)
        try:
            self.method.setMarkdown(method.read_text(encoding="utf-8"))
        except OSError:
            self.method.setPlainText(f"The method page is missing from this installation: {method}")
        self.tabs = QTabWidget()
        self.tabs.addTab(self.browser, TITLE)
        self.tabs.addTab(self.method, "How it measures")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        self.resize(*DEFAULT_SIZE)


def open_help_dialog(owner: QWidget) -> HelpDialog:
    """Show the owner's help window, made on first use and kept as ``owner.help_dialog``
    (closing it only hides it, so it reopens where the reader left it)."""
    dialog = getattr(owner, "help_dialog", None)
    if dialog is None:
        dialog = HelpDialog(owner)
        owner.help_dialog = dialog  # type: ignore[attr-defined]
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog
