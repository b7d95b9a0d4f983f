"""The CipherBench encrypted-file format, version 1: its layout, header parser and body layout.

``docs/file-format.md`` describes the same format with the reasons for each choice. The API that
reads and writes these files is :mod:`app.core.files.container`; the keys are derived in
:mod:`app.core.files.container_keys` and the chunks sealed in
:mod:`app.core.files.container_chunks`.

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

A reader checks the Argon2id parameters against these ranges while parsing, and against a much
lower cost policy (``READER_POLICY`` in :mod:`app.core.files.container_keys`) before deriving: above
that it asks its user first, so a hostile header cannot silently cost a minute and a gigabyte.

Version history: 1 (this one) is the first.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from app.core.ciphers.registry import REGISTRY, CipherSpec, Kind, libraries_for
from app.core.errors import AuthenticationError, UserError
from app.core.units import MIB

MAGIC = b"\x89CBF\r\n\x1a\n"
FORMAT_VERSION = 1
MIN_CHUNK_BYTES = 16
MAX_CHUNK_BYTES = 64 * MIB
FILE_SALT_BYTES = 32
MAC_BYTES = 32
MAX_CHUNKS = 2**32

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


@dataclass(frozen=True)
class Argon2Params:
    """Argon2id cost. ``memory_kib`` in KiB; ``iterations`` = passes over the memory."""

    memory_kib: int
    iterations: int
    lanes: int

    def check(self) -> None:
        """Raise :class:`UserError` unless the values are ones the format allows.

        These are the absolute bounds, which no option lifts: at most 1 GiB and about a minute
        here. A reader pays far less without asking: see ``READER_POLICY`` in
        :mod:`app.core.files.container_keys`."""
        if not 1 <= self.lanes <= 16:
            raise UserError(f"Argon2 lanes must be 1..16, not {self.lanes}")
        if not 8 * self.lanes <= self.memory_kib <= 2**20:
            raise UserError(
                f"Argon2 memory must be {8 * self.lanes} KiB .. 1 GiB, not {self.memory_kib} KiB"
            )
        if not 1 <= self.iterations <= 64:
            raise UserError(f"Argon2 passes must be 1..64, not {self.iterations}")


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


def encode_header(
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


# --- body layout -----------------------------------------------------------------------------


def chunk_overhead(spec: CipherSpec) -> int:
    """Bytes a stored chunk has beyond its ciphertext: the AEAD tag or the HMAC."""
    return spec.tag_bytes if spec.kind is Kind.AEAD else MAC_BYTES


@dataclass(frozen=True)
class Layout:
    full_chunks: int  # chunks before the last one, each chunk_bytes + overhead long
    last_bytes: int  # stored size of the last chunk
    chunk_ct_bytes: int
    plaintext_bytes: int
    exact: bool


def body_layout(spec: CipherSpec, chunk_bytes: int, body_bytes: int) -> Layout:
    """Where the chunks of a body of ``body_bytes`` lie, or :class:`AuthenticationError` when no
    file this format writes has that length. Chunks before the last are ``chunk + overhead``
    bytes; the last is 1..chunk plaintext bytes (0 only alone) plus padding and overhead."""
    overhead = chunk_overhead(spec)
    pad = spec.block_bytes if spec.kind is Kind.BLOCK else 0
    per = chunk_bytes + overhead
    max_last = chunk_bytes + pad + overhead
    full = 0 if body_bytes <= max_last else -(-(body_bytes - max_last) // per)
    last = body_bytes - full * per
    min_last = overhead + (pad if pad else (1 if full else 0))
    if last < min_last or (pad and (last - overhead) % pad) or full + 1 > MAX_CHUNKS:
        raise AuthenticationError(BAD_LAYOUT)
    last_plain = last - overhead - (1 if pad else 0)
    return Layout(full, last, per, full * chunk_bytes + last_plain, exact=not pad)
