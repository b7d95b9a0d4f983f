"""PyCryptodome. Works in place for most modes (``output=`` may be the input buffer)."""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version as _dist_version
from typing import Any

from Crypto.Cipher import AES, ARC4, DES, DES3, Blowfish, ChaCha20, ChaCha20_Poly1305

from app.core.ciphers.adapters.pkcs7 import CryptodomePkcs7
from app.core.ciphers.registry import CipherSpec
from app.core.errors import AuthenticationError

# The stubs lack msg_len/assoc_len (CCM) and take mode literals only.
_aes_new: Any = AES.new
_MODULES: dict[str, Any] = {"AES": AES, "Blowfish": Blowfish, "3DES": DES3, "DES": DES}
_AEAD_MODES = {
    "GCM": AES.MODE_GCM,
    "CCM": AES.MODE_CCM,
    "OCB": AES.MODE_OCB,
    "EAX": AES.MODE_EAX,
    "SIV": AES.MODE_SIV,
}


class _Raw:
    __slots__ = ("_fn", "_returns_bytes")

    def __init__(self, fn: Callable[..., Any], returns_bytes: bool) -> None:
        self._fn = fn
        self._returns_bytes = returns_bytes

    def update_into(self, src: memoryview, dst: memoryview) -> None:
        n = len(src)
        if self._returns_bytes:  # ARC4 has no output= parameter
            dst[:n] = self._fn(src)
        else:
            self._fn(src, output=dst[:n])


class _Aead:
    __slots__ = ("_key", "_spec")

    def __init__(self, spec: CipherSpec, key: bytes) -> None:
        self._spec = spec
        self._key = key

    def _new(self, nonce: bytes, msg_len: int, aad: bytes) -> Any:
        spec = self._spec
        cipher: Any
        if spec.algorithm in ("ChaCha20-Poly1305", "XChaCha20-Poly1305"):
            cipher = ChaCha20_Poly1305.new(key=self._key, nonce=nonce)
        elif spec.mode == "CCM":
            cipher = _aes_new(
                self._key,
                AES.MODE_CCM,
                nonce=nonce,
                mac_len=spec.tag_bytes,
                msg_len=msg_len,
                assoc_len=len(aad),
            )
        else:
            cipher = _aes_new(self._key, _AEAD_MODES[spec.mode], nonce=nonce)
        if aad:
            cipher.update(aad)
        return cipher

    def seal_into(self, nonce: bytes, src: memoryview, dst: memoryview, aad: bytes) -> int:
        n, t = len(src), self._spec.tag_bytes
        cipher = self._new(nonce, n, aad)
        mode = self._spec.mode
        if mode == "SIV":  # V || C, and no output= parameter
            ct, tag = cipher.encrypt_and_digest(src)
            dst[t : t + n] = ct
            dst[:t] = tag
        elif mode == "OCB":  # buffers internally; no output= parameter
            dst[: n + t] = cipher.encrypt(src) + cipher.encrypt() + cipher.digest()
        else:
            cipher.encrypt(src, output=dst[:n])
            dst[n : n + t] = cipher.digest()
        return n + t

    def open_into(self, nonce: bytes, src: memoryview, dst: memoryview, aad: bytes) -> int:
        t = self._spec.tag_bytes
        n = len(src) - t
        if n < 0:
            raise AuthenticationError("the ciphertext is shorter than its tag")
        cipher = self._new(nonce, n, aad)
        try:
            if self._spec.mode == "SIV":
                tag = bytes(src[:t])
                dst[:n] = cipher.decrypt_and_verify(src[t:], tag)
            elif self._spec.mode == "OCB":
                tag = bytes(src[n:])
                plain = cipher.decrypt(src[:n]) + cipher.decrypt()
                cipher.verify(tag)
                dst[:n] = plain
            else:
                tag = bytes(src[n:])  # copied first: in place, the plaintext overwrites nothing
                cipher.decrypt(src[:n], output=dst[:n])  # of the tag, but keep it obvious
                cipher.verify(tag)
        except ValueError:
            raise AuthenticationError("authentication failed: wrong key or modified data") from None
        return n


class PycryptodomeAdapter(CryptodomePkcs7):
    name = "pycryptodome"

    def version(self) -> str:
        return _dist_version("pycryptodome")

    def raw(self, spec: CipherSpec, key: bytes, iv: bytes, decrypt: bool) -> _Raw:
        cipher: Any
        if spec.algorithm == "RC4":
            cipher = ARC4.new(key)
            return _Raw(cipher.decrypt if decrypt else cipher.encrypt, returns_bytes=True)
        if spec.algorithm == "ChaCha20":
            # OpenSSL's 16-byte IV: little-endian 32-bit block counter, then a 12-byte nonce.
            cipher = ChaCha20.new(key=key, nonce=iv[4:])
            counter = int.from_bytes(iv[:4], "little")
            if counter:
                cipher.seek(counter * 64)
        else:
            module = _MODULES[spec.algorithm]
            mode = spec.mode
            if mode == "ECB":
                cipher = module.new(key, module.MODE_ECB)
            elif mode == "CTR":
                # The whole block is the initial counter, incremented big-endian, as in OpenSSL.
                cipher = module.new(key, module.MODE_CTR, nonce=b"", initial_value=iv)
            elif mode == "CFB":
                # Full-block CFB (CFB128 for AES) like OpenSSL; pycryptodome defaults to CFB8.
                cipher = module.new(key, module.MODE_CFB, iv=iv, segment_size=spec.block_bytes * 8)
            else:
                cipher = module.new(key, getattr(module, f"MODE_{mode}"), iv=iv)
        return _Raw(cipher.decrypt if decrypt else cipher.encrypt, returns_bytes=False)

    def aead(self, spec: CipherSpec, key: bytes) -> _Aead:
        return _Aead(spec, key)
