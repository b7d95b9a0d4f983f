"""Any kind's :class:`~app.core.document.model.Document` in the window: each table under its
caption (figures right-aligned, as every format prints them), its notes, the sections and the
method. It knows no kind; a kind's window or the History window gives it a document."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.document.model import Document, Table
from app.core.text import display_text, visible_text
from app.gui.label import Label

_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def table_widget(table: Table) -> QTableWidget:
    """A read-only table widget of ``table``, its columns fitted to their contents."""
    widget = QTableWidget(len(table.rows), len(table.headers))
    widget.setHorizontalHeaderLabels([display_text(h) for h in table.headers])
    widget.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    widget.verticalHeader().setVisible(False)
    for r, row in enumerate(table.text_rows()):
        for c, text in enumerate(row):
            item = QTableWidgetItem(visible_text(text))
            if table.numeric(c):
                item.setTextAlignment(_RIGHT)
            widget.setItem(r, c, item)
    widget.resizeColumnsToContents()
    height = widget.horizontalHeader().height() + 4
    height += sum(widget.rowHeight(r) for r in range(widget.rowCount()))
    widget.setMinimumHeight(min(height, 400))
    return widget


def _label(text: str, bold: bool = False) -> QLabel:
    label = Label(display_text(text))
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if bold:
        font = label.font()
        font.setBold(True)
        label.setFont(font)
    return label


class DocumentView(QScrollArea):
    """A scrolling column of a document's parts; :meth:`set_document` replaces them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.tables: list[QTableWidget] = []
        self.set_document(None)

    def set_document(self, document: Document | None) -> None:
        inner = QWidget()
        layout = QVBoxLayout(inner)
        self.tables = []
        if document is None:
            layout.addWidget(_label("Nothing measured yet."))
        else:
            if document.title:
                layout.addWidget(_label(document.title, bold=True))
            for table in document.tables:
                if table.caption:
                    layout.addWidget(_label(table.caption, bold=True))
                widget = table_widget(table)
                self.tables.append(widget)
                layout.addWidget(widget)
                for note in table.notes:
                    layout.addWidget(_label(note))
            for section in document.sections:
                layout.addWidget(_label(section.heading, bold=True))
                layout.addWidget(_label("\n".join(section.lines)))
            if document.method:
                layout.addWidget(_label("Method: " + document.method))
        layout.addStretch(1)
        self.setWidget(inner)
