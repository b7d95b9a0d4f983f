"""The frames of a transfer, version 2, and the two functions that write and read them.

Every frame is ``u32 length || u8 kind || body`` (big-endian; ``length`` counts the body only)::

    kind 0  header       u8 version = 2, u8 sealed (0 or 1), then
                           sealed = 1: a CipherBench file header (container_format: cipher id,
                                       key bits, chunk size, file salt, header MAC; no key)
                           sealed = 0: u32 chunk size (the plaintext baseline)
    kind 1  chunk        the chunk: sealed as a container chunk with last = 0, or plaintext
    kind 2  last chunk   the final chunk, sealed with last = 1 (an empty payload still sends one)
    kind 3  digest       receiver -> sender, after the last chunk: the stream digest (below)

Sealed chunks are the container's (:func:`app.core.files.container_chunks.make_codec`): STREAM,
nonce = prefix || u32 index || u8 last, associated data = the header MAC, every key derived from
the per-transfer master key and file salt. The kind byte is not authenticated by itself, but a
lie about it changes the nonce, so the chunk fails. Hence a changed byte, a dropped, reordered
or repeated frame, a stream cut anywhere (no last chunk arrives) and a frame from another
transfer (other salt) all fail authentication; bytes after the last chunk are refused.

What "verified" means. A sealed transfer is verified by the AEAD itself: the receiver
authenticates every chunk before it keeps its plaintext, and the last-chunk flag proves nothing
was cut, so the plaintext it rebuilds is the plaintext the sender sealed (only the two ends know
the run's key). It then confirms what it authenticated to the sender with the *stream digest*
(:class:`StreamDigest`), ``u64 data bytes || u32 chunks || check``, where the check is SHA-256
over every sealed chunk's first and last tag-length bytes (the tag sits at one of the two ends
for every AEAD: after the ciphertext, or before it for SIV), so equal digests also mean both
ends saw the same tags. Both ends compute it as the chunks pass, 32 bytes per chunk: it costs
nothing next to the transfer. The plaintext baseline has no key and no check of the content:
its stream digest is the counts alone (every byte arrived, in frames that add up, up to a last
chunk), so a changed byte goes unnoticed there. A content digest would cost more than the
transfer it measures (CRC-32, the fastest in the standard library, runs at 4 GB/s here, slower
than AES-GCM) and guards against nothing on loopback: an attacker who changes plaintext in
flight can fix up any unkeyed digest too.

Version history:

- 1: the digest frame carried SHA-256 of the plaintext the receiver rebuilt. Hashing every byte
  once more capped a transfer at the speed of SHA-256 (1.7 GB/s here with SHA-NI; BLAKE2b runs
  at 0.9) on a core the two ends needed (a bare socket pair moves 3-4.6 GB/s), and it added
  nothing to what the AEAD already proves.
- 2 (this one): the stream digest above.
"""

from __future__ import annotations

import hashlib
import queue
import secrets
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
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
from app.core.runtime.safe_files import Readable, read_exact

VERSION = 2
PLAINTEXT = "none"  # the cipher id of the baseline: frames, no sealing
PREFIX = struct.Struct(">IB")
KIND_HEADER, KIND_CHUNK, KIND_LAST, KIND_DIGEST = 0, 1, 2, 3
COUNTS = struct.Struct(">QI")  # the stream digest's data bytes and chunks, before its check
MAX_DIGEST_BYTES = COUNTS.size + 32
MASTER_KEY_BYTES = 32
FRAME_BUFFERS = 3  # chunks in flight between each end's two threads (_FrameMaker, _Opener)

TAMPERED = "chunk {index} failed authentication: the stream was modified, reordered or replayed"
TRUNCATED = "the stream ended before its last chunk (truncated, or the sender stopped)"


class TransferError(Exception):
    """A transfer could not complete: a peer went silent or away, or broke the protocol."""


