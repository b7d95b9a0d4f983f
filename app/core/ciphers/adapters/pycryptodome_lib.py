"""PyCryptodome. Works in place for most modes (``output=`` may be the input buffer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from Crypto.Cipher import AES, ARC4, DES, DES3, Blowfish, ChaCha20, ChaCha20_Poly1305

from app.core.ciphers.adapters.base import LibraryAdapter
from app.core.ciphers.adapters.pkcs7 import CryptodomePkcs7
from app.core.ciphers.hardware import aes_instructions_on
from app.core.ciphers.registry import CipherSpec
from app.core.errors import AuthenticationError


def _software_aes(key: bytes, mode: int, **kwargs: Any) -> Any:
    """``AES.new`` without the CPU's AES instructions (and, for GCM, without carry-less
    multiplication): the hardware ladder's middle step."""
    extra = {"use_clmul": False} if mode == AES.MODE_GCM else {}
    return AES.new(key, mode, use_aesni=False, **extra, **kwargs)  # type: ignore[call-overload]


class _SoftwareAesModule:
    """The ``AES`` module as the block-mode makers use it, its ``new`` in software."""

    new = staticmethod(_software_aes)

    def __getattr__(self, name: str) -> Any:
        return getattr(AES, name)


# Decided once, when a worker imports this adapter (after app.core.ciphers.hardware.switch_off).
_HARDWARE = aes_instructions_on()
# The stubs lack msg_len/assoc_len (CCM) and take mode literals only.
_aes_new: Any = AES.new if _HARDWARE else _software_aes
_MODULES: dict[str, Any] = {
    "AES": AES if _HARDWARE else _SoftwareAesModule(),
    "Blowfish": Blowfish,
    "3DES": DES3,
    "DES": DES,
}
_Maker = Callable[[CipherSpec, bytes, bytes], Any]
# Each maker: (module, spec, key, iv) -> a cipher object with encrypt/decrypt(src, output=).
_BLOCK_MODES: dict[str, Callable[[Any, CipherSpec, bytes, bytes], Any]] = {
    "ECB": lambda m, spec, key, iv: m.new(key, m.MODE_ECB),
    "CBC": lambda m, spec, key, iv: m.new(key, m.MODE_CBC, iv=iv),
    "OFB": lambda m, spec, key, iv: m.new(key, m.MODE_OFB, iv=iv),
    # Full-block CFB (CFB128 for AES) like OpenSSL; pycryptodome defaults to CFB8.
    "CFB": lambda m, spec, key, iv: m.new(
        key, m.MODE_CFB, iv=iv, segment_size=spec.block_bytes * 8
    ),
    # The whole block is the initial counter, incremented big-endian, as in OpenSSL.
    "CTR": lambda m, spec, key, iv: m.new(key, m.MODE_CTR, nonce=b"", initial_value=iv),
}


def _block(module: Any, make: Callable[[Any, CipherSpec, bytes, bytes], Any]) -> _Maker:
    return lambda spec, key, iv: make(module, spec, key, iv)


def _chacha20(spec: CipherSpec, key: bytes, iv: bytes) -> Any:
    # OpenSSL's 16-byte IV: little-endian 32-bit block counter, then a 12-byte nonce.
    cipher = ChaCha20.new(key=key, nonce=iv[4:])
    counter = int.from_bytes(iv[:4], "little")
    if counter:
        cipher.seek(counter * 64)
    return cipher


# (algorithm, mode) -> (maker, returns_bytes): ARC4 has no output= parameter.
_RAW: dict[tuple[str, str], tuple[_Maker, bool]] = {
    **{
        (name, mode): (_block(module, make), False)
        for name, module in _MODULES.items()
        for mode, make in _BLOCK_MODES.items()
    },
    ("ChaCha20", "Stream"): (_chacha20, False),
    ("RC4", "Stream"): (lambda spec, key, iv: ARC4.new(key), True),
}


def _aes_aead(mode: int) -> Callable[[CipherSpec, bytes, bytes, int, bytes], Any]:
    return lambda spec, key, nonce, msg_len, aad: _aes_new(key, mode, nonce=nonce)


def _ccm(spec: CipherSpec, key: bytes, nonce: bytes, msg_len: int, aad: bytes) -> Any:
    return _aes_new(
        key, AES.MODE_CCM, nonce=nonce, mac_len=spec.tag_bytes, msg_len=msg_len, assoc_len=len(aad)
    )


def _chacha_poly(spec: CipherSpec, key: bytes, nonce: bytes, msg_len: int, aad: bytes) -> Any:
    return ChaCha20_Poly1305.new(key=key, nonce=nonce)


