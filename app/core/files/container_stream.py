"""Streaming a container's body with bounded memory: :func:`seal_chunks` writes every chunk of
an input sealed, :func:`open_chunks` writes every chunk of a container opened (both through a
:class:`~app.core.files.container_chunks.ChunkCodec`, checking the cancel and reporting progress
before each chunk), and :func:`read_start` parses the header at the start of an open container.
The API over them is :mod:`app.core.files.container`."""

from __future__ import annotations

import io
import os

from app.core.ciphers.adapters import SLACK
from app.core.ciphers.registry import CipherSpec
from app.core.errors import AuthenticationError, UserError
from app.core.files.container_chunks import ChunkCodec
from app.core.files.container_format import (
    BAD_LAYOUT,
    MAX_CHUNKS,
    MAX_HEADER_BYTES,
    Header,
    Layout,
    chunk_overhead,
    parse_header,
)
from app.core.files.progress import Progress, read_chunks
from app.core.runtime.safe_files import AtomicOutput, read_full


def seal_chunks(
    fin: io.FileIO,
    out: AtomicOutput,
    src: str | os.PathLike[str],
    codec: ChunkCodec,
    spec: CipherSpec,
    chunk_bytes: int,
    progress: Progress,
) -> tuple[int, int, int]:
    """Seal every chunk of ``fin`` into ``out``: (chunks, plaintext bytes, bytes written)."""
    out_view = memoryview(bytearray(chunk_bytes + chunk_overhead(spec) + spec.block_bytes + SLACK))
    written, done, chunks = 0, 0, 0
    for chunk, last in read_chunks(fin, chunk_bytes, progress, src):
        if chunks >= MAX_CHUNKS:
            raise UserError(f"the input is too large for chunks of {chunk_bytes} bytes")
        m = codec.seal(chunks, last, chunk, out_view)
        out.write(out_view[:m])
        written += m
        done += len(chunk)
        chunks += 1
    return chunks, done, written


def open_chunks(
    fin: io.FileIO,
    out: AtomicOutput,
    src: str | os.PathLike[str],
    codec: ChunkCodec,
    spec: CipherSpec,
    layout: Layout,
    header_bytes: int,
    progress: Progress,
) -> int:
    """Open every chunk of ``fin`` (positioned after the header) into ``out``; the plaintext
    bytes written. :class:`AuthenticationError` when the file shrank while being read."""
    in_view = memoryview(bytearray(layout.chunk_ct_bytes + spec.block_bytes))
    out_view = memoryview(bytearray(len(in_view) + SLACK))
    done, plain = header_bytes, 0
    for index in range(layout.full_chunks + 1):
        progress.check_cancel()
        last = index == layout.full_chunks
        want = layout.last_bytes if last else layout.chunk_ct_bytes
        if read_full(fin, in_view[:want], src) != want:
            raise AuthenticationError(BAD_LAYOUT)  # the file shrank while being read
        n = codec.open(index, last, in_view[:want], out_view)
        out.write(out_view[:n])
        done += want
        plain += n
        progress.update(done)
    return plain


def read_start(fin: io.FileIO, path: str | os.PathLike[str]) -> tuple[Header, int]:
    """The parsed header of the open container ``fin`` and the file's size."""
    size = os.fstat(fin.fileno()).st_size
    head = bytearray(MAX_HEADER_BYTES)
    return parse_header(head[: read_full(fin, memoryview(head), path)]), size