class InputError(TransferError):
    """The sender's own input failed it (it shrank, or could not be read): the cause of the
    truncated stream the receiver then reports, not a consequence of the peer."""


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
    """The frames of one transfer, built in frame buffers the caller circulates
    (:meth:`frame_buffer`; memory: one chunk each, plus one for a sealed chunk's plaintext).

    Put the next chunk's plaintext in :meth:`plain` of a frame buffer and call :meth:`frame`
    on it; the view it returns lives in that buffer. The plaintext baseline reads its chunk
    straight into the frame; a sealed chunk's plaintext sits in one buffer of its own, so
    frames are made one at a time (by one thread), in order."""

    def __init__(self, spec: CipherSpec | None, master: bytes, chunk_bytes: int) -> None:
        check_chunk_bytes(chunk_bytes)
        self.spec = spec
        self.chunk_bytes = chunk_bytes
        self.index = 0
        self._codec: ChunkCodec | None = None
        self._plain: memoryview | None = None
        if spec is None:
            body = struct.pack(">BBI", VERSION, 0, chunk_bytes)
        else:
            salt = secrets.token_bytes(FILE_SALT_BYTES)  # fresh per transfer: no cross-replay
            signed = encode_header(spec, chunk_bytes, None, b"", salt)
            header = parse_header(signed + header_mac(master, signed, salt))
            self._codec = make_codec(spec, master, header)
            body = struct.pack(">BB", VERSION, 1) + header.raw
            self._plain = memoryview(bytearray(chunk_bytes))
        self.header = PREFIX.pack(len(body), KIND_HEADER) + body

    def frame_buffer(self) -> memoryview:
        """A new buffer that holds any frame of this transfer."""
        size = PREFIX.size + max_body_bytes(self.spec, self.chunk_bytes) + SLACK
        return memoryview(bytearray(size))

    def plain(self, frame_buffer: memoryview) -> memoryview:
        """Where the plaintext of the chunk to be framed in ``frame_buffer`` goes."""
        if self._plain is not None:
            return self._plain
        return frame_buffer[PREFIX.size : PREFIX.size + self.chunk_bytes]  # no copy at all

    def frame(self, frame_buffer: memoryview, n: int, last: bool) -> memoryview:
        """The frame of the next chunk, the first ``n`` bytes of :meth:`plain`, in
        ``frame_buffer``."""
        if self.index >= MAX_CHUNKS:
            raise UserError(f"the input is too large for chunks of {self.chunk_bytes} bytes")
        if self._codec is not None and self._plain is not None:
            body = frame_buffer[PREFIX.size :]
            n = self._codec.seal(self.index, last, self._plain[:n], body)
        PREFIX.pack_into(frame_buffer, 0, n, KIND_LAST if last else KIND_CHUNK)
        self.index += 1
        return frame_buffer[: PREFIX.size + n]


def frames_of(spec: CipherSpec | None, master: bytes, chunk_bytes: int, data: bytes) -> list[bytes]:
    """Every frame a sender sends for ``data``, header first (for tests and small payloads)."""
    writer = FrameWriter(spec, master, chunk_bytes)
    buffer = writer.frame_buffer()
    frames = [writer.header]
    for offset in range(0, max(len(data), 1), chunk_bytes):
        piece = data[offset : offset + chunk_bytes]
        writer.plain(buffer)[: len(piece)] = piece
        frames.append(bytes(writer.frame(buffer, len(piece), offset + chunk_bytes >= len(data))))
    return frames


class StreamDigest:
    """The stream digest of one transfer (see the module docstring), fed chunk by chunk in order
    by either end: :meth:`add` each chunk's frame body and its plaintext size, then
    :meth:`value`. Its check reads 32 bytes of a sealed chunk and none of a plaintext one."""

    __slots__ = ("_edge", "_sha", "chunks", "data_bytes")

    def __init__(self, spec: CipherSpec | None) -> None:
        self._sha = hashlib.sha256() if spec is not None else None
        self._edge = spec.tag_bytes if spec is not None else 0
        self.data_bytes = 0
        self.chunks = 0

    def add(self, body: memoryview, plain_bytes: int) -> None:
        if self._sha is not None:
            edge = min(self._edge, len(body))
            self._sha.update(body[:edge])
            self._sha.update(body[len(body) - edge :])
        self.data_bytes += plain_bytes
        self.chunks += 1

    def value(self) -> bytes:
        counts = COUNTS.pack(self.data_bytes, self.chunks)
        return counts + self._sha.digest() if self._sha is not None else counts


