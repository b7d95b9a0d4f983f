"""CipherBench encrypted files: a versioned, chunked, authenticated container for every cipher.

The byte layout (format version 1) is documented at the top of
:mod:`app.core.files.container_format`, which parses and writes the header;
:mod:`app.core.files.container_keys` derives the keys and handles key files,
:mod:`app.core.files.container_chunks` seals and opens the chunks and
:mod:`app.core.files.container_stream` streams them through a file. This module is the API under
the file-protection use case (:mod:`app.core.files.protect`, which the CLI and the GUI call), and
re-exports the names they need (values: :class:`ContainerInfo`, :class:`Argon2Params`):

- ``encrypt_file(src, dst, *, cipher_id, library, key_bits, password | key, chunk_bytes,
  kdf_params, force, on_progress, cancel) -> ContainerInfo``
- ``decrypt_file(src, dst, *, password | key, library, force, allow_expensive_kdf, on_progress,
  cancel) -> ContainerInfo``
- ``read_header(path) -> ContainerInfo``: what a file needs (``needs_password`` /
  ``needs_key_file``), its cipher, KDF, chunk size and sizes, without any secret.
- ``new_key()``, ``write_key_file(path, key, force=False)``, ``read_key_file(path) -> bytes``: the
  256-bit key file, the alternative to a password.
- ``check_paths(src, *outputs, force)``, ``check_chunk_bytes(n)``, ``choose_spec(id, library,
  key_bits)``: the checks the functions make first, for a dialog to run before asking for a
  password.
- ``kdf_cost(argon2) -> KdfCost``, ``check_kdf_cost(argon2)``: the reader's Argon2id policy.
  ``decrypt_file`` raises :class:`ExpensiveKdf` (a :class:`UserError` carrying the
  :class:`KdfCost`) before any work when a file asks for more than the policy allows
  (:mod:`app.core.files.container_keys`); the caller asks its user and calls again with
  ``allow_expensive_kdf=True``. The format's own bounds (1 GiB, 64 passes) always hold.

A GUI typically calls ``read_header`` on the chosen file, asks for the password or the key file it
needs, then runs ``decrypt_file`` in its worker with ``on_progress`` emitting a signal and
``cancel`` reading the Cancel flag; :class:`Cancelled` means the user stopped it (no output).
A password derivation estimated above half a second runs in a child process, so ``cancel`` (and
Ctrl-C) stops it within a fraction of a second too.

Both file functions stream with bounded memory (three buffers of one chunk), call
``on_progress(done_bytes, total_bytes)`` (bytes of the *input* file consumed) at most 20 times a
second and once at the end, and check ``cancel`` (a callable returning True, or a
``threading.Event``) before every chunk, raising :class:`Cancelled`
(:mod:`app.core.files.progress`). They write to a temporary file beside ``dst`` and rename it
only when everything succeeded (for decryption: every chunk and the end of the file
authenticated), so a failure, a cancel or Ctrl-C leaves no output
(:mod:`app.core.runtime.safe_files`).
``src`` is only read. ``dst`` equal to ``src`` is refused; an existing ``dst`` is replaced
only with ``force=True`` (else :class:`~app.core.runtime.output_checks.OutputExists`). Every bad
input raises :class:`UserError` with one sentence; a wrong password or key and any
modification raise its subclass :class:`AuthenticationError`. No message, repr or result holds
a password or key. The
functions are blocking and thread-safe (no shared state): run them in a worker.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.core.ciphers.libraries import LIBRARIES
from app.core.ciphers.registry import CipherSpec, UnknownCipher, libraries_for, lookup
from app.core.errors import AuthenticationError, UserError
from app.core.files.container_chunks import make_codec
from app.core.files.container_format import (
    BAD_LAYOUT,
    FILE_SALT_BYTES,
    FORMAT_VERSION,
    KEY_SOURCE_KEY_FILE,
    KEY_SOURCE_PASSWORD,
    MAGIC,
    MAX_CHUNK_BYTES,
    MIN_CHUNK_BYTES,
    WRONG_SECRET,
    Argon2Params,
    Header,
    body_layout,
    check_chunk_bytes,
    encode_header,
    parse_header,
)
from app.core.files.container_keys import (
    DEFAULT_ARGON2,
    ExpensiveKdf,
    KdfCost,
    check_kdf_cost,
    check_key,
    derive_master,
    header_mac,
    kdf_cost,
    master_for,
    new_key,
    password_bytes,
    read_key_file,
    write_key_file,
)
from app.core.files.container_stream import open_chunks, read_start, seal_chunks
from app.core.files.progress import CancelCheck, Progress, ProgressCallback
from app.core.runtime.output_checks import check_paths
from app.core.runtime.safe_files import AtomicOutput, open_input
from app.core.units import MIB

# The API, with the names callers need from the modules behind it.
__all__ = [
    "DEFAULT_ARGON2",
    "DEFAULT_CHUNK_BYTES",
    "DEFAULT_CIPHER",
    "FORMAT_VERSION",
    "KEY_SOURCE_KEY_FILE",
    "KEY_SOURCE_PASSWORD",
    "LIBRARY_PREFERENCE",
    "MAGIC",
    "MAX_CHUNK_BYTES",
    "MIN_CHUNK_BYTES",
    "WRONG_SECRET",
    "Argon2Params",
    "CancelCheck",
    "ContainerInfo",
    "ExpensiveKdf",
    "KdfCost",
    "ProgressCallback",
    "check_chunk_bytes",
    "check_kdf_cost",
    "check_paths",
    "choose_spec",
    "decrypt_file",
    "encrypt_file",
    "kdf_cost",
    "new_key",
    "parse_header",
    "read_header",
    "read_key_file",
    "write_key_file",
]

DEFAULT_CIPHER = "aes-256-gcm"
# 1 MiB: AES-GCM runs at the same speed with 64 KiB chunks (measured 3.3-3.4 GB/s either way), so
# the choice is about files and syscalls: 1 MiB matches the engine's stream mode and keeps the
# tag overhead at 16 bytes per MiB. Memory stays at three chunk buffers.
DEFAULT_CHUNK_BYTES = MIB
# Library order when the caller does not name one: OpenSSL first (fastest), pure Python last.
LIBRARY_PREFERENCE = LIBRARIES
# DEFAULT_ARGON2 (48 MiB x 4 passes x 4 lanes, 0.1-0.2 s here) is defined beside the reader's
# policy in container_keys, which scales from it; encrypt_file reads this module's name, so a
# test can make encryption cheap without moving the policy.


@dataclass(frozen=True)
class ContainerInfo:
    """What a container holds, never a secret. ``plaintext_bytes`` is exact unless the cipher pads
    (ECB, CBC) and the file has not been decrypted yet: then it is an upper bound (the padding is
    1..block bytes) and ``plaintext_bytes_exact`` is False."""

    path: str
    format_version: int
    cipher_id: str
    key_bits: int
    key_source: str  # KEY_SOURCE_PASSWORD or KEY_SOURCE_KEY_FILE
    argon2: Argon2Params | None  # the password KDF's cost; None for a key file
    chunk_bytes: int
    chunks: int
    header_bytes: int
    container_bytes: int
    plaintext_bytes: int
    plaintext_bytes_exact: bool
    library: str | None = None  # the library that did the work; None from read_header
    kdf_seconds: float = 0.0
    seconds: float = 0.0  # whole operation, KDF included

    @property
    def needs_password(self) -> bool:
        return self.key_source == KEY_SOURCE_PASSWORD

    @property
    def needs_key_file(self) -> bool:
        return self.key_source == KEY_SOURCE_KEY_FILE

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-ready values (no secrets exist in this object)."""
        data = {k: getattr(self, k) for k in self.__dataclass_fields__}
        data["argon2"] = None if self.argon2 is None else vars(self.argon2).copy()
        return data


