"""The one way CipherBench starts, watches and stops a child process (app.core.children)."""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from app.core import children, scratch
from app.core.children import Child, hide_from_children, signal_name
from app.core.transfer import runner

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and /proc")


# --- targets (module level: a spawned child imports them) -------------------------------------


def _close_then_die(conn: Connection) -> None:
    """Close the pipe first, then die by SIGKILL a moment later: the supervisor sees the end of
    the pipe before the kernel has reaped the process."""
    conn.close()
    time.sleep(0.3)
    os.kill(os.getpid(), signal.SIGKILL)


def _report_signals(conn: Connection) -> None:
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    conn.send((signal.SIGINT in blocked, signal.getsignal(signal.SIGINT) == signal.SIG_IGN))
    conn.recv()


def _make_scratch_and_wait(conn: Connection) -> None:
    conn.send(str(scratch.root()))
    conn.recv()  # until killed


def _report_environment(conn: Connection) -> None:
    conn.send(dict(os.environ))
    conn.recv()


# --- tests -------------------------------------------------------------------------------------


def test_the_exit_code_is_read_after_the_child_is_reaped() -> None:
    child = Child(_close_then_die, name="cipherbench-test")
    try:
        with pytest.raises(EOFError):
            child.conn.recv()  # the pipe ends ~0.3 s before the process does
        assert child.exit_code() == -signal.SIGKILL
        assert signal_name(child.exit_code()) == "SIGKILL"
    finally:
        assert child.stop() == -signal.SIGKILL
    assert child.stop() == -signal.SIGKILL  # twice is fine


def test_a_transfer_end_killed_is_reported_by_its_signal() -> None:
    """The receiver killed with SIGKILL was once "stopped unexpectedly (exit code None)"."""
    end = runner._End("receiver", _close_then_die)
    try:
        with pytest.raises(EOFError):
            end.conn.recv()
        assert end.death() == "the receiver process was stopped by SIGKILL during the transfer"
    finally:
        end.stop()


def test_a_child_starts_deaf_to_ctrl_c() -> None:
    """SIGINT is blocked from the child's first instruction (a Ctrl-C during its imports would
    print a traceback) and ignored once it runs: the supervisor decides when it stops."""
    child = Child(_report_signals, name="cipherbench-test")
    try:
        assert child.conn.recv() == (True, True)
    finally:
        child.stop()


def test_stopping_a_child_removes_its_scratch_folder() -> None:
    child = Child(_make_scratch_and_wait, name="cipherbench-test")
    folder = Path(child.conn.recv())
    assert folder.is_dir() and folder.name.startswith(f"cipherbench-{child.pid}-")
    assert child.stop() == -signal.SIGKILL  # killed: its atexit never ran
    assert not folder.exists()


def test_hidden_variables_never_reach_a_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(children, "_hidden", set())
    monkeypatch.setenv("CB_TEST_SECRET", "s3cret")
    monkeypatch.setenv("CB_TEST_PLAIN", "visible")
    hide_from_children("CB_TEST_SECRET")
    child = Child(_report_environment, name="cipherbench-test")
    try:
        env = child.conn.recv()
        with open(f"/proc/{child.pid}/environ", "rb") as f:
            raw = f.read()
    finally:
        child.stop()
    assert "CB_TEST_SECRET" not in env and env["CB_TEST_PLAIN"] == "visible"
    assert b"s3cret" not in raw and b"CB_TEST_PLAIN=visible" in raw
    assert os.environ["CB_TEST_SECRET"] == "s3cret"  # this process keeps what it read


def test_every_child_process_starts_here() -> None:
    """Workers, transfer ends and the deriver all start through app.core.children: no other
    module of the engine or the front-ends spawns a child of its own (the environment's
    one-shot ``subprocess.run`` of a system tool is not a supervised child)."""
    app = Path(__file__).resolve().parents[2] / "app"
    own = app / "core" / "children.py"
    makers = re.compile(r"get_context\(|(?<!psutil)\.Process\(|Popen\(|os\.fork\(|ProcessPool")
    found = [
        f"{path.relative_to(app)}: {hit.group()}"
        for path in app.rglob("*.py")
        if path != own
        for hit in makers.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found
