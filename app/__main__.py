"""The ``cipherbench`` and ``cipherbench-gui`` commands of an installed CipherBench (and
``python -m app``); ``main.py`` in a checkout and the PyInstaller bundle call the same ``main``.

Worker processes are spawned (never forked) and re-import the main module under another name,
so nothing here runs on import.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """``cipherbench [COMMAND ...]``: the window with no arguments or ``gui``, otherwise the
    command line; returns the exit code. A Python without the packages CipherBench needs gets
    one sentence naming the package and how to start CipherBench with it (exit code 2), not a
    traceback."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        if args and args[0] != "gui":
            from app.cli.main import main as cli_main

            return cli_main(args)
        from app.gui.launch import launch

        return launch(args[1:])
    except ImportError as exc:
        from app.core.dependencies import missing_dependency

        message = missing_dependency(exc)
        if message is None:
            raise
        print(f"cipherbench: error: {message}", file=sys.stderr)
        return 2


def gui_main() -> int:
    """``cipherbench-gui``: always the window (a leading ``gui`` is accepted)."""
    args = sys.argv[1:]
    return main(args if args[:1] == ["gui"] else ["gui", *args])


if __name__ == "__main__":
    import multiprocessing

    multiprocessing.freeze_support()
    sys.exit(main())
