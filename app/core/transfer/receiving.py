"""The receiving end of a transfer: :func:`receive` reads the frames of
:mod:`app.core.transfer.framing` from a socket, authenticates and opens every chunk (in a
thread of its own, :class:`_Opener`), and sends the stream digest back."""

from __future__ import annotations

import queue
import secrets
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.core.ciphers.adapters import SLACK
from app.core.ciphers.registry import CipherSpec
from app.core.errors import AuthenticationError, UserError
from app.core.files.container import choose_spec
from app.core.files.container_chunks import ChunkCodec, make_codec
from app.core.files.container_format import MAX_HEADER_BYTES, check_chunk_bytes, parse_header
from app.core.files.container_keys import header_mac
from app.core.transfer.framing import (
    FRAME_BUFFERS,
    KIND_CHUNK,
    KIND_DIGEST,
    KIND_HEADER,
    KIND_LAST,
    PREFIX,
    TAMPERED,
    TRUNCATED,
    VERSION,
    StreamDigest,
    TransferError,
    max_body_bytes,
    recv_exact,
    send_all,
    transfer_spec,
)


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


def _read_prefix(sock: socket.socket, prefix: memoryview, timeout_s: float) -> tuple[int, int]:
    got = recv_exact(sock, prefix, timeout_s)
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
    if recv_exact(sock, memoryview(body), timeout_s) != length:
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
            if recv_exact(sock, buffer[:length], timeout_s) != length:
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
    send_all(sock, PREFIX.pack(len(value), KIND_DIGEST) + value)
    if recv_exact(sock, prefix[:1], timeout_s):
        raise AuthenticationError("the sender sent bytes after the last chunk")
    return Received(value, digest.data_bytes, index, first_ns, verified_ns, cpu_seconds)


class _Opener:
    """Opens (authenticates and decrypts) the chunks the receiving thread has read, in order.
    Sealed chunks are opened in a thread of its own. Opening into a buffer and ``recv_into``
    both release the GIL (cryptography 50: two threads sealing 1 MiB buffers run 1.78x one):
    so the socket is drained while the other thread opens the chunk before, and the sender
    waits less for room in it (200 MiB of AES-256-GCM here: about 1,500 MiB/s opened inline,
    2,000-2,500 in a thread). :data:`FRAME_BUFFERS` buffers circulate between the two threads.
    A plaintext chunk has nothing to open: it is counted inline, in one buffer."""

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
