"""The ``cipherbench`` and ``cipherbench-gui`` commands of an installed CipherBench (and
``python -m app``); ``main.py`` in a checkout and the PyInstaller bundle call the same ``main``.

Worker processes are spawned (never forked) and re-import the main module under another name,
so nothing here runs on import.
"""

from __future__ import annotations

import os
import signal
import sys

_EARLY = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def _stop_early(signum: int, _frame: object) -> None:
    """Ctrl-C, SIGTERM or SIGHUP while the command is still importing (a second or more on a
    loaded machine): nothing has started that needs stopping, so end at once with the usual
    line and code (130, 143, 129) instead of a traceback."""
    sigint = signum == signal.SIGINT
    said = "cancelled" if sigint else f"stopped by {signal.Signals(signum).name}"
    start = "\r" if os.isatty(2) else ""  # over the terminal's ^C echo
    os.write(2, f"{start}cipherbench: {said}\n".encode())
    os._exit(130 if sigint else 128 + signum)


def guard_the_first_second() -> None:
    """From here until the command is imported, a signal ends the process in one line."""
    for signum in _EARLY:
        signal.signal(signum, _stop_early)


def _hand_over_ctrl_c() -> None:
    """From here a Ctrl-C is a ``KeyboardInterrupt`` again, which the command turns into an
    orderly stop (SIGTERM and SIGHUP: the command installs its own handlers first thing)."""
    if signal.getsignal(signal.SIGINT) is _stop_early:
        signal.signal(signal.SIGINT, signal.default_int_handler)


SAMPLED = "app.core.profile.sampled"  # the process a profiler starts: see main


def main(argv: list[str] | None = None) -> int:
    """``cipherbench [COMMAND ...]``: the window with no arguments or ``gui``, otherwise the
    command line; returns the exit code. A Python without the packages CipherBench needs gets
    one sentence naming the package and how to start CipherBench with it (exit code 2), not a
    traceback."""
    args = sys.argv[1:] if argv is None else list(argv)
    if argv is None:  # a process of its own (not a test calling main)
        guard_the_first_second()
    if getattr(sys, "frozen", False) and args[:2] == ["-m", SAMPLED]:
        # A bundle has no ``python -m``: the profiler starts the job as this program (app.core.
        # profile.sampler runs ``sys.executable -m`` the module either way).
        from app.core.profile import sampled

        return sampled.main(args[2:])
    try:
        if args and args[0] != "gui":
            from app.cli.main import main as cli_main

            _hand_over_ctrl_c()
            return cli_main(args)
        from app.gui.launch import launch

        _hand_over_ctrl_c()
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
    guard_the_first_second()
    import multiprocessing

    multiprocessing.freeze_support()
    sys.exit(main())