def digest_of_frames(spec: CipherSpec | None, frames: list[bytes]) -> bytes:
    """The stream digest of ``frames`` (header first, as :func:`frames_of` returns them)."""
    digest = StreamDigest(spec)
    for kind, body in iter_frames(b"".join(frames[1:])):
        if kind in (KIND_CHUNK, KIND_LAST):
            plain = len(body) - (chunk_overhead(spec) if spec is not None else 0)
            digest.add(memoryview(body), plain)
    return digest.value()


# --- the receiving end ------------------------------------------------------------------------


@dataclass(frozen=True)
class Received:
    """What :func:`receive` rebuilt: the stream digest (:class:`StreamDigest`) and the data's
    size, and when (``perf_counter_ns``, system-wide on Linux, macOS and Windows) its first byte
    arrived and its last chunk was verified, with this process's CPU time in between."""

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
        raise TransferError(f"the first frame is not a version {VERSION} transfer header")
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


def receive(
    sock: socket.socket,
    cipher_id: str,
    master: bytes,
    timeout_s: float,
    sink: Callable[[memoryview], object] | None = None,
) -> Received:
    """Read one transfer from ``sock`` (connected, with ``timeout_s`` set), authenticate every
    chunk as it arrives, compute the stream digest, then send it back. ``sink``, if given, gets
    the plaintext of every chunk once it is verified, in order (a view valid during the call
    only; called from a second thread for a sealed transfer).

    Raises :class:`AuthenticationError` for any modification, truncation, reordering, replay or
    extra bytes, and :class:`TransferError` when the sender goes silent or away. Memory: a few
    chunks (one for the plaintext baseline), whatever the size."""
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
    digest = StreamDigest(spec)
    opener = _Opener(codec, limit + SLACK, digest, sink)
    index = 0
    try:
        while not opener.failed:
            length, kind = _read_prefix(sock, prefix, timeout_s)
            if kind not in (KIND_CHUNK, KIND_LAST) or length > limit:
                raise AuthenticationError(TAMPERED.format(index=index))
            last = kind == KIND_LAST
            # Large reads straight into the buffer (recv_into): no bytes object per read, no
            # copy but the kernel's.
            buffer = opener.buffer()
            if _recv_exact(sock, buffer[:length], timeout_s) != length:
                raise AuthenticationError(TRUNCATED)
            opener.open(buffer, length, index, last)
            index += 1
            if last:
                break
    except BaseException:
        failure = opener.close()
        if failure is not None:  # an earlier chunk failed: that is the cause
            raise failure from None
        raise
    failure = opener.close()
    if failure is not None:
        raise failure
    value = digest.value()
    verified_ns = time.perf_counter_ns()
    cpu_seconds = time.process_time() - cpu0
    _send(sock, PREFIX.pack(len(value), KIND_DIGEST) + value)
    if _recv_exact(sock, prefix[:1], timeout_s):
        raise AuthenticationError("the sender sent bytes after the last chunk")
    return Received(value, digest.data_bytes, index, first_ns, verified_ns, cpu_seconds)


