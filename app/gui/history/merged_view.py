"""Runs from several machines side by side (:class:`~app.core.publish.merge.MergedResult`), as
``python main.py merge`` prints them: a tab for the figures (one column group per run, each a
median with its 95 % interval over the run's rounds), one for the view normalised to a
reference entry on each machine, one for what differs between the machines, one for where each
run came from. The reference, the direction and the units are chosen above the tabs; changing
one merges the runs again (the engine's :func:`~app.core.publish.merge.merge_results`, quick:
the raw samples are already read). *Export…* writes any of the merged formats.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.document.model import Table
from app.core.errors import UserError
from app.core.kinds import formats
from app.core.publish.merge import DIRECTIONS, MergedResult, MergeSource, merge_results
from app.core.publish.merge_writers import (
    SOURCE_HEADERS,
    differences_rows,
    figures_table,
    normalised_table,
    sources_rows,
)
from app.core.study.figures import UNITS
from app.gui.file_filters import ask_save_path, save_or_warn
from app.gui.label import Label
from app.gui.menus import add_close_controls
from app.gui.screen_fit import ScreenFit, fit_to_screen
from app.gui.settings import AppSettings
from app.gui.table_model import AnyIndex, FlatTableModel

DIRECTION_TEXT = {"encrypt": "Encryption", "decrypt": "Decryption"}
WIDEST_COLUMN = 420  # a long cell (the CPU features) is cut here; its tooltip has it all
STATUS_MS = 8000
NOTHING_DIFFERS = "Nothing recorded differs between the runs: the same machine and software."
NO_COMMON_ENTRY = (
    "No entry ran in every merged run, so there is no reference to divide by: the "
    "normalised view needs one entry common to all."
)


def common_entries(sources: Sequence[MergeSource]) -> list[str]:
    """The entries (job labels) every source ran, in the first source's order: the choices
    of reference."""
    if not sources:
        return []
    ran = [{j.label for j in s.jobs} for s in sources[1:]]
    return list(dict.fromkeys(j.label for j in sources[0].jobs if all(j.label in r for r in ran)))


def shared_units(sources: Sequence[MergeSource]) -> str:
    """The unit the runs were reported in when they agree (studies carry one), else MB/s."""
    units = {getattr(s.result, "units", None) for s in sources}
    found = units.pop() if len(units) == 1 else None
    return found if found in UNITS else "MB/s"


def describe_sources(merged: MergedResult) -> str:
    """The line above the tabs: how many runs, and which column group is which."""
    names = [s.label if s.label == s.origin else f"{s.label} ({s.origin})" for s in merged.sources]
    return (
        f"{len(merged.sources)} runs side by side, one column group each: {', '.join(names)}. "
        "Each figure is the run's median over its rounds with its 95 % interval in brackets."
    )


class TextTableModel(FlatTableModel):
    """A read-only table of text: headers, rows, tooltips for the headers. The first
    ``text_columns`` are names (left-aligned); the others figures (right-aligned)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.headers: tuple[str, ...] = ()
        self._rows: list[list[str]] = []
        self.header_tips: tuple[str, ...] = ()
        self.text_columns = 0

    def set_rows(
        self,
        headers: Sequence[str],
        rows: Sequence[Sequence[Any]],
        *,
        header_tips: Sequence[str] = (),
        text_columns: int | None = None,
    ) -> None:
        self.beginResetModel()
        self.headers = tuple(headers)
        self._rows = [[str(c) for c in row] for row in rows]
        self.header_tips = tuple(header_tips)
        self.text_columns = len(self.headers) if text_columns is None else text_columns
        self.endResetModel()

    def set_table(self, table: Table, header_tips: Sequence[str] = ()) -> None:
        self.set_rows(table.headers, table.text_rows(), header_tips=header_tips, text_columns=2)

    def column_count(self) -> int:
        return len(self.headers)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() >= self.text_columns:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def header_text(self, section: int) -> str:
        return self.headers[section]

    def header_tip(self, section: int) -> str | None:
        tips = self.header_tips
        return (tips[section] or None) if section < len(tips) else None