# How a mode's output is laid out and which calls take output=. (seal, open) per style; each
# gets the cipher object, src, dst, the message length n and the tag length t.
def _seal_out(cipher: Any, src: memoryview, dst: memoryview, n: int, t: int) -> None:
    cipher.encrypt(src, output=dst[:n])
    dst[n : n + t] = cipher.digest()


def _open_out(cipher: Any, src: memoryview, dst: memoryview, n: int, t: int) -> None:
    tag = bytes(src[n:])  # copied first: in place, the plaintext overwrites nothing of the tag,
    cipher.decrypt(src[:n], output=dst[:n])  # but keep it obvious
    cipher.verify(tag)


def _seal_siv(cipher: Any, src: memoryview, dst: memoryview, n: int, t: int) -> None:
    ct, tag = cipher.encrypt_and_digest(src)  # V || C, and no output= parameter
    dst[t : t + n] = ct
    dst[:t] = tag


def _open_siv(cipher: Any, src: memoryview, dst: memoryview, n: int, t: int) -> None:
    dst[:n] = cipher.decrypt_and_verify(src[t:], bytes(src[:t]))


def _seal_ocb(cipher: Any, src: memoryview, dst: memoryview, n: int, t: int) -> None:
    dst[: n + t] = cipher.encrypt(src) + cipher.encrypt() + cipher.digest()  # buffers inside


def _open_ocb(cipher: Any, src: memoryview, dst: memoryview, n: int, t: int) -> None:
    tag = bytes(src[n:])
    plain = cipher.decrypt(src[:n]) + cipher.decrypt()
    cipher.verify(tag)
    dst[:n] = plain


_Layout = Callable[[Any, memoryview, memoryview, int, int], None]
_OUT: tuple[_Layout, _Layout] = (_seal_out, _open_out)
_SIV: tuple[_Layout, _Layout] = (_seal_siv, _open_siv)
_OCB: tuple[_Layout, _Layout] = (_seal_ocb, _open_ocb)
_AeadNew = Callable[[CipherSpec, bytes, bytes, int, bytes], Any]

# (algorithm, mode) -> (cipher maker, (seal, open) layout)
_AEADS: dict[tuple[str, str], tuple[_AeadNew, tuple[_Layout, _Layout]]] = {
    ("AES", "GCM"): (_aes_aead(AES.MODE_GCM), _OUT),
    ("AES", "CCM"): (_ccm, _OUT),
    ("AES", "OCB"): (_aes_aead(AES.MODE_OCB), _OCB),
    ("AES", "EAX"): (_aes_aead(AES.MODE_EAX), _OUT),
    ("AES", "SIV"): (_aes_aead(AES.MODE_SIV), _SIV),
    ("ChaCha20-Poly1305", "AEAD"): (_chacha_poly, _OUT),
    ("XChaCha20-Poly1305", "AEAD"): (_chacha_poly, _OUT),
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
    __slots__ = ("_key", "_layout", "_new", "_spec")

    def __init__(self, spec: CipherSpec, key: bytes) -> None:
        self._spec = spec
        self._key = key
        self._new, self._layout = _AEADS[spec.algorithm, spec.mode]

    def _cipher(self, nonce: bytes, msg_len: int, aad: bytes) -> Any:
        cipher = self._new(self._spec, self._key, nonce, msg_len, aad)
        if aad:
            cipher.update(aad)
        return cipher

    def seal_into(self, nonce: bytes, src: memoryview, dst: memoryview, aad: bytes) -> int:
        n, t = len(src), self._spec.tag_bytes
        self._layout[0](self._cipher(nonce, n, aad), src, dst, n, t)
        return n + t

    def open_into(self, nonce: bytes, src: memoryview, dst: memoryview, aad: bytes) -> int:
        t = self._spec.tag_bytes
        n = len(src) - t
        if n < 0:
            raise AuthenticationError("the ciphertext is shorter than its tag")
        try:
            self._layout[1](self._cipher(nonce, n, aad), src, dst, n, t)
        except ValueError:
            raise AuthenticationError("authentication failed: wrong key or modified data") from None
        return n


class PycryptodomeAdapter(CryptodomePkcs7, LibraryAdapter):
    name = "pycryptodome"
    raw_table = _RAW
    aead_table = _AEADS

    def raw(self, spec: CipherSpec, key: bytes, iv: bytes, decrypt: bool) -> _Raw:
        make, returns_bytes = _RAW[spec.algorithm, spec.mode]
        cipher = make(spec, key, iv)
        return _Raw(cipher.decrypt if decrypt else cipher.encrypt, returns_bytes=returns_bytes)

    def aead(self, spec: CipherSpec, key: bytes) -> _Aead:
        return _Aead(spec, key)
