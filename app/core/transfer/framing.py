"""The frames of a transfer, version 1, and the two functions that write and read them.

Every frame is ``u32 length || u8 kind || body`` (big-endian; ``length`` counts the body only)::

    kind 0  header       u8 version = 1, u8 sealed (0 or 1), then
                           sealed = 1: a CipherBench file header (container_format: cipher id,
                                       key bits, chunk size, file salt, header MAC; no key)
                           sealed = 0: u32 chunk size (the plaintext baseline)
    kind 1  chunk        the chunk: sealed as a container chunk with last = 0, or plaintext
    kind 2  last chunk   the final chunk, sealed with last = 1 (an empty payload still sends one)
    kind 3  digest       receiver -> sender: SHA-256 of the data rebuilt, after the last chunk

Sealed chunks are the container's (:func:`app.core.files.container_chunks.make_codec`): STREAM,
nonce = prefix || u32 index || u8 last, associated data = the header MAC, every key derived from
the per-transfer master key and file salt. The kind byte is not authenticated by itself, but a
lie about it changes the nonce, so the chunk fails. Hence a changed byte, a dropped, reordered
or repeated frame, a stream cut anywhere (no last chunk arrives) and a frame from another
transfer (other salt) all fail authentication; bytes after the last chunk are refused. The
plaintext baseline detects none of this but the final digest comparison.

Version history: 1 (this one) is the first.
"""

from __future__ import annotations

import hashlib
import queue
import secrets
import socket
import struct
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from app.core.ciphers.adapters import SLACK
from app.core.ciphers.registry import CipherSpec, Kind
from app.core.errors import AuthenticationError, UserError
from app.core.files.container import choose_spec
from app.core.files.container_chunks import ChunkCodec, make_codec
from app.core.files.container_format import (
    FILE_SALT_BYTES,
    MAX_CHUNKS,
    MAX_HEADER_BYTES,
    check_chunk_bytes,
    chunk_overhead,
    encode_header,
    parse_header,
)
from app.core.files.container_keys import header_mac
from app.core.safe_files import Readable, read_exact
from app.core.units import MIB

VERSION = 1
PLAINTEXT = "none"  # the cipher id of the baseline: frames, no sealing
PREFIX = struct.Struct(">IB")
KIND_HEADER, KIND_CHUNK, KIND_LAST, KIND_DIGEST = 0, 1, 2, 3
DIGEST_BYTES = 32
MASTER_KEY_BYTES = 32
# Digesting in a second thread pays off for chunks this large; smaller ones are hashed inline.
PIPELINE_MIN_CHUNK_BYTES = 64 * 1024
PIPELINE_BYTES = 16 * MIB  # the most the digest queue holds (see _Hasher)

TAMPERED = "chunk {index} failed authentication: the stream was modified, reordered or replayed"
TRUNCATED = "the stream ended before its last chunk (truncated, or the sender stopped)"


class TransferError(Exception):
    """A transfer could not complete: a peer went silent or away, or broke the protocol."""


def transfer_spec(cipher_id: str) -> CipherSpec | None:
    """The AEAD entry that seals a transfer with ``cipher_id`` (None for :data:`PLAINTEXT`);
    :class:`UserError` for an unknown cipher or one that is not an AEAD."""
    if cipher_id.strip().lower() == PLAINTEXT:
        return None
    spec = choose_spec(cipher_id)
    if spec.kind is not Kind.AEAD:
        raise UserError(
            f"{spec.id} is not an authenticated cipher; a transfer seals its chunks with an AEAD "
            f"(aes-256-gcm, chacha20-poly1305) or sends plaintext ({PLAINTEXT})"
        )
    return spec


def max_body_bytes(spec: CipherSpec | None, chunk_bytes: int) -> int:
    return chunk_bytes + (chunk_overhead(spec) if spec is not None else 0)