def _table_view(model: TextTableModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setWordWrap(False)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(False)
    return view


def _fit_columns(view: QTableView) -> None:
    view.resizeColumnsToContents()
    header = view.horizontalHeader()
    for col in range(header.count()):
        if header.sectionSize(col) > WIDEST_COLUMN:
            header.resizeSection(col, WIDEST_COLUMN)


class MergedWindow(QMainWindow):
    """A non-modal window showing merged runs. ``sources`` are the runs (labelled); ``merged``
    their table already computed (else it is computed here); ``warnings`` are shown above the
    tabs (a file changed since it was written, cells that failed)."""

    def __init__(
        self,
        sources: Sequence[MergeSource],
        merged: MergedResult | None = None,
        *,
        warnings: Sequence[str] = (),
        settings: AppSettings | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.settings = settings or AppSettings()
        self.sources = tuple(sources)
        self.merged = merged or merge_results(self.sources, units=shared_units(self.sources))
        labels = ", ".join(self.merged.labels)
        self.setWindowTitle(f"Merged: {labels} — CipherBench history")
        self._build(warnings)
        self._show_merged()
        fit_to_screen(self, ScreenFit(1300, 760, 0.9, 0.85, 1150, 620))

    # --- building ---------------------------------------------------------------------------

    def _build(self, warnings: Sequence[str]) -> None:
        central = QWidget()
        layout = QVBoxLayout(central)
        self.header_label = Label(describe_sources(self.merged))
        self.header_label.setWordWrap(True)
        self.header_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.header_label)
        self.warning_label = Label("\n".join(warnings))
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet("color: #a04000; font-weight: bold;")
        self.warning_label.setVisible(bool(warnings))
        layout.addWidget(self.warning_label)
        layout.addLayout(self._build_choices())
        self.tabs = QTabWidget()
        self.figures_model = TextTableModel(self)
        self.figures_view = _table_view(self.figures_model)
        self.normalised_model = TextTableModel(self)
        self.normalised_view = _table_view(self.normalised_model)
        self.no_reference_label = Label(NO_COMMON_ENTRY)
        self.no_reference_label.setWordWrap(True)
        self.differences_model = TextTableModel(self)
        self.differences_view = _table_view(self.differences_model)
        self.nothing_differs_label = Label(NOTHING_DIFFERS)
        self.sources_model = TextTableModel(self)
        self.sources_view = _table_view(self.sources_model)
        self.tabs.addTab(self.figures_view, "&Figures")
        self.tabs.addTab(
            _stacked(self.no_reference_label, self.normalised_view), "&Normalised view"
        )
        self.tabs.addTab(
            _stacked(self.nothing_differs_label, self.differences_view), "&What differs"
        )
        self.tabs.addTab(self.sources_view, "&Sources")
        layout.addWidget(self.tabs, 1)
        self.notes_label = Label()
        self.notes_label.setWordWrap(True)
        self.notes_label.setEnabled(False)  # the palette's muted text: an explanation
        self.notes_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.notes_label)
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.buttons = add_close_controls(self, layout)
        self.export_button = QPushButton("E&xport…")
        self.export_button.setToolTip(
            "Write the merged tables (figures, normalised view, differences, sources) as "
            "HTML, xlsx, Markdown, LaTeX, CSV or JSON"
        )
        self.buttons.addButton(self.export_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.export_button.clicked.connect(self._on_export_button_clicked)
        self.setCentralWidget(central)

    def _build_choices(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.reference_box = QComboBox()
        self.reference_box.setToolTip(
            "The entry each run's figures are divided by (= 1 on every machine), so that "
            "machines of very different speed compare by shape"
        )
        common = common_entries(self.sources)
        for entry in common:
            self.reference_box.addItem(entry, entry)
        if not common:
            self.reference_box.addItem("(no entry common to all runs)", None)
            self.reference_box.setEnabled(False)
        elif self.merged.reference in common:
            self.reference_box.setCurrentIndex(common.index(self.merged.reference))
        self.direction_box = QComboBox()
        for direction in DIRECTIONS:
            self.direction_box.addItem(DIRECTION_TEXT[direction], direction)
        self.direction_box.setCurrentIndex(DIRECTIONS.index(self.merged.direction))
        self.units_box = QComboBox()
        for units in UNITS:
            self.units_box.addItem(units, units)
        self.units_box.setCurrentIndex(list(UNITS).index(self.merged.units))
        for text, box in (
            ("&Reference entry:", self.reference_box),
            ("&Direction:", self.direction_box),
            ("&Units:", self.units_box),
        ):
            label = Label(text)
            label.setBuddy(box)
            row.addWidget(label)
            row.addWidget(box)
            row.addSpacing(12)
            box.currentIndexChanged.connect(self._on_choice_changed)
        row.addStretch(1)
        return row

    # --- showing ----------------------------------------------------------------------------

    @property
    def reference(self) -> str | None:
        data = self.reference_box.currentData()
        return str(data) if data else None

    def choose(
        self, reference: str | None = None, direction: str | None = None, units: str | None = None
    ) -> None:
        """Pick any of the choices above the tabs (as the combo boxes do)."""
        for box, value in (
            (self.reference_box, reference),
            (self.direction_box, direction),
            (self.units_box, units),
        ):
            if value is not None and box.findData(value) >= 0:
                box.setCurrentIndex(box.findData(value))

    @Slot(int)
    def _on_choice_changed(self, _index: int) -> None:
        try:
            self.merged = merge_results(
                self.sources,
                reference=self.reference,
                units=str(self.units_box.currentData()),
                direction=str(self.direction_box.currentData()),
            )
        except UserError as exc:  # not expected: every choice offered is valid
            self.statusBar().showMessage(str(exc), STATUS_MS)
            return
        self._show_merged()

    def _show_merged(self) -> None:
        merged = self.merged
        tips = ("", "", *(_source_tip(s) for s in merged.sources))
        self.figures_model.set_table(figures_table(merged), tips)
        normalised = normalised_table(merged)
        if normalised is not None:
            self.normalised_model.set_table(normalised, tips)
        self.normalised_view.setVisible(normalised is not None)
        self.no_reference_label.setVisible(normalised is None)
        self.differences_model.set_rows(
            ("What", *merged.labels), differences_rows(merged), header_tips=tips[1:]
        )
        self.differences_view.setVisible(bool(merged.differences))
        self.nothing_differs_label.setVisible(not merged.differences)
        self.tabs.setTabText(
            2,
            f"&What differs ({len(merged.differences)})" if merged.differences else "&What differs",
        )
        self.sources_model.set_rows(SOURCE_HEADERS, sources_rows(merged.sources))
        for view in (
            self.figures_view,
            self.normalised_view,
            self.differences_view,
            self.sources_view,
        ):
            _fit_columns(view)
        self.notes_label.setText("\n".join(merged.notes()))

    @Slot(int)
    def _on_tabs_current_changed(self, index: int) -> None:
        self.notes_label.setVisible(index < 2)  # how the figures were made: under the figures

    # --- exporting --------------------------------------------------------------------------

    @Slot()
    def _on_export_button_clicked(self) -> None:
        suggested = str(Path(self.settings.last_folder) / "cipherbench-merged.html")
        filters = formats.MERGED.file_filters()
        path = ask_save_path(self, "Export the merged runs", suggested, filters)
        if path:
            self.export_to(path)

    def export_to(self, path: str | Path) -> Path | None:
        """Write the merged tables as shown (reference, direction, units) to ``path``; a
        warning in one sentence when it cannot."""
        written = save_or_warn(self, self.merged, path)
        if written is None:
            return None
        self.settings.last_folder = str(written.parent)
        self.statusBar().showMessage(f"Saved the merged runs to {written}", STATUS_MS)
        return written


def _source_tip(source: MergeSource) -> str:
    env = source.environment
    return f"{source.label}: {source.origin}; {env.cpu_model or 'CPU unknown'}; {source.how_run}"


def _stacked(label: QLabel, view: QTableView) -> QWidget:
    """``label`` (why there is no table) above ``view``; one of them is shown at a time."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    layout.addWidget(label)
    layout.addWidget(view, 1)
    return box
