"""Sealing and opening the chunks of a CipherBench file (the body layout is in
:mod:`app.core.files.container_format`): STREAM for AEAD ciphers, encrypt-then-MAC with a key and IV
per chunk for the others. Both bind every chunk to its index, the last-chunk flag and the header
MAC, and raise :class:`AuthenticationError` naming the chunk that fails."""

from __future__ import annotations

import struct
from typing import Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

from app.core.ciphers.adapters import Adapter, get_adapter
from app.core.ciphers.message import MessageCipher
from app.core.ciphers.registry import CipherSpec, Kind
from app.core.errors import AuthenticationError
from app.core.files.container_format import MAC_BYTES, MODIFIED, Header
from app.core.files.container_keys import subkey


class ChunkCodec(Protocol):
    def seal(self, index: int, last: bool, src: memoryview, dst: memoryview) -> int: ...

    def open(self, index: int, last: bool, src: memoryview, dst: memoryview) -> int: ...


class _AeadChunks:
    """STREAM: one AEAD key per file, nonce = prefix || u32 index || u8 last."""

    __slots__ = ("_aad", "_aead", "_prefix")

    def __init__(
        self, spec: CipherSpec, adapter: Adapter, master: bytes, file_salt: bytes, aad: bytes
    ) -> None:
        key = subkey(master, file_salt, "aead key", spec.key_bytes)
        self._aead = adapter.aead(spec, key)
        self._prefix = subkey(master, file_salt, "nonce prefix", spec.iv_bytes - 5)
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

    __slots__ = ("_adapter", "_chunk_keys", "_mac", "_spec")

    def __init__(
        self, spec: CipherSpec, adapter: Adapter, master: bytes, file_salt: bytes, aad: bytes
    ) -> None:
        self._spec = spec
        self._adapter = adapter
        self._chunk_keys = subkey(master, file_salt, "chunk keys", 32)
        self._mac = hmac.HMAC(subkey(master, file_salt, "chunk mac", 32), hashes.SHA256())
        self._mac.update(aad)  # every chunk MAC starts with the header MAC; copied per chunk

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
        return key, spec.with_counter_zeroed(iv)

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


def make_codec(spec: CipherSpec, master: bytes, header: Header) -> ChunkCodec:
    """The codec for ``spec``'s kind, keyed for the file ``header`` describes."""
    adapter = get_adapter(spec.library)
    cls = _AeadChunks if spec.kind is Kind.AEAD else _EtmChunks
    return cls(spec, adapter, master, header.file_salt, header.mac)
