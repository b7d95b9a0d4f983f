"""One small adapter per library, all with the same two-method interface.

``raw(spec, key, iv, decrypt)`` returns a :class:`RawCipher` for unauthenticated modes (no
padding: the engine pads the last block with the library's own PKCS#7 helper), and
``aead(spec, key)`` returns an :class:`AeadCipher` for authenticated ones. Both write into
buffers the caller allocated once, so the timed region holds the cipher call and nothing else.

Buffer contract: ``dst`` has room for at least ``len(src) + SLACK`` bytes (cryptography asks for
``block_size - 1`` spare bytes in ECB/CBC) and exactly ``len(src)`` bytes (``+ tag`` for sealing)
are written. ``dst`` may be the same memory as ``src`` only when ``spec.in_place`` is true.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from importlib import import_module
from typing import Protocol

from app.core.ciphers.libraries import BY_NAME
from app.core.ciphers.registry import CipherSpec, Kind

SLACK = 32


class RawCipher(Protocol):
    def update_into(self, src: memoryview, dst: memoryview) -> None: ...


class AeadCipher(Protocol):
    def seal_into(self, nonce: bytes, src: memoryview, dst: memoryview, aad: bytes) -> int: ...

    def open_into(self, nonce: bytes, src: memoryview, dst: memoryview, aad: bytes) -> int: ...


class Adapter(Protocol):
    name: str

    def version(self) -> str: ...

    def supports(self, spec: CipherSpec) -> bool: ...

    def raw(self, spec: CipherSpec, key: bytes, iv: bytes, decrypt: bool) -> RawCipher: ...

    def aead(self, spec: CipherSpec, key: bytes) -> AeadCipher: ...

    def pad(self, tail: bytes, block_bytes: int) -> bytes: ...

    def unpad_length(self, last_block: bytes, block_bytes: int) -> int: ...


def get_adapter(library: str) -> Adapter:
    """The adapter for ``library`` (its row in app.core.ciphers.libraries names it); imported
    lazily, so a missing optional library only fails the entries that need it."""
    if library not in BY_NAME:
        raise ValueError(f"no adapter for {library!r}")
    module, name = BY_NAME[library].adapter
    adapter: Adapter = getattr(import_module(module), name)()
    return adapter


def key_setup(spec: CipherSpec, adapter: Adapter) -> Callable[[], object]:
    """Making ``spec``'s cipher object from a fresh random key (and IV, its block counter at
    zero), not yet called: the cost a program pays once per key, as a sweep's key setup point
    and the ``keysetup`` kind time it."""
    key = secrets.token_bytes(spec.key_bytes)
    if spec.kind is Kind.AEAD:
        return functools.partial(adapter.aead, spec, key)
    iv = spec.fresh_iv(secrets.token_bytes)
    return functools.partial(adapter.raw, spec, key, iv, False)
