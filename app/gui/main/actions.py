"""The main window's actions, menus and the buttons and panel signals that trigger them.

Each action calls the window's handler for it, given as :class:`ActionHandlers` (the window's
``_on_<name>_action_triggered`` methods); the buttons only trigger the actions, so a shortcut,
a menu entry and a button do the same thing. Written against the window's declared parts
(:class:`~app.gui.main.parts.WindowParts`), not the window itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from app.core.kinds import table
from app.core.kinds.table import Kind
from app.gui.menus import add_action, add_menu
from app.gui.paper_export import ACTION_TEXT, ACTION_TIP

if TYPE_CHECKING:
    from app.gui.main.parts import WindowParts

Handler = Callable[[], Any]


@dataclass(frozen=True)
class ActionHandlers:
    """What the window does for each of its own actions (the others open windows here)."""

    open: Handler
    export: Handler
    export_paper: Handler
    encrypt_file: Handler
    decrypt_file: Handler
    save_encrypted: Handler
    save_plaintext: Handler
    save_chart: Handler
    run: Handler
    cancel: Handler
    reset: Handler
    quit: Callable[[], None]  # asks first during a run
    about: Handler
    table_selection_changed: Handler


def install_actions(window: WindowParts, handlers: ActionHandlers) -> None:
    """Add the actions (``window.<name>_action``) and the menu bar, and connect the buttons."""
    _create_file_actions(window, handlers)
    _create_run_actions(window, handlers)
    _create_edit_help_actions(window, handlers)
    _build_menus(window)
    _connect_buttons(window, handlers)


def _create_file_actions(window: WindowParts, on: ActionHandlers) -> None:
    """The File menu's actions: open, export, encrypt and decrypt, save, quit."""
    action = partial(add_action, window)
    window.open_action = action(
        "&Choose files…",
        on.open,
        QKeySequence.StandardKey.Open,
        "Add input files (several at once); every cipher runs on each",
    )
    window.export_action = action(
        "&Export results…",
        on.export,
        "Ctrl+E",
        "Save results as .xlsx, .csv or .json",
    )
    window.paper_action = action(ACTION_TEXT, on.export_paper, tip=ACTION_TIP)
    window.encrypt_file_action = action(
        "E&ncrypt file…",
        on.encrypt_file,
        "Ctrl+Shift+E",
        "Encrypt any file with a password or a key file",
    )
    window.decrypt_file_action = action(
        "&Decrypt file…",
        on.decrypt_file,
        "Ctrl+Shift+D",
        "Decrypt a CipherBench file or a raw export, preview it, save the plaintext",
    )
    window.save_encrypted_action = action(
        "Save encr&ypted…",
        on.save_encrypted,
        tip="Save the selected job's data encrypted",
    )
    window.save_plaintext_action = action("Save &plaintext…", on.save_plaintext)
    window.save_chart_action = action("Save c&hart…", on.save_chart)
    window.quit_action = action("&Quit", on.quit, QKeySequence.StandardKey.Quit)


def _create_run_actions(window: WindowParts, on: ActionHandlers) -> None:
    """The Run menu's actions: run, the tool windows, the history, cancel, reset."""
    action = partial(add_action, window)
    window.run_action = action("&Run Benchmark", on.run, "Ctrl+R")
    window.study_action = action(
        "&Study…",
        lambda: _open_study_window(window),
        "Ctrl+Shift+S",
        "Run a published comparison or your own grid of ciphers x sizes or files",
    )
    window.transfer_action = action(
        "&Loopback transfer…",
        lambda: _open_transfer_window(window),
        "Ctrl+Shift+T",
        "Send a file sealed in chunks from one process to another over 127.0.0.1, and measure it",
    )
    window.sweep_action = action(
        "&Message lengths && hardware…",
        lambda: _open_sweep_window(window),
        tip="Each cipher on messages from 16 B to 16 MiB in cycles per byte; AES with and "
        "without the CPU's AES instructions",
    )
    window.kind_actions = [  # every kind made from its definition: its own window
        action(f"{d.title}…", partial(_open_kind_window, window, kind), tip=d.summary)
        for kind in table.defined_kinds()
        if (d := kind.defined()) is not None
    ]
    window.history_action = action(
        "&History…",
        lambda: _open_history_window(window),
        "Ctrl+H",
        "Every run stored so far: open one again, compare two, import or export",
    )
    window.cancel_action = action("&Cancel", on.cancel, Qt.Key.Key_Escape)
    window.reset_action = action("Re&set", on.reset)


