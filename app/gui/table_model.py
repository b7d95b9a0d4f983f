"""The base of the window's read-only table models: a flat list of rows, no tree.

A view asks a model for the rows and columns under every index it shows; in a flat table
only the root has any, so :class:`FlatTableModel` answers that once for every model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex

AnyIndex = QModelIndex | QPersistentModelIndex


class FlatTableModel(QAbstractTableModel):
    """One row per item of ``_rows`` (the subclass's), in :meth:`column_count` columns; a
    subclass adds ``data`` and ``headerData``."""

    _rows: Sequence[Any]

    def column_count(self) -> int:
        raise NotImplementedError

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.column_count()
