"""The key file of a raw export (:mod:`app.core.files.rawexport`): everything needed to decrypt it.

``RawKey`` (repr hides key and IV) is written by ``write_raw_key(path, raw_key, force=False)`` as
JSON with mode 0600 and read back by ``read_raw_key(path)``; its ``warning`` field says that the
file unlocks the data (and, for the unauthenticated modes, that nothing detects changes).
``RawKey.openssl_command(ciphertext, plaintext)`` gives the ``openssl enc -d`` argument list, or
None when OpenSSL 3.0's ``enc`` cannot decrypt it: it takes Blowfish and RC4 keys of 128 bits only
(it cuts a longer ``-K``), and Blowfish, single DES and RC4 need ``-provider legacy -provider
default``; the command handles both and the JSON records why when it cannot.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.ciphers.registry import CipherSpec, Kind, libraries_for
from app.core.errors import UserError
from app.core.files.container import choose_spec
from app.core.files.container_keys import KEY_FILE_FORMAT
from app.core.files.path_errors import PathError
from app.core.runtime.safe_files import AtomicOutput, read_small_file

RAW_KEY_FORMAT = "cipherbench-raw-key"
_KEY_JSON_MAX_BYTES = 64 * 1024

WARNING_AUTHENTICATED = (
    "This file holds the key: anyone who has it can decrypt the data. Keep it private, and "
    "apart from the ciphertext."
)
WARNING_UNAUTHENTICATED = (
    WARNING_AUTHENTICATED + " The ciphertext has no integrity protection: a modified file "
    "decrypts to wrong data without any error."
)


class ContainerKeyGiven(PathError):
    """A CipherBench key file (``path``) was given where a raw export's key belongs."""

    MESSAGE = "{path} is a CipherBench key file, not a raw-export key"


