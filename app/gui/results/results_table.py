"""The results table: one row per finished job, units in the headers, sortable, copyable.

:class:`ResultsTableModel` formats :class:`JobResult` values for display (the controller adds
rows as jobs finish); :class:`ResultsSortProxyModel` sorts on raw numbers, not on the text;
:class:`ResultsTableView` copies the selected rows as tab-separated text (Ctrl+C) with raw
numbers, ready to paste into a spreadsheet. A right click on the header chooses the columns
shown (compact by default, :data:`DEFAULT_HIDDEN`); copying always takes every column.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QFontDatabase, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView, QWidget

from app.core.bench.results import JobResult
from app.core.bench.stats import TimingStats
from app.core.export import schema
from app.core.units import MIB, format_bytes, format_seconds

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
PREVIEW_SHOWN_BYTES = 8  # in the cell; the tooltip and copies have all of them

AnyIndex = QModelIndex | QPersistentModelIndex


def _decimals_for(value: float, significant: int = 4) -> int:
    """Decimals that keep about ``significant`` digits: 1234.5 -> 0, 1.2345 -> 3, 0.0123 -> 5."""
    if value <= 0 or not math.isfinite(value):
        return 2
    return max(0, min(7, significant - 1 - math.floor(math.log10(value))))


def format_ms(seconds: float) -> str:
    ms = seconds * 1e3
    return f"{ms:.{_decimals_for(ms)}f}"


def _time_text(stats: TimingStats) -> str:
    # The one spread statistic of every view (the CLI's ±IQR column, the exports' iqr_s):
    # the interquartile range, which, like the median, one outlier cannot move.
    ms, iqr = stats.median_s * 1e3, stats.iqr_s * 1e3
    d = _decimals_for(ms)
    return f"{ms:.{d}f} (IQR {iqr:.{d}f})"


def _time_tip(stats: TimingStats, direction: str) -> str:
    n = len(stats.samples_s)
    warm = len(stats.warmup_s)
    return (
        f"{direction}: median {format_seconds(stats.median_s)}, standard deviation "
        f"{format_seconds(stats.stdev_s)} ({stats.stdev_percent:.1f} % of the mean)\n"
        f"min {format_seconds(stats.min_s)}, mean {format_seconds(stats.mean_s)}, "
        f"max {format_seconds(stats.max_s)}, interquartile range {format_seconds(stats.iqr_s)}\n"
        f"{n} timed run{'s' if n != 1 else ''}, {warm} warm-up run{'s' if warm != 1 else ''} "
        "not counted"
    )


def _memory_mib(r: JobResult) -> float | None:
    above = r.memory_above_baseline_bytes
    return None if above is None else above / MIB


def _memory_tip(r: JobResult) -> str:
    if r.peak_rss_bytes is None:
        return "Memory was not measured (the option was off)."
    lines = [
        "Peak resident memory of the job's worker process, above what it used before the "
        "measured round trip (a separate, untimed pass).",
        f"Peak: {format_bytes(r.peak_rss_bytes)}",
    ]
    if r.baseline_rss_bytes is not None:
        lines.append(f"Baseline: {format_bytes(r.baseline_rss_bytes)}")
    if r.python_peak_bytes is not None:
        lines.append(f"Python allocations (tracemalloc peak): {format_bytes(r.python_peak_bytes)}")
    return "\n".join(lines)


def _preview_text(r: JobResult) -> str:
    hex_ = r.ciphertext_preview_hex[: PREVIEW_SHOWN_BYTES * 2]
    more = "…" if len(r.ciphertext_preview_hex) > len(hex_) else ""
    return " ".join(hex_[i : i + 2] for i in range(0, len(hex_), 2)) + more


def _opt_text(value: float | None, fmt: str) -> str:
    return "—" if value is None else format(value, fmt)


@dataclass(frozen=True)
class Column:
    """One table column: how a result shows, sorts, explains itself and copies."""

    header: str
    tooltip: str
    text: Callable[[JobResult], str]
    sort_key: Callable[[JobResult], Any]
    copy_headers: tuple[str, ...] = ()  # default: (header,)
    copy_values: Callable[[JobResult], tuple[str, ...]] | None = None
    numeric: bool = True
    cell_tip: Callable[[JobResult], str] | None = None


def _g(value: float | None) -> str:
    return "" if value is None else repr(float(value))


def _raw(value: Any) -> str:
    """A schema value as copied to the clipboard: floats at full precision, ints as digits."""
    return _g(value) if isinstance(value, float) else str(value)


def _field_column(
    key: str,
    tooltip: str,
    text: Callable[[JobResult], str] | None = None,
    *,
    sort_key: Callable[[JobResult], Any] | None = None,
    copy_raw: bool = False,
    numeric: bool = True,
    cell_tip: Callable[[JobResult], str] | None = None,
) -> Column:
    """A column showing one schema field: header (with its unit) and value come from the
    schema; ``text`` only formats it for the eye, ``copy_raw`` copies the raw value."""
    f = schema.field(key)
    return Column(
        f.header,
        tooltip,
        text or (lambda r: str(f.get(r))),
        sort_key or f.get,
        copy_values=(lambda r: (_raw(f.get(r)),)) if copy_raw else None,
        numeric=numeric,
        cell_tip=cell_tip,
    )


# (attribute of JobResult, header prefix, word) for encryption and decryption.
DIRECTIONS = (("encrypt", "Enc.", "encryption"), ("decrypt", "Dec.", "decryption"))


def _time_column(direction: tuple[str, str, str]) -> Column:
    attr, short, word = direction
    return Column(
        f"{short} time (ms)",
        f"{word.capitalize()} time: median and interquartile range of the timed runs, in "
        "milliseconds",
        lambda r: _time_text(getattr(r, attr)),
        lambda r: getattr(r, attr).median_s,
        (f"{short} time median (ms)", f"{short} time IQR (ms)"),
        lambda r: (_g(getattr(r, attr).median_s * 1e3), _g(getattr(r, attr).iqr_s * 1e3)),
        cell_tip=lambda r: _time_tip(getattr(r, attr), word.capitalize()),
    )


def _throughput_column(direction: tuple[str, str, str]) -> Column:
    attr, _short, word = direction
    return _field_column(
        f"{attr[:3]}_throughput_mb_s",
        f"Input size / median {word} time, in 10^6 bytes per second",
        lambda r: f"{getattr(r, attr).throughput_mb_s:.2f}",
        copy_raw=True,
        cell_tip=lambda r: f"{getattr(r, attr).throughput_mib_s:.2f} MiB/s (2^20 bytes per second)",
    )


COLUMNS: tuple[Column, ...] = (
    _field_column(
        "algorithm",
        "Cipher family",
        numeric=False,
        cell_tip=lambda r: f"{r.cipher} from {r.library}",
    ),
    _field_column("key_bits", "Key size in bits"),
    _field_column("mode", "Mode of operation", numeric=False),
    _field_column("library", "Python library that ran the cipher", numeric=False),
    *(_time_column(d) for d in DIRECTIONS),
    *(_throughput_column(d) for d in DIRECTIONS),
    Column(
        "Memory above baseline (MiB)",
        "Peak resident memory of the job's process above its baseline, in 2^20 bytes",
        lambda r: _opt_text(_memory_mib(r), ".2f"),
        lambda r: _memory_mib(r) if _memory_mib(r) is not None else -1.0,
        copy_values=lambda r: (_g(_memory_mib(r)),),
        cell_tip=_memory_tip,
    ),
    Column(
        "CPU (%)",
        "Process CPU time / wall time over the timed runs, in % of one core",
        lambda r: f"{r.cpu_percent:.0f}",
        lambda r: r.cpu_percent,
        copy_values=lambda r: (_g(r.cpu_percent),),
    ),
    _field_column(
        "input_bytes",
        "Input size in bytes",
        lambda r: f"{r.input_bytes:,}",
        copy_raw=True,
        cell_tip=lambda r: f"{r.input_label}: {format_bytes(r.input_bytes)}",
    ),
    _field_column(
        "output_bytes",
        "Ciphertext size in bytes (padding and authentication tags included)",
        lambda r: f"{r.output_bytes:,}",
        copy_raw=True,
        cell_tip=lambda r: f"{r.expansion_bytes:+,} bytes against the input",
    ),
    _field_column(
        "verified",
        "The decrypted output equals the input, checked after every round trip",
        lambda r: "yes" if r.verified else "NO",
        sort_key=lambda r: int(r.verified),
        numeric=False,
        cell_tip=lambda r: f"{r.verified_round_trips} round trips checked",
    ),
    _field_column(
        "ciphertext_preview_hex",
        "First bytes of the ciphertext, in hexadecimal",
        _preview_text,
        copy_raw=True,
        numeric=False,
        cell_tip=lambda r: r.ciphertext_preview_hex,
    ),
    _field_column(
        "warnings",
        "What makes this measurement less trustworthy (from the engine)",
        lambda r: "; ".join(r.warnings),
        sort_key=lambda r: len(r.warnings),
        numeric=False,
        cell_tip=lambda r: "\n".join(r.warnings),
    ),
)

COLUMN_INDEX = {c.header: i for i, c in enumerate(COLUMNS)}
# Read second: shown by the header's right-click menu. CPU is in the charts, and a job whose
# decryption did not match its input is a failure, not a row.
DEFAULT_HIDDEN = frozenset({"Dec. throughput (MB/s)", "CPU (%)", "Verified"})
MAX_COLUMN_WIDTH = 300  # px after fitting to contents: no column pushes the others off-screen


class ResultsTableModel(QAbstractTableModel):
    """Finished jobs, in the order they finished. Read-only for views."""

    def __init__(self, parent: QWidget | None = None) -> None:
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

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

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
        if orientation != Qt.Orientation.Horizontal:
            return str(section + 1) if role == Qt.ItemDataRole.DisplayRole else None
        if role == Qt.ItemDataRole.DisplayRole:
            # The unit on a second line: half the width (copies keep one line).
            return COLUMNS[section].header.replace(" (", "\n(")
        if role == Qt.ItemDataRole.ToolTipRole:
            return COLUMNS[section].tooltip
        return None


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

    def setModel(self, model: Any) -> None:
        super().setModel(model)
        # Rows in the order jobs finished until the user clicks a header.
        self.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        if isinstance(model, QSortFilterProxyModel):
            model.sort(-1)
        self._apply_hidden()

    # --- columns ----------------------------------------------------------------------------

    def hidden_columns(self) -> list[str]:
        """Headers of the hidden columns, in table order."""
        return [c.header for c in COLUMNS if c.header in self._hidden]

    def set_hidden_columns(self, headers: Sequence[str] | None) -> None:
        """Hide these columns (unknown headers are ignored; None: the compact default). At
        least one column stays visible."""
        wanted = set(DEFAULT_HIDDEN if headers is None else headers) & set(COLUMN_INDEX)
        if len(wanted) >= len(COLUMNS):
            wanted.discard(COLUMNS[0].header)
        self._hidden = wanted
        self._apply_hidden()

    def _apply_hidden(self) -> None:
        for i, col in enumerate(COLUMNS):
            self.setColumnHidden(i, col.header in self._hidden)

    def column_menu(self) -> QMenu:
        """The header's menu: one checkable action per column, then "Default columns"."""
        menu = QMenu(self)
        visible = len(COLUMNS) - len(self._hidden)
        for col in COLUMNS:
            action = menu.addAction(col.header)
            action.setCheckable(True)
            shown = col.header not in self._hidden
            action.setChecked(shown)
            action.setEnabled(not (shown and visible == 1))  # never hide the last one
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
        """Widths to the contents, but no column wider than ``MAX_COLUMN_WIDTH``."""
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
