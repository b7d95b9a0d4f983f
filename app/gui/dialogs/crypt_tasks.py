"""The work behind the Encrypt, Save encrypted and Decrypt dialogs, in plain Python.

The dialogs collect a request (:class:`EncryptRequest`, :class:`DecryptRequest`) and run
:func:`encrypt` or :func:`decrypt` in a ``TaskWorker(..., progress=True)``; these call the core
use case (:mod:`app.core.files.protect`, :mod:`app.core.files.rawexport`,
:mod:`app.core.files.kept`) with its ``on_progress`` and ``cancel``, and word its structured
errors for the window. :func:`decrypt` returns a :class:`KdfQuestion` instead of an
outcome when the file asks for an unusually expensive password derivation: only the GUI thread
may ask the user, so the dialog asks and runs the request again with ``allow_expensive_kdf``.

Everything else here is small and quick enough for the GUI thread: what a chosen file is
(:func:`identify`), default file names, the password hint, :func:`window_message`, which words
the core's structured errors for the window (the core names no option; the window has none to
give), and :func:`plain_message`, which makes a message a sentence (the preview is in
:mod:`app.gui.dialogs.preview`).

Requests hold the password in a field left out of their repr; outcomes hold no secret.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from app.core.bench.kept import FinishedJob, check_input_unchanged
from app.core.ciphers.registry import CipherSpec, Kind, UnknownCipher, cipher_ids, weakness_labels
from app.core.errors import UserError
from app.core.files import container
from app.core.files.kept import raw_key_path, save_kept_raw
from app.core.files.progress import CancelCheck, ProgressCallback
from app.core.files.protect import (
    DecryptContainer,
    EncryptContainer,
    ExportRaw,
    KeyFileExists,
    NeedsKeyFile,
    NeedsPassword,
    RawKeyGiven,
    Secret,
    decrypt_container,
    encrypt_container,
    export_raw_file,
)
from app.core.files.rawexport import ContainerKeyGiven, RawKey, decrypt_raw, read_raw_key
from app.core.files.request_fields import request_from
from app.core.runtime.secrets import hold_secrets
from app.core.units import file_size

# What an encryption request gives the core's file requests as it is.
_FILE_FIELDS = ("source", "output", "cipher_id", "library", "key_bits", "force")
CONTAINER_SUFFIX = ".cbf"  # "CipherBench file", as its magic says
KEY_FILE_SUFFIX = ".cbkey"
RAW_SUFFIX = ".enc"
_KEY_JSON_MAX_BYTES = 64 * 1024


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


# --- quick helpers for the dialogs ------------------------------------------------------------


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


def describe_raw_key(raw_key: RawKey) -> str:
    spec = raw_key.spec
    check = (
        "authenticated: a wrong key or a change is detected"
        if spec.kind is Kind.AEAD
        else "no integrity check: a wrong key or a changed file gives wrong bytes, no error"
    )
    return (
        f"{raw_key.cipher_id}, {raw_key.key_bits}-bit key, {raw_key.plaintext_bytes:,} bytes of "
        f"plaintext; {check}."
    )


def read_raw_key_quietly(path: str) -> RawKey | None:
    """The raw-export key in ``path``, or None when it is not one (the dialog says why later)."""
    try:
        return read_raw_key(path)
    except UserError:
        return None


def weakness(spec: CipherSpec) -> str:
    """Why ``spec`` should not protect real data, or ""."""
    return ", ".join(weakness_labels(spec))


def raw_notes(spec: CipherSpec) -> str:
    """What a raw export of ``spec`` gives up, and whether ``openssl enc`` can read it."""
    probe = RawKey(
        spec.id, spec.library, spec.key_bits, bytes(spec.key_bytes), bytes(spec.iv_bytes), 0, 0
    )
    parts = []
    if spec.kind is Kind.AEAD:
        parts.append("One authenticated message, held in memory while it is made (at most 1 GiB).")
    else:
        parts.append("No integrity check: a changed file decrypts to wrong data without an error.")
    note = probe.openssl_note()
    parts.append(
        "openssl enc -d can decrypt it; the key file gives the command."
        if note is None
        else f"Not for OpenSSL: {note}."
    )
    return " ".join(parts)


def password_hint(password: str) -> str:
    """A strength hint from the length (what a user can act on; Argon2id slows guessing)."""
    n = len(password)
    if n == 0:
        return ""
    if n < 8:
        verdict = "too short"
    elif n < 12:
        verdict = "weak"
    elif n < 16:
        verdict = "fair"
    else:
        verdict = "good"
    tip = "" if n >= 16 else "; 16 or more, or a few unrelated words, is much harder to guess"
    return f"{n} characters: {verdict}{tip}."


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


def window_message(exc: UserError) -> str:
    """``exc``'s message as the window words it: the core's structured errors with the hint
    that fits the window (the core names no command-line option)."""
    if isinstance(exc, KeyFileExists):
        return f"{exc}: choose another name"
    if isinstance(exc, RawKeyGiven):
        return f"{exc}, not of a CipherBench file; choose the file that was exported with it"
    if isinstance(exc, ContainerKeyGiven):
        return f"{exc}; choose a raw export's .key.json file"
    if isinstance(exc, UnknownCipher):
        return f"{exc}; see the cipher list"
    if isinstance(exc, NeedsKeyFile):
        return "this file needs its key file"
    return str(exc)


@contextlib.contextmanager
def worded_for_window() -> Iterator[None]:
    """Re-raise a structured error that :func:`window_message` words otherwise as a
    :class:`UserError` with that wording; every other exception passes as it is."""
    try:
        yield
    except UserError as exc:
        text = window_message(exc)
        if text == str(exc):
            raise
        raise UserError(text) from None


def plain_message(text: str) -> str:
    """A message as the window shows it: a sentence."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


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
