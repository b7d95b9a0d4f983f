"""Help > About CipherBench: the version, the libraries and their licences, and a button that
copies the version information for a bug report (:mod:`app.gui.dialogs.about_info` gathers
it).

The main window imports this module at start-up; ``about_info`` (importlib.metadata and the
environment capture, about 25 ms of imports) loads only when the dialog opens.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, QTimer, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.app_icon import app_icon
from app.gui.label import Label

COLUMNS = ("Component", "Version", "Licence")
ICON_PX = 64
COPIED_FEEDBACK_MS = 2000
WIDTH = 680  # px: the longest licence expression on one line


class AboutDialog(QDialog):
    """``environment`` is a ``capture_environment()`` dict; None captures this process's now
    (a few milliseconds)."""

    def __init__(
        self, environment: Mapping[str, Any] | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        from app.gui.dialogs import about_info

        if environment is None:
            from app.core.bench.environment import capture_environment

            environment = capture_environment()
        self.environment = environment
        self.components = about_info.components(environment, qVersion())
        self.setWindowTitle("About CipherBench")

        heading = QLabel(f"<b style='font-size:16pt'>{about_info.title()}</b>")
        description = Label(about_info.DESCRIPTION)
        description.setWordWrap(True)
        licence = Label(f"Licence: {about_info.cipherbench_licence()}.")
        licence.setTextFormat(Qt.TextFormat.PlainText)  # a licence file's first line, verbatim
        licence.setWordWrap(True)
        licence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.licence_label = licence
        text = QVBoxLayout()
        for label in (heading, description, licence):
            text.addWidget(label)
        top = QHBoxLayout()
        icon = Label()
        icon.setPixmap(app_icon().pixmap(ICON_PX, ICON_PX))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        top.addWidget(icon)
        top.addLayout(text, 1)

        caption = Label(
            "Built with (versions found in this installation; licences as each package's "
            "metadata states them):"
        )
        caption.setWordWrap(True)
        self.table = self._make_table()

        self.copy_button = QPushButton("&Copy version information")
        self.copy_button.setToolTip(
            "Copies CipherBench's version and the machine's (CPU, OS, Python, OpenSSL, "
            "libraries) as text, for a bug report"
        )
        self.copy_button.clicked.connect(self._on_copy_button_clicked)
        # "Copied" is shorter: keep the width so the buttons do not jump.
        self.copy_button.setMinimumWidth(self.copy_button.sizeHint().width())
        self.buttons = QDialogButtonBox()
        self.buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.close_button.clicked.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(caption)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.buttons)
        self.resize(WIDTH, self.sizeHint().height())

    def _make_table(self) -> QTableWidget:
        table = QTableWidget(len(self.components), len(COLUMNS))
        table.setHorizontalHeaderLabels(COLUMNS)
        table.verticalHeader().hide()
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        table.setWordWrap(False)  # the tooltip has any text the column cuts
        for row, component in enumerate(self.components):
            cells = (component.name, component.version or "not installed", component.licence)
            for col, value in enumerate(cells):
                item = QTableWidgetItem(value or "—")
                item.setToolTip(f"{value}\n{component.note}" if value else component.note)
                table.setItem(row, col, item)
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        table.resizeRowsToContents()
        # As tall as its rows: a dozen short rows need no scroll bar.
        table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
        return table

    def version_text(self) -> str:
        """What the Copy button puts on the clipboard."""
        from app.gui.dialogs import about_info

        return about_info.version_text(self.environment, qVersion())

    def _on_copy_button_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.version_text())
        self.copy_button.setText("Copied")
        QTimer.singleShot(
            COPIED_FEEDBACK_MS, self, lambda: self.copy_button.setText("&Copy version information")
        )


def show_about_dialog(parent: QWidget) -> AboutDialog:
    """Open the About dialog over ``parent`` (window-modal, deleted when closed)."""
    dialog = AboutDialog(parent=parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