@dataclass(frozen=True)
class RawKey:
    """Everything needed to decrypt one raw export. ``repr`` hides ``key`` and ``iv``."""

    cipher_id: str
    library: str
    key_bits: int
    key: bytes
    iv: bytes  # IV, nonce or initial counter block; b"" when the mode takes none
    plaintext_bytes: int
    ciphertext_bytes: int

    def __repr__(self) -> str:
        return (
            f"RawKey(cipher_id={self.cipher_id!r}, library={self.library!r}, "
            f"key_bits={self.key_bits}, key=<hidden>, iv=<hidden>, "
            f"plaintext_bytes={self.plaintext_bytes}, ciphertext_bytes={self.ciphertext_bytes})"
        )

    @property
    def spec(self) -> CipherSpec:
        return choose_spec(self.cipher_id, None, self.key_bits)

    def openssl_command(self, ciphertext: str, plaintext: str) -> list[str] | None:
        """``openssl enc -d ...`` arguments that decrypt this export, or None (see
        :meth:`openssl_note`)."""
        spec = self.spec
        if self.openssl_note() is not None or spec.openssl_name is None:
            return None
        args = ["openssl", "enc", "-d", f"-{spec.openssl_name}", "-K", self.key.hex()]
        if self.iv:
            args += ["-iv", self.iv.hex()]
        if spec.openssl_legacy:
            args += ["-provider", "legacy", "-provider", "default"]
        return [*args, "-in", ciphertext, "-out", plaintext]

    def openssl_note(self) -> str | None:
        """Why ``openssl enc`` cannot decrypt this export, or None when it can."""
        spec = self.spec
        if spec.kind is Kind.AEAD:
            return "openssl enc does not support AEAD ciphers"
        if spec.openssl_name is None:
            return f"openssl enc has no {spec.id}"
        if spec.openssl_key_bits and self.key_bits not in spec.openssl_key_bits:
            return (
                f"openssl enc 3.0 uses 128-bit {spec.algorithm} keys only (it cuts a longer -K); "
                "export with a 128-bit key for OpenSSL"
            )
        return None

    def to_json(self) -> dict[str, Any]:
        spec = self.spec
        aead = spec.kind is Kind.AEAD
        data: dict[str, Any] = {
            "format": RAW_KEY_FORMAT,
            "version": 1,
            "warning": WARNING_AUTHENTICATED if aead else WARNING_UNAUTHENTICATED,
            "cipher": self.cipher_id,
            "algorithm": spec.algorithm,
            "mode": spec.mode,
            "library": self.library,
            "key_bits": self.key_bits,
            "key_hex": self.key.hex(),
            ("nonce_hex" if aead else "iv_hex"): self.iv.hex() if self.iv else None,
            "padding": "PKCS#7" if spec.kind is Kind.BLOCK else "none",
            "tag": {
                "bytes": spec.tag_bytes,
                "position": "before the ciphertext" if spec.tag_first else "after the ciphertext",
                "associated_data": "none",
            }
            if aead
            else None,
            "plaintext_bytes": self.plaintext_bytes,
            "ciphertext_bytes": self.ciphertext_bytes,
        }
        notes = _NOTES.get(spec.mode) or _NOTES.get(spec.algorithm)
        if notes:
            data["notes"] = notes
        command = self.openssl_command("CIPHERTEXT", "PLAINTEXT")
        data["openssl_decrypt"] = " ".join(command) if command else None
        if command is None:
            data["openssl_note"] = self.openssl_note()
        return data

    @classmethod
    def from_json(cls, data: object, source: str = "the key file") -> RawKey:
        """Check and read what :meth:`to_json` wrote; :class:`UserError` otherwise."""
        if not isinstance(data, dict) or data.get("format") != RAW_KEY_FORMAT:
            if isinstance(data, dict) and data.get("format") == KEY_FILE_FORMAT:
                raise ContainerKeyGiven(source)
            raise UserError(f"{source} is not a raw-export key file")
        if data.get("version") != 1:
            raise UserError(f"{source} is a raw-export key of an unknown version")
        try:
            cipher_id = str(data["cipher"])
            key_bits = int(data["key_bits"])
            key = bytes.fromhex(str(data["key_hex"]))
            iv_hex = data.get("nonce_hex", data.get("iv_hex"))
            iv = bytes.fromhex(str(iv_hex)) if iv_hex else b""
            library = str(data.get("library") or "")
            plain = int(data.get("plaintext_bytes") or 0)
            cipher = int(data.get("ciphertext_bytes") or 0)
        except (KeyError, TypeError, ValueError):
            raise UserError(f"{source} is a damaged raw-export key file") from None
        if not libraries_for(cipher_id):
            raise UserError(f"{source} names the cipher {cipher_id!r}, which this app lacks")
        spec = choose_spec(cipher_id, None, key_bits)
        if len(key) * 8 != key_bits or len(iv) != spec.iv_bytes:
            raise UserError(f"{source}: the key or IV length does not fit {cipher_id}")
        return cls(cipher_id, library, key_bits, key, iv, plain, cipher)


_NOTES = {
    "CTR": "iv_hex is the whole initial counter block, incremented as a big-endian integer.",
    "CFB": "Full-block CFB (CFB128 for AES, CFB64 for 64-bit blocks), as OpenSSL's -cfb.",
    "ChaCha20": "iv_hex is OpenSSL's 16-byte ChaCha20 IV: a 4-byte little-endian block counter, "
    "then the 12-byte nonce.",
    "SIV": "The nonce is the last associated-data component (RFC 5297).",
}


def write_raw_key(path: str | os.PathLike[str], raw_key: RawKey, *, force: bool = False) -> None:
    """Write the key JSON with mode 0600; an existing file is replaced only with ``force``."""
    text = json.dumps(raw_key.to_json(), indent=2) + "\n"
    with AtomicOutput(path, force=force, mode=0o600) as out:
        out.write(text.encode("ascii"))
        out.commit()


def read_raw_key(path: str | os.PathLike[str]) -> RawKey:
    """The :class:`RawKey` in a key file written by :func:`write_raw_key`."""
    source = Path(path)
    not_key = f"{source} is not a raw-export key file"
    text = read_small_file(source, _KEY_JSON_MAX_BYTES, not_regular=not_key, too_large=not_key)
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise UserError(f"{source} is not a raw-export key file (not JSON)") from None
    return RawKey.from_json(data, str(source))
