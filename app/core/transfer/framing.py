"""The frames of a transfer, version 2: their format, how a chunk is framed and the stream
digest both ends compute. :mod:`.sending` and :mod:`.receiving` are the two ends.

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
import secrets
import socket
import struct
from collections.abc import Iterator

from app.core.ciphers.adapters import SLACK
from app.core.ciphers.registry import CipherSpec, Kind
from app.core.errors import UserError
from app.core.files.container import choose_spec
from app.core.files.container_chunks import ChunkCodec, make_codec
from app.core.files.container_format import (
    FILE_SALT_BYTES,
    MAX_CHUNKS,
    check_chunk_bytes,
    chunk_overhead,
    encode_header,
    parse_header,
)
from app.core.files.container_keys import header_mac

VERSION = 2
PLAINTEXT = "none"  # the cipher id of the baseline: frames, no sealing
PREFIX = struct.Struct(">IB")
KIND_HEADER, KIND_CHUNK, KIND_LAST, KIND_DIGEST = 0, 1, 2, 3
COUNTS = struct.Struct(">QI")  # the stream digest's data bytes and chunks, before its check
MAX_DIGEST_BYTES = COUNTS.size + 32
MASTER_KEY_BYTES = 32
FRAME_BUFFERS = 3  # chunks in flight between each end's two threads (sending, receiving)

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


# --- both ends ----------------------------------------------------------------------------------


def send_all(sock: socket.socket, data: bytes | memoryview) -> None:
    try:
        sock.sendall(data)
    except TimeoutError:
        raise TransferError("the peer accepted no data for too long") from None
    except (ConnectionError, BrokenPipeError):
        raise TransferError("the peer closed the connection") from None


def recv_exact(sock: socket.socket, view: memoryview, timeout_s: float) -> int:
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


def iter_frames(data: bytes) -> Iterator[tuple[int, bytes]]:
    """``(kind, body)`` of every frame in ``data`` (frames concatenated): for tests and relays."""
    pos = 0
    while pos < len(data):
        length, kind = PREFIX.unpack_from(data, pos)
        yield kind, data[pos + PREFIX.size : pos + PREFIX.size + length]
        pos += PREFIX.size + length
