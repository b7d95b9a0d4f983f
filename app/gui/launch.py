"""Starting the window, or saying plainly why it cannot start. Imports Qt only when it can."""

from __future__ import annotations

import os
import sys

NO_DISPLAY = (
    "CipherBench's window needs a display, and none was found (DISPLAY and WAYLAND_DISPLAY "
    "are not set).\nUse the command line instead, for example:\n"
    "  python main.py bench --size 10MB --cipher aes-256-gcm --cipher chacha20-poly1305\n"
    "  python main.py --help\n"
    "or start the window in a virtual display: xvfb-run -a python main.py"
)


def display_problem() -> str | None:
    """Why no window can open here, or None."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return None  # the user chose a platform (offscreen, xcb, wayland ...)
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return NO_DISPLAY
    return None


def launch(argv: list[str]) -> int:
    problem = display_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    try:
        # QtWidgets first: importing pyqtgraph first hides which system library is missing.
        import PySide6.QtWidgets  # noqa: F401
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and (exc.name or "").startswith("PySide6"):
            raise  # not installed at all: app/__main__.py names the package to install
        print(
            f"The window cannot start: {exc}.\nOn Debian/Ubuntu the Qt libraries come with: "
            "sudo apt-get install libgl1 libegl1 libxkbcommon-x11-0 libxcb-cursor0 "
            "libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-render-util0 libxcb-shape0 "
            "libxcb-xkb1 libfontconfig1 libdbus-1-3\nThe command line works without them: "
            "python main.py --help",
            file=sys.stderr,
        )
        return 2
    from app.gui.app import run_app

    return run_app([sys.argv[0], *argv])
