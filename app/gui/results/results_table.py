"""The results table: one row per finished job, units in the headers, sortable, copyable.

:class:`ResultsTableModel` formats :class:`JobResult` values for display (the controller adds
rows as jobs finish); :class:`ResultsSortProxyModel` sorts on raw numbers, not on the text;
:class:`ResultsTableView` copies the selected rows as tab-separated text (Ctrl+C) with raw
numbers, ready to paste into a spreadsheet. A right click on the header chooses the columns
shown (compact by default, :data:`DEFAULT_HIDDEN`); copying always takes every column. The
columns themselves are in :mod:`app.gui.results.result_columns`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QFontDatabase, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView, QWidget

from app.core.bench.results import JobResult
from app.gui.results.result_columns import (
    AGGREGATE_HEADER,
    COLUMN_INDEX,
    COLUMNS,
    DEFAULT_HIDDEN,
)
from app.gui.table_model import AnyIndex, FlatTableModel

SORT_ROLE = Qt.ItemDataRole.UserRole + 1

MAX_COLUMN_WIDTH = 300  # px after fitting to contents: no column pushes the others off-screen


class ResultsTableModel(FlatTableModel):
    """Finished jobs, in the order they finished. Read-only for views."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[JobResult] = []
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

    # --- what the controller calls ---------------------------------------------------------

    def add_result(self, result: JobResult) -> None:
        row = len(self._rows)
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows.append(result)
        self.endInsertRows()

    def clear(self) -> None:
        self.beginResetModel()
        self._rows.clear()
        self.endResetModel()

    def result(self, row: int) -> JobResult:
        return self._rows[row]

    def results(self) -> list[JobResult]:
        return list(self._rows)

    def rows_as_tsv(self, rows: Sequence[int]) -> str:
        """A header line and one line per row, tab-separated, with raw numbers."""
        header: list[str] = []
        for col in COLUMNS:
            header.extend(col.copy_headers or (col.header,))
        lines = ["\t".join(header)]
        for row in rows:
            r = self._rows[row]
            cells: list[str] = []
            for col in COLUMNS:
                values = col.copy_values(r) if col.copy_values else (col.text(r),)
                cells.extend(v.replace("\t", " ").replace("\n", " ") for v in values)
            lines.append("\t".join(cells))
        return "\n".join(lines) + "\n"

    # --- QAbstractTableModel ---------------------------------------------------------------

    def column_count(self) -> int:
        return len(COLUMNS)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r = self._rows[index.row()]
        col = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.text(r)
        if role == SORT_ROLE:
            return col.sort_key(r)
        if role == Qt.ItemDataRole.ToolTipRole:
            return col.cell_tip(r) if col.cell_tip else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            horizontal = Qt.AlignmentFlag.AlignRight if col.numeric else Qt.AlignmentFlag.AlignLeft
            return int(horizontal | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and col.header.startswith("Ciphertext"):
            return self._mono
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Vertical:  # the rows are numbered
            return str(section + 1) if role == Qt.ItemDataRole.DisplayRole else None
        return super().headerData(section, orientation, role)

    def header_text(self, section: int) -> str:
        return header_lines(COLUMNS[section].header)

    def header_tip(self, section: int) -> str | None:
        return COLUMNS[section].tooltip


HEADER_LINE_CHARS = 12  # a header's words wrap past this; its unit keeps a line of its own


def header_lines(header: str) -> str:
    """``header`` as shown: the unit on the last line and the words before it wrapped at about
    :data:`HEADER_LINE_CHARS` ("Memory above baseline (MiB)" in three short lines), so that the
    columns are as narrow as their numbers (copies keep one line)."""
    words, _sep, unit = header.partition(" (")
    lines: list[str] = []
    for word in words.split():
        if lines and len(lines[-1]) + 1 + len(word) <= HEADER_LINE_CHARS:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines + ([f"({unit}"] if unit else []))