def _create_edit_help_actions(window: WindowParts, on: ActionHandlers) -> None:
    """Copy (Edit), the numbers explained and About (Help)."""
    action = partial(add_action, window)
    window.copy_action = action("&Copy selected rows", window.table.copy_selection)
    window.help_action = action(
        "&What the numbers mean",
        lambda: _open_help(window),
        Qt.Key.Key_F1,
        "Time, throughput, memory, CPU %, warnings and confidence intervals explained",
    )
    window.about_action = action("&About CipherBench", on.about)


def _build_menus(window: WindowParts) -> None:
    add_menu(
        window,
        "&File",
        (window.open_action, window.encrypt_file_action, window.decrypt_file_action),
        (
            window.export_action,
            window.paper_action,
            window.save_encrypted_action,
            window.save_plaintext_action,
            window.save_chart_action,
        ),
        (window.quit_action,),
    )
    add_menu(
        window,
        "&Run",
        (window.run_action, window.cancel_action, window.reset_action),
        (window.study_action, window.transfer_action, window.sweep_action, *window.kind_actions),
        (window.history_action,),
    )
    add_menu(window, "&Edit", (window.copy_action,))
    add_menu(window, "&Help", (window.help_action,), (window.about_action,))


def _open_kind_window(window: WindowParts, kind: Kind) -> None:
    from app.gui.kind_window import open_kind_window

    open_kind_window(window, kind)


def _open_help(window: WindowParts) -> None:
    from app.gui.dialogs.help_dialog import open_help_dialog

    open_help_dialog(window)


def _open_study_window(window: WindowParts) -> None:
    from app.gui.study.study_window import open_study_window  # pyqtgraph loads on first use

    open_study_window(window, window.settings)


def _open_transfer_window(window: WindowParts) -> None:
    from app.gui.transfer.transfer_window import open_transfer_window  # pyqtgraph: first use

    open_transfer_window(window, window.settings)


def _open_sweep_window(window: WindowParts) -> None:
    from app.gui.sweep.sweep_window import open_sweep_window  # pyqtgraph: first use

    open_sweep_window(window, window.settings)


def _open_history_window(window: WindowParts) -> None:
    from app.gui.history.history_window import open_history_window

    open_history_window(window, window.settings)


def _connect_buttons(window: WindowParts, on: ActionHandlers) -> None:
    window.run_button.clicked.connect(window.run_action.trigger)
    window.cancel_button.clicked.connect(window.cancel_action.trigger)
    window.reset_button.clicked.connect(window.reset_action.trigger)
    window.export_button.clicked.connect(window.export_action.trigger)
    window.copy_button.clicked.connect(window.table.copy_selection)
    window.save_encrypted_button.clicked.connect(window.save_encrypted_action.trigger)
    window.save_plaintext_button.clicked.connect(window.save_plaintext_action.trigger)
    window.input_panel.choose_requested.connect(window.open_action.trigger)
    window.input_panel.recent_chosen.connect(window.controller.set_input_file)
    window.input_panel.generate_requested.connect(window.controller.generate_input)
    window.input_panel.clear_recent_requested.connect(window.controller.clear_recent_files)
    window.input_panel.remove_requested.connect(window.controller.remove_inputs)
    window.input_panel.clear_requested.connect(window.controller.clear_inputs)
    window.table.selectionModel().selectionChanged.connect(on.table_selection_changed)
