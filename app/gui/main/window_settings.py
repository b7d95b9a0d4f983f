"""What the main window remembers between sessions (never a key or a password): its size and
place, its splitters, the cipher selection and the options, the generated input's size, the
recent files and the hidden columns."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.gui.screen_fit import keep_on_screen
from app.gui.selection import Selection

if TYPE_CHECKING:
    from app.gui.main.parts import WindowParts


def restore_window_settings(window: WindowParts) -> None:
    """Put ``window`` back as its settings left it."""
    s = window.settings
    geometry = s.bytes_value("window/geometry")
    if geometry is not None:
        window.restoreGeometry(geometry)
        keep_on_screen(window)  # saved on a larger screen, or with no room for the frame
    for key, splitter in (
        ("window/main_splitter", window.main_splitter),
        ("window/right_splitter", window.right_splitter),
    ):
        state = s.bytes_value(key)
        if state is not None:
            splitter.restoreState(state)
    if s.selection is not None:
        window.selection_panel.set_selection(Selection.from_dict(s.selection))
    if s.options is not None:
        window.options_panel.from_dict(s.options)
    if s.generated_size:
        window.input_panel.set_generated_size_text(s.generated_size)
    window.input_panel.set_recent_files(s.recent_files)
    window.table.set_hidden_columns(s.hidden_columns)


def save_window_settings(window: WindowParts) -> None:
    """Remember ``window`` as it is now."""
    s = window.settings
    s.set_bytes_value("window/geometry", window.saveGeometry())
    s.set_bytes_value("window/main_splitter", window.main_splitter.saveState())
    s.set_bytes_value("window/right_splitter", window.right_splitter.saveState())
    s.selection = window.selection_panel.selection().to_dict()
    s.options = window.options_panel.to_dict()
    s.generated_size = window.input_panel.generated_size_text()
    s.sync()
