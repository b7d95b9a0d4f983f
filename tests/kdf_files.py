"""Crafted CipherBench files whose header asks for a chosen Argon2id cost.

The header is well formed and the body has a length the format allows, so a reader gets as far
as the key derivation; the MAC is random, so no password opens it (nothing needs to: the tests
stop at the derivation)."""

from __future__ import annotations

import os
from pathlib import Path

from app.core.ciphers.registry import lookup
from app.core.files import container_format
from app.core.files.container import Argon2Params

CHUNK = 64
PASSWORD = "correct horse battery staple"  # the password of the files tests encrypt
# 1 GiB x 64 passes: the largest cost the format allows (measured in issue 7: 62 s, 1 GiB).
HOSTILE = Argon2Params(memory_kib=2**20, iterations=64, lanes=4)
# Allowed only with consent, and seconds long here (about 2-4 s, 64 MiB): time to cancel it.
SLOW = Argon2Params(memory_kib=64 * 1024, iterations=64, lanes=1)


def write_container(path: Path, argon2: Argon2Params) -> Path:
    """An aes-256-gcm file of one 1-byte chunk under a password with ``argon2``'s cost."""
    spec = lookup("aes-256-gcm", "cryptography")
    signed = container_format.encode_header(spec, CHUNK, argon2, os.urandom(16), os.urandom(32))
    path.write_bytes(signed + os.urandom(32) + os.urandom(1 + spec.tag_bytes))
    return path
