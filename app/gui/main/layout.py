"""The main window's widgets: panels and buttons on the left; progress, results table and
chart tabs on the right. They become attributes of the window (``window.run_button``, ...)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.gui.form_column import form_column
from app.gui.label import Label
from app.gui.panels.environment_panel import EnvironmentPanel
from app.gui.panels.input_panel import InputPanel
from app.gui.panels.options_panel import OptionsPanel
from app.gui.panels.progress_panel import ProgressPanel
from app.gui.panels.selection_panel import SelectionPanel
from app.gui.results.chart_tabs import ChartTabs
from app.gui.results.comparisons_panel import ComparisonsPanel
from app.gui.results.results_table import ResultsSortProxyModel, ResultsTableView
from app.gui.screen_fit import ScreenFit, fit_to_screen

if TYPE_CHECKING:
    from app.gui.main.parts import WindowParts


def build_widgets(window: WindowParts) -> None:
    """Create the window's widgets and lay them out."""
    _build_left_side(window)
    window.environment_panel = EnvironmentPanel()
    window.tabs = ChartTabs(window.environment_panel, window.controller.model.results)
    window.comparisons_panel = ComparisonsPanel()
    window.tabs.insertTab(window.tabs.count() - 1, window.comparisons_panel, "Comparisons")
    window.controller.claims.changed.connect(window.comparisons_panel.set_claims)
    window.comparisons_panel.rounds_requested.connect(window.run_again_in_rounds)

    window.right_splitter = QSplitter(Qt.Orientation.Vertical)
    window.right_splitter.addWidget(_build_table_box(window))
    window.right_splitter.addWidget(window.tabs)
    window.right_splitter.setStretchFactor(0, 2)
    window.right_splitter.setStretchFactor(1, 3)
    right = QWidget()
    right_layout = QVBoxLayout(right)
    window.progress_panel = ProgressPanel()
    right_layout.addWidget(window.progress_panel)
    right_layout.addWidget(window.right_splitter, 1)

    window.main_splitter = QSplitter(Qt.Orientation.Horizontal)
    window.main_splitter.addWidget(window.left_side)
    window.main_splitter.addWidget(right)
    window.main_splitter.setStretchFactor(0, 0)
    window.main_splitter.setStretchFactor(1, 1)
    window.main_splitter.setSizes([430, 1010])
    window.setCentralWidget(window.main_splitter)
    window.status_label = Label("")
    window.status_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    window.statusBar().addWidget(window.status_label, 1)
    fit_to_screen(window, ScreenFit(1440, 900))  # never larger than a 1366 x 768 laptop


def _build_left_side(window: WindowParts) -> None:
    window.input_panel = InputPanel()
    window.selection_panel = SelectionPanel()
    window.options_panel = OptionsPanel()

    window.run_button = QPushButton("Run Benchmark")
    window.run_button.setToolTip("Encrypt, decrypt and verify with every selected cipher (Ctrl+R)")
    window.run_button.setDefault(True)
    window.run_button.setMinimumHeight(34)
    font = window.run_button.font()
    font.setBold(True)
    window.run_button.setFont(font)
    window.cancel_button = QPushButton("Cancel")
    window.cancel_button.setToolTip("Stop the run now (Esc)")
    window.reset_button = QPushButton("Reset")
    window.reset_button.setToolTip("Clear results and input; choices back to their defaults")
    buttons = QHBoxLayout()
    buttons.addWidget(window.run_button, 2)
    buttons.addWidget(window.cancel_button, 1)
    buttons.addWidget(window.reset_button, 1)

    left = QWidget()
    left_layout = QVBoxLayout(left)
    left_layout.addWidget(window.input_panel)
    left_layout.addWidget(window.selection_panel, 1)
    left_layout.addWidget(window.options_panel)
    # Run, Cancel and Reset below the scrolling panels, always in view.
    footer = QWidget()
    footer.setLayout(buttons)
    window.left_side, window.left_scroll = form_column(left, footer, framed=False)
    scrollbar = window.left_scroll.verticalScrollBar().sizeHint().width()
    margins = left_layout.contentsMargins()
    buttons.setContentsMargins(margins.left(), 0, margins.right() + scrollbar, margins.bottom())


def _build_table_box(window: WindowParts) -> QWidget:
    window.proxy = ResultsSortProxyModel(window)
    window.proxy.setSourceModel(window.controller.model)
    window.table = ResultsTableView()
    window.table.setModel(window.proxy)
    window.table.fit_columns()
    window.copy_button = QPushButton("Copy rows")
    window.copy_button.setToolTip("Copy the selected rows as tab-separated text (Ctrl+C)")
    window.save_encrypted_button = QPushButton("Save encrypted…")
    window.save_encrypted_button.setToolTip(
        "Save the selected job's data encrypted with its cipher: protected by a password or "
        "a key file, or as raw ciphertext with a key file for OpenSSL"
    )
    window.save_plaintext_button = QPushButton("Save plaintext…")
    window.save_plaintext_button.setToolTip(
        "Decrypt the selected job's ciphertext again and save the result"
    )
    window.export_button = QPushButton("Export…")
    window.export_button.setToolTip("Save all results as Excel (with charts), CSV or JSON")
    table_buttons = QHBoxLayout()
    window.results_caption = Label("Results")
    table_buttons.addWidget(window.results_caption)
    table_buttons.addStretch(1)
    for b in (
        window.copy_button,
        window.save_encrypted_button,
        window.save_plaintext_button,
        window.export_button,
    ):
        table_buttons.addWidget(b)
    table_box = QWidget()
    table_layout = QVBoxLayout(table_box)
    table_layout.setContentsMargins(0, 0, 0, 0)
    table_layout.addLayout(table_buttons)
    table_layout.addWidget(window.table, 1)
    return table_box
