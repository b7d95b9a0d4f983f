"""Help > What the numbers mean (F1): a non-modal window with three pages: *What the numbers
mean* (``resources/help/measures.html``: time, throughput, the two memory figures, CPU %, the
warnings, the studies' intervals), *Guide and reference* (the repository's docs/, from its
index, links followed between its pages) and *How it measures* (``docs/method.md``: the figure
of a cell, the claims, the trends). The docs are the README's too: one source."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QPushButton,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.core.resources import docs_path, resource_path

HELP_PAGE = "help/measures.html"
DOCS_INDEX = "README.md"  # docs/README.md
METHOD_PAGE = "method.md"  # docs/method.md
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
        self.guide = _markdown_browser(docs_path(DOCS_INDEX), "guide")
        self.method = _markdown_browser(docs_path(METHOD_PAGE), "method page")
        self.tabs = QTabWidget()
        self.tabs.addTab(self.browser, TITLE)
        self.tabs.addTab(_with_navigation(self.guide), "Guide and reference")
        self.tabs.addTab(self.method, "How it measures")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        self.resize(*DEFAULT_SIZE)


def _markdown_browser(page: Path, what: str) -> QTextBrowser:
    """A browser showing the Markdown ``page``; a link to another page of docs/ opens it there
    (Qt reads a .md source as Markdown), a web link in the system's browser."""
    browser = QTextBrowser()
    browser.setOpenExternalLinks(True)
    if page.is_file():
        browser.setSource(QUrl.fromLocalFile(str(page)))
    else:
        browser.setPlainText(f"The {what} is missing from this installation: {page}")
    return browser


def _with_navigation(browser: QTextBrowser) -> QWidget:
    """``browser`` under a row of Back and Contents (the page it opened on)."""
    back, home = QPushButton("Back"), QPushButton("Contents")
    back.setEnabled(False)
    back.clicked.connect(browser.backward)
    home.clicked.connect(browser.home)
    browser.backwardAvailable.connect(back.setEnabled)
    row = QHBoxLayout()
    row.addWidget(back)
    row.addWidget(home)
    row.addStretch(1)
    page = QWidget()
    column = QVBoxLayout(page)
    column.setContentsMargins(0, 0, 0, 0)
    column.addLayout(row)
    column.addWidget(browser, 1)
    return page


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
