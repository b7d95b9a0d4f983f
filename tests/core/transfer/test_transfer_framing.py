"""The frames of a transfer, attacked by a man in the middle: every change, cut, reordering or
replay fails authentication with a clear message; a silent sender ends with a timeout. The
data rebuilt is the data sent, and both ends compute the same stream digest."""

from __future__ import annotations

import io
import os
import queue
import socket
import threading
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from app.core.errors import AuthenticationError, UserError
from app.core.transfer.framing import (
    COUNTS,
    FRAME_BUFFERS,
    KIND_DIGEST,
    KIND_HEADER,
    KIND_LAST,
    PREFIX,
    InputError,
    TransferError,
    digest_of_frames,
    frames_of,
    iter_frames,
    transfer_spec,
)
from app.core.transfer.receiving import receive
from app.core.transfer.sending import send_file

CHUNK = 64 * 1024
DATA = os.urandom(200_000)  # 4 chunks, the last one short
KEY = bytes(range(32))
AEADS = ["aes-256-gcm", "chacha20-poly1305"]


def _frames(cipher: str, data: bytes = DATA, key: bytes = KEY) -> list[bytes]:
    return frames_of(transfer_spec(cipher), key, CHUNK, data)


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    a, b = socket.socketpair()
    a.settimeout(5)
    b.settimeout(5)
    yield a, b
    a.close()
    b.close()


def _deliver(
    pair: tuple[socket.socket, socket.socket],
    frames: list[bytes],
    cipher: str,
    key: bytes = KEY,
    timeout_s: float = 5.0,
    close: bool = True,
    sink=None,
):
    """Feed ``frames`` to :func:`receive` through a socket, as a relay would."""
    ours, theirs = pair
    theirs.settimeout(timeout_s)

    def write() -> None:
        try:
            for frame in frames:
                ours.sendall(frame)
            if close:
                ours.shutdown(socket.SHUT_WR)
            while ours.recv(4096):
                pass
        except OSError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        return receive(theirs, cipher, key, timeout_s, sink)
    finally:
        theirs.close()
        writer.join(10)


def _rebuilt(pair, frames: list[bytes], cipher: str) -> tuple[bytes, object]:
    """The plaintext :func:`receive` handed over, chunk by chunk, and what it returned."""
    pieces: list[bytes] = []
    got = _deliver(pair, frames, cipher, sink=lambda view: pieces.append(bytes(view)))
    return b"".join(pieces), got


@pytest.mark.parametrize("cipher", [*AEADS, "none"])
def test_round_trip_rebuilds_the_data(pair, cipher: str) -> None:
    frames = _frames(cipher)
    data, got = _rebuilt(pair, frames, cipher)
    assert data == DATA
    assert got.digest == digest_of_frames(transfer_spec(cipher), frames)
    assert not _threads("transfer-open")
    assert (got.data_bytes, got.chunks) == (len(DATA), 4)
    assert got.verified_ns >= got.first_byte_ns