class ResultsSortProxyModel(QSortFilterProxyModel):
    """Sorts on the raw value (``SORT_ROLE``) so 9.5 comes before 10.2."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)


class ResultsTableView(QTableView):
    """The table; Ctrl+C copies the selected rows (whole rows) as tab-separated text. A right
    click on the header offers every column as a check box; ``columns_changed`` then carries
    the hidden headers (for the settings)."""

    columns_changed = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._hidden: set[str] = set(DEFAULT_HIDDEN)
        self.setSortingEnabled(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(True)
        self.horizontalHeader().setSortIndicatorShown(True)
        header = self.horizontalHeader()
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._on_header_context_menu_requested)
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._on_fit_timer_timeout)
        # Rows added since the columns were last fitted (None: fit every row next time).
        self._new_rows: list[QPersistentModelIndex] | None = None

    def request_fit(self) -> None:
        """Fit the columns once the events queued now are handled: a result and the end of
        the run arriving together fit them once, in an event-loop turn of its own rather than
        in the one that handles the result. Rows added since the last fit only widen the
        columns they need: measuring every row at each job's end cost 8-14 ms with a dozen
        rows, and grew with the table."""
        self._fit_timer.start()

    def _on_fit_timer_timeout(self) -> None:
        rows = None if self._new_rows is None else [i.row() for i in self._new_rows if i.isValid()]
        if rows is None:
            self.fit_columns()
        elif rows:
            self._widen_for(rows)
        self._new_rows = []

    def _on_rows_inserted(self, _parent: QModelIndex, first: int, last: int) -> None:
        if self._new_rows is not None:
            model = self.model()
            added = range(first, last + 1)
            self._new_rows += [QPersistentModelIndex(model.index(r, 0)) for r in added]

    def _on_layout_changed(self) -> None:
        self._new_rows = None

    def _widen_for(self, rows: list[int]) -> None:
        """Widen each shown column that ``rows`` need wider (to ``MAX_COLUMN_WIDTH`` at most)."""
        model, header = self.model(), self.horizontalHeader()
        grid = 1 if self.showGrid() else 0
        for col in range(model.columnCount()):
            if self.isColumnHidden(col):
                continue
            hints = (self.sizeHintForIndex(model.index(row, col)).width() for row in rows)
            wanted = min(max(hints) + grid, MAX_COLUMN_WIDTH)
            if wanted > header.sectionSize(col):
                header.resizeSection(col, wanted)

    def setModel(self, model: Any) -> None:
        super().setModel(model)
        # Rows in the order jobs finished until the user clicks a header.
        self.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        if isinstance(model, QSortFilterProxyModel):
            model.sort(-1)
        if model is not None:  # the aggregate column comes and goes with the results
            for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset):
                signal.connect(self._apply_hidden)
            model.rowsInserted.connect(self._on_rows_inserted)
            for signal in (model.modelReset, model.layoutChanged, model.rowsRemoved):
                signal.connect(self._on_layout_changed)
        self._new_rows = None
        self._apply_hidden()

    # --- columns ----------------------------------------------------------------------------

    def hidden_columns(self) -> list[str]:
        """Headers of the hidden columns, in table order."""
        return [c.header for c in COLUMNS if c.header in self._hidden]

    def set_hidden_columns(self, headers: Sequence[str] | None) -> None:
        """Hide these columns (unknown headers are ignored; None: the compact default). At
        least one column stays visible."""
        wanted = set(DEFAULT_HIDDEN if headers is None else headers) & set(COLUMN_INDEX)
        if len(wanted | {AGGREGATE_HEADER}) >= len(COLUMNS):  # that one may be away
            wanted.discard(COLUMNS[0].header)
        self._hidden = wanted
        self._apply_hidden()

    def _apply_hidden(self, *_changed: Any) -> None:
        """Hide the chosen columns, and the aggregate one while no result has an aggregate."""
        model = self.source_model()
        away = model is None or not any(r.aggregate for r in model.results())
        for i, col in enumerate(COLUMNS):
            auto = away and col.header == AGGREGATE_HEADER
            self.setColumnHidden(i, auto or col.header in self._hidden)

    def column_menu(self) -> QMenu:
        """The header's menu: one checkable action per column, then "Default columns"."""
        menu = QMenu(self)
        visible = len(set(COLUMN_INDEX) - self._hidden - {AGGREGATE_HEADER})
        for col in COLUMNS:
            action = menu.addAction(col.header)
            action.setCheckable(True)
            shown = col.header not in self._hidden
            action.setChecked(shown)
            last = shown and visible == 1 and col.header != AGGREGATE_HEADER
            action.setEnabled(not last)  # never hide the last one
            action.setToolTip(col.tooltip)
            action.toggled.connect(lambda on, h=col.header: self._on_column_toggled(h, on))
        menu.addSeparator()
        menu.addAction("Default columns", lambda: self._set_by_user(set(DEFAULT_HIDDEN)))
        return menu

    def _on_column_toggled(self, header: str, shown: bool) -> None:
        self._set_by_user(self._hidden - {header} if shown else self._hidden | {header})

    def _set_by_user(self, hidden: set[str]) -> None:
        self.set_hidden_columns(sorted(hidden))
        self.fit_columns()
        self.columns_changed.emit(self.hidden_columns())

    def _on_header_context_menu_requested(self, pos: QPoint) -> None:
        menu = self.column_menu()
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.horizontalHeader().mapToGlobal(pos))

    def fit_columns(self) -> None:
        """Widths to the contents of every row, but no column wider than ``MAX_COLUMN_WIDTH``."""
        self._new_rows = []
        self.resizeColumnsToContents()
        header = self.horizontalHeader()
        for i in range(len(COLUMNS)):
            if not self.isColumnHidden(i) and header.sectionSize(i) > MAX_COLUMN_WIDTH:
                header.resizeSection(i, MAX_COLUMN_WIDTH)

    def scroll_to_start(self) -> None:
        """Back to the first row and the leftmost column (after Reset, for a new run)."""
        self.horizontalScrollBar().setValue(0)
        self.verticalScrollBar().setValue(0)

    def selected_source_rows(self) -> list[int]:
        """Rows of the source model that are selected, in the order shown."""
        selection = self.selectionModel()
        if selection is None:
            return []
        proxy_rows = sorted({i.row() for i in selection.selectedRows()})
        model = self.model()
        if isinstance(model, QSortFilterProxyModel):
            return [model.mapToSource(model.index(r, 0)).row() for r in proxy_rows]
        return proxy_rows

    def source_model(self) -> ResultsTableModel | None:
        model = self.model()
        if isinstance(model, QSortFilterProxyModel):
            model = model.sourceModel()
        return model if isinstance(model, ResultsTableModel) else None

    def copy_selection(self) -> str:
        """Put the selected rows on the clipboard as TSV and return the text ('' if none)."""
        model = self.source_model()
        rows = self.selected_source_rows()
        if model is None or not rows:
            return ""
        text = model.rows_as_tsv(rows)
        QGuiApplication.clipboard().setText(text)
        return text

    def keyPressEvent(self, event: Any) -> None:
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_selection()
            event.accept()
            return
        super().keyPressEvent(event)
