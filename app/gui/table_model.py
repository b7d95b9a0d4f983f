"""The base of the window's read-only table models: a flat list of rows, no tree.

A view asks a model for the rows and columns under every index it shows; in a flat table
only the root has any, so :class:`FlatTableModel` answers that once for every model, and the
column headers' text and tooltip from two methods of each model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

AnyIndex = QModelIndex | QPersistentModelIndex


class FlatTableModel(QAbstractTableModel):
    """One row per item of ``_rows`` (the subclass's), in :meth:`column_count` columns headed
    by :meth:`header_text` (and :meth:`header_tip`); a subclass adds ``data``."""

    _rows: Sequence[Any]

    def column_count(self) -> int:
        raise NotImplementedError

    def header_text(self, section: int) -> str:
        """What column ``section``'s header says."""
        raise NotImplementedError

    def header_tip(self, section: int) -> str | None:
        """Column ``section``'s header tooltip (None: none)."""
        return None

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.column_count()

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.header_text(section)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.header_tip(section)
        return None
