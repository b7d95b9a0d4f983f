"""Encrypting and decrypting one message, whole or chunk by chunk, into caller-owned buffers.

A :class:`MessageCipher` is created (key schedule, context) outside any timed region; its
``update`` and ``final`` calls are the cipher work and nothing else. The same object serves
memory mode (one ``final`` over the whole buffer) and stream mode (``update`` per chunk, then
``final`` on the last one).

- Block modes (ECB, CBC): full blocks go straight to the library; only the last partial block is
  padded, with the library's own PKCS#7 helper, so the input is never copied. Decryption checks
  the padding with the library's unpadder.
- Stream modes (CFB, OFB, CTR, ChaCha20, RC4): output as long as input.
- AEAD: memory mode seals the whole message once. Stream mode seals each chunk on its own, with
  the nonce's last 8 bytes XORed with the chunk index (as TLS records and the loopback study's 1 MB
  chunks do), so every chunk grows by one tag and is verified before its plaintext is used.
"""

from __future__ import annotations

from app.core.ciphers.adapters import Adapter, AeadCipher, RawCipher
from app.core.ciphers.registry import CipherSpec, Kind
from app.core.errors import AuthenticationError

# Cipher objects a batch of whole messages holds at most (the bench's and the sweep's): at 16 B
# a sample of more spends most of its slice making them, and reads slower as they outgrow the
# caches (cryptography's AES-CTR: 300-310 ns a message up to 1,000 of them, 320-345 ns at
# 3,000-12,000).
MAX_CONTEXTS = 1024


def chunk_nonce(base: bytes, index: int) -> bytes:
    """``base`` with its last 8 bytes XORed with ``index`` (big-endian); index 0 gives ``base``."""
    if index == 0:
        return base
    head, tail = base[:-8], base[-8:]
    return head + (int.from_bytes(tail, "big") ^ index).to_bytes(8, "big")


class MessageCipher:
    """One direction of one message. Not reusable: make a new one per message."""

    __slots__ = ("_adapter", "_aead", "_block", "_decrypt", "_index", "_nonce", "_raw", "spec")

    def __init__(
        self, spec: CipherSpec, adapter: Adapter, key: bytes, iv: bytes, decrypt: bool
    ) -> None:
        self.spec = spec
        self._adapter = adapter
        self._decrypt = decrypt
        self._block = spec.block_bytes
        self._index = 0
        self._nonce = iv
        if spec.kind is Kind.AEAD:
            self._aead: AeadCipher | None = adapter.aead(spec, key)
            self._raw: RawCipher | None = None
        else:
            self._raw = adapter.raw(spec, key, iv, decrypt)
            self._aead = None

    def update(self, src: memoryview, dst: memoryview) -> int:
        """A chunk that is not the last. Block modes need whole blocks here."""
        if self._aead is not None:
            return self._aead_chunk(src, dst)
        assert self._raw is not None
        if len(src) % self._block:
            raise ValueError("a chunk before the last must be a whole number of blocks")
        self._raw.update_into(src, dst)
        return len(src)

    def final(self, src: memoryview, dst: memoryview) -> int:
        """The last chunk (or the whole message); returns how many bytes went to ``dst``."""
        if self._aead is not None:
            return self._aead_chunk(src, dst)
        raw = self._raw
        assert raw is not None
        n = len(src)
        if self.spec.kind is not Kind.BLOCK:
            raw.update_into(src, dst)
            return n
        block = self._block
        if self._decrypt:
            if n == 0 or n % block:
                raise AuthenticationError(
                    "ciphertext length is not a whole number of blocks: truncated or wrong cipher"
                )
            raw.update_into(src, dst)
            return n - block + self._adapter.unpad_length(bytes(dst[n - block : n]), block)
        full = n - n % block
        tail = bytes(src[full:n])  # read before dst (possibly the same memory) is written
        if full:
            raw.update_into(src[:full], dst)
        padded = self._adapter.pad(tail, block)
        raw.update_into(memoryview(padded), dst[full:])
        return full + len(padded)

    def _aead_chunk(self, src: memoryview, dst: memoryview) -> int:
        assert self._aead is not None
        nonce = chunk_nonce(self._nonce, self._index)
        self._index += 1
        if self._decrypt:
            return self._aead.open_into(nonce, src, dst, b"")
        return self._aead.seal_into(nonce, src, dst, b"")


def fresh_contexts(
    spec: CipherSpec, adapter: Adapter, key: bytes, iv: bytes, decrypt: bool, count: int
) -> list[MessageCipher]:
    """``count`` cipher objects, one per message, made before a clock starts (the bench's and
    the sweep's whole-message point's, for :func:`final_each`)."""
    return [MessageCipher(spec, adapter, key, iv, decrypt) for _ in range(count)]


def final_each(contexts: list[MessageCipher], src: memoryview, dst: memoryview) -> int:
    """One whole message with each of ``contexts`` (each made for it), from ``src`` into
    ``dst``; returns the last one's output bytes. The one timed loop of a message's cost, for
    the bench and the sweep's per-message point alike."""
    n = 0
    for ctx in contexts:
        n = ctx.final(src, dst)
    return n


def stream_output_bytes(spec: CipherSpec, input_bytes: int, chunk_bytes: int) -> int:
    """Ciphertext size in stream mode: AEAD adds one tag per chunk."""
    if spec.kind is not Kind.AEAD:
        return spec.output_bytes(input_bytes)
    chunks = max(1, -(-input_bytes // chunk_bytes))
    return input_bytes + chunks * spec.tag_bytes


def encrypt_bytes(spec: CipherSpec, adapter: Adapter, key: bytes, iv: bytes, data: bytes) -> bytes:
    """Convenience for small inputs (test vectors, self-test): one message, fresh buffers."""
    out = bytearray(spec.output_bytes(len(data)) + 64)
    n = MessageCipher(spec, adapter, key, iv, decrypt=False).final(
        memoryview(data), memoryview(out)
    )
    return bytes(out[:n])


def decrypt_bytes(spec: CipherSpec, adapter: Adapter, key: bytes, iv: bytes, data: bytes) -> bytes:
    out = bytearray(len(data) + 64)
    n = MessageCipher(spec, adapter, key, iv, decrypt=True).final(memoryview(data), memoryview(out))
    return bytes(out[:n])
