"""Starting the desktop application: ``run_app(sys.argv)`` (what ``python main.py`` calls)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from types import FrameType

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication

from app.core.resources import resource_path
from app.core.runtime import scratch, termination
from app.gui.app_icon import app_icon
from app.gui.gui_gc import collect_in_gui_thread
from app.gui.recorder import wait_for_stores

# A file the window writes once it is shown and its event loop runs (set by tests).
READY_FILE_VARIABLE = "CIPHERBENCH_READY_FILE"

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
SIGNAL_POLL_MS = 200
CLOSE_GRACE_MS = 8000  # closing cancels a run within about a second; this is the backstop


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


def close_on_termination(qapp: QCoreApplication) -> list[int]:
    """Make SIGTERM and SIGHUP close the windows as the user would (a running benchmark is
    cancelled, temporary files removed). Returns the list the received signals are added to."""
    received: list[int] = []

    def handler(signum: int, _frame: FrameType | None) -> None:
        received.append(signum)
        for widget in QApplication.topLevelWidgets():
            if widget.isWindow() and widget.isVisible() and widget.parent() is None:
                widget.close()
        QTimer.singleShot(CLOSE_GRACE_MS, qapp.quit)  # if a window refuses to close

    for signum in termination.HANDLED:
        signal.signal(signum, handler)
    # Python runs a signal handler only when it gets control; while Qt waits for events it
    # does not, so a timer lets it in a few times a second.
    timer = QTimer(qapp)
    timer.timeout.connect(lambda: None)
    timer.start(SIGNAL_POLL_MS)
    return received


def run_app(argv: list[str] | None = None) -> int:
    """Open the CipherBench window and run the event loop; returns the exit code (128 + N
    when signal N closed it)."""
    qapp = QApplication.instance() or QApplication(list(argv if argv is not None else sys.argv))
    configure_application(qapp)
    collect_in_gui_thread(qapp)  # never in a pool thread, in the middle of Qt
    scratch.remove_stale()
    received = close_on_termination(qapp)
    from app.gui.main.window import MainWindow

    window = MainWindow()
    window.show()
    ready = os.environ.get(READY_FILE_VARIABLE)
    if ready:  # tests and benchmarks wait for this rather than for a guessed number of seconds
        QTimer.singleShot(0, lambda: Path(ready).write_text("ready\n", encoding="ascii"))
    code = qapp.exec()
    wait_for_stores()  # a run finished just before quitting is stored before the process ends
    return 128 + received[0] if received else code