class FrameWriter:
    """The frames of one transfer, built in one reusable buffer (memory: about two chunks).

    Put the next chunk's plaintext in :meth:`plain` and call :meth:`frame`; the view it returns
    is valid until the next call."""

    def __init__(self, spec: CipherSpec | None, master: bytes, chunk_bytes: int) -> None:
        check_chunk_bytes(chunk_bytes)
        self.spec = spec
        self.chunk_bytes = chunk_bytes
        self.index = 0
        self._buf = memoryview(bytearray(PREFIX.size + max_body_bytes(spec, chunk_bytes) + SLACK))
        self._codec: ChunkCodec | None = None
        if spec is None:
            body = struct.pack(">BBI", VERSION, 0, chunk_bytes)
            self._plain = self._buf[PREFIX.size : PREFIX.size + chunk_bytes]  # no copy at all
        else:
            salt = secrets.token_bytes(FILE_SALT_BYTES)  # fresh per transfer: no cross-replay
            signed = encode_header(spec, chunk_bytes, None, b"", salt)
            header = parse_header(signed + header_mac(master, signed, salt))
            self._codec = make_codec(spec, master, header)
            body = struct.pack(">BB", VERSION, 1) + header.raw
            self._plain = memoryview(bytearray(chunk_bytes))
        self.header = PREFIX.pack(len(body), KIND_HEADER) + body

    def plain(self) -> memoryview:
        return self._plain

    def frame(self, n: int, last: bool) -> memoryview:
        """The frame of the next chunk: the first ``n`` bytes of :meth:`plain`."""
        if self.index >= MAX_CHUNKS:
            raise UserError(f"the input is too large for chunks of {self.chunk_bytes} bytes")
        body = self._buf[PREFIX.size :]
        if self._codec is not None:
            n = self._codec.seal(self.index, last, self._plain[:n], body)
        PREFIX.pack_into(self._buf, 0, n, KIND_LAST if last else KIND_CHUNK)
        self.index += 1
        return self._buf[: PREFIX.size + n]


def frames_of(spec: CipherSpec | None, master: bytes, chunk_bytes: int, data: bytes) -> list[bytes]:
    """Every frame a sender sends for ``data``, header first (for tests and small payloads)."""
    writer = FrameWriter(spec, master, chunk_bytes)
    frames = [writer.header]
    for offset in range(0, max(len(data), 1), chunk_bytes):
        piece = data[offset : offset + chunk_bytes]
        writer.plain()[: len(piece)] = piece
        frames.append(bytes(writer.frame(len(piece), offset + chunk_bytes >= len(data))))
    return frames


# --- the receiving end ------------------------------------------------------------------------


@dataclass(frozen=True)
class Received:
    """What :func:`receive` rebuilt: the data's SHA-256 and size, and when (``perf_counter_ns``,
    system-wide on Linux, macOS and Windows) its first byte arrived and its last chunk was
    verified, with this process's CPU time in between."""

    digest: bytes
    data_bytes: int
    chunks: int
    first_byte_ns: int
    verified_ns: int
    cpu_seconds: float


def _recv_exact(sock: socket.socket, view: memoryview, timeout_s: float) -> int:
    """Fill ``view``; fewer bytes only when the peer closed. Every wait is bounded."""
    done = 0
    while done < len(view):
        try:
            got = sock.recv_into(view[done:])
        except TimeoutError:
            raise TransferError(f"the peer sent nothing for {timeout_s:g} s") from None
        except ConnectionError:
            raise TransferError("the peer reset the connection") from None
        if not got:
            break
        done += got
    return done


def _read_prefix(sock: socket.socket, prefix: memoryview, timeout_s: float) -> tuple[int, int]:
    got = _recv_exact(sock, prefix, timeout_s)
    if got != PREFIX.size:
        raise AuthenticationError(TRUNCATED)
    length, kind = PREFIX.unpack(prefix)
    return length, kind


