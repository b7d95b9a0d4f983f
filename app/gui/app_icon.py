"""CipherBench's icon, from the bundled resources (the window's, the About box's)."""

from __future__ import annotations

from PySide6.QtGui import QIcon

from app.core.resources import resource_path


def app_icon() -> QIcon:
    icon = QIcon()
    for name in ("icon.svg", "icon.png"):
        path = resource_path(name)
        if path.is_file():
            icon.addFile(str(path))
    return icon
