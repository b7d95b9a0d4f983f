"""pyca/cryptography (OpenSSL inside). Old ciphers come from its ``decrepit`` package."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.decrepit.ciphers import algorithms as decrepit
from cryptography.hazmat.decrepit.ciphers import modes as decrepit_modes
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers import aead as aead_mod

from app.core.ciphers.adapters.base import LibraryAdapter
from app.core.ciphers.registry import CipherSpec
from app.core.errors import AuthenticationError

# Block ciphers x modes; an (algorithm, mode) pair not in these tables is not supported.
_BLOCK_ALGORITHMS: dict[str, Any] = {
    "AES": algorithms.AES,
    "Blowfish": decrepit.Blowfish,
    "3DES": decrepit.TripleDES,
    "Camellia": decrepit.Camellia,
}
_BLOCK_MODES: dict[str, Callable[[bytes], Any]] = {
    "ECB": lambda iv: modes.ECB(),
    "CBC": modes.CBC,
    "CTR": modes.CTR,
    "CFB": decrepit_modes.CFB,
    "OFB": decrepit_modes.OFB,
}
_NO_MODE: dict[str, Callable[[bytes, bytes], Any]] = {
    "ChaCha20": lambda key, iv: algorithms.ChaCha20(key, iv),
    "RC4": lambda key, iv: decrepit.ARC4(key),
}


def _block(algorithm: Any, mode: Callable[[bytes], Any]) -> Callable[[bytes, bytes], Cipher[Any]]:
    return lambda key, iv: Cipher(algorithm(key), mode(iv))


def _stream(algorithm: Callable[[bytes, bytes], Any]) -> Callable[[bytes, bytes], Cipher[Any]]:
    return lambda key, iv: Cipher(algorithm(key, iv), None)


_RAW: dict[tuple[str, str], Callable[[bytes, bytes], Cipher[Any]]] = {
    **{
        (name, mode): _block(cls, make_mode)
        for name, cls in _BLOCK_ALGORITHMS.items()
        for mode, make_mode in _BLOCK_MODES.items()
    },
    **{(name, "Stream"): _stream(cls) for name, cls in _NO_MODE.items()},
}


def openssl_version() -> str:
    from cryptography.hazmat.backends.openssl.backend import backend

    return str(backend.openssl_version_text())


class _Raw:
    __slots__ = ("_ctx",)

    def __init__(self, ctx: Any) -> None:
        self._ctx = ctx

    def update_into(self, src: memoryview, dst: memoryview) -> None:
        self._ctx.update_into(src, dst)


class _Aead:
    __slots__ = ("_cipher", "_tag")

    def __init__(self, cipher: Any, tag: int) -> None:
        self._cipher = cipher
        self._tag = tag

    def seal_into(self, nonce: bytes, src: memoryview, dst: memoryview, aad: bytes) -> int:
        n = len(src) + self._tag
        self._cipher.encrypt_into(nonce, src, aad or None, dst[:n])
        return n

    def open_into(self, nonce: bytes, src: memoryview, dst: memoryview, aad: bytes) -> int:
        n = len(src) - self._tag
        if n < 0:
            raise AuthenticationError("the ciphertext is shorter than its tag")
        try:
            self._cipher.decrypt_into(nonce, src, aad or None, dst[:n])
        except InvalidTag:
            raise AuthenticationError("authentication failed: wrong key or modified data") from None
        return n


class _Siv:
    """AES-SIV: the nonce is the last associated-data component (RFC 5297); output is V || C."""

    __slots__ = ("_cipher",)

    def __init__(self, key: bytes) -> None:
        self._cipher = aead_mod.AESSIV(key)

    def seal_into(self, nonce: bytes, src: memoryview, dst: memoryview, aad: bytes) -> int:
        n = len(src) + 16
        ad = [aad, nonce] if aad else [nonce]
        self._cipher.encrypt_into(src, ad, dst[:n])
        return n

    def open_into(self, nonce: bytes, src: memoryview, dst: memoryview, aad: bytes) -> int:
        n = len(src) - 16
        if n < 0:
            raise AuthenticationError("the ciphertext is shorter than its tag")
        ad = [aad, nonce] if aad else [nonce]
        try:
            self._cipher.decrypt_into(src, ad, dst[:n])
        except InvalidTag:
            raise AuthenticationError("authentication failed: wrong key or modified data") from None
        return n


_AEADS: dict[tuple[str, str], Callable[[bytes, int], _Aead | _Siv]] = {
    ("AES", "GCM"): lambda key, tag: _Aead(aead_mod.AESGCM(key), tag),
    ("AES", "CCM"): lambda key, tag: _Aead(aead_mod.AESCCM(key, tag_length=tag), tag),
    ("AES", "OCB"): lambda key, tag: _Aead(aead_mod.AESOCB3(key), tag),
    ("AES", "GCM-SIV"): lambda key, tag: _Aead(aead_mod.AESGCMSIV(key), tag),
    ("AES", "SIV"): lambda key, tag: _Siv(key),
    ("ChaCha20-Poly1305", "AEAD"): lambda key, tag: _Aead(aead_mod.ChaCha20Poly1305(key), tag),
}


class CryptographyAdapter(LibraryAdapter):
    name = "cryptography"
    raw_table = _RAW
    aead_table = _AEADS

    def raw(self, spec: CipherSpec, key: bytes, iv: bytes, decrypt: bool) -> _Raw:
        cipher = _RAW[spec.algorithm, spec.mode](key, iv)
        return _Raw(cipher.decryptor() if decrypt else cipher.encryptor())

    def aead(self, spec: CipherSpec, key: bytes) -> _Aead | _Siv:
        return _AEADS[spec.algorithm, spec.mode](key, spec.tag_bytes)

    def pad(self, tail: bytes, block_bytes: int) -> bytes:
        padder = padding.PKCS7(block_bytes * 8).padder()
        return padder.update(tail) + padder.finalize()

    def unpad_length(self, last_block: bytes, block_bytes: int) -> int:
        unpadder = padding.PKCS7(block_bytes * 8).unpadder()
        try:
            return len(unpadder.update(last_block) + unpadder.finalize())
        except ValueError:
            raise AuthenticationError("bad padding: wrong key or modified data") from None
