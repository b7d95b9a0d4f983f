"""Saving what a finished job produced: its ciphertext (with a key file) or the plaintext
decrypted back from it. Plain Python, run by a ``TaskWorker`` off the GUI thread.

Until the protected container format exists, ciphertext is saved raw, exactly as the engine
wrote it, beside a JSON key file that says plainly that it unlocks the ciphertext. The key
only ever goes to that file, which the user asked for; never to logs, settings or exports.

Raw layout: memory mode is one message (block modes PKCS#7-padded; AEAD with its tag at the
end, or SIV's at the start). Stream mode concatenates chunks; for AEAD each chunk of
``chunk_bytes`` plaintext is sealed on its own with the nonce's last 8 bytes XORed with the
chunk index, so every chunk is followed by its tag.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.core.adapters import SLACK, get_adapter
from app.core.errors import UserError
from app.core.events import JobSecret
from app.core.message import MessageCipher
from app.core.registry import Kind, lookup
from app.core.results import JobResult
from app.core.units import MIB
from app.core.workloads import read_exact

KEY_FILE_SUFFIX = ".key.json"
KEY_WARNING = (
    "This file is the key to the ciphertext saved beside it. Anyone who has both can decrypt "
    "it. Keep this file apart from the ciphertext, or delete it when you no longer need it."
)
_PIECE = MIB  # decryption piece for unauthenticated modes (a multiple of every block size)


def key_file_path(ciphertext_path: str | Path) -> Path:
    return Path(str(ciphertext_path) + KEY_FILE_SUFFIX)


def _atomic_write(path: Path, write: Callable[[Any], None], mode: int | None = None) -> None:
    """Write through a temporary file in the same folder, then rename over ``path``."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.", suffix=".part")
    try:
        if mode is not None and hasattr(os, "fchmod"):  # POSIX; Windows has no such bits
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _check_kept(secret: JobSecret) -> None:
    if not os.path.isfile(secret.ciphertext_path):
        raise UserError(
            "the job's ciphertext is gone (it is kept only until Reset or a new run); "
            "run the benchmark again"
        )


def _wrap_os_error(action: str, path: Path, exc: OSError) -> UserError:
    return UserError(f"cannot {action} {path}: {exc.strerror or exc}")


def save_ciphertext(result: JobResult, secret: JobSecret, path: str | Path) -> tuple[Path, Path]:
    """Copy the job's ciphertext to ``path`` and write its key file beside it.
    Returns (ciphertext path, key file path)."""
    _check_kept(secret)
    path = Path(path)
    key_path = key_file_path(path)
    key_doc = {
        "warning": KEY_WARNING,
        "ciphertext_file": path.name,
        "cipher": result.cipher,
        "library": result.library,
        "algorithm": result.algorithm,
        "mode": result.mode,
        "key_bits": result.key_bits,
        "data_mode": result.data_mode,
        "chunk_bytes": result.chunk_bytes,
        "key_hex": secret.key.hex(),
        "iv_or_nonce_hex": secret.iv.hex(),
        "layout": (
            "raw CipherBench output: memory mode is one message (PKCS#7 padding for ECB/CBC, "
            "AEAD tag appended); stream mode AEAD seals each chunk with the nonce's last 8 "
            "bytes XORed with the chunk index and appends one tag per chunk"
        ),
    }

    def copy(fh: Any) -> None:
        with open(secret.ciphertext_path, "rb") as src:
            while block := src.read(4 * MIB):
                fh.write(block)

    try:
        _atomic_write(path, copy)
        _atomic_write(
            key_path, lambda fh: fh.write(json.dumps(key_doc, indent=2).encode()), mode=0o600
        )
    except OSError as exc:
        raise _wrap_os_error("write", path, exc) from None
    return path, key_path


def decrypt_kept(result: JobResult, secret: JobSecret, path: str | Path) -> Path:
    """Decrypt the job's kept ciphertext into ``path`` (the recovered plaintext)."""
    _check_kept(secret)
    path = Path(path)
    spec = lookup(result.cipher, result.library, result.key_bits)
    adapter = get_adapter(result.library)
    size = os.path.getsize(secret.ciphertext_path)
    if result.data_mode == "stream" and result.chunk_bytes:
        step = result.chunk_bytes + (spec.tag_bytes if spec.kind is Kind.AEAD else 0)
    elif spec.kind is Kind.AEAD:
        step = size  # one sealed message
    else:
        step = _PIECE
    cipher = MessageCipher(spec, adapter, secret.key, secret.iv, decrypt=True)
    src_buf = bytearray(min(step, size) + SLACK)
    dst_buf = bytearray(min(step, size) + spec.block_bytes + SLACK)
    src_view, dst_view = memoryview(src_buf), memoryview(dst_buf)

    def write(fh: Any) -> None:
        with open(secret.ciphertext_path, "rb", buffering=0) as src:
            left = size
            while True:
                want = min(step, left)
                got = read_exact(src, src_view[:want])
                if got != want:
                    raise UserError("the kept ciphertext changed while it was being read")
                left -= want
                last = left == 0
                n = (cipher.final if last else cipher.update)(src_view[:want], dst_view)
                fh.write(dst_view[:n])
                if last:
                    return

    try:
        _atomic_write(path, write)
    except OSError as exc:
        raise _wrap_os_error("write", path, exc) from None
    return path
