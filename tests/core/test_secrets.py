"""A process that holds a password leaves no core dump: core files off, and (Linux) the
process not dumpable, checked in a child so the test runner keeps its own settings."""

from __future__ import annotations

import subprocess
import sys

import pytest

CHILD = """
import ctypes, resource
from app.core.runtime.secrets import hold_secrets
hold_secrets()
print(resource.getrlimit(resource.RLIMIT_CORE)[0], ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_holding_a_secret_turns_core_dumps_off() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["0", "0"]  # RLIMIT_CORE 0; PR_GET_DUMPABLE 0