def _open_header(
    body: bytes, expected: CipherSpec | None, master: bytes
) -> tuple[ChunkCodec | None, CipherSpec | None, int]:
    """The codec, entry and chunk size the header frame announces, once it authenticated."""
    if len(body) < 2 or body[0] != VERSION:
        raise TransferError("the first frame is not a version 1 transfer header")
    sealed = body[1]
    if expected is None:
        if sealed != 0 or len(body) != 6:
            raise TransferError("the sender does not send plaintext, as this transfer expects")
        (chunk_bytes,) = struct.unpack(">I", body[2:])
        check_chunk_bytes(chunk_bytes)
        return None, None, chunk_bytes
    if sealed != 1:
        raise AuthenticationError("the sender did not seal its chunks, as this transfer expects")
    try:
        header = parse_header(body[2:])
    except UserError as exc:
        raise AuthenticationError(f"the header frame is damaged: {exc}") from None
    if header.raw != body[2:] or header.cipher_id != expected.id:
        raise AuthenticationError("the header frame names another cipher or has extra bytes")
    if not secrets.compare_digest(header_mac(master, header.signed, header.file_salt), header.mac):
        raise AuthenticationError("the header frame failed authentication (modified, or wrong key)")
    spec = choose_spec(header.cipher_id, expected.library, header.key_bits)
    return make_codec(spec, master, header), spec, header.chunk_bytes


def receive(sock: socket.socket, cipher_id: str, master: bytes, timeout_s: float) -> Received:
    """Read one transfer from ``sock`` (connected, with ``timeout_s`` set), authenticate every
    chunk as it arrives, digest the data rebuilt, then send the digest back.

    Raises :class:`AuthenticationError` for any modification, truncation, reordering, replay or
    extra bytes, and :class:`TransferError` when the sender goes silent or away. Memory: two
    chunks, whatever the size."""
    expected = transfer_spec(cipher_id)
    prefix = memoryview(bytearray(PREFIX.size))
    length, kind = _read_prefix(sock, prefix, timeout_s)
    first_ns = time.perf_counter_ns()
    cpu0 = time.process_time()
    if kind != KIND_HEADER or length > MAX_HEADER_BYTES + 2:
        raise TransferError("the first frame is not a transfer header")
    body = bytearray(length)
    if _recv_exact(sock, memoryview(body), timeout_s) != length:
        raise AuthenticationError(TRUNCATED)
    codec, spec, chunk_bytes = _open_header(bytes(body), expected, master)
    limit = max_body_bytes(spec, chunk_bytes)
    inbox = memoryview(bytearray(limit)) if codec is not None else None
    hasher = _Hasher(limit + SLACK, pipelined=chunk_bytes >= PIPELINE_MIN_CHUNK_BYTES)
    index, total = 0, 0
    try:
        while True:
            length, kind = _read_prefix(sock, prefix, timeout_s)
            if kind not in (KIND_CHUNK, KIND_LAST) or length > limit:
                raise AuthenticationError(TAMPERED.format(index=index))
            last = kind == KIND_LAST
            plain = hasher.free_buffer()
            into = inbox if inbox is not None else plain
            if _recv_exact(sock, into[:length], timeout_s) != length:
                raise AuthenticationError(TRUNCATED)
            n = length
            if codec is not None:
                try:
                    n = codec.open(index, last, into[:length], plain)
                except AuthenticationError:
                    raise AuthenticationError(TAMPERED.format(index=index)) from None
            hasher.add(plain, n)
            total += n
            index += 1
            if last:
                break
        value = hasher.digest()
    finally:
        hasher.close()
    verified_ns = time.perf_counter_ns()
    cpu_seconds = time.process_time() - cpu0
    _send(sock, PREFIX.pack(DIGEST_BYTES, KIND_DIGEST) + value)
    if _recv_exact(sock, prefix[:1], timeout_s):
        raise AuthenticationError("the sender sent bytes after the last chunk")
    return Received(value, total, index, first_ns, verified_ns, cpu_seconds)