def choose_spec(
    cipher_id: str, library: str | None = None, key_bits: int | None = None
) -> CipherSpec:
    """The registry entry to run ``cipher_id`` with: from ``library`` when given, else from the
    first library in :data:`LIBRARY_PREFERENCE` that offers it with that key size."""
    if library:
        return lookup(cipher_id, library, key_bits)
    offered = libraries_for(cipher_id.strip().lower())
    error: UserError | None = None
    for lib in LIBRARY_PREFERENCE:
        if lib in offered:
            try:
                return lookup(cipher_id, lib, key_bits)
            except UserError as exc:
                error = error or exc
    raise error or UnknownCipher(cipher_id)


# --- the API ---------------------------------------------------------------------------------


def encrypt_file(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    *,
    cipher_id: str = DEFAULT_CIPHER,
    library: str | None = None,
    key_bits: int | None = None,
    password: str | bytes | None = None,
    key: bytes | None = None,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    kdf_params: Argon2Params | None = None,
    force: bool = False,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    inputs: Sequence[str | os.PathLike[str]] = (),
) -> ContainerInfo:
    """Encrypt ``src`` into a new container ``dst`` under ``password`` (Argon2id with
    ``kdf_params``, default :data:`DEFAULT_ARGON2`) or a 32-byte ``key`` (from a key file); give
    exactly one. ``library=None`` picks the first in :data:`LIBRARY_PREFERENCE` offering the
    cipher; any library can decrypt the result. ``chunk_bytes``: a multiple of 16 in 16..64 MiB."""
    if (password is None) == (key is None):
        raise UserError("give either a password or a key file")
    spec = choose_spec(cipher_id, library, key_bits)
    check_chunk_bytes(chunk_bytes)
    check_paths(src, dst, force=force, inputs=inputs)
    started = time.perf_counter()
    master, argon2, kdf_salt = _new_master(password, key, kdf_params, cancel)
    kdf_seconds = time.perf_counter() - started
    file_salt = secrets.token_bytes(FILE_SALT_BYTES)
    signed = encode_header(spec, chunk_bytes, argon2, kdf_salt, file_salt)
    header = parse_header(signed + header_mac(master, signed, file_salt))
    codec = make_codec(spec, master, header)
    del master
    with open_input(src) as fin, AtomicOutput(dst, force=force) as out:
        progress = Progress(on_progress, cancel, os.fstat(fin.fileno()).st_size)
        out.write(header.raw)
        chunks, done, written = seal_chunks(fin, out, src, codec, spec, chunk_bytes, progress)
        out.commit()
    progress.finish()
    info = _info(
        str(dst),
        header,
        chunks=chunks,
        container_bytes=len(header.raw) + written,
        plaintext_bytes=done,
    )
    return _finished(info, spec, kdf_seconds, started)


