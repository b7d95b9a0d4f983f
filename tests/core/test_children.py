"""The one way CipherBench starts, watches and stops a child process (app.core.runtime.children)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path

import psutil
import pytest
from leftovers import outlived

from app.core.runtime import children, scratch
from app.core.runtime.children import Child, hide_from_children, signal_name
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
    """Workers, transfer ends and the deriver all start through app.core.runtime.children: no
    other module of the engine or the front-ends spawns a child of its own (the environment's
    one-shot ``subprocess.run`` of a system tool is not a supervised child)."""
    app = Path(__file__).resolve().parents[2] / "app"
    # children.py, and the scratch folder's janitor, which must outlive its owner (below).
    own = (app / "core" / "runtime" / "children.py", app / "core" / "runtime" / "scratch.py")
    makers = re.compile(r"get_context\(|(?<!psutil)\.Process\(|Popen\(|os\.fork\(|ProcessPool")
    found = [
        f"{path.relative_to(app)}: {hit.group()}"
        for path in app.rglob("*.py")
        if path not in own
        for hit in makers.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found


# --- the scratch folder's janitor --------------------------------------------------------------

_OWNER = (
    "import sys, time; from app.core.runtime import scratch; "
    "folder = scratch.root(); (folder / 'plain.bin').write_bytes(b'secret'); "
    "print(folder, flush=True); time.sleep(float(sys.argv[1]))"
)


def _owner(seconds: float, tmp: Path) -> tuple[subprocess.Popen[str], Path]:
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-c", _OWNER, str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), "TMPDIR": str(tmp)},
    )
    assert proc.stdout is not None
    return proc, Path(proc.stdout.readline().strip())


def _janitor(proc: psutil.Process) -> bool:
    """The owner's only spawned child (it may not have named itself yet)."""
    return "spawn_main" in " ".join(proc.cmdline())


def _gone_within(folder: Path, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while folder.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return not folder.exists()


def test_a_sigkilled_owner_s_scratch_folder_is_deleted(scratch_tmp: Path) -> None:
    """SIGKILL runs no atexit: the janitor, waiting on a pipe only the owner holds, deletes the
    folder (and the plaintext copies it may hold) a moment after the owner is gone."""
    proc, folder = _owner(30, scratch_tmp)
    try:
        assert (folder / "plain.bin").is_file()
        janitors = [c for c in psutil.Process(proc.pid).children() if _janitor(c)]
    finally:
        proc.kill()
        proc.communicate()
    # Deadlines for conditions, polled: met in well under a second on a quiet machine, and
    # 3 s was once not enough with the whole suite and a bursty load on the two cores.
    assert _gone_within(folder, 15.0)
    assert len(janitors) == 1
    assert not outlived(janitors[:1], 15.0)  # and the janitor itself is gone


def test_a_normal_exit_removes_the_folder_and_the_janitor(scratch_tmp: Path) -> None:
    proc, folder = _owner(0, scratch_tmp)
    proc.communicate(timeout=10)
    assert proc.returncode == 0
    assert not folder.exists() and not list(scratch_tmp.iterdir())


@pytest.mark.real_janitor
def test_remove_root_lets_the_janitor_go_at_once() -> None:
    folder = scratch.root()
    janitor = scratch._janitor
    assert janitor is not None and janitor[0].is_alive()
    started = time.monotonic()
    scratch.remove_root()
    assert time.monotonic() - started < 1.0 and not folder.exists()
    assert not janitor[0].is_alive() and scratch._janitor is None


@pytest.mark.real_janitor
def test_the_janitor_runs_before_the_folder_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIGKILL between creating the folder and starting its janitor left the folder behind
    (1 of 30 random kills, benchmarks/bench_scratch_kill.py): the janitor comes first."""
    scratch.remove_root()
    seen: list[bool] = []
    start = scratch._start_janitor

    def recording(folder: Path) -> None:
        seen.append(folder.exists())
        start(folder)

    monkeypatch.setattr(scratch, "_start_janitor", recording)
    try:
        folder = scratch.root()
        assert seen == [False] and folder.is_dir()
        assert scratch._janitor is not None and scratch._janitor[0].is_alive()
    finally:
        scratch.remove_root()
