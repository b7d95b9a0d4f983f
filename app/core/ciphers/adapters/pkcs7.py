"""PKCS#7 padding from pycryptodome's ``Crypto.Util.Padding``, shared by the adapters whose own
library offers no padder (pyaes) or whose padder this is (pycryptodome)."""

from __future__ import annotations

from Crypto.Util.Padding import pad, unpad

from app.core.errors import AuthenticationError


class CryptodomePkcs7:
    """The ``pad`` / ``unpad_length`` half of the :class:`~app.core.ciphers.adapters.Adapter`
    interface."""

    def pad(self, tail: bytes, block_bytes: int) -> bytes:
        return pad(tail, block_bytes, style="pkcs7")

    def unpad_length(self, last_block: bytes, block_bytes: int) -> int:
        try:
            return len(unpad(last_block, block_bytes, style="pkcs7"))
        except ValueError:
            raise AuthenticationError("bad padding: wrong key or modified data") from None
