"""The frames of a transfer, attacked by a man in the middle: every change, cut, reordering or
replay fails authentication with a clear message; a silent sender ends with a timeout."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator

import pytest

from app.core.errors import AuthenticationError, UserError
from app.core.transfer.framing import (
    KIND_LAST,
    PREFIX,
    TransferError,
    frames_of,
    receive,
    transfer_spec,
)

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
        return receive(theirs, cipher, key, timeout_s)
    finally:
        theirs.close()
        writer.join(10)


@pytest.mark.parametrize("cipher", [*AEADS, "none"])
def test_round_trip_rebuilds_the_data(pair, cipher: str) -> None:
    import hashlib

    got = _deliver(pair, _frames(cipher), cipher)
    assert got.digest == hashlib.sha256(DATA).digest()
    assert (got.data_bytes, got.chunks) == (len(DATA), 4)
    assert got.verified_ns >= got.first_byte_ns


@pytest.mark.parametrize("chunk", [16, 4096, 2**20])  # digested inline, and a single chunk
def test_any_chunk_size_round_trips(pair, chunk: int) -> None:
    import hashlib

    frames = frames_of(transfer_spec("aes-256-gcm"), KEY, chunk, DATA[:50_000])
    got = _deliver(pair, frames, "aes-256-gcm")
    assert got.digest == hashlib.sha256(DATA[:50_000]).digest()
    assert got.chunks == -(-50_000 // chunk)


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
