"""pyaes: AES in pure Python, the interpreter-cost reference (seed 003). Block by block, slow."""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version as _dist_version
from typing import NoReturn

import pyaes

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


class PyaesAdapter(CryptodomePkcs7):
    name = "pyaes"

    def version(self) -> str:
        return _dist_version("pyaes")

    def raw(self, spec: CipherSpec, key: bytes, iv: bytes, decrypt: bool) -> _Raw:
        mode = spec.mode
        if mode == "ECB":
            m = pyaes.AESModeOfOperationECB(key)
        elif mode == "CBC":
            m = pyaes.AESModeOfOperationCBC(key, iv=iv)
        elif mode == "CFB":
            m = pyaes.AESModeOfOperationCFB(key, iv=iv, segment_size=16)
        elif mode == "OFB":
            m = pyaes.AESModeOfOperationOFB(key, iv=iv)
        elif mode == "CTR":
            # An explicit counter: pyaes otherwise starts every message at 1 (a reused nonce).
            m = pyaes.AESModeOfOperationCTR(key, pyaes.Counter(int.from_bytes(iv, "big")))
        else:
            raise ValueError(f"pyaes has no {mode}")
        return _Raw(m.decrypt if decrypt else m.encrypt, partial_ok=mode in ("OFB", "CTR"))

    def aead(self, spec: CipherSpec, key: bytes) -> NoReturn:
        raise ValueError("pyaes offers no authenticated mode")
