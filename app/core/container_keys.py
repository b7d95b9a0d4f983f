"""The keys of a CipherBench file: master key from a password (Argon2id) or a key file, HKDF
subkeys, the header MAC, and the key file itself. The labels and sizes are listed in
:mod:`app.core.container_format`."""

from __future__ import annotations

import json
import os
import secrets
import unicodedata
from pathlib import Path

from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.kdf.argon2 import Argon2id
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from app.core.container_format import KEY_SOURCE_KEY_FILE, Argon2Params, Header
from app.core.errors import UserError
from app.core.safe_files import AtomicOutput, check_output, read_small_file

MASTER_KEY_BYTES = 32
KEY_FILE_FORMAT = "cipherbench-key-file"
KEY_FILE_WARNING = (
    "This key unlocks every CipherBench file encrypted with it. Keep it private and keep a copy: "
    "without it those files cannot be decrypted."
)
_KEY_FILE_MAX_BYTES = 64 * 1024


# --- derivation ------------------------------------------------------------------------------


def subkey(master: bytes, file_salt: bytes, label: str, length: int) -> bytes:
    """``HKDF-SHA256(master, salt=file_salt, info="cipherbench v1 " + label)``."""
    info = b"cipherbench v1 " + label.encode("ascii")
    return HKDF(hashes.SHA256(), length, salt=file_salt, info=info).derive(master)


def header_mac(master: bytes, header_signed: bytes, file_salt: bytes) -> bytes:
    mac = hmac.HMAC(subkey(master, file_salt, "header mac", 32), hashes.SHA256())
    mac.update(header_signed)
    return mac.finalize()


def password_bytes(password: str | bytes) -> bytes:
    # NFC: the same password typed on macOS (often NFD) and elsewhere must give the same key.
    data = (
        unicodedata.normalize("NFC", password).encode("utf-8")
        if isinstance(password, str)
        else bytes(password)
    )
    if not data:
        raise UserError("the password is empty")
    return data


def argon2_master(password: bytes, salt: bytes, params: Argon2Params) -> bytes:
    """The master key from ``password`` (see :func:`password_bytes`)."""
    return Argon2id(
        salt=salt,
        length=MASTER_KEY_BYTES,
        iterations=params.iterations,
        lanes=params.lanes,
        memory_cost=params.memory_kib,
    ).derive(password)


def check_key(key: bytes) -> bytes:
    key = bytes(key)
    if len(key) != MASTER_KEY_BYTES:
        raise UserError(f"a key must be {MASTER_KEY_BYTES} bytes ({MASTER_KEY_BYTES * 8} bits)")
    return key


def master_for(header: Header, password: str | bytes | None, key: bytes | None) -> bytes:
    """The master key for ``header`` from what the caller gave, or a UserError saying what the
    file needs instead."""
    if header.key_source == KEY_SOURCE_KEY_FILE:
        if key is None:
            if password is not None:
                raise UserError("this file was encrypted with a key file, not a password")
            raise UserError("this file needs its key file")
        return check_key(key)
    if password is None:
        if key is not None:
            raise UserError("this file was encrypted with a password, not a key file")
        raise UserError("this file needs a password")
    assert header.argon2 is not None
    return argon2_master(password_bytes(password), header.kdf_salt, header.argon2)


# --- key files -------------------------------------------------------------------------------


def new_key() -> bytes:
    """A fresh random 256-bit key for a key file."""
    return secrets.token_bytes(MASTER_KEY_BYTES)


def write_key_file(path: str | os.PathLike[str], key: bytes, *, force: bool = False) -> None:
    """Write ``key`` (32 bytes) as a small JSON key file with mode 0600. Refuses to replace an
    existing file unless ``force`` (replacing a key file can make files undecryptable)."""
    key = check_key(key)
    target = Path(path)
    check_output(
        target,
        force=force,
        role="the key file",
        exists=f"{target} already exists; a key file is never replaced without --force",
    )
    text = json.dumps(
        {
            "format": KEY_FILE_FORMAT,
            "version": 1,
            "key_hex": key.hex(),
            "warning": KEY_FILE_WARNING,
        },
        indent=2,
    )
    with AtomicOutput(target, force=force, mode=0o600) as out:
        out.write((text + "\n").encode("ascii"))
        out.commit()


def read_key_file(path: str | os.PathLike[str]) -> bytes:
    """The 32-byte key in a key file written by :func:`write_key_file`."""
    source = Path(path)
    text = read_small_file(
        source,
        _KEY_FILE_MAX_BYTES,
        not_regular=f"the key file {source} is not a regular file",
        too_large=f"{source} is not a CipherBench key file (too large)",
    )
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise UserError(f"{source} is not a CipherBench key file (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != KEY_FILE_FORMAT:
        if isinstance(data, dict) and data.get("format") == "cipherbench-raw-key":
            raise UserError(
                f"{source} is the key of a raw export; decrypt that with --raw --key-in"
            )
        raise UserError(f"{source} is not a CipherBench key file")
    if data.get("version") != 1:
        raise UserError(f"{source} is a key file of an unknown version")
    try:
        key = bytes.fromhex(str(data.get("key_hex", "")))
    except ValueError:
        key = b""
    if len(key) != MASTER_KEY_BYTES:
        raise UserError(f"the key in {source} is damaged (it must be 64 hex digits)")
    return key
