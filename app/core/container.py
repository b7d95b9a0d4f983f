"""CipherBench encrypted files: a versioned, chunked, authenticated container for every cipher.

The API for the CLI and the GUI worker (values: :class:`ContainerInfo`, :class:`Argon2Params`):

- ``encrypt_file(src, dst, *, cipher_id, library, key_bits, password | key, chunk_bytes,
  kdf_params, force, on_progress, cancel) -> ContainerInfo``
- ``decrypt_file(src, dst, *, password | key, library, force, on_progress, cancel)
  -> ContainerInfo``
- ``read_header(path) -> ContainerInfo``: what a file needs (``needs_password`` /
  ``needs_key_file``), its cipher, KDF, chunk size and sizes, without any secret.
- ``new_key()``, ``write_key_file(path, key, force=False)``, ``read_key_file(path) -> bytes``: the
  256-bit key file, the alternative to a password.
- ``check_paths(src, *outputs, force)``, ``check_chunk_bytes(n)``, ``choose_spec(id, library,
  key_bits)``: the checks the functions make first, for a dialog to run before asking for a
  password. ``AtomicOutput``, ``Progress``, ``open_input`` and ``read_full`` are shared with
  :mod:`app.core.rawexport`.

A GUI typically calls ``read_header`` on the chosen file, asks for the password or the key file it
needs, then runs ``decrypt_file`` in its worker with ``on_progress`` emitting a signal and
``cancel`` reading the Cancel flag; :class:`Cancelled` means the user stopped it (no output).

Both file functions stream with bounded memory (three buffers of one chunk), call
``on_progress(done_bytes, total_bytes)`` (bytes of the *input* file consumed) at most 20 times a
second and once at the end, and check ``cancel`` (a callable returning True, or a
``threading.Event``) before every chunk, raising :class:`Cancelled`. They write to a temporary file
beside ``dst`` and rename it only when everything succeeded (for decryption: every chunk and the
end of the file authenticated), so a failure, a cancel or Ctrl-C leaves no output. ``src`` is only
read. ``dst`` equal to ``src`` is refused; an existing ``dst`` is replaced only with ``force=True``.
Every bad input raises :class:`UserError` with one sentence; a wrong password or key and any
modification raise its subclass :class:`AuthenticationError`. No message, repr or result holds a
password or key. The functions are blocking and thread-safe (no shared state): run them in a worker.

Format version 1 (all integers unsigned big-endian; "u8/u16/u32" give the width)
=================================================================================

Header::

    offset   size  field
    0        8     magic 89 43 42 46 0D 0A 1A 0A ("\\x89CBF\\r\\n\\x1a\\n"): as in PNG, a
                   non-ASCII byte, then CR LF, ^Z and LF to catch text-mode transfers
    8        1     format version = 0x01
    9        1     n = length of the cipher id, 1..32
    10       n     cipher id, ASCII [a-z0-9-], as in the registry: "aes-256-gcm", "bf-cbc", "rc4"
    10+n     2     key size in bits (u16); what the cipher uses, not the master key
    12+n     4     chunk size: plaintext bytes per chunk (u32), a multiple of 16, 16 .. 2^26
    16+n     1     key source: 0x01 key file, 0x02 password through Argon2id
    17+n     p     key-source parameters; for 0x01: none (p = 0); for 0x02 (p = 10 + s):
                     u32 memory in KiB (8 x lanes .. 2^20), u32 passes (1..64), u8 lanes (1..16),
                     u8 salt length s (16..64), s bytes of random salt
    17+n+p   32    file salt: 32 random bytes, the HKDF salt of every key below
    49+n+p   32    header MAC: HMAC-SHA256(header-MAC key, all header bytes before it)

Keys. The master key MK is the key file's 32 bytes, or Argon2id(password as UTF-8 of its NFC form,
salt, 32 bytes, parameters above). Subkeys: ``HKDF-SHA256(IKM=MK, salt=file salt, info=label)``
with labels ``"cipherbench v1 header mac"`` (32 bytes), ``"cipherbench v1 aead key"`` (the cipher's
key size), ``"cipherbench v1 nonce prefix"`` (nonce length - 5), ``"cipherbench v1 chunk keys"``
(32) and ``"cipherbench v1 chunk mac"`` (32). Every file has a fresh file salt, so even with one key
file every file gets its own keys and encrypting twice never gives the same bytes.

Body: the plaintext cut into chunks of the chunk size; the last chunk holds the remainder, 1 ..
chunk size bytes (0 only when the whole plaintext is empty, which still gives one chunk). Chunk i
(0-based, i < 2^32) with last = 1 for the final chunk and 0 otherwise is stored as:

- AEAD ciphers (GCM, CCM, OCB, SIV, GCM-SIV, EAX, ChaCha20-Poly1305, XChaCha20-Poly1305): the
  AEAD's sealed output, ``C || T`` (SIV: ``T || C``, RFC 5297), with the AEAD key, nonce
  ``nonce prefix || u32 i || u8 last`` and associated data = the 32-byte header MAC. This is the
  STREAM construction of age and libsodium's secretstream.
- Other ciphers (ECB, CBC, CFB, OFB, CTR, ChaCha20, RC4): encrypt-then-MAC. ``key_i || iv_i =
  HKDF-Expand(chunk-keys key, info="cipherbench v1 chunk" || u32 i, key size + IV size)``; for CTR
  the IV's last 4 bytes and for ChaCha20 its first 4 (the block counter) are set to zero so no
  library ever carries a counter across them. The chunk is encrypted under ``key_i``/``iv_i`` (ECB
  and CBC: chunks before the last are whole blocks, the last one is PKCS#7 padded), then stored as
  ``ciphertext || HMAC-SHA256(chunk-MAC key, header MAC || u32 i || u8 last || iv_i ||
  ciphertext)``. A fresh key per chunk means no keystream (CTR, OFB, CFB, RC4, ChaCha20) is ever
  reused, RC4 included, and no 64-bit block cipher processes more than one chunk under one key.

Nothing follows the last chunk. A reader knows where the last chunk starts from the file size
alone (chunks before it have a fixed size), so it needs no length field.

Why a header MAC (as age) rather than the header as associated data of every chunk: it is one
check for every cipher kind, done before any output exists, and it tells a wrong password or key
file from a damaged body. Every chunk still binds the header: its associated data (AEAD) or MAC
input (encrypt-then-MAC) starts with the header MAC, and every key depends on the file salt.

What this detects: a wrong password or key file (header MAC), any changed header or body bit (MACs
and tags), reordered, repeated or dropped chunks (the index is in every nonce or MAC), truncation
anywhere, at a chunk boundary included (the new last chunk was sealed with last = 0), and bytes
appended (the layout changes and the last chunk no longer authenticates).

Version history: 1 (this one) is the first.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import secrets
import stat
import struct
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.kdf.argon2 import Argon2id
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand

from app.core.adapters import SLACK, Adapter, get_adapter
from app.core.errors import AuthenticationError, Cancelled, UserError
from app.core.message import MessageCipher
from app.core.registry import REGISTRY, CipherSpec, Kind, libraries_for, lookup
from app.core.units import MIB

MAGIC = b"\x89CBF\r\n\x1a\n"
FORMAT_VERSION = 1
DEFAULT_CIPHER = "aes-256-gcm"
# 1 MiB: AES-GCM runs at the same speed with 64 KiB chunks (measured 3.3-3.4 GB/s either way), so
# the choice is about files and syscalls: 1 MiB matches the engine's stream mode and keeps the
# tag overhead at 16 bytes per MiB. Memory stays at three chunk buffers.
DEFAULT_CHUNK_BYTES = MIB
MIN_CHUNK_BYTES = 16
MAX_CHUNK_BYTES = 64 * MIB
MASTER_KEY_BYTES = 32
FILE_SALT_BYTES = 32
MAC_BYTES = 32
MAX_CHUNKS = 2**32
# Library order when the caller does not name one: OpenSSL first (fastest), pure Python last.
LIBRARY_PREFERENCE = ("cryptography", "pycryptodome", "pyaes")
# Output sizes and progress callbacks: at most one call per 50 ms (a GUI froze with one per MiB).
PROGRESS_INTERVAL_S = 0.05

KEY_SOURCE_KEY_FILE = "key file"
KEY_SOURCE_PASSWORD = "password"
_KDF_KEY_FILE = 1
_KDF_ARGON2ID = 2
_MAX_ID_BYTES = 32
_ID_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789-")
# magic + version + id + key bits + chunk + kdf + Argon2 (with the longest salt) + salt + MAC
MAX_HEADER_BYTES = 8 + 1 + 1 + _MAX_ID_BYTES + 2 + 4 + 1 + (4 + 4 + 1 + 1 + 64) + 32 + 32

WRONG_SECRET = "wrong password or key file, or the file header was modified"
MODIFIED = "the file was modified or damaged: chunk {index} failed authentication"
BAD_LAYOUT = "the file was truncated, extended or damaged (its length does not fit the format)"
DAMAGED_HEADER = "the file header is damaged"

KEY_FILE_FORMAT = "cipherbench-key-file"
KEY_FILE_WARNING = (
    "This key unlocks every CipherBench file encrypted with it. Keep it private and keep a copy: "
    "without it those files cannot be decrypted."
)
_KEY_FILE_MAX_BYTES = 64 * 1024


# --- parameters and results -------------------------------------------------------------------


@dataclass(frozen=True)
class Argon2Params:
    """Argon2id cost. ``memory_kib`` in KiB; ``iterations`` = passes over the memory."""

    memory_kib: int
    iterations: int
    lanes: int

    def check(self) -> None:
        """Raise :class:`UserError` unless the values are ones this version writes and reads.

        The upper bounds keep a hostile file from asking for gigabytes or minutes of work."""
        if not 1 <= self.lanes <= 16:
            raise UserError(f"Argon2 lanes must be 1..16, not {self.lanes}")
        if not 8 * self.lanes <= self.memory_kib <= 2**20:
            raise UserError(
                f"Argon2 memory must be {8 * self.lanes} KiB .. 1 GiB, not {self.memory_kib} KiB"
            )
        if not 1 <= self.iterations <= 64:
            raise UserError(f"Argon2 passes must be 1..64, not {self.iterations}")


# 48 MiB x 4 passes: the same memory-time product as RFC 9106's second recommendation (64 MiB x 3),
# about 0.2 s here, and small enough that a password-protected 1 GiB encryption stays under the
# 64 MiB peak-memory budget. Lanes cost nothing here (OpenSSL runs them in one thread) and let a
# multi-threaded implementation go faster.
DEFAULT_ARGON2 = Argon2Params(memory_kib=48 * 1024, iterations=4, lanes=4)


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


ProgressCallback = Callable[[int, int], None]
CancelCheck = Callable[[], bool] | threading.Event


# --- header ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Header:
    """A parsed header. ``raw`` is every header byte, the MAC included (the last 32)."""

    cipher_id: str
    key_bits: int
    chunk_bytes: int
    key_source: str
    argon2: Argon2Params | None
    kdf_salt: bytes
    file_salt: bytes
    raw: bytes

    @property
    def mac(self) -> bytes:
        return self.raw[-MAC_BYTES:]

    @property
    def signed(self) -> bytes:
        return self.raw[:-MAC_BYTES]


class _Reader:
    """Bounds-checked reads from the header bytes; running out is a damaged header."""

    __slots__ = ("_data", "_pos")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0

    def take(self, n: int) -> bytes:
        end = self._pos + n
        if end > len(self._data):
            raise UserError(f"{DAMAGED_HEADER} (it ends too early)")
        out = self._data[self._pos : end]
        self._pos = end
        return out

    def uint(self, fmt: str) -> int:
        data = self.take(struct.calcsize(fmt))
        value: int = struct.unpack(fmt, data)[0]
        return value

    @property
    def pos(self) -> int:
        return self._pos


def parse_header(data: bytes | bytearray | memoryview) -> Header:
    """Parse the header at the start of ``data`` (more bytes may follow). Checks structure and
    ranges only; the MAC needs the key. Raises :class:`UserError` for anything else than a
    well-formed version 1 header."""
    data = bytes(data[:MAX_HEADER_BYTES])
    if data[: len(MAGIC)] != MAGIC:
        raise UserError("not a CipherBench encrypted file (its first bytes are wrong)")
    r = _Reader(data)
    r.take(len(MAGIC))
    version = r.uint(">B")
    if version != FORMAT_VERSION:
        raise UserError(
            f"the file uses format version {version}; this CipherBench reads version "
            f"{FORMAT_VERSION} (a newer CipherBench may read it)"
        )
    id_len = r.uint(">B")
    raw_id = r.take(id_len)
    if not 1 <= id_len <= _MAX_ID_BYTES or not set(raw_id) <= _ID_CHARS:
        raise UserError(f"{DAMAGED_HEADER} (the cipher name is not valid)")
    cipher_id = raw_id.decode("ascii")
    if not libraries_for(cipher_id):
        raise UserError(f"the file uses the cipher {cipher_id!r}, which this CipherBench lacks")
    key_bits = r.uint(">H")
    if key_bits not in _allowed_key_bits(cipher_id):
        raise UserError(f"{DAMAGED_HEADER} ({cipher_id} does not take a {key_bits}-bit key)")
    chunk_bytes = r.uint(">I")
    if not _chunk_bytes_ok(chunk_bytes):
        raise UserError(f"{DAMAGED_HEADER} (impossible chunk size {chunk_bytes})")
    kdf = r.uint(">B")
    argon2: Argon2Params | None = None
    kdf_salt = b""
    if kdf == _KDF_ARGON2ID:
        argon2 = Argon2Params(memory_kib=r.uint(">I"), iterations=r.uint(">I"), lanes=r.uint(">B"))
        try:
            argon2.check()
        except UserError as exc:
            raise UserError(f"{DAMAGED_HEADER} ({exc})") from None
        salt_len = r.uint(">B")
        if not 16 <= salt_len <= 64:
            raise UserError(f"{DAMAGED_HEADER} (salt of {salt_len} bytes)")
        kdf_salt = r.take(salt_len)
        key_source = KEY_SOURCE_PASSWORD
    elif kdf == _KDF_KEY_FILE:
        key_source = KEY_SOURCE_KEY_FILE
    else:
        raise UserError(f"{DAMAGED_HEADER} (unknown key source {kdf})")
    file_salt = r.take(FILE_SALT_BYTES)
    r.take(MAC_BYTES)
    return Header(
        cipher_id=cipher_id,
        key_bits=key_bits,
        chunk_bytes=chunk_bytes,
        key_source=key_source,
        argon2=argon2,
        kdf_salt=kdf_salt,
        file_salt=file_salt,
        raw=data[: r.pos],
    )


def _encode_header(
    spec: CipherSpec,
    chunk_bytes: int,
    argon2: Argon2Params | None,
    kdf_salt: bytes,
    file_salt: bytes,
) -> bytes:
    """Every header byte before the MAC."""
    ident = spec.id.encode("ascii")
    parts = [MAGIC, struct.pack(">BB", FORMAT_VERSION, len(ident)), ident]
    parts.append(struct.pack(">HI", spec.key_bits, chunk_bytes))
    if argon2 is None:
        parts.append(struct.pack(">B", _KDF_KEY_FILE))
    else:
        parts.append(
            struct.pack(
                ">BIIBB",
                _KDF_ARGON2ID,
                argon2.memory_kib,
                argon2.iterations,
                argon2.lanes,
                len(kdf_salt),
            )
        )
        parts.append(kdf_salt)
    parts.append(file_salt)
    return b"".join(parts)


def _allowed_key_bits(cipher_id: str) -> set[int]:
    sizes: set[int] = set()
    for spec in REGISTRY:
        if spec.id == cipher_id:
            sizes.update(spec.key_bits_allowed or (spec.key_bits,))
    return sizes


def _chunk_bytes_ok(chunk_bytes: int) -> bool:
    return MIN_CHUNK_BYTES <= chunk_bytes <= MAX_CHUNK_BYTES and chunk_bytes % 16 == 0


def check_chunk_bytes(chunk_bytes: int) -> None:
    """Raise :class:`UserError` unless ``chunk_bytes`` is a chunk size the format allows."""
    if not _chunk_bytes_ok(chunk_bytes):
        raise UserError(
            f"the chunk size must be a multiple of 16 from {MIN_CHUNK_BYTES} to "
            f"{MAX_CHUNK_BYTES} bytes, not {chunk_bytes}"
        )


# --- cipher choice and layout --------------------------------------------------------------


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
    raise error or UserError(f"unknown cipher {cipher_id!r}; `python main.py list` shows them all")


def _overhead(spec: CipherSpec) -> int:
    return spec.tag_bytes if spec.kind is Kind.AEAD else MAC_BYTES


@dataclass(frozen=True)
class _Layout:
    full_chunks: int  # chunks before the last one, each chunk_bytes + overhead long
    last_bytes: int  # stored size of the last chunk
    chunk_ct_bytes: int
    plaintext_bytes: int
    exact: bool


def _layout(spec: CipherSpec, chunk_bytes: int, body_bytes: int) -> _Layout:
    """Where the chunks of a body of ``body_bytes`` lie, or :class:`AuthenticationError` when no
    file this format writes has that length. Chunks before the last are ``chunk + overhead``
    bytes; the last is 1..chunk plaintext bytes (0 only alone) plus padding and overhead."""
    overhead = _overhead(spec)
    pad = spec.block_bytes if spec.kind is Kind.BLOCK else 0
    per = chunk_bytes + overhead
    max_last = chunk_bytes + pad + overhead
    full = 0 if body_bytes <= max_last else -(-(body_bytes - max_last) // per)
    last = body_bytes - full * per
    min_last = overhead + (pad if pad else (1 if full else 0))
    if last < min_last or (pad and (last - overhead) % pad) or full + 1 > MAX_CHUNKS:
        raise AuthenticationError(BAD_LAYOUT)
    last_plain = last - overhead - (1 if pad else 0)
    return _Layout(full, last, per, full * chunk_bytes + last_plain, exact=not pad)


# --- keys ------------------------------------------------------------------------------------


def _subkey(master: bytes, file_salt: bytes, label: str, length: int) -> bytes:
    info = b"cipherbench v1 " + label.encode("ascii")
    return HKDF(hashes.SHA256(), length, salt=file_salt, info=info).derive(master)


def _header_mac(master: bytes, header_signed: bytes, file_salt: bytes) -> bytes:
    mac = hmac.HMAC(_subkey(master, file_salt, "header mac", 32), hashes.SHA256())
    mac.update(header_signed)
    return mac.finalize()


def _password_bytes(password: str | bytes) -> bytes:
    # NFC: the same password typed on macOS (often NFD) and elsewhere must give the same key.
    data = (
        unicodedata.normalize("NFC", password).encode("utf-8")
        if isinstance(password, str)
        else bytes(password)
    )
    if not data:
        raise UserError("the password is empty")
    return data


def _argon2(password: bytes, salt: bytes, params: Argon2Params) -> bytes:
    return Argon2id(
        salt=salt,
        length=MASTER_KEY_BYTES,
        iterations=params.iterations,
        lanes=params.lanes,
        memory_cost=params.memory_kib,
    ).derive(password)


def _check_key(key: bytes) -> bytes:
    key = bytes(key)
    if len(key) != MASTER_KEY_BYTES:
        raise UserError(f"a key must be {MASTER_KEY_BYTES} bytes ({MASTER_KEY_BYTES * 8} bits)")
    return key


def _master_for(header: Header, password: str | bytes | None, key: bytes | None) -> bytes:
    """The master key for ``header`` from what the caller gave, or a UserError saying what the
    file needs instead."""
    if header.key_source == KEY_SOURCE_KEY_FILE:
        if key is None:
            if password is not None:
                raise UserError("this file was encrypted with a key file, not a password")
            raise UserError("this file needs its key file")
        return _check_key(key)
    if password is None:
        if key is not None:
            raise UserError("this file was encrypted with a password, not a key file")
        raise UserError("this file needs a password")
    assert header.argon2 is not None
    return _argon2(_password_bytes(password), header.kdf_salt, header.argon2)


# --- chunk sealing ---------------------------------------------------------------------------


class _ChunkCodec(Protocol):
    def seal(self, index: int, last: bool, src: memoryview, dst: memoryview) -> int: ...

    def open(self, index: int, last: bool, src: memoryview, dst: memoryview) -> int: ...


class _AeadChunks:
    """STREAM: one AEAD key per file, nonce = prefix || u32 index || u8 last."""

    __slots__ = ("_aad", "_aead", "_prefix")

    def __init__(
        self, spec: CipherSpec, adapter: Adapter, master: bytes, file_salt: bytes, aad: bytes
    ) -> None:
        key = _subkey(master, file_salt, "aead key", spec.key_bytes)
        self._aead = adapter.aead(spec, key)
        self._prefix = _subkey(master, file_salt, "nonce prefix", spec.iv_bytes - 5)
        self._aad = aad

    def _nonce(self, index: int, last: bool) -> bytes:
        return self._prefix + struct.pack(">IB", index, last)

    def seal(self, index: int, last: bool, src: memoryview, dst: memoryview) -> int:
        return self._aead.seal_into(self._nonce(index, last), src, dst, self._aad)

    def open(self, index: int, last: bool, src: memoryview, dst: memoryview) -> int:
        try:
            return self._aead.open_into(self._nonce(index, last), src, dst, self._aad)
        except AuthenticationError:
            raise AuthenticationError(MODIFIED.format(index=index)) from None


class _EtmChunks:
    """Encrypt-then-MAC for unauthenticated ciphers: a key and IV per chunk, HMAC-SHA256 after."""

    __slots__ = ("_adapter", "_chacha", "_chunk_keys", "_ctr", "_mac", "_spec")

    def __init__(
        self, spec: CipherSpec, adapter: Adapter, master: bytes, file_salt: bytes, aad: bytes
    ) -> None:
        self._spec = spec
        self._adapter = adapter
        self._chunk_keys = _subkey(master, file_salt, "chunk keys", 32)
        self._mac = hmac.HMAC(_subkey(master, file_salt, "chunk mac", 32), hashes.SHA256())
        self._mac.update(aad)  # every chunk MAC starts with the header MAC; copied per chunk
        self._ctr = spec.mode == "CTR"
        self._chacha = spec.algorithm == "ChaCha20"

    def _key_iv(self, index: int) -> tuple[bytes, bytes]:
        spec = self._spec
        material = HKDFExpand(
            hashes.SHA256(),
            spec.key_bytes + spec.iv_bytes,
            info=b"cipherbench v1 chunk" + struct.pack(">I", index),
        ).derive(self._chunk_keys)
        key, iv = material[: spec.key_bytes], material[spec.key_bytes :]
        # Zeroed counter bits: a chunk (<= 2^26 bytes) then never carries out of the low 32 bits,
        # so every library counts the same way (pycryptodome refuses to wrap, OpenSSL carries).
        if self._ctr:
            iv = iv[:-4] + bytes(4)
        elif self._chacha:
            iv = bytes(4) + iv[4:]
        return key, iv

    def _tag(self, index: int, last: bool, iv: bytes, ciphertext: memoryview) -> hmac.HMAC:
        mac = self._mac.copy()
        mac.update(struct.pack(">IB", index, last))
        mac.update(iv)
        mac.update(ciphertext)
        return mac

    def seal(self, index: int, last: bool, src: memoryview, dst: memoryview) -> int:
        key, iv = self._key_iv(index)
        cipher = MessageCipher(self._spec, self._adapter, key, iv, decrypt=False)
        n = cipher.final(src, dst) if last else cipher.update(src, dst)
        dst[n : n + MAC_BYTES] = self._tag(index, last, iv, dst[:n]).finalize()
        return n + MAC_BYTES

    def open(self, index: int, last: bool, src: memoryview, dst: memoryview) -> int:
        n = len(src) - MAC_BYTES
        key, iv = self._key_iv(index)
        try:  # verified before decrypting: no padding oracle, no unauthenticated plaintext
            self._tag(index, last, iv, src[:n]).verify(bytes(src[n:]))
        except InvalidSignature:
            raise AuthenticationError(MODIFIED.format(index=index)) from None
        cipher = MessageCipher(self._spec, self._adapter, key, iv, decrypt=True)
        return cipher.final(src[:n], dst) if last else cipher.update(src[:n], dst)


def _codec(spec: CipherSpec, master: bytes, header: Header) -> _ChunkCodec:
    adapter = get_adapter(spec.library)
    cls = _AeadChunks if spec.kind is Kind.AEAD else _EtmChunks
    return cls(spec, adapter, master, header.file_salt, header.mac)


# --- files: paths, atomic output, progress, cancel -------------------------------------------


def check_paths(src: str | os.PathLike[str], *outputs: str | os.PathLike[str], force: bool) -> None:
    """Refuse before any work: a missing or non-regular input, an output that is the input (same
    resolved path, or the same file through a link) or another output, an output that is a
    folder or sits in a missing folder, and an existing output without ``force``."""
    src_path = Path(src)
    if not src_path.exists():
        raise UserError(f"cannot read {src_path}: no such file")
    if not src_path.is_file():
        raise UserError(f"cannot read {src_path}: not a regular file")
    seen = [src_path.resolve()]
    for out in outputs:
        out_path = Path(out)
        resolved = out_path.resolve()
        if resolved == seen[0] or (out_path.exists() and os.path.samefile(src_path, out_path)):
            raise UserError(f"the output {out_path} is the input file; choose another name")
        if resolved in seen[1:]:
            raise UserError(f"{out_path} is given twice as an output")
        seen.append(resolved)
        if out_path.is_dir():
            raise UserError(f"the output {out_path} is a folder; give a file name")
        if not resolved.parent.is_dir():
            raise UserError(f"the folder {out_path.parent} does not exist")
        if out_path.exists() and not force:
            raise UserError(f"{out_path} already exists; overwrite it with --force")


class AtomicOutput:
    """A file written under a temporary name in the target folder and renamed over ``path`` by
    :meth:`commit`; closed any other way (error, cancel, Ctrl-C) the temporary file is deleted.

    ``mode`` applies to a new file (the umask still narrows it): 0o600 for plaintext and keys.
    Without ``force`` the final step refuses to replace a file that appeared meanwhile."""

    def __init__(self, path: str | os.PathLike[str], *, force: bool, mode: int = 0o666) -> None:
        self.path = Path(path)
        self._force = force
        self._mode = mode
        self._file: io.FileIO | None = None
        self._tmp: Path | None = None

    def __enter__(self) -> AtomicOutput:
        # abspath, not resolve: a symlinked OUT is replaced, as `mv` would, not its target.
        folder = Path(os.path.abspath(self.path)).parent
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
        for _ in range(100):
            tmp = folder / f".{self.path.name}.{secrets.token_hex(4)}.part"
            try:
                fd = os.open(tmp, flags, self._mode)
            except FileExistsError:
                continue
            except OSError as exc:
                raise UserError(f"cannot write in {folder}: {exc.strerror}") from None
            self._tmp = tmp
            self._file = os.fdopen(fd, "wb", buffering=0)
            return self
        raise UserError(f"cannot create a temporary file in {folder}")

    def write(self, data: bytes | bytearray | memoryview) -> None:
        assert self._file is not None
        view = memoryview(data)
        try:
            while view:  # a raw FileIO may write less than asked
                written = self._file.write(view)
                if not written:
                    raise OSError(errno.EIO, "the file system accepted no bytes")
                view = view[written:]
        except OSError as exc:
            raise UserError(f"cannot write {self.path}: {exc.strerror}") from None

    def commit(self) -> None:
        """Close and move into place. No fsync: the input is never touched, so a crash can lose
        only an output that is made again from it."""
        assert self._file is not None and self._tmp is not None
        self._file.close()
        try:
            if self._force:
                os.replace(self._tmp, self.path)
            else:
                self._link_no_clobber()
        except OSError as exc:
            raise UserError(f"cannot write {self.path}: {exc.strerror}") from None
        self._tmp = None

    def _link_no_clobber(self) -> None:
        assert self._tmp is not None
        try:
            os.link(self._tmp, self.path)  # atomic, and fails if the name exists
        except FileExistsError:
            raise UserError(f"{self.path} already exists; overwrite it with --force") from None
        except OSError:  # a file system without hard links: check, then rename
            if self.path.exists():
                raise UserError(f"{self.path} already exists; overwrite it with --force") from None
            os.replace(self._tmp, self.path)
            return
        os.unlink(self._tmp)

    def __exit__(self, *exc: object) -> None:
        if self._file is not None and not self._file.closed:
            self._file.close()
        if self._tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._tmp)
            self._tmp = None


def open_input(path: str | os.PathLike[str]) -> io.FileIO:
    """The input, unbuffered (``readinto`` fills caller buffers directly), read-only."""
    try:
        return open(path, "rb", buffering=0)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None


def read_full(f: io.FileIO, view: memoryview, path: str | os.PathLike[str] = "the input") -> int:
    """Fill ``view`` unless the file ends first; returns the bytes read."""
    done, size = 0, len(view)
    try:
        while done < size:
            got = f.readinto(view[done:])
            if not got:
                break
            done += got
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    return done


class Progress:
    """Throttles ``on_progress(done, total)`` to one call per :data:`PROGRESS_INTERVAL_S`, plus
    the first and the last; also raises :class:`Cancelled` when ``cancel`` says so."""

    __slots__ = ("_callback", "_cancelled", "_next", "total")

    def __init__(
        self, callback: ProgressCallback | None, cancel: CancelCheck | None, total: int
    ) -> None:
        self._callback = callback
        self.total = total
        if cancel is None:
            self._cancelled: Callable[[], bool] = lambda: False
        elif isinstance(cancel, threading.Event):
            self._cancelled = cancel.is_set
        else:
            self._cancelled = cancel
        self._next = 0.0
        self.update(0)

    def check_cancel(self) -> None:
        if self._cancelled():
            raise Cancelled("cancelled")

    def update(self, done: int) -> None:
        if self._callback is None:
            return
        now = time.monotonic()
        if now >= self._next:
            self._next = now + PROGRESS_INTERVAL_S
            self._callback(done, self.total)

    def finish(self) -> None:
        if self._callback is not None:
            self._callback(self.total, self.total)


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
) -> ContainerInfo:
    """Encrypt ``src`` into a new container ``dst`` under ``password`` (Argon2id with
    ``kdf_params``, default :data:`DEFAULT_ARGON2`) or a 32-byte ``key`` (from a key file); give
    exactly one. ``library=None`` picks the first in :data:`LIBRARY_PREFERENCE` offering the
    cipher; any library can decrypt the result. ``chunk_bytes``: a multiple of 16 in 16..64 MiB."""
    if (password is None) == (key is None):
        raise UserError("give either a password or a key file")
    spec = choose_spec(cipher_id, library, key_bits)
    check_chunk_bytes(chunk_bytes)
    check_paths(src, dst, force=force)
    started = time.perf_counter()
    argon2: Argon2Params | None = None
    kdf_salt = b""
    if password is not None:
        argon2 = kdf_params or DEFAULT_ARGON2
        argon2.check()
        kdf_salt = secrets.token_bytes(16)
        master = _argon2(_password_bytes(password), kdf_salt, argon2)
    else:
        assert key is not None
        master = _check_key(key)
    kdf_seconds = time.perf_counter() - started
    file_salt = secrets.token_bytes(FILE_SALT_BYTES)
    signed = _encode_header(spec, chunk_bytes, argon2, kdf_salt, file_salt)
    header = parse_header(signed + _header_mac(master, signed, file_salt))
    codec = _codec(spec, master, header)
    del master

    bufs = (bytearray(chunk_bytes), bytearray(chunk_bytes))
    out_buf = bytearray(chunk_bytes + _overhead(spec) + spec.block_bytes + SLACK)
    out_view = memoryview(out_buf)
    with open_input(src) as fin, AtomicOutput(dst, force=force) as out:
        total = os.fstat(fin.fileno()).st_size
        progress = Progress(on_progress, cancel, total)
        out.write(header.raw)
        written = len(header.raw)
        # One chunk of look-ahead: a chunk is the last when nothing follows it, which works
        # however the file size changes while it is read.
        cur = memoryview(bufs[0])
        n = read_full(fin, cur, src)
        done, index = n, 0
        while True:
            progress.check_cancel()
            nxt = memoryview(bufs[(index + 1) % 2])
            n_next = read_full(fin, nxt, src) if n == chunk_bytes else 0
            last = n_next == 0
            if index >= MAX_CHUNKS:
                raise UserError(f"the input is too large for chunks of {chunk_bytes} bytes")
            m = codec.seal(index, last, cur[:n], out_view)
            out.write(out_view[:m])
            written += m
            progress.update(done)
            if last:
                break
            cur, n = nxt, n_next
            done += n
            index += 1
        out.commit()
    progress.finish()
    return ContainerInfo(
        path=str(dst),
        format_version=FORMAT_VERSION,
        cipher_id=spec.id,
        key_bits=spec.key_bits,
        key_source=KEY_SOURCE_PASSWORD if argon2 else KEY_SOURCE_KEY_FILE,
        argon2=argon2,
        chunk_bytes=chunk_bytes,
        chunks=index + 1,
        header_bytes=len(header.raw),
        container_bytes=written,
        plaintext_bytes=done,
        plaintext_bytes_exact=True,
        library=spec.library,
        kdf_seconds=kdf_seconds,
        seconds=time.perf_counter() - started,
    )


def decrypt_file(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    *,
    password: str | bytes | None = None,
    key: bytes | None = None,
    library: str | None = None,
    force: bool = False,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> ContainerInfo:
    """Decrypt the container ``src`` to ``dst`` (created with mode 0600: it is plaintext) with
    the ``password`` or ``key`` it needs (:func:`read_header` says which). ``library=None``
    takes the first library in :data:`LIBRARY_PREFERENCE` offering the file's cipher.

    Raises :class:`AuthenticationError` for a wrong password or key and for any modification;
    ``dst`` then does not exist (an existing one is left as it was)."""
    check_paths(src, dst, force=force)
    started = time.perf_counter()
    with open_input(src) as fin:
        size = os.fstat(fin.fileno()).st_size
        head = bytearray(MAX_HEADER_BYTES)
        header = parse_header(head[: read_full(fin, memoryview(head), src)])
        spec = choose_spec(header.cipher_id, library, header.key_bits)
        layout = _layout(spec, header.chunk_bytes, size - len(header.raw))
        master = _master_for(header, password, key)
        kdf_seconds = time.perf_counter() - started
        if not _equal(_header_mac(master, header.signed, header.file_salt), header.mac):
            raise AuthenticationError(WRONG_SECRET)
        codec = _codec(spec, master, header)
        del master

        in_view = memoryview(bytearray(layout.chunk_ct_bytes + spec.block_bytes))
        out_view = memoryview(bytearray(len(in_view) + SLACK))
        fin.seek(len(header.raw))
        progress = Progress(on_progress, cancel, size)
        done, plain = len(header.raw), 0
        with AtomicOutput(dst, force=force, mode=0o600) as out:
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
            if fin.read(1):
                raise AuthenticationError(BAD_LAYOUT)  # the file grew while being read
            out.commit()
    progress.finish()
    return replace(
        _info(str(src), header, spec, layout, size),
        plaintext_bytes=plain,
        plaintext_bytes_exact=True,
        library=spec.library,
        kdf_seconds=kdf_seconds,
        seconds=time.perf_counter() - started,
    )


def read_header(path: str | os.PathLike[str]) -> ContainerInfo:
    """Describe the container at ``path`` without decrypting it: cipher, key source
    (``needs_password`` / ``needs_key_file``), Argon2 cost, chunk size, sizes. Raises
    :class:`UserError` for a file that is not a container or whose length cannot be right."""
    with open_input(path) as fin:
        size = os.fstat(fin.fileno()).st_size
        head = bytearray(MAX_HEADER_BYTES)
        header = parse_header(head[: read_full(fin, memoryview(head), path)])
    spec = choose_spec(header.cipher_id, None, header.key_bits)
    layout = _layout(spec, header.chunk_bytes, size - len(header.raw))
    return _info(str(path), header, spec, layout, size)


def _info(path: str, header: Header, spec: CipherSpec, layout: _Layout, size: int) -> ContainerInfo:
    return ContainerInfo(
        path=path,
        format_version=FORMAT_VERSION,
        cipher_id=header.cipher_id,
        key_bits=header.key_bits,
        key_source=header.key_source,
        argon2=header.argon2,
        chunk_bytes=header.chunk_bytes,
        chunks=layout.full_chunks + 1,
        header_bytes=len(header.raw),
        container_bytes=size,
        plaintext_bytes=layout.plaintext_bytes,
        plaintext_bytes_exact=layout.exact,
    )


def _equal(a: bytes, b: bytes) -> bool:
    """Constant-time comparison of two MACs."""
    return secrets.compare_digest(a, b)


# --- key files -------------------------------------------------------------------------------


def new_key() -> bytes:
    """A fresh random 256-bit key for a key file."""
    return secrets.token_bytes(MASTER_KEY_BYTES)


def write_key_file(path: str | os.PathLike[str], key: bytes, *, force: bool = False) -> None:
    """Write ``key`` (32 bytes) as a small JSON key file with mode 0600. Refuses to replace an
    existing file unless ``force`` (replacing a key file can make files undecryptable)."""
    key = _check_key(key)
    target = Path(path)
    if target.is_dir():
        raise UserError(f"the key file {target} is a folder; give a file name")
    if target.exists() and not force:
        raise UserError(f"{target} already exists; a key file is never replaced without --force")
    if not target.resolve().parent.is_dir():
        raise UserError(f"the folder {target.parent} does not exist")
    text = json.dumps(
        {
            "format": KEY_FILE_FORMAT,
            "version": 1,
            "key_hex": key.hex(),
            "warning": KEY_FILE_WARNING,
        },
        indent=2,
    )
    with AtomicOutput(target, force=force, mode=0o600) as out:
        out.write((text + "\n").encode("ascii"))
        out.commit()


def read_key_file(path: str | os.PathLike[str]) -> bytes:
    """The 32-byte key in a key file written by :func:`write_key_file`."""
    source = Path(path)
    try:
        st = source.stat()
        if not stat.S_ISREG(st.st_mode):
            raise UserError(f"the key file {source} is not a regular file")
        if st.st_size > _KEY_FILE_MAX_BYTES:
            raise UserError(f"{source} is not a CipherBench key file (too large)")
        text = source.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read the key file {source}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise UserError(f"{source} is not a CipherBench key file (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != KEY_FILE_FORMAT:
        if isinstance(data, dict) and data.get("format") == "cipherbench-raw-key":
            raise UserError(
                f"{source} is the key of a raw export; decrypt that with --raw --key-in"
            )
        raise UserError(f"{source} is not a CipherBench key file")
    if data.get("version") != 1:
        raise UserError(f"{source} is a key file of an unknown version")
    try:
        key = bytes.fromhex(str(data.get("key_hex", "")))
    except ValueError:
        key = b""
    if len(key) != MASTER_KEY_BYTES:
        raise UserError(f"the key in {source} is damaged (it must be 64 hex digits)")
    return key