def decrypt_file(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    *,
    password: str | bytes | None = None,
    key: bytes | None = None,
    library: str | None = None,
    force: bool = False,
    allow_expensive_kdf: bool = False,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    inputs: Sequence[str | os.PathLike[str]] = (),
) -> ContainerInfo:
    """Decrypt the container ``src`` to ``dst`` (created with mode 0600: it is plaintext) with
    the ``password`` or ``key`` it needs (:func:`read_header` says which). ``library=None``
    takes the first library in :data:`LIBRARY_PREFERENCE` offering the file's cipher.

    Raises :class:`AuthenticationError` for a wrong password or key and for any modification;
    ``dst`` then does not exist (an existing one is left as it was). Raises
    :class:`ExpensiveKdf`, before any derivation, for a password file above the reader's
    Argon2id policy unless ``allow_expensive_kdf``. ``inputs``: other files read (the key
    file), which ``dst`` may not replace either."""
    check_paths(src, dst, force=force, inputs=inputs)
    started = time.perf_counter()
    with open_input(src) as fin:
        header, size = read_start(fin, src)
        spec = choose_spec(header.cipher_id, library, header.key_bits)
        layout = body_layout(spec, header.chunk_bytes, size - len(header.raw))
        master = master_for(
            header, password, key, allow_expensive_kdf=allow_expensive_kdf, cancel=cancel
        )
        kdf_seconds = time.perf_counter() - started
        if not _equal(header_mac(master, header.signed, header.file_salt), header.mac):
            raise AuthenticationError(WRONG_SECRET)
        codec = make_codec(spec, master, header)
        del master

        fin.seek(len(header.raw))
        progress = Progress(on_progress, cancel, size)
        with AtomicOutput(dst, force=force, mode=0o600) as out:
            plain = open_chunks(fin, out, src, codec, spec, layout, len(header.raw), progress)
            if fin.read(1):
                raise AuthenticationError(BAD_LAYOUT)  # the file grew while being read
            out.commit()
    progress.finish()
    info = _info(
        str(src),
        header,
        chunks=layout.full_chunks + 1,
        container_bytes=size,
        plaintext_bytes=plain,
    )
    return _finished(info, spec, kdf_seconds, started)


