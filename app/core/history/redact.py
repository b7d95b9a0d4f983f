"""What never enters the history: keys, passwords, ciphertext.

A run's document holds none of them by design except the first 32 bytes of ciphertext a
benchmark keeps for the window (``ciphertext_preview_hex``); an imported file may hold
anything in the places that keep unknown keys (the options, the environment). :func:`redacted`
drops, at any depth, every entry whose name says it is secret or ciphertext, and any bytes.
"""

from __future__ import annotations

from typing import Any

# Exact names (lower case) and name endings that mark a secret or ciphertext.
SECRET_NAMES = frozenset(
    {
        "ciphertext_preview_hex",
        "ciphertext",
        "key",
        "keys",
        "password",
        "passphrase",
        "secret",
        "nonce",
        "iv",
        "salt",
        "tag",
        "plaintext",
        "token",
    }
)
SECRET_ENDINGS = ("_key", "_keys", "_password", "_passphrase", "_secret", "_hex", "_b64", "_token")
SECRET_STARTS = ("password", "passphrase", "secret", "ciphertext", "plaintext", "private_key")

_PLAIN = frozenset((float, int, str, bool, type(None)))  # nothing inside to redact


def is_secret_name(name: str) -> bool:
    """True for a name such as ``key``, ``password``, ``master_key`` or ``ciphertext_hex``;
    False for ``key_bits`` or ``key_setup_s``."""
    n = name.strip().lower().replace("-", "_")
    return n in SECRET_NAMES or n.endswith(SECRET_ENDINGS) or n.startswith(SECRET_STARTS)


def redacted(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, scalars) without secret entries; a new object."""
    if isinstance(value, dict):
        return {
            k: redacted(v)
            for k, v in value.items()
            if not (isinstance(k, str) and is_secret_name(k))
            and not isinstance(v, bytes | bytearray | memoryview)
        }
    if isinstance(value, list | tuple):
        if all(type(v) in _PLAIN for v in value):  # raw samples: thousands of floats
            return list(value)
        return [redacted(v) for v in value if not isinstance(v, bytes | bytearray | memoryview)]
    return value