@pytest.mark.parametrize("chunk", [16, 4096, 2**20])  # many small chunks, and a single chunk
def test_any_chunk_size_round_trips(pair, chunk: int) -> None:
    frames = frames_of(transfer_spec("aes-256-gcm"), KEY, chunk, DATA[:50_000])
    data, got = _rebuilt(pair, frames, "aes-256-gcm")
    assert data == DATA[:50_000]
    assert got.chunks == -(-50_000 // chunk)


@pytest.mark.parametrize("cipher", [*AEADS, "aes-256-gcm-siv", "aes-256-siv"])
def test_the_sealed_digest_is_the_counts_and_sha256_of_every_tag(cipher: str) -> None:
    import hashlib

    spec = transfer_spec(cipher)
    frames = _frames(cipher)
    edges = hashlib.sha256()
    for kind, body in iter_frames(b"".join(frames)):
        if kind != KIND_HEADER:
            edges.update(body[: spec.tag_bytes] + body[-spec.tag_bytes :])
    assert digest_of_frames(spec, frames) == COUNTS.pack(len(DATA), 4) + edges.digest()
    # Another transfer of the same data (other salt, other tags) has another digest.
    assert digest_of_frames(spec, _frames(cipher)) != digest_of_frames(spec, frames)


def test_the_plaintext_digest_is_the_counts_alone() -> None:
    frames = _frames("none")
    assert digest_of_frames(None, frames) == COUNTS.pack(len(DATA), 4)
    changed = [*frames[:2], _flip(frames[2], 100), *frames[3:]]
    assert digest_of_frames(None, changed) == digest_of_frames(None, frames)  # by design
    assert digest_of_frames(None, [*frames[:2], *frames[3:]]) != digest_of_frames(None, frames)


def test_a_plaintext_frame_dropped_changes_the_digest(pair) -> None:
    frames = _frames("none")
    data, got = _rebuilt(pair, [*frames[:2], *frames[3:]], "none")
    assert data == DATA[:CHUNK] + DATA[2 * CHUNK :]
    assert got.digest != digest_of_frames(None, frames)


def test_a_truncated_plaintext_stream_fails(pair) -> None:
    _fails(pair, _frames("none")[:-1], "none", "ended before its last chunk")


def test_a_version_1_header_is_refused(pair) -> None:
    frames = _frames("aes-256-gcm")
    old = bytearray(frames[0])
    old[PREFIX.size] = 1
    with pytest.raises(TransferError, match="not a version 2 transfer header"):
        _deliver(pair, [bytes(old), *frames[1:]], "aes-256-gcm")


def test_sealed_frames_never_carry_the_key_or_the_plaintext() -> None:
    frames = _frames("aes-256-gcm")
    assert all(KEY not in f for f in frames)
    assert DATA[:64] not in b"".join(frames)
    assert b"aes-256-gcm" in frames[0]  # the header names the cipher, the chunk size and salt


def test_two_transfers_never_share_a_nonce_or_ciphertext() -> None:
    a, b = _frames("aes-256-gcm"), _frames("aes-256-gcm")
    assert a[0] != b[0] and a[1] != b[1]  # a fresh salt per transfer


def _flip(frame: bytes, at: int) -> bytes:
    raw = bytearray(frame)
    raw[at] ^= 0x01
    return bytes(raw)


def _fails(pair, frames: list[bytes], cipher: str, said: str, key: bytes = KEY) -> None:
    with pytest.raises(AuthenticationError, match=said):
        _deliver(pair, frames, cipher, key)
    assert not _threads("transfer-open"), "the thread opening chunks outlived the failure"


@pytest.mark.parametrize("cipher", AEADS)
def test_truncation_fails(pair, cipher: str) -> None:
    frames = _frames(cipher)
    _fails(pair, frames[:-1], cipher, "ended before its last chunk")


@pytest.mark.parametrize("cipher", AEADS)
def test_truncation_passed_off_as_complete_fails(pair, cipher: str) -> None:
    frames = _frames(cipher)
    cut = bytearray(frames[-2])
    PREFIX.pack_into(cut, 0, len(cut) - PREFIX.size, KIND_LAST)  # "this was the last one"
    _fails(pair, [*frames[:-2], bytes(cut)], cipher, "chunk 2 failed authentication")


@pytest.mark.parametrize("cipher", AEADS)
def test_a_cut_inside_a_frame_fails(pair, cipher: str) -> None:
    frames = _frames(cipher)
    _fails(pair, [*frames[:2], frames[2][:1000]], cipher, "ended before its last chunk")


@pytest.mark.parametrize("cipher", AEADS)
@pytest.mark.parametrize("frame", [1, 2, 4])
def test_a_flipped_byte_fails(pair, cipher: str, frame: int) -> None:
    frames = _frames(cipher)
    frames[frame] = _flip(frames[frame], len(frames[frame]) // 2)
    _fails(pair, frames, cipher, f"chunk {frame - 1} failed authentication")


@pytest.mark.parametrize("cipher", AEADS)
def test_the_first_bad_chunk_is_reported_even_if_the_stream_is_then_cut(pair, cipher: str) -> None:
    # Chunks are opened in a second thread while the next ones are read: a failure there must
    # win over what the reading thread meets meanwhile (here, a cut). The slow first chunk
    # holds the opening back until the reader has met the cut.
    import time

    frames = _frames(cipher)
    frames[2] = _flip(frames[2], len(frames[2]) // 2)
    opened: list[int] = []

    def sink(view: memoryview) -> None:
        opened.append(len(view))
        if len(opened) == 1:
            time.sleep(0.3)

    with pytest.raises(AuthenticationError, match="chunk 1 failed authentication"):
        _deliver(pair, [*frames[:4], frames[4][:100]], cipher, sink=sink)
    assert not _threads("transfer-open")


@pytest.mark.parametrize("cipher", AEADS)
def test_a_flipped_tag_byte_fails(pair, cipher: str) -> None:
    frames = _frames(cipher)
    frames[-1] = _flip(frames[-1], len(frames[-1]) - 1)
    _fails(pair, frames, cipher, "chunk 3 failed authentication")


@pytest.mark.parametrize("cipher", AEADS)
def test_a_modified_header_fails(pair, cipher: str) -> None:
    frames = _frames(cipher)
    frames[0] = _flip(frames[0], len(frames[0]) - 40)  # inside the salt
    _fails(pair, frames, cipher, "header frame failed authentication")


@pytest.mark.parametrize("cipher", AEADS)
def test_reordered_frames_fail(pair, cipher: str) -> None:
    frames = _frames(cipher)
    frames[1], frames[2] = frames[2], frames[1]
    _fails(pair, frames, cipher, "chunk 0 failed authentication")


@pytest.mark.parametrize("cipher", AEADS)
def test_a_dropped_frame_fails(pair, cipher: str) -> None:
    frames = _frames(cipher)
    _fails(pair, [*frames[:2], *frames[3:]], cipher, "chunk 1 failed authentication")


@pytest.mark.parametrize("cipher", AEADS)
def test_a_replayed_frame_fails(pair, cipher: str) -> None:
    frames = _frames(cipher)
    _fails(pair, [*frames[:2], frames[1], *frames[2:]], cipher, "chunk 1 failed authentication")


@pytest.mark.parametrize("cipher", AEADS)
def test_a_frame_from_another_transfer_fails(pair, cipher: str) -> None:
    frames, other = _frames(cipher), _frames(cipher)  # same key, other salt
    frames[2] = other[2]
    _fails(pair, frames, cipher, "chunk 1 failed authentication")


@pytest.mark.parametrize("cipher", AEADS)
def test_bytes_after_the_last_chunk_fail(pair, cipher: str) -> None:
    frames = _frames(cipher)
    _fails(pair, [*frames, frames[-1]], cipher, "after the last chunk")


def test_a_wrong_key_fails_at_the_header(pair) -> None:
    _fails(pair, _frames("aes-256-gcm"), "aes-256-gcm", "header frame failed", key=bytes(32))


def test_another_cipher_than_expected_fails(pair) -> None:
    _fails(pair, _frames("chacha20-poly1305"), "aes-256-gcm", "names another cipher")


def test_plaintext_where_sealed_is_expected_fails(pair) -> None:
    _fails(pair, _frames("none"), "aes-256-gcm", "did not seal")


def test_an_oversized_frame_is_refused_before_reading_it(pair) -> None:
    frames = _frames("aes-256-gcm")
    huge = PREFIX.pack(2**31, 1)
    _fails(pair, [frames[0], huge], "aes-256-gcm", "chunk 0 failed authentication")


def test_a_silent_sender_times_out(pair) -> None:
    frames = _frames("aes-256-gcm")
    with pytest.raises(TransferError, match=r"peer sent nothing for 0\.3 s"):
        _deliver(pair, frames[:2], "aes-256-gcm", timeout_s=0.3, close=False)


def test_only_aeads_seal_a_transfer() -> None:
    assert transfer_spec("none") is None
    assert transfer_spec("chacha20-poly1305").id == "chacha20-poly1305"
    with pytest.raises(UserError, match="not an authenticated cipher"):
        transfer_spec("aes-256-ctr")
    with pytest.raises(UserError):
        transfer_spec("no-such-cipher")


# --- the sending end: frames read and sealed in a second thread --------------------------------


def _send_and_receive(data: bytes, cipher: str, chunk: int, fin=None, keep: bool = True):
    """:func:`send_file` to :func:`receive` over a socket pair; (sent, got, data rebuilt, if
    ``keep``)."""
    ours, theirs = socket.socketpair()
    ours.settimeout(5)
    theirs.settimeout(5)
    pieces: list[bytes] = []
    result: dict[str, object] = {}

    def receiving() -> None:
        try:
            sink = (lambda v: pieces.append(bytes(v))) if keep else None
            result["got"] = receive(theirs, cipher, KEY, 5, sink)
        except BaseException as exc:
            result["got"] = exc
        finally:
            theirs.close()

    receiver = threading.Thread(target=receiving, daemon=True)
    receiver.start()
    try:
        source = fin if fin is not None else io.BytesIO(data)
        sent = send_file(ours, source, len(data), transfer_spec(cipher), KEY, chunk, 5)
    finally:
        ours.close()
        receiver.join(10)
    return sent, result["got"], b"".join(pieces)


@pytest.mark.parametrize("cipher", [*AEADS, "none"])
@pytest.mark.parametrize("size", [0, 1, CHUNK, 3 * CHUNK, 200_000])
def test_what_is_sent_is_rebuilt_and_both_digests_agree(cipher: str, size: int) -> None:
    data = DATA[:size]
    sent, got, rebuilt = _send_and_receive(data, cipher, CHUNK)
    assert rebuilt == data
    assert sent.digest == got.digest == sent.receiver_digest
    assert sent.chunks == got.chunks == max(1, -(-size // CHUNK))
    assert sent.data_bytes == got.data_bytes == size
    assert not _frame_threads()


class _WatchedQueue(queue.SimpleQueue):
    """The queues between a transfer's two threads, watched: :data:`_PARKED` is set when the
    thread named :attr:`watching` waits on an empty one (it has made or read every frame it
    has a buffer for), :data:`_DONE` when a thread is told there is no more (None)."""

    watching = "transfer-frames"

    def get(self, block: bool = True, timeout: float | None = None):  # type: ignore[override]
        if threading.current_thread().name == self.watching and self.empty():
            _PARKED.set()
        return super().get(block, timeout)

    def put(self, item, block: bool = True, timeout: float | None = None) -> None:  # type: ignore[override]
        if item is None:
            _DONE.set()
        super().put(item, block, timeout)


_PARKED, _DONE = threading.Event(), threading.Event()


def _until_parked() -> None:
    """Let the watched thread use every buffer it can get (at once in practice), unless it
    is done."""
    for _ in range(1000):  # 10 s at most
        if _DONE.is_set() or _PARKED.wait(0.01):
            break
    _PARKED.clear()


class _Wire:
    """A socket that checks every frame is intact when ``sendall`` returns, after letting the
    frame thread make every frame it can meanwhile."""

    def __init__(self, reply: bytes) -> None:
        self.sent: list[bytes] = []
        self._reply = io.BytesIO(reply)

    def sendall(self, data) -> None:
        before = bytes(data)
        if self.sent:  # the header goes before the frame thread starts
            _until_parked()
        assert bytes(data) == before, f"frame {len(self.sent)} was overwritten while being sent"
        self.sent.append(before)

    def recv_into(self, view) -> int:
        return self._reply.readinto(view)


@pytest.fixture
def watched(monkeypatch) -> Iterator[None]:
    import app.core.transfer.receiving as receiving
    import app.core.transfer.sending as sending

    for end in (sending, receiving):
        monkeypatch.setattr(end, "queue", SimpleNamespace(SimpleQueue=_WatchedQueue))
    _PARKED.clear()
    _DONE.clear()
    yield


@pytest.mark.parametrize("cipher", ["aes-256-gcm", "none"])
def test_a_frame_buffer_is_reused_only_after_its_send_returned(pair, watched, cipher) -> None:
    data = os.urandom(8 * 1024)  # 8 chunks: every buffer goes round more than twice
    wire = _Wire(PREFIX.pack(COUNTS.size, KIND_DIGEST) + COUNTS.pack(len(data), 8))
    sent = send_file(wire, io.BytesIO(data), len(data), transfer_spec(cipher), KEY, 1024, 5)  # type: ignore[arg-type]
    assert sent.chunks == 8 and len(wire.sent) == 9 and not _frame_threads()
    rebuilt, got = _rebuilt(pair, wire.sent, cipher)
    assert rebuilt == data and got.digest == sent.digest


@pytest.mark.parametrize("cipher", AEADS)
def test_a_received_buffer_is_read_into_only_after_its_chunk_was_opened(
    pair, watched, monkeypatch, cipher: str
) -> None:
    import app.core.transfer.receiving as receiving

    monkeypatch.setattr(_WatchedQueue, "watching", threading.current_thread().name)
    opening = receiving._Opener._open

    def held_back(self, *args):  # the reading thread first fills every buffer it can get
        _until_parked()
        return opening(self, *args)

    monkeypatch.setattr(receiving._Opener, "_open", held_back)
    data = os.urandom(8 * 1024)
    frames = frames_of(transfer_spec(cipher), KEY, 1024, data)
    rebuilt, got = _rebuilt(pair, frames, cipher)
    assert rebuilt == data and got.digest == digest_of_frames(transfer_spec(cipher), frames)


def test_many_more_chunks_than_frame_buffers_keep_their_order() -> None:
    data = os.urandom(100 * 1024)
    sent, got, rebuilt = _send_and_receive(data, "chacha20-poly1305", 1024)
    assert rebuilt == data and sent.chunks == got.chunks == 100
    assert sent.digest == got.digest


class _Shrinking(io.BytesIO):
    """A file that ends early: it was truncated while being sent."""

    def readinto(self, buffer) -> int:  # type: ignore[override]
        return super().readinto(buffer) if self.tell() < 2 * CHUNK else 0


def test_a_file_that_shrinks_while_sent_fails_and_stops_the_reading_thread() -> None:
    # An InputError: the supervisor tells it before the truncation the receiver then sees.
    with pytest.raises(InputError, match="shrank"):
        _send_and_receive(DATA, "aes-256-gcm", CHUNK, fin=_Shrinking(DATA))
    assert not _frame_threads()


class _Failing(io.BytesIO):
    """A file whose disk fails after its first chunk."""

    def readinto(self, buffer) -> int:  # type: ignore[override]
        if self.tell() >= CHUNK:
            raise OSError(5, "Input/output error")
        return super().readinto(buffer)


@pytest.mark.parametrize("cipher", ["aes-256-gcm", "none"])
def test_a_read_error_is_an_input_error_not_a_network_error(cipher: str) -> None:
    # A bare OSError from the reading thread was reported as "network error: ..." (endpoints).
    with pytest.raises(InputError, match="cannot read the input: Input/output error"):
        _send_and_receive(DATA, cipher, CHUNK, fin=_Failing(DATA))
    assert not _frame_threads()


@pytest.mark.parametrize("cipher", ["aes-256-gcm", "none"])
def test_memory_stays_at_a_few_chunks_whatever_the_size(cipher: str) -> None:
    import tracemalloc

    chunk, chunks = 4096, 64
    data = os.urandom(chunk * chunks)
    _send_and_receive(data[:chunk], cipher, chunk, keep=False)  # first-use allocations aside
    tracemalloc.start()
    try:
        sent, got, _ = _send_and_receive(data, cipher, chunk, fin=io.BytesIO(data), keep=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sent.digest == got.digest and got.data_bytes == len(data)
    # Both ends in this process, each with its frame buffers and one plaintext buffer (slack,
    # queues and threads aside): a small part of the data, however many chunks it has.
    assert peak < 2 * (FRAME_BUFFERS + 1) * (chunk + 1024) + 64 * 1024 < len(data) // 2


def test_a_receiver_gone_mid_transfer_stops_the_sending_threads() -> None:
    ours, theirs = socket.socketpair()
    ours.settimeout(5)
    theirs.close()
    with pytest.raises(TransferError, match="closed the connection"):
        send_file(ours, io.BytesIO(DATA), len(DATA), transfer_spec("aes-256-gcm"), KEY, CHUNK, 5)
    ours.close()
    assert not _frame_threads()


def _threads(name: str) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == name]


def _frame_threads() -> list[threading.Thread]:
    return _threads("transfer-frames")
