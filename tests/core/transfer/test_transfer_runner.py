"""Real transfers between two spawned processes: round trips, a man in the middle, a killed
receiver, a cancel. Every test checks that no process is left behind and nothing hangs."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest
from leftovers import no_workers_outlive

from app.core.errors import Cancelled
from app.core.runtime.events import drained
from app.core.transfer.framing import PREFIX
from app.core.transfer.runner import TransferFailed, TransferOptions, transfer

CHUNK = 64 * 1024
FAST = TransferOptions(chunk_bytes=CHUNK, repeat=2, warmup=1, timeout_s=3.0)


@pytest.fixture
def payload(tmp_path: Path) -> Path:
    p = tmp_path / "payload.bin"
    p.write_bytes(os.urandom(200_000))
    return p


@pytest.fixture(autouse=True)
def no_orphans() -> Iterator[None]:
    with no_workers_outlive("a transfer process outlived its supervisor"):
        yield


@pytest.mark.parametrize("cipher", ["aes-256-gcm", "chacha20-poly1305", "none"])
def test_round_trip_is_verified_and_measured(payload: Path, cipher: str) -> None:
    r = drained(transfer(payload, cipher, FAST))
    assert r.verified and r.cipher_id == cipher and r.input_bytes == 200_000
    assert len(r.runs) == 2 and len(r.warmups) == 1 and r.chunks == 4
    assert r.throughput_mb_s > 0 and r.throughput_mib_s == pytest.approx(
        r.throughput_mb_s * 10**6 / 2**20
    )
    for end in (r.sender, r.receiver):
        assert end.baseline_rss_bytes > 0 and end.peak_rss_bytes >= end.baseline_rss_bytes
        assert end.cpu_percent >= 0
    d = r.to_dict()
    assert {"throughput_mb_s", "throughput_mib_s", "verified", "sender", "receiver"} <= d.keys()
    for end in ("sender", "receiver"):
        assert {"peak_rss_bytes", "baseline_rss_bytes", "cpu_percent"} <= d[end].keys()


def test_an_input_that_changes_size_between_runs_fails(payload: Path) -> None:
    # Each run sends the size the sender finds then; the result is computed from the size found
    # at the start. A file cut in between was sent "verified" and measured with the old size.
    with pytest.raises(
        TransferFailed,
        match=r"run 2: the input file changed size since the start \(200000 bytes then, "
        r"100000 sent\)",
    ):
        for done, _total in transfer(payload, "aes-256-gcm", FAST):
            if done == 1:
                payload.write_bytes(payload.read_bytes()[:100_000])


def test_an_empty_file_is_one_last_chunk(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    r = drained(transfer(empty, "aes-256-gcm", TransferOptions(chunk_bytes=CHUNK, repeat=1)))
    assert r.verified and r.input_bytes == 0


Tamper = Callable[[int, bytes], list[bytes] | None]  # None: cut the connection here


class _Relay:
    """A man in the middle on 127.0.0.1: reads the sender's frames one by one, passes each
    through ``tamper(index, frame)`` (what to forward instead), and relays the rest."""

    def __init__(self, tamper: Tamper, after: Callable[[int], None] | None = None) -> None:
        self.tamper = tamper
        self.after = after  # called with the index of each frame forwarded
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(10)
        self.threads: list[threading.Thread] = []

    def __call__(self, receiver_port: int) -> int:
        self.receiver_port = receiver_port
        t = threading.Thread(target=self._serve, daemon=True)
        t.start()
        self.threads.append(t)
        return self.server.getsockname()[1]

    def _serve(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                sender, _ = self.server.accept()
                receiver = socket.create_connection(("127.0.0.1", self.receiver_port), 10)
                back = threading.Thread(target=self._pipe, args=(receiver, sender), daemon=True)
                back.start()
                self._forward(sender, receiver, back)

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:  # a reset passes on as an end of stream, as the kernel would tell the peer
            with contextlib.suppress(OSError):
                dst.shutdown(socket.SHUT_WR)

    def _forward(
        self, sender: socket.socket, receiver: socket.socket, back: threading.Thread
    ) -> None:
        with sender, receiver, contextlib.suppress(OSError):
            index = 0
            while True:
                head = self._exact(sender, PREFIX.size)
                if not head:
                    break
                length, _ = PREFIX.unpack(head)
                frame = head + self._exact(sender, length)
                forward = self.tamper(index, frame)
                if forward is None:
                    break
                for out in forward:
                    receiver.sendall(out)
                if self.after is not None:
                    self.after(index)
                index += 1
            receiver.shutdown(socket.SHUT_WR)
            back.join(10)  # let the receiver's answer travel back before closing

    @staticmethod
    def _exact(sock: socket.socket, n: int) -> bytes:
        data = b""
        while len(data) < n:
            got = sock.recv(n - len(data))
            if not got:
                break
            data += got
        return data

    def close(self) -> None:
        self.server.close()


def _flip_frame(target: int) -> Tamper:
    def tamper(index: int, frame: bytes) -> list[bytes]:
        if index != target:
            return [frame]
        raw = bytearray(frame)
        raw[len(raw) // 2] ^= 0x80
        return [bytes(raw)]

    return tamper


def _run_through(payload: Path, relay: _Relay, cipher: str = "aes-256-gcm"):
    started = time.monotonic()
    try:
        with pytest.raises(TransferFailed) as failed:
            drained(transfer(payload, cipher, FAST, relay=relay))
    finally:
        relay.close()
    assert time.monotonic() - started < 20, "the failure took too long: something hung"
    return str(failed.value)


def test_an_intact_relay_changes_nothing(payload: Path) -> None:
    relay = _Relay(lambda i, f: [f])
    try:
        assert drained(transfer(payload, "aes-256-gcm", FAST, relay=relay)).verified
    finally:
        relay.close()


def test_a_man_in_the_middle_flipping_a_byte_is_caught(payload: Path) -> None:
    message = _run_through(payload, _Relay(_flip_frame(2)))
    assert "chunk 1 failed authentication" in message and "reported by the receiver" in message


@pytest.mark.parametrize("cipher", ["aes-256-gcm", "none"])  # the baseline too: counts only
def test_a_man_in_the_middle_cutting_the_stream_is_caught(payload: Path, cipher: str) -> None:
    message = _run_through(payload, _Relay(lambda i, f: [f] if i < 3 else None), cipher=cipher)
    assert "ended before its last chunk" in message


def test_a_man_in_the_middle_replaying_a_frame_is_caught(payload: Path) -> None:
    message = _run_through(payload, _Relay(lambda i, f: [f, f] if i == 1 else [f]))
    assert "chunk 1 failed authentication" in message


def test_a_plaintext_frame_dropped_is_caught_by_the_digests(payload: Path) -> None:
    message = _run_through(payload, _Relay(lambda i, f: [] if i == 2 else [f]), cipher="none")
    assert "digests of the two ends differ" in message


def test_a_plaintext_byte_changed_goes_unnoticed_by_design(payload: Path) -> None:
    # The baseline has no key and no content check (framing module docstring): only the AEADs
    # verify the content.
    relay = _Relay(_flip_frame(2))
    try:
        assert drained(transfer(payload, "none", FAST, relay=relay)).verified
    finally:
        relay.close()


def _receiver_pid(port: int) -> int:
    for proc in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            for conn in proc.net_connections(kind="tcp"):
                if conn.laddr and conn.laddr.port == port and conn.status == "LISTEN":
                    return proc.pid
    raise AssertionError("no receiver listening")


def test_a_receiver_killed_mid_transfer_is_reported_without_a_hang(payload: Path) -> None:
    killed: list[int] = []
    relay: _Relay

    def kill_after_first_chunk(index: int) -> None:
        if index == 1 and not killed:
            pid = _receiver_pid(relay.receiver_port)
            psutil.Process(pid).kill()
            killed.append(pid)

    relay = _Relay(lambda i, f: [f], after=kill_after_first_chunk)
    message = _run_through(payload, relay)
    assert killed and "receiver process was stopped by SIGKILL" in message


def test_cancel_stops_both_processes(tmp_path: Path) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(8 * 2**20))
    cancel = threading.Event()
    timer = threading.Timer(1.0, cancel.set)
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(Cancelled):
            drained(transfer(big, "aes-256-gcm", TransferOptions(repeat=1000), cancel=cancel))
    finally:
        timer.cancel()
    assert time.monotonic() - started < 10


def test_a_senders_time_is_never_longer_than_the_whole_transfer() -> None:
    from app.core.transfer.endpoints import EndReport
    from app.core.transfer.runner import _sample

    # The sender read its clock after the receiver had already finished (it was descheduled
    # after its last send returned): its time is capped at the total, not past it.
    sent = EndReport(1_000, 9_000, 0.0, 1, 1, b"d", b"d", sent_ns=9_500)
    got = EndReport(1_200, 8_000, 0.0, 1, 1, b"d", b"")
    run = _sample(sent, got)
    assert run.total_seconds == 7_000 / 1e9 and run.sent_seconds == run.total_seconds
    early = _sample(EndReport(1_000, 9_000, 0.0, 1, 1, b"d", b"d", sent_ns=5_000), got)
    assert early.sent_seconds == 4_000 / 1e9
