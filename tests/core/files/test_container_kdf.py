"""The reader's Argon2id cost policy and the cancellable derivation (issue 7).

A header may ask for up to 1 GiB x 64 passes; a reader pays at most ``READER_POLICY`` without
consent, refuses anything above it before deriving, and runs a long derivation in a child
process that a cancel or Ctrl-C kills within a second. The tests use tiny policies, or crafted
files whose derivation they never finish, so they take about a second in all.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from kdf_files import HOSTILE, SLOW, write_container

import app.core.runtime.children
from app.core.errors import Cancelled, UserError
from app.core.files import container, container_keys
from app.core.files.container import (
    Argon2Params,
    ExpensiveKdf,
    decrypt_file,
    encrypt_file,
    kdf_cost,
)
from app.core.files.container_keys import (
    DEFAULT_ARGON2,
    READER_POLICY,
    KdfPolicy,
    argon2_master,
    check_kdf_cost,
    derive_master,
)

TINY = Argon2Params(memory_kib=64, iterations=1, lanes=1)
ABOVE_TINY = Argon2Params(memory_kib=128, iterations=2, lanes=1)
TINY_POLICY = KdfPolicy(max_memory_kib=64, max_memory_passes=64, max_lanes=1)


@pytest.fixture
def children(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The pid of every derivation child started during the test; none may outlive it."""
    pids: list[int] = []
    real = app.core.runtime.children.start_deaf_to_ctrl_c

    def start(proc: Any) -> None:
        real(proc)
        pids.append(proc.pid)

    monkeypatch.setattr(app.core.runtime.children, "start_deaf_to_ctrl_c", start)
    yield pids
    assert not [pid for pid in pids if _alive(pid)]


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _not_derived(*args: object) -> bytes:
    raise AssertionError("the key was derived")


# --- the policy ------------------------------------------------------------------------------


def test_hostile_header_is_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = write_container(tmp_path / "hostile.cbf", HOSTILE)
    out = tmp_path / "out"
    monkeypatch.setattr(container_keys, "derive_master", _not_derived)
    started = time.perf_counter()
    with pytest.raises(ExpensiveKdf) as caught:
        decrypt_file(src, out, password="anything")
    assert time.perf_counter() - started < 1.0
    cost = caught.value.cost
    assert (cost.memory_kib, cost.passes, cost.lanes) == (2**20, 64, 4)
    assert cost.memory_bytes == 2**30 and 30 < cost.seconds < 200
    message = str(caught.value)
    assert message.startswith("this file asks for an unusually expensive password derivation")
    assert "1,024 MiB" in message and " s and " in message and "--" not in message
    assert isinstance(caught.value, UserError)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hostile.cbf"]  # no output, no .part


def test_policy_bounds() -> None:
    check_kdf_cost(DEFAULT_ARGON2)  # what this version writes never asks
    at_bounds = Argon2Params(READER_POLICY.max_memory_kib, 6, READER_POLICY.max_lanes)
    assert at_bounds.memory_kib * at_bounds.iterations == READER_POLICY.max_memory_passes
    check_kdf_cost(at_bounds)
    for above in (
        Argon2Params(READER_POLICY.max_memory_kib + 1, 1, 4),  # memory
        Argon2Params(48 * 1024, 33, 4),  # memory x passes
        Argon2Params(48 * 1024, 4, READER_POLICY.max_lanes + 1),  # lanes
    ):
        with pytest.raises(ExpensiveKdf):
            check_kdf_cost(above)
    # The estimate scales from the default; the policy's corner stays within about 2 s.
    assert kdf_cost(DEFAULT_ARGON2).seconds == pytest.approx(container_keys.DEFAULT_ARGON2_SECONDS)
    assert kdf_cost(at_bounds).seconds < 2


