"""Faults sent to real processes: Ctrl-C, SIGTERM and SIGHUP of the command line, a worker
killed from outside, the supervisor killed. Nothing CipherBench made may stay behind: no
``cipherbench-*`` entry in the temporary folder, no ``.part`` output, no orphan worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest
from leftovers import leftovers, outlived, spawned_children

from app.core.runtime import scratch

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def start_cli(args: list[str], tmp: Path, **env: str) -> subprocess.Popen[str]:
    environment = {**os.environ, "TMPDIR": str(tmp), **env}
    environment.pop("CIPHERBENCH_DEBUG", None)
    return subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=tmp,
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(condition: Callable[[], object], timeout: float = 30.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("timed out waiting for the process to get there")


def job_folders(tmp: Path) -> list[Path]:
    return [p for root in tmp.glob("cipherbench-*") for p in root.glob("job-*")]


def stream_files(tmp: Path) -> list[Path]:
    return [p for folder in job_folders(tmp) for p in folder.glob("*.bin")]


def workers_of(pid: int) -> list[psutil.Process]:
    """The job workers (not multiprocessing's resource tracker, nor the scratch janitor)."""
    return spawned_children(pid)


def finish(proc: subprocess.Popen[str], timeout: float = 30.0) -> tuple[int, str]:
    _, err = proc.communicate(timeout=timeout)
    return proc.returncode, err


# A stream-mode benchmark slow enough to be caught in the middle: 3DES runs at about 9 MB/s.
SLOW_BENCH = [
    "bench", "--size", "16MB", "--cipher", "des-ede3-cbc", "--library", "pycryptodome",
    "--data-mode", "stream", "--repeat", "3", "--warmup", "1",
]  # fmt: skip


@pytest.mark.parametrize(
    ("signum", "code", "said"),
    [
        (signal.SIGINT, 130, "cancelled"),
        (signal.SIGTERM, 143, "stopped by SIGTERM"),
        (signal.SIGHUP, 129, "stopped by SIGHUP"),
    ],
)
def test_bench_signal_leaves_nothing(tmp_path, signum, code, said):
    proc = start_cli(SLOW_BENCH, tmp_path)
    wait_for(lambda: stream_files(tmp_path))  # the worker is writing its stream files
    workers = workers_of(proc.pid)
    proc.send_signal(signum)
    returncode, err = finish(proc)
    assert returncode == code, err
    assert said in err and "Traceback" not in err
    assert leftovers(tmp_path) == []
    assert not outlived(workers, 5)


def test_signal_while_generating_input_leaves_nothing(tmp_path):
    proc = start_cli(["bench", "--size", "3GB", "--cipher", "aes-128-ctr"], tmp_path)
    wait_for(lambda: list(tmp_path.glob("cipherbench-*/input-*.bin")))
    proc.send_signal(signal.SIGTERM)
    returncode, err = finish(proc)
    assert returncode == 143, err
    assert leftovers(tmp_path) == []


def test_worker_killed_from_outside_is_reported_plainly(tmp_path):
    proc = start_cli([*SLOW_BENCH, "--cipher", "aes-128-ctr"], tmp_path)
    wait_for(lambda: stream_files(tmp_path))
    worker = wait_for(lambda: workers_of(proc.pid))[0]  # type: ignore[index]
    worker.kill()
    returncode, err = finish(proc, timeout=120)
    assert returncode == 1, err
    assert "stopped by SIGKILL from outside CipherBench" in err
    assert "out of memory" not in err
    failed = [line for line in err.splitlines() if "FAILED" in line]
    assert len(failed) == 1 and failed[0].count("des-ede3-cbc") == 1
    assert leftovers(tmp_path) == []


def test_killed_supervisor_takes_its_worker_and_its_scratch_folder(tmp_path):
    """SIGKILL runs no atexit: the worker dies with its supervisor, and the janitor deletes
    the scratch folder (the ciphertext and decrypted copy of the input in it) at once."""
    proc = start_cli(SLOW_BENCH, tmp_path)
    wait_for(lambda: stream_files(tmp_path))
    workers = workers_of(proc.pid)
    proc.kill()
    proc.communicate(timeout=30)
    assert not outlived(workers, 5), "the worker outlived its supervisor"
    wait_for(lambda: not leftovers(tmp_path), timeout=5)


def test_the_next_start_cleans_up_when_the_janitor_died_too(tmp_path):
    proc = start_cli(SLOW_BENCH, tmp_path)
    wait_for(lambda: stream_files(tmp_path))
    janitors = [c for c in psutil.Process(proc.pid).children() if c.name() == scratch.JANITOR_NAME]
    assert len(janitors) == 1
    janitors[0].kill()  # first, or it would clean up (SIGKILL: it runs nothing more)
    proc.kill()
    proc.communicate(timeout=30)
    assert leftovers(tmp_path)  # both gone: the folder stays until the next start
    returncode, err = finish(start_cli(["list"], tmp_path))
    assert returncode == 0, err
    assert leftovers(tmp_path) == []


PASSWORD = {"CB_PASSWORD": "correct horse battery staple"}


def start_crypt(command: str, source: Path, output: Path, tmp: Path) -> subprocess.Popen[str]:
    """``encrypt`` or ``decrypt`` of ``source`` to ``output`` under the password in CB_PASSWORD;
    encryption with 3DES (slow: a signal finds the output being written)."""
    args = [command, str(source), "-o", str(output), "--password-env", "CB_PASSWORD"]
    if command == "encrypt":
        args += ["--cipher", "des-ede3-cbc"]
    return start_cli(args, tmp, **PASSWORD)


@pytest.fixture(scope="module")
def sealed_big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """12 MB of random data and its encryption with 3DES (slow, about 1 s to write: a signal
    finds the output being written), made once through the command line: (plaintext,
    sealed)."""
    folder = tmp_path_factory.mktemp("sealed")
    big, sealed = folder / "big.bin", folder / "sealed.cbf"
    big.write_bytes(os.urandom(12_000_000))
    returncode, err = finish(start_crypt("encrypt", big, sealed, folder), timeout=120)
    assert returncode == 0, err
    return big, sealed


def part_files(folder: Path) -> list[Path]:
    """Staged outputs in ``folder``: named ones (``.part``) on any file system."""
    return list(folder.glob(".*.part"))


def staging(proc: subprocess.Popen[str], folder: Path) -> bool:
    """Whether ``proc`` is writing a staged output in ``folder``: an unnamed file (Linux
    ``O_TMPFILE``: its descriptor reads ``<folder>/#<inode> (deleted)``) or a ``.part`` one."""
    if part_files(folder):
        return True
    try:
        fds = os.listdir(f"/proc/{proc.pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            link = os.readlink(f"/proc/{proc.pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith(f"{folder}/#"):
            return True
    return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_encrypt_and_decrypt_signal_leave_no_partial_output(tmp_path, sealed_big, signum):
    """3DES (slow) so the signal arrives while the hidden .part file is being written."""
    big_file, whole = sealed_big
    for command, source, output in [
        ("encrypt", big_file, tmp_path / "big.cbf"),
        ("decrypt", whole, tmp_path / "plain.bin"),
    ]:
        proc = start_crypt(command, source, output, tmp_path)
        wait_for(lambda proc=proc: staging(proc, tmp_path))
        proc.send_signal(signum)
        returncode, err = finish(proc)
        assert returncode == 128 + signum, err
        assert not part_files(tmp_path) and not output.exists()
    assert leftovers(tmp_path) == []


def test_remove_stale_spares_living_processes_and_other_names(tmp_path):
    mine = tmp_path / f"cipherbench-{os.getpid()}-abc"
    dead = tmp_path / "cipherbench-999999999-xyz"
    legacy = tmp_path / "cipherbench-job-1234"
    other = tmp_path / "cipherbench.log"
    for folder in (mine, dead, legacy):
        folder.mkdir()
        (folder / "ciphertext.bin").write_bytes(b"x")
    other.write_text("not ours to delete")
    removed = scratch.remove_stale(str(tmp_path))
    assert sorted(removed) == sorted([str(dead), str(legacy)])
    assert mine.exists() and other.exists()


def test_scratch_root_is_private(scratch_tmp):
    root = scratch.root()
    assert root.parent == scratch_tmp
    assert root.stat().st_mode & 0o777 == 0o700
    assert root.name.startswith(f"cipherbench-{os.getpid()}-")


def test_sigkill_mid_write_leaves_no_file(tmp_path, sealed_big):
    """SIGKILL (as the OOM killer or a power cut) while encrypt, decrypt or an export writes:
    the output was an unnamed file, so nothing of it is left in the folder, and the source
    is untouched."""
    big_file, whole = sealed_big
    out = tmp_path / "out"
    out.mkdir()
    source = big_file.read_bytes()
    sealed = out / "big.cbf"
    proc = start_crypt("encrypt", big_file, sealed, tmp_path)
    wait_for(lambda: staging(proc, out))
    proc.kill()
    proc.communicate(timeout=10)  # reaped, pipes closed
    assert os.listdir(out) == []
    assert big_file.read_bytes() == source

    sealed_bytes = whole.read_bytes()
    proc = start_crypt("decrypt", whole, out / "plain.bin", tmp_path)
    wait_for(lambda: staging(proc, out))
    proc.kill()
    proc.communicate(timeout=10)  # reaped, pipes closed
    assert os.listdir(out) == []
    assert whole.read_bytes() == sealed_bytes
    # Nothing in the temporary folder either, once the janitor has seen its owner die.
    wait_for(lambda: not leftovers(tmp_path), timeout=10)


def test_an_unnamed_staged_file_is_never_in_the_folder(tmp_path):
    from app.core.runtime.safe_files import StagedFile

    target = tmp_path / "r.bin"
    with StagedFile(target, mode=0o600) as staged:
        staged.write(b"x" * 1000)
        assert staged.unnamed and os.listdir(tmp_path) == []
        staged.place()
    assert target.read_bytes() == b"x" * 1000 and os.listdir(tmp_path) == ["r.bin"]
    with StagedFile(target) as staged:  # replacing: the old file or the new one, never half
        staged.write(b"new")
        staged.place()
    assert target.read_bytes() == b"new" and os.listdir(tmp_path) == ["r.bin"]
    with StagedFile(tmp_path / "gone.bin") as staged:
        staged.write(b"never placed")
    assert os.listdir(tmp_path) == ["r.bin"]


def test_stale_named_staging_files_of_dead_writers_are_swept(tmp_path):
    from app.core.runtime.staging_names import sweep_stale

    dead = tmp_path / ".cb-999999999-0a1b2c3d.part"
    alive = tmp_path / f".cb-{os.getpid()}-0a1b2c3d.part"
    other = tmp_path / ".notes.part"
    for p in (dead, alive, other):
        p.write_bytes(b"x")
    assert sweep_stale(tmp_path) == [dead]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, other.name])
