"""The work behind the Encrypt, Save encrypted and Decrypt dialogs, in plain Python.

The dialogs collect a request (:class:`EncryptRequest`, :class:`DecryptRequest`) and run
:func:`encrypt` or :func:`decrypt` in a ``TaskWorker(..., progress=True)``; these call the core
use case (:mod:`app.core.files.protect`, :mod:`app.core.files.rawexport`,
:mod:`app.core.files.kept`) with its ``on_progress`` and ``cancel``, and word its structured
errors for the window. :func:`decrypt` returns a :class:`KdfQuestion` instead of an
outcome when the file asks for an unusually expensive password derivation: only the GUI thread
may ask the user, so the dialog asks and runs the request again with ``allow_expensive_kdf``.

What is quick enough for the GUI thread is beside this module: what a chosen file is and the
default file names in :mod:`app.gui.dialogs.crypt_files`, the window's wording of errors and the
hints in :mod:`app.gui.dialogs.crypt_texts`, the preview in :mod:`app.gui.dialogs.preview`.

Requests hold the password in a field left out of their repr; outcomes hold no secret.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from app.core.bench.kept import FinishedJob, check_input_unchanged
from app.core.ciphers.registry import Kind
from app.core.errors import UserError
from app.core.files import container
from app.core.files.kept import save_kept_raw
from app.core.files.progress import CancelCheck, ProgressCallback
from app.core.files.protect import (
    DecryptContainer,
    EncryptContainer,
    ExportRaw,
    NeedsPassword,
    Secret,
    decrypt_container,
    encrypt_container,
    export_raw_file,
)
from app.core.files.rawexport import decrypt_raw
from app.core.files.request_fields import request_from
from app.core.runtime.safe_files import move_into_place
from app.core.runtime.secrets import hold_secrets
from app.core.units import file_size
from app.gui.dialogs.crypt_texts import worded_for_window

# What an encryption request gives the core's file requests as it is.
_FILE_FIELDS = ("source", "output", "cipher_id", "library", "key_bits", "force")


class Protection(StrEnum):
    """How an encrypted file is unlocked."""

    PASSWORD = "password"
    NEW_KEY_FILE = "new key file"
    KEY_FILE = "key file"  # an existing one
    RAW = "raw"  # bare ciphertext + JSON key file, for OpenSSL


@dataclass(frozen=True)
class EncryptRequest:
    """Encrypt ``source`` to ``output``. ``key_path`` is the key file to read (KEY_FILE), to
    create (NEW_KEY_FILE, never over an existing file) or the raw export's JSON key (RAW).
    ``job``: saving a finished benchmark job; its input must be unchanged, and RAW copies its
    kept ciphertext when that is one message."""

    source: str
    output: str
    cipher_id: str
    protection: Protection
    library: str | None = None
    key_bits: int | None = None
    password: str | None = field(default=None, repr=False)
    key_path: str | None = None
    force: bool = False
    job: FinishedJob | None = field(default=None, repr=False)


@dataclass(frozen=True)
class EncryptOutcome:
    output: Path
    key_path: Path | None
    summary: str  # one sentence for the dialog
    key_warning: str  # "" when no key file was written
    openssl_command: str | None = None


@dataclass(frozen=True)
class DecryptRequest:
    """Decrypt ``source`` into ``output``: a CipherBench file with ``password`` or the key file
    ``key_path``, or (``raw``) a raw export with its JSON key ``key_path``."""

    source: str
    output: str
    raw: bool = False
    password: str | None = field(default=None, repr=False)
    key_path: str | None = None
    allow_expensive_kdf: bool = False


@dataclass(frozen=True)
class KdfQuestion:
    """:func:`decrypt` did nothing: the file's Argon2id ``cost`` is above the reader's policy,
    and the user must say whether to pay it. ``message`` is the core's sentence."""

    cost: container.KdfCost
    message: str


@dataclass(frozen=True)
class DecryptOutcome:
    path: Path
    plaintext_bytes: int
    summary: str
    authenticated: bool  # False: a raw export in a mode that cannot detect changes


# --- the work ---------------------------------------------------------------------------------