def test_allowing_the_cost_decrypts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(container_keys, "READER_POLICY", TINY_POLICY)
    src = tmp_path / "in"
    src.write_bytes(b"secret data")
    encrypt_file(src, tmp_path / "enc", password="pw", kdf_params=ABOVE_TINY)
    encrypt_file(src, tmp_path / "ok", password="pw", kdf_params=TINY)
    with pytest.raises(ExpensiveKdf, match="unusually expensive"):
        decrypt_file(tmp_path / "enc", tmp_path / "out", password="pw")
    assert not (tmp_path / "out").exists()
    decrypt_file(tmp_path / "enc", tmp_path / "out", password="pw", allow_expensive_kdf=True)
    assert (tmp_path / "out").read_bytes() == b"secret data"
    decrypt_file(tmp_path / "ok", tmp_path / "out2", password="pw")  # within the policy
    # a key file never asks, whatever the policy
    key = container.new_key()
    encrypt_file(src, tmp_path / "kf", key=key)
    decrypt_file(tmp_path / "kf", tmp_path / "out3", key=key)


def test_allowing_never_lifts_the_format_bounds(tmp_path: Path) -> None:
    header = bytearray(write_container(tmp_path / "f", HOSTILE).read_bytes())
    memory_at = header.index((2**20).to_bytes(4, "big"))
    header[memory_at : memory_at + 4] = (2**20 + 1).to_bytes(4, "big")
    (tmp_path / "f").write_bytes(bytes(header))
    with pytest.raises(UserError, match="header is damaged"):
        decrypt_file(tmp_path / "f", tmp_path / "out", password="pw", allow_expensive_kdf=True)
    assert not (tmp_path / "out").exists()


# --- the derivation in a child process -------------------------------------------------------


def test_a_long_derivation_runs_in_a_child(
    monkeypatch: pytest.MonkeyPatch, children: list[int]
) -> None:
    expected = argon2_master(b"pw", b"s" * 16, TINY)
    monkeypatch.setattr(container_keys, "ISOLATE_ABOVE_SECONDS", 0.0)
    monkeypatch.setattr(container_keys, "argon2_master", _not_derived)  # here, not in the child
    assert derive_master(b"pw", b"s" * 16, TINY) == expected
    assert len(children) == 1


def test_the_default_cost_stays_in_this_process(children: list[int]) -> None:
    derive_master(b"pw", b"s" * 16, TINY)
    assert children == []


def test_a_failing_child_is_a_user_error(
    monkeypatch: pytest.MonkeyPatch, children: list[int]
) -> None:
    monkeypatch.setattr(container_keys, "ISOLATE_ABOVE_SECONDS", 0.0)
    impossible = Argon2Params(memory_kib=8, iterations=1, lanes=4)  # OpenSSL wants 8 x lanes
    with pytest.raises(UserError, match="the password derivation failed: ValueError"):
        derive_master(b"pw", b"s" * 16, impossible)


def test_cancel_kills_the_child_within_a_second(tmp_path: Path, children: list[int]) -> None:
    src = write_container(tmp_path / "slow.cbf", SLOW)  # seconds long
    started = time.perf_counter()
    cancel = threading.Event()
    timer = threading.Timer(0.2, cancel.set)
    timer.start()
    with pytest.raises(Cancelled):
        decrypt_file(src, tmp_path / "out", password="pw", allow_expensive_kdf=True, cancel=cancel)
    elapsed = time.perf_counter() - started
    timer.join()
    assert elapsed < 1.5, elapsed  # 0.2 s, then at most a poll interval and the kill
    assert len(children) == 1 and not _alive(children[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["slow.cbf"]  # no output, no .part


def test_keyboard_interrupt_kills_the_child(tmp_path: Path, children: list[int]) -> None:
    deadline = time.perf_counter() + 0.3

    def ctrl_c() -> bool:  # Ctrl-C arrives as KeyboardInterrupt wherever the loop waits
        if time.perf_counter() >= deadline:
            raise KeyboardInterrupt
        return False

    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        derive_master(b"pw", b"s" * 16, SLOW, ctrl_c)
    assert time.perf_counter() - started < 1.5
    assert len(children) == 1 and not _alive(children[0])
