"""pyaes: AES in pure Python, the interpreter-cost reference (the pyaes report). Block by
block, slow."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

import pyaes

from app.core.ciphers.adapters.base import LibraryAdapter
from app.core.ciphers.adapters.pkcs7 import CryptodomePkcs7
from app.core.ciphers.registry import CipherSpec


class _Raw:
    """Drives a pyaes mode object 16 bytes at a time. pyaes's CFB insists on whole segments, so a
    last partial segment is zero-filled and cut back: CFB's last keystream block depends only on
    the previous ciphertext block, which makes this exact in both directions."""

    __slots__ = ("_fn", "_partial_ok")

    def __init__(self, fn: Callable[[bytes], bytes], partial_ok: bool) -> None:
        self._fn = fn
        self._partial_ok = partial_ok

    def update_into(self, src: memoryview, dst: memoryview) -> None:
        fn = self._fn
        n = len(src)
        full = n - n % 16
        for off in range(0, full, 16):
            dst[off : off + 16] = fn(bytes(src[off : off + 16]))
        if full < n:
            tail = bytes(src[full:n])
            if self._partial_ok:
                dst[full:n] = fn(tail)
            else:
                dst[full:n] = fn(tail + bytes(16 - len(tail)))[: len(tail)]


# (algorithm, mode) -> (maker(key, iv), partial_ok): OFB and CTR take a short last segment as it is.
_RAW: dict[tuple[str, str], tuple[Callable[[bytes, bytes], Any], bool]] = {
    ("AES", "ECB"): (lambda key, iv: pyaes.AESModeOfOperationECB(key), False),
    ("AES", "CBC"): (lambda key, iv: pyaes.AESModeOfOperationCBC(key, iv=iv), False),
    ("AES", "CFB"): (
        lambda key, iv: pyaes.AESModeOfOperationCFB(key, iv=iv, segment_size=16),
        False,
    ),
    ("AES", "OFB"): (lambda key, iv: pyaes.AESModeOfOperationOFB(key, iv=iv), True),
    # An explicit counter: pyaes otherwise starts every message at 1 (a reused nonce).
    ("AES", "CTR"): (
        lambda key, iv: pyaes.AESModeOfOperationCTR(key, pyaes.Counter(int.from_bytes(iv, "big"))),
        True,
    ),
}


class PyaesAdapter(CryptodomePkcs7, LibraryAdapter):
    name = "pyaes"
    raw_table = _RAW

    def raw(self, spec: CipherSpec, key: bytes, iv: bytes, decrypt: bool) -> _Raw:
        if not self.supports(spec):
            raise ValueError(f"pyaes has no {spec.algorithm}-{spec.mode}")
        make, partial_ok = _RAW[spec.algorithm, spec.mode]
        m = make(key, iv)
        return _Raw(m.decrypt if decrypt else m.encrypt, partial_ok=partial_ok)

    def aead(self, spec: CipherSpec, key: bytes) -> NoReturn:
        raise ValueError("pyaes offers no authenticated mode")