def encrypt(
    request: EncryptRequest,
    *,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> EncryptOutcome:
    """Carry out ``request`` (blocking; run it in a worker)."""
    hold_secrets()  # the password is in this process's memory from here on
    r = request
    job = r.job
    if r.protection is Protection.RAW:
        with worded_for_window():
            return _encrypt_raw(r, on_progress, cancel)
    if job is not None:
        check_input_unchanged(job)
    with worded_for_window():
        secret = Secret(r.protection.value)  # the same words, without RAW
        container_request = request_from(
            EncryptContainer, r, (*_FILE_FIELDS, "password", "key_path"), secret=secret
        )
        done = encrypt_container(container_request, on_progress=on_progress, cancel=cancel)
    info, created = done.info, done.new_key_file
    unlock = {
        Protection.PASSWORD: "a password",
        Protection.NEW_KEY_FILE: "the new key file",
        Protection.KEY_FILE: f"the key file {r.key_path}",
    }[r.protection]
    warning = ""
    if created is not None:
        warning = (
            f"The new key file is {created}. Keep it private and apart from the encrypted file, "
            "and keep a copy somewhere safe: without it the file cannot be decrypted."
        )
    return EncryptOutcome(
        Path(r.output),
        created,
        f"Encrypted {file_size(info.plaintext_bytes)} with {info.cipher_id} [{info.library}] "
        f"to {r.output}, unlocked by {unlock}.",
        warning,
    )


def _encrypt_raw(
    r: EncryptRequest, on_progress: ProgressCallback | None, cancel: CancelCheck | None
) -> EncryptOutcome:
    job = r.job
    assert r.key_path
    if job is not None and job.kept_is_one_message:
        raw_key = save_kept_raw(
            job, r.output, r.key_path, force=r.force, on_progress=on_progress, cancel=cancel
        )
        how = "the benchmark's own ciphertext"
    else:
        if job is not None:
            check_input_unchanged(job)
        request = request_from(ExportRaw, r, (*_FILE_FIELDS, "key_path"))
        raw_key = export_raw_file(request, on_progress=on_progress, cancel=cancel)
        how = "encrypted with a fresh random key"
    command = raw_key.openssl_command(r.output, "PLAINTEXT")
    return EncryptOutcome(
        Path(r.output),
        Path(r.key_path),
        f"Saved raw {raw_key.cipher_id} ciphertext ({how}, "
        f"{file_size(raw_key.ciphertext_bytes)}) to {r.output}, and its key to "
        f"{r.key_path}.",
        f"Anyone who has {Path(r.key_path).name} can decrypt the ciphertext: keep it "
        "private, and apart from the ciphertext.",
        " ".join(command) if command else None,
    )


def decrypt(
    request: DecryptRequest,
    *,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> DecryptOutcome | KdfQuestion:
    """Carry out ``request`` (blocking; run it in a worker). The output appears only when all
    of it decrypted (and, where the format allows, authenticated). A :class:`KdfQuestion`
    means nothing was done yet: ask the user, then run the request again allowing the cost."""
    hold_secrets()  # the password is in this process's memory from here on
    r = request
    if r.raw:
        if not r.key_path:
            raise UserError("choose the key file of the raw export")
        with worded_for_window():
            raw_key = decrypt_raw(
                r.source, r.output, r.key_path, on_progress=on_progress, cancel=cancel
            )
        size = os.path.getsize(r.output)
        checked = raw_key.spec.kind is Kind.AEAD
        return DecryptOutcome(
            Path(r.output),
            size,
            f"Decrypted {file_size(size)} of raw {raw_key.cipher_id} ciphertext"
            + (", authenticated." if checked else " (this mode cannot detect changes)."),
            checked,
        )
    # The dialog hides the key file's field for a password file.
    container_request = request_from(
        DecryptContainer,
        r,
        ("source", "output", "password", "key_path", "allow_expensive_kdf"),
        key_path_if_needed=True,  # the dialog hides the key file's field for a password file
    )
    try:
        with worded_for_window():
            info = decrypt_container(container_request, on_progress=on_progress, cancel=cancel).info
    except NeedsPassword:
        raise UserError("this file needs its password") from None
    except container.ExpensiveKdf as exc:  # before any work: the dialog asks, then retries
        return KdfQuestion(exc.cost, str(exc))
    return DecryptOutcome(
        Path(r.output),
        info.plaintext_bytes,
        f"Decrypted {file_size(info.plaintext_bytes)} with {info.cipher_id} "
        f"[{info.library}]; every chunk and the end of the file authenticated.",
        True,
    )


def save_plaintext(source: str, target: str) -> str:
    """Move the decrypted file ``source`` to ``target`` (copied when the folders are on
    different disks; blocking: run it in a worker); returns ``target``."""
    try:
        move_into_place(source, target)
    except OSError as exc:
        raise UserError(f"cannot save {target}: {exc.strerror or exc}") from None
    return target
