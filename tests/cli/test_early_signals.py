"""Cancelled from the first instant: a Ctrl-C or a SIGTERM that arrives while the command is
still importing ends it with one line and the usual code, never a traceback (the full check,
80 signals at random moments, is benchmarks/bench_early_signals.py)."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

CHILD = """
import sys
import app.__main__ as entry
entry.guard_the_first_second()
print("ready", flush=True)
sys.stdin.readline()  # the signal arrives here, before the command's own imports
from app.cli.main import main
"""


@pytest.mark.parametrize(
    "signum,code,said",
    [(signal.SIGINT, 130, "cancelled"), (signal.SIGTERM, 143, "stopped by SIGTERM")],
)
def test_a_signal_while_importing_is_one_line_and_the_usual_code(signum, code, said) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        child.send_signal(signum)
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == code and err == f"cipherbench: {said}\n"
