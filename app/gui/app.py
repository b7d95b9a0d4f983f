"""Starting the desktop application: ``run_app(sys.argv)`` (what ``python main.py`` calls)."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

ORGANIZATION = "CipherBench"
APPLICATION = "CipherBench"
# The base name of packaging/linux/cipherbench.desktop: Wayland compositors and X11 task bars
# use it to find the window's icon and name.
DESKTOP_FILE_NAME = "cipherbench"
# The GUI thread shares the GIL with the worker thread that supervises the engine. With the
# default 5 ms switch interval every Python callback of a repaint (pyqtgraph paints in Python)
# can wait 5 ms for the GIL; 1 ms keeps the window smooth. The ciphers run in other processes,
# so nothing measured is slowed by it.
GIL_SWITCH_INTERVAL_S = 0.001


def resource_path(name: str) -> Path:
    """A file of ``resources/``, from a checkout or from a PyInstaller bundle."""
    bundle = getattr(sys, "_MEIPASS", None)
    root = Path(bundle) if bundle else Path(__file__).resolve().parents[2]
    return root / "resources" / name


def app_icon() -> QIcon:
    icon = QIcon()
    for name in ("icon.svg", "icon.png"):
        path = resource_path(name)
        if path.is_file():
            icon.addFile(str(path))
    return icon


def configure_application(qapp: QCoreApplication) -> None:
    """Names that decide where ``QSettings`` are stored, the desktop entry, the window icon,
    the GIL switch interval."""
    from app import __version__

    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    qapp.setOrganizationName(ORGANIZATION)
    qapp.setApplicationName(APPLICATION)
    qapp.setApplicationVersion(__version__)
    if isinstance(qapp, QApplication):
        qapp.setDesktopFileName(DESKTOP_FILE_NAME)
        qapp.setWindowIcon(app_icon())
        style = resource_path("style.qss")
        if style.is_file():
            qapp.setStyleSheet(style.read_text(encoding="utf-8"))


def run_app(argv: list[str] | None = None) -> int:
    """Open the CipherBench window and run the event loop; returns the exit code."""
    qapp = QApplication.instance() or QApplication(list(argv if argv is not None else sys.argv))
    configure_application(qapp)
    from app.gui.main_window import MainWindow

    window = MainWindow()
    window.show()
    return qapp.exec()