class _Opener:
    """Opens (authenticates and decrypts) the chunks the receiving thread has read, in order.
    Sealed chunks are opened in a thread of its own. cryptography's AEADs hold the GIL while
    they seal or open (two threads sealing 1 MiB buffers: 1.08x one), but ``recv_into``
    releases it while it waits for data and copies it out of the kernel: so the socket is
    drained while the other thread opens the chunk before, and the sender waits less for room
    in it (200 MiB of AES-256-GCM here: about 1,500 MiB/s opened inline, 2,000-2,500 in a
    thread). :data:`FRAME_BUFFERS` buffers circulate between the two threads. A plaintext chunk
    has nothing to open: it is counted inline, in one buffer."""

    def __init__(
        self,
        codec: ChunkCodec | None,
        buffer_bytes: int,
        digest: StreamDigest,
        sink: Callable[[memoryview], object] | None,
    ) -> None:
        self._codec = codec
        self._digest = digest
        self._sink = sink
        self._failure: BaseException | None = None
        self._free: queue.SimpleQueue[memoryview] = queue.SimpleQueue()
        self._work: queue.SimpleQueue[tuple[memoryview, int, int, bool] | None] = (
            queue.SimpleQueue()
        )
        for _ in range(FRAME_BUFFERS if codec is not None else 1):
            self._free.put(memoryview(bytearray(buffer_bytes)))
        self._plain = memoryview(bytearray(buffer_bytes)) if codec is not None else None
        self._thread: threading.Thread | None = None
        if codec is not None:
            self._thread = threading.Thread(target=self._run, name="transfer-open", daemon=True)
            self._thread.start()

    @property
    def failed(self) -> bool:
        return self._failure is not None

    def buffer(self) -> memoryview:
        """A buffer for the next frame (waits while every buffer holds a chunk to open)."""
        return self._free.get()

    def open(self, buffer: memoryview, length: int, index: int, last: bool) -> None:
        """Open the frame body in ``buffer[:length]``, chunk ``index``; the buffer comes back
        through :meth:`buffer` once it is done."""
        if self._thread is None:
            self._open(buffer, length, index, last)
            self._free.put(buffer)
        else:
            self._work.put((buffer, length, index, last))

    def _open(self, buffer: memoryview, length: int, index: int, last: bool) -> None:
        frame = plain = buffer[:length]
        n = length
        if self._codec is not None and self._plain is not None:
            try:
                n = self._codec.open(index, last, frame, self._plain)
            except AuthenticationError:
                raise AuthenticationError(TAMPERED.format(index=index)) from None
            plain = self._plain[:n]
        self._digest.add(frame, n)
        if self._sink is not None:
            self._sink(plain)

    def _run(self) -> None:
        while (item := self._work.get()) is not None:
            if self._failure is None:  # after a failure, buffers only come back
                try:
                    self._open(*item)
                except BaseException as exc:  # raised in the receiving thread by close()
                    self._failure = exc
            self._free.put(item[0])

    def close(self) -> BaseException | None:
        """Wait until every chunk handed over is opened (skipped after a failure); the first
        failure, if any."""
        if self._thread is not None:
            self._work.put(None)
            self._thread.join()
            self._thread = None
        return self._failure


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
    the receiver's digest came back, the CPU time until then, the stream digest of what it sent
    and the one the receiver sent back."""

    first_byte_ns: int
    acknowledged_ns: int
    cpu_seconds: float
    data_bytes: int
    chunks: int
    digest: bytes
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
    digest. Setup (keys, buffers) happens before the first byte is sent; the frames are read and
    sealed in a second thread (:class:`_FrameMaker`) while this one sends them.

    Raises :class:`InputError` when ``fin`` ends early or fails, :class:`TransferError` when
    the receiver goes silent or away."""
    writer = FrameWriter(spec, master, chunk_bytes)
    digest = StreamDigest(spec)
    maker = _FrameMaker(writer, fin, size_bytes, digest)
    first_ns = time.perf_counter_ns()
    cpu0 = time.process_time()
    _send(sock, writer.header)
    try:
        for frame in maker.frames():
            _send(sock, frame)
    finally:
        maker.close()
    last_sent_ns = time.perf_counter_ns()
    reply = memoryview(bytearray(PREFIX.size + MAX_DIGEST_BYTES))
    got = _recv_exact(sock, reply[: PREFIX.size], timeout_s)
    length, kind = PREFIX.unpack(reply[: PREFIX.size]) if got == PREFIX.size else (0, -1)
    if kind != KIND_DIGEST or not COUNTS.size <= length <= MAX_DIGEST_BYTES:
        raise TransferError("the receiver closed the connection before confirming the data")
    if _recv_exact(sock, reply[PREFIX.size : PREFIX.size + length], timeout_s) != length:
        raise TransferError("the receiver closed the connection before confirming the data")
    acknowledged_ns = time.perf_counter_ns()
    cpu_seconds = time.process_time() - cpu0
    return Sent(
        first_ns,
        acknowledged_ns,
        cpu_seconds,
        size_bytes,
        writer.index,
        digest.value(),
        bytes(reply[PREFIX.size : PREFIX.size + length]),
        last_sent_ns,
    )