class _Hasher:
    """SHA-256 of the chunks opened, in a thread of its own when ``pipelined``: hashlib releases
    the GIL on large buffers, so earlier chunks are digested while the next ones are received
    and opened (here SHA-256 alone runs at about half the speed of AES-GCM). Buffers of one
    chunk circulate between the two threads; more are made only while the digest lags, up to
    :data:`PIPELINE_BYTES` (a deeper queue absorbs the scheduling jitter of two busy ends on
    two cores), so memory stays bounded."""

    def __init__(self, buffer_bytes: int, *, pipelined: bool) -> None:
        self._sha = hashlib.sha256()
        self._bytes = buffer_bytes
        self._free: queue.Queue[memoryview] = queue.Queue()
        self._work: queue.Queue[tuple[memoryview, int] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._made = 0
        self._most = max(3, PIPELINE_BYTES // buffer_bytes) if pipelined else 1
        if pipelined:
            self._thread = threading.Thread(target=self._run, name="transfer-digest", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while (item := self._work.get()) is not None:
            view, n = item
            self._sha.update(view[:n])
            self._free.put(view)

    def free_buffer(self) -> memoryview:
        try:
            return self._free.get_nowait()
        except queue.Empty:
            if self._made < self._most:
                self._made += 1
                return memoryview(bytearray(self._bytes))
        return self._free.get()

    def add(self, view: memoryview, n: int) -> None:
        if self._thread is None:
            self._sha.update(view[:n])
            self._free.put(view)
        else:
            self._work.put((view, n))

    def digest(self) -> bytes:
        self.close()
        return self._sha.digest()

    def close(self) -> None:
        if self._thread is not None:
            self._work.put(None)
            self._thread.join()
            self._thread = None


def _send(sock: socket.socket, data: bytes | memoryview) -> None:
    try:
        sock.sendall(data)
    except TimeoutError:
        raise TransferError("the peer accepted no data for too long") from None
    except (ConnectionError, BrokenPipeError):
        raise TransferError("the peer closed the connection") from None


# --- the sending end --------------------------------------------------------------------------


@dataclass(frozen=True)
class Sent:
    """What :func:`send_file` sent: when its first byte left (``perf_counter_ns``), when its last
    byte was handed to the kernel (where a sender's clock stops: seed 004's "total time"), when
    the receiver's digest came back, the CPU time until then, and that digest."""

    first_byte_ns: int
    acknowledged_ns: int
    cpu_seconds: float
    data_bytes: int
    chunks: int
    receiver_digest: bytes
    last_sent_ns: int = 0


def send_file(
    sock: socket.socket,
    fin: Readable,
    size_bytes: int,
    spec: CipherSpec | None,
    master: bytes,
    chunk_bytes: int,
    timeout_s: float,
) -> Sent:
    """Send ``size_bytes`` from ``fin`` over ``sock`` as one transfer and wait for the receiver's
    digest. Setup (keys, buffers) happens before the first byte is sent."""
    writer = FrameWriter(spec, master, chunk_bytes)
    plain = writer.plain()
    first_ns = time.perf_counter_ns()
    cpu0 = time.process_time()
    _send(sock, writer.header)
    left = size_bytes
    while True:
        n = min(left, chunk_bytes)
        if read_exact(fin, plain[:n]) != n:
            raise TransferError("the input file shrank during the transfer")
        left -= n
        _send(sock, writer.frame(n, left == 0))
        if left == 0:
            break
    last_sent_ns = time.perf_counter_ns()
    prefix = memoryview(bytearray(PREFIX.size + DIGEST_BYTES))
    got = _recv_exact(sock, prefix, timeout_s)
    acknowledged_ns = time.perf_counter_ns()
    cpu_seconds = time.process_time() - cpu0
    if got != len(prefix) or PREFIX.unpack(prefix[: PREFIX.size]) != (DIGEST_BYTES, KIND_DIGEST):
        raise TransferError("the receiver closed the connection before confirming the data")
    return Sent(
        first_ns,
        acknowledged_ns,
        cpu_seconds,
        size_bytes,
        writer.index,
        bytes(prefix[PREFIX.size :]),
        last_sent_ns,
    )


def iter_frames(data: bytes) -> Iterator[tuple[int, bytes]]:
    """``(kind, body)`` of every frame in ``data`` (frames concatenated): for tests and relays."""
    pos = 0
    while pos < len(data):
        length, kind = PREFIX.unpack_from(data, pos)
        yield kind, data[pos + PREFIX.size : pos + PREFIX.size + length]
        pos += PREFIX.size + length
