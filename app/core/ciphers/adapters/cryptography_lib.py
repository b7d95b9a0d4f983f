"""pyca/cryptography (OpenSSL inside). Old ciphers come from its ``decrepit`` package."""

from __future__ import annotations

from importlib.metadata import version as _dist_version
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.decrepit.ciphers import algorithms as decrepit
from cryptography.hazmat.decrepit.ciphers import modes as decrepit_modes
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers import aead as aead_mod

from app.core.ciphers.registry import CipherSpec
from app.core.errors import AuthenticationError

_ALGORITHMS: dict[str, Any] = {
    "AES": algorithms.AES,
    "Blowfish": decrepit.Blowfish,
    "3DES": decrepit.TripleDES,
    "RC4": decrepit.ARC4,
}
_MODES: dict[str, Any] = {
    "CBC": modes.CBC,
    "CTR": modes.CTR,
    "CFB": decrepit_modes.CFB,
    "OFB": decrepit_modes.OFB,
}
_AEADS = {
    "GCM": aead_mod.AESGCM,
    "CCM": aead_mod.AESCCM,
    "OCB": aead_mod.AESOCB3,
    "GCM-SIV": aead_mod.AESGCMSIV,
    "AEAD": aead_mod.ChaCha20Poly1305,
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


class CryptographyAdapter:
    name = "cryptography"

    def version(self) -> str:
        return _dist_version("cryptography")

    def raw(self, spec: CipherSpec, key: bytes, iv: bytes, decrypt: bool) -> _Raw:
        cipher: Cipher[Any]
        if spec.algorithm == "ChaCha20":
            cipher = Cipher(algorithms.ChaCha20(key, iv), None)
        elif spec.algorithm == "RC4":
            cipher = Cipher(decrepit.ARC4(key), None)
        else:
            algorithm = _ALGORITHMS[spec.algorithm](key)
            mode = modes.ECB() if spec.mode == "ECB" else _MODES[spec.mode](iv)
            cipher = Cipher(algorithm, mode)
        return _Raw(cipher.decryptor() if decrypt else cipher.encryptor())

    def aead(self, spec: CipherSpec, key: bytes) -> _Aead | _Siv:
        if spec.mode == "SIV":
            return _Siv(key)
        cls = _AEADS[spec.mode]
        if spec.mode == "CCM":
            return _Aead(cls(key, tag_length=spec.tag_bytes), spec.tag_bytes)
        return _Aead(cls(key), spec.tag_bytes)

    def pad(self, tail: bytes, block_bytes: int) -> bytes:
        padder = padding.PKCS7(block_bytes * 8).padder()
        return padder.update(tail) + padder.finalize()

    def unpad_length(self, last_block: bytes, block_bytes: int) -> int:
        unpadder = padding.PKCS7(block_bytes * 8).unpadder()
        try:
            return len(unpadder.update(last_block) + unpadder.finalize())
        except ValueError:
            raise AuthenticationError("bad padding: wrong key or modified data") from None