class _FrameMaker:
    """The frames of one input, read and sealed in a thread of their own while the caller sends
    the ones before. cryptography's AEADs hold the GIL while they seal (two threads sealing
    1 MiB buffers: 1.08x one), but reading the file (``readinto``) and ``sendall`` release it
    while they copy and wait: so one thread reads or seals the next frame while the other hands
    the one before to the kernel. With the reading and sealing inline, the sender was the
    bottleneck (200 MiB here: the plaintext baseline about 2,800 MiB/s instead of 4,000,
    AES-256-GCM 2,200 instead of 2,500). :data:`FRAME_BUFFERS` frame buffers circulate between
    the threads, so memory stays at a few chunks whatever the size."""

    def __init__(
        self, writer: FrameWriter, fin: Readable, size_bytes: int, digest: StreamDigest
    ) -> None:
        self._writer = writer
        self._fin = fin
        self._size = size_bytes
        self._digest = digest
        self._free: queue.SimpleQueue[memoryview | None] = queue.SimpleQueue()
        self._made: queue.SimpleQueue[tuple[memoryview, memoryview] | BaseException | None] = (
            queue.SimpleQueue()
        )
        for _ in range(FRAME_BUFFERS):
            self._free.put(writer.frame_buffer())
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="transfer-frames", daemon=True)

    def _run(self) -> None:
        writer, left = self._writer, self._size
        try:
            while (buffer := self._free.get()) is not None and not self._stop.is_set():
                n = min(left, writer.chunk_bytes)
                try:
                    got = read_exact(self._fin, writer.plain(buffer)[:n])
                except OSError as exc:  # bare, endpoints would call it a network error
                    raise InputError(f"cannot read the input: {exc.strerror or exc}") from None
                if got != n:
                    raise InputError("the input file shrank during the transfer")
                left -= n
                frame = writer.frame(buffer, n, left == 0)
                self._digest.add(frame[PREFIX.size :], n)
                self._made.put((buffer, frame))
                if left == 0:
                    self._made.put(None)
                    return
        except BaseException as exc:  # raised in the sending thread, where it is reported
            self._made.put(exc)

    def frames(self) -> Iterator[memoryview]:
        """Each frame in order; a frame's buffer is reused once the next one is asked for."""
        self._thread.start()
        while (item := self._made.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            buffer, frame = item
            yield frame
            self._free.put(buffer)

    def close(self) -> None:
        """Stop the thread (after the chunk it is making) and wait for it."""
        self._stop.set()
        self._free.put(None)  # wakes the thread if it waits for a buffer
        if self._thread.ident is not None:
            self._thread.join()


def iter_frames(data: bytes) -> Iterator[tuple[int, bytes]]:
    """``(kind, body)`` of every frame in ``data`` (frames concatenated): for tests and relays."""
    pos = 0
    while pos < len(data):
        length, kind = PREFIX.unpack_from(data, pos)
        yield kind, data[pos + PREFIX.size : pos + PREFIX.size + length]
        pos += PREFIX.size + length