def _new_master(
    password: str | bytes | None,
    key: bytes | None,
    kdf_params: Argon2Params | None,
    cancel: CancelCheck | None,
) -> tuple[bytes, Argon2Params | None, bytes]:
    """The master key of a new file, its Argon2id cost (None for a key file) and KDF salt."""
    if password is None:
        assert key is not None
        return check_key(key), None, b""
    argon2 = kdf_params or DEFAULT_ARGON2
    argon2.check()
    kdf_salt = secrets.token_bytes(16)
    return derive_master(password_bytes(password), kdf_salt, argon2, cancel), argon2, kdf_salt


def read_header(path: str | os.PathLike[str]) -> ContainerInfo:
    """Describe the container at ``path`` without decrypting it: cipher, key source
    (``needs_password`` / ``needs_key_file``), Argon2 cost, chunk size, sizes. Raises
    :class:`UserError` for a file that is not a container or whose length cannot be right."""
    with open_input(path) as fin:
        header, size = read_start(fin, path)
    spec = choose_spec(header.cipher_id, None, header.key_bits)
    layout = body_layout(spec, header.chunk_bytes, size - len(header.raw))
    return _info(
        str(path),
        header,
        chunks=layout.full_chunks + 1,
        container_bytes=size,
        plaintext_bytes=layout.plaintext_bytes,
        exact=layout.exact,
    )


# The fields of a ContainerInfo that the header gives as they are.
_FROM_HEADER = ("cipher_id", "key_bits", "key_source", "argon2", "chunk_bytes")


def _info(
    path: str,
    header: Header,
    *,
    chunks: int,
    container_bytes: int,
    plaintext_bytes: int,
    exact: bool = True,
) -> ContainerInfo:
    """What the container at ``path`` holds, from its ``header`` and its size in ``chunks`` and
    ``container_bytes``; no library and no timings yet (:func:`_finished` adds them)."""
    return ContainerInfo(
        path=path,
        format_version=FORMAT_VERSION,
        **{name: getattr(header, name) for name in _FROM_HEADER},
        chunks=chunks,
        header_bytes=len(header.raw),
        container_bytes=container_bytes,
        plaintext_bytes=plaintext_bytes,
        plaintext_bytes_exact=exact,
    )


def _finished(
    info: ContainerInfo, spec: CipherSpec, kdf_seconds: float, started: float
) -> ContainerInfo:
    """``info`` of a file just encrypted or decrypted with ``spec``'s library: the timings of
    an operation that began at ``started`` (``time.perf_counter()``)."""
    seconds = time.perf_counter() - started
    return replace(info, library=spec.library, kdf_seconds=kdf_seconds, seconds=seconds)


def _equal(a: bytes, b: bytes) -> bool:
    """Constant-time comparison of two MACs."""
    return secrets.compare_digest(a, b)
