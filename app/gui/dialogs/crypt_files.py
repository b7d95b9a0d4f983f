"""The files of the Encrypt and Decrypt dialogs, in plain Python (quick enough for the GUI
thread): what a file chosen for decryption is (:func:`identify`, no secret needed), the raw-export
key beside it, and the names the dialogs suggest for an encrypted file, its key file and the
decrypted data.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from app.core.ciphers.registry import cipher_ids
from app.core.errors import UserError
from app.core.files import container
from app.core.files.kept import raw_key_path
from app.core.files.rawexport import RawKey, read_raw_key
from app.gui.dialogs.crypt_tasks import Protection
from app.gui.dialogs.crypt_texts import worded_for_window

CONTAINER_SUFFIX = ".cbf"  # "CipherBench file", as its magic says
KEY_FILE_SUFFIX = ".cbkey"
RAW_SUFFIX = ".enc"
_KEY_JSON_MAX_BYTES = 64 * 1024


@dataclass(frozen=True)
class FileIdentity:
    """What a file chosen for decryption is: a CipherBench file (``info``), or else raw
    ciphertext, with the key file found beside it (``raw_key_guess``) if any."""

    path: str
    info: container.ContainerInfo | None
    raw_key_guess: str | None = None

    @property
    def is_container(self) -> bool:
        return self.info is not None


# --- what a chosen file is --------------------------------------------------------------------


def identify(path: str) -> FileIdentity:
    """What ``path`` is, from its first bytes: a CipherBench file (its header, no secret needed)
    or raw ciphertext. :class:`UserError` for a damaged CipherBench file, a key file chosen by
    mistake, or a file that cannot be read."""
    try:
        with worded_for_window():
            return FileIdentity(path, container.read_header(path))
    except UserError:
        head = _first_bytes(path, 4096)  # raises its own UserError when unreadable
        if head.startswith(container.MAGIC):
            raise  # a CipherBench file, damaged or cut: say so
    if _is_key_file(path, head):
        raise UserError(
            f"{Path(path).name} is a key file; choose the encrypted file, then this file as its key"
        )
    guess = raw_key_path(path)
    return FileIdentity(path, None, str(guess) if guess.is_file() else None)


def read_raw_key_quietly(path: str) -> RawKey | None:
    """The raw-export key in ``path``, or None when it is not one (the dialog says why later)."""
    try:
        return read_raw_key(path)
    except UserError:
        return None


def _first_bytes(path: str, n: int) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(n)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None


def _is_key_file(path: str, head: bytes) -> bool:
    """Whether ``path`` is a CipherBench key file or raw-export key (JSON)."""
    if not head.lstrip().startswith(b"{") or os.path.getsize(path) > _KEY_JSON_MAX_BYTES:
        return False
    with contextlib.suppress(OSError, ValueError, UnicodeDecodeError):
        data = json.loads(Path(path).read_bytes())
        fmt = data.get("format") if isinstance(data, dict) else None
        return isinstance(fmt, str) and fmt.startswith("cipherbench-")
    return False


# --- the names the dialogs suggest ------------------------------------------------------------


def default_output(source: str, protection: Protection, cipher_id: str) -> str:
    if protection is Protection.RAW:
        return f"{source}.{cipher_id}{RAW_SUFFIX}"
    return source + CONTAINER_SUFFIX


def default_key_path(output: str, protection: Protection) -> str:
    if protection is Protection.RAW:
        return str(raw_key_path(output))
    base = output[: -len(CONTAINER_SUFFIX)] if output.endswith(CONTAINER_SUFFIX) else output
    return base + KEY_FILE_SUFFIX


def guess_key_file(encrypted: str) -> str | None:
    """A key file beside a CipherBench file, named as :func:`default_key_path` names them."""
    path = Path(default_key_path(encrypted, Protection.KEY_FILE))
    return str(path) if path.is_file() else None


def plaintext_name(encrypted: str) -> str:
    """A file name for the decrypted data: without ``.cbf`` / ``.enc`` (and the cipher before
    ``.enc``), else with ``.decrypted`` added."""
    name = Path(encrypted).name
    if name.endswith(CONTAINER_SUFFIX):
        return name[: -len(CONTAINER_SUFFIX)] or "decrypted"
    if name.endswith(RAW_SUFFIX):
        stem = name[: -len(RAW_SUFFIX)]
        base, dot, cipher = stem.rpartition(".")
        if dot and base and cipher in cipher_ids():
            stem = base
        return stem or "decrypted"
    return name + ".decrypted"
