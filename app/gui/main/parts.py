"""The main window's parts, declared in one place: every widget :mod:`app.gui.main.layout`
builds and every action :mod:`app.gui.main.actions` creates, with its type.

:class:`MainWindow` derives from :class:`WindowParts` (a ``QMainWindow`` that only declares),
so ``window.run_button`` is a ``QPushButton`` to mypy and to a reader, and the layout and the
actions are written against the parts, never against the window that uses them: the imports
run one way (the pattern of ndv's ``views/bases``: the interface first, the building
elsewhere).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMainWindow

if TYPE_CHECKING:
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QLabel, QPushButton, QScrollArea, QSplitter, QWidget

    from app.gui.main.controller import BenchmarkController
    from app.gui.panels.environment_panel import EnvironmentPanel
    from app.gui.panels.input_panel import InputPanel
    from app.gui.panels.options_panel import OptionsPanel
    from app.gui.panels.progress_panel import ProgressPanel
    from app.gui.panels.selection_panel import SelectionPanel
    from app.gui.results.chart_tabs import ChartTabs
    from app.gui.results.comparisons_panel import ComparisonsPanel
    from app.gui.results.results_table import ResultsSortProxyModel, ResultsTableView
    from app.gui.settings import AppSettings


class WindowParts(QMainWindow):
    """What the main window is made of (built by ``build_widgets`` and ``install_actions``)."""

    settings: AppSettings
    controller: BenchmarkController

    # The left side: what to run, and the buttons that run it.
    input_panel: InputPanel
    selection_panel: SelectionPanel
    options_panel: OptionsPanel
    run_button: QPushButton
    cancel_button: QPushButton
    reset_button: QPushButton
    left_scroll: QScrollArea
    left_side: QWidget

    # The right side: progress, the results table and its buttons, the tabs.
    progress_panel: ProgressPanel
    proxy: ResultsSortProxyModel
    table: ResultsTableView
    results_caption: QLabel
    copy_button: QPushButton
    save_encrypted_button: QPushButton
    save_plaintext_button: QPushButton
    export_button: QPushButton
    environment_panel: EnvironmentPanel
    comparisons_panel: ComparisonsPanel
    tabs: ChartTabs
    right_splitter: QSplitter
    main_splitter: QSplitter
    status_label: QLabel

    # The actions (menus, shortcuts; the buttons trigger them).
    open_action: QAction
    export_action: QAction
    paper_action: QAction  # Export for a paper…
    encrypt_file_action: QAction
    decrypt_file_action: QAction
    save_encrypted_action: QAction
    save_plaintext_action: QAction
    save_chart_action: QAction
    quit_action: QAction
    run_action: QAction
    study_action: QAction
    transfer_action: QAction
    sweep_action: QAction
    history_action: QAction
    kind_actions: list[QAction]  # one per kind made from its definition
    cancel_action: QAction
    reset_action: QAction
    copy_action: QAction
    help_action: QAction
    about_action: QAction

    def run_again_in_rounds(self, rounds: int) -> None:
        """The Comparisons tab's button (the window defines it)."""
        raise NotImplementedError
