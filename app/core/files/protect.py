"""Protect a file with a password or a key file: the one use case behind ``encrypt`` / ``decrypt``
on the command line and the Encrypt / Decrypt dialogs.

:func:`encrypt_container` takes an :class:`EncryptContainer` request and does, once for every
front-end: the path checks before any secret is asked or any key file appears, the choice of the
secret (a password, an existing key file, or a new key file created for the occasion and removed
again when the encryption fails), and the encryption. :func:`decrypt_container` takes a
:class:`DecryptContainer` request: the path checks, the header, the choice of the secret from it
(:func:`decrypt_secret`), the reader's Argon2id policy (:class:`ExpensiveKdf` before anyone is
asked for a password) and the decryption. :func:`export_raw_file` takes an :class:`ExportRaw`
request: bare ciphertext plus its JSON key. :func:`describe_container` words a file's header.

Errors a front-end words its own way are :class:`UserError` subclasses with fields; their message
names no command-line option and no button, so each front-end adds its own hint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from app.core.errors import UserError
from app.core.files import container
from app.core.files.container_keys import ExpensiveKdf, KdfCost
from app.core.files.container_keys import RawKeyGiven as RawKeyGiven  # a raw key as key file
from app.core.files.path_errors import PathError
from app.core.files.progress import CancelCheck, ProgressCallback
from app.core.files.rawexport import RawKey, export_raw
from app.core.runtime.output_checks import OutputRefused, check_output
from app.core.text import counted
from app.core.units import format_bytes


class Secret(StrEnum):
    """What unlocks a CipherBench file."""

    PASSWORD = "password"
    KEY_FILE = "key file"  # an existing one
    NEW_KEY_FILE = "new key file"  # created by the request, never over an existing file


class NeedsPassword(UserError):
    """No password, or an empty one, where a password is needed."""

    def __init__(self) -> None:
        super().__init__("the password is empty")


class NeedsKeyFile(PathError):
    """``path`` (a CipherBench file) was encrypted with a key file and none was given."""

    MESSAGE = "{path} was encrypted with a key file"


class WrongSecret(PathError):
    """A key file was given for ``path``, which was encrypted with a password."""

    MESSAGE = "{path} was encrypted with a password, not a key file"


class KeyFileMissing(PathError):
    """The key file ``path`` to encrypt with does not exist."""

    MESSAGE = "the key file {path} does not exist"


class KeyFileExists(PathError):
    """The new key file ``path`` would replace an existing file (a key file is never replaced)."""

    MESSAGE = "{path} already exists; a key file is never replaced"


@dataclass(frozen=True)
class EncryptContainer:
    """Encrypt ``source`` into the CipherBench file ``output`` under ``secret``: ``password``
    (PASSWORD; None to ask for it once the paths are checked) or the key file ``key_path``."""

    source: str
    output: str
    secret: Secret
    cipher_id: str = container.DEFAULT_CIPHER
    library: str | None = None
    key_bits: int | None = None
    chunk_bytes: int = container.DEFAULT_CHUNK_BYTES
    password: str | None = field(default=None, repr=False)
    key_path: str | None = None
    force: bool = False


@dataclass(frozen=True)
class EncryptedContainer:
    """What :func:`encrypt_container` wrote; ``new_key_file`` is None unless it created one."""

    output: Path
    info: container.ContainerInfo
    new_key_file: Path | None

    @property
    def unlocked_by(self) -> Secret:
        if self.new_key_file is not None:
            return Secret.NEW_KEY_FILE
        return Secret.PASSWORD if self.info.argon2 is not None else Secret.KEY_FILE


def encrypt_container(
    request: EncryptContainer,
    *,
    ask_password: Callable[[], str] | None = None,
    on_ready: Callable[[], None] | None = None,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> EncryptedContainer:
    """Carry out ``request`` (blocking). ``ask_password`` supplies a password the request lacks,
    once every path is checked; ``on_ready`` runs just before the encryption starts."""
    r = request
    spec = container.choose_spec(r.cipher_id, r.library, r.key_bits)
    container.check_chunk_bytes(r.chunk_bytes)
    if r.secret is not Secret.PASSWORD and not r.key_path:
        raise UserError("choose a key file")
    if r.secret is Secret.NEW_KEY_FILE:
        _check_new_key_file(str(r.key_path))
    key_inputs = [str(r.key_path)] if r.secret is Secret.KEY_FILE else []
    new_key_outputs = [str(r.key_path)] if r.secret is Secret.NEW_KEY_FILE else []
    # Before anyone types a password or a key file appears: the input and every output are
    # usable, and no output is the input or the key file read.
    container.check_paths(r.source, r.output, *new_key_outputs, force=r.force, inputs=key_inputs)
    password: str | None = None
    key: bytes | None = None
    created: Path | None = None
    if r.secret is Secret.NEW_KEY_FILE:
        created = Path(str(r.key_path))
        key = container.new_key()
        container.write_key_file(created, key)
    elif r.secret is Secret.KEY_FILE:
        if not Path(str(r.key_path)).exists():
            raise KeyFileMissing(str(r.key_path))
        key = container.read_key_file(str(r.key_path))
    else:
        password = r.password if r.password is not None or ask_password is None else ask_password()
        if not password:
            raise NeedsPassword()
    try:
        if on_ready is not None:
            on_ready()
        info = container.encrypt_file(
            r.source,
            r.output,
            cipher_id=spec.id,
            library=spec.library,
            key_bits=spec.key_bits,
            password=password,
            key=key,
            chunk_bytes=r.chunk_bytes,
            force=r.force,
            on_progress=on_progress,
            cancel=cancel,
            inputs=key_inputs,
        )
    except BaseException:
        if created is not None:  # nothing was encrypted with it: do not leave it behind
            created.unlink(missing_ok=True)
        raise
    return EncryptedContainer(Path(r.output), info, created)


def _check_new_key_file(path: str) -> None:
    """Refuse a new key file over an existing one as :class:`KeyFileExists` (a folder or a
    device keeps its own refusal)."""
    try:
        check_output(path, force=False, role="the key file")
    except OutputRefused as exc:
        if exc.reason == "it already exists":
            raise KeyFileExists(path) from None
        raise


def decrypt_secret(
    header: container.ContainerInfo,
    source: str,
    *,
    password: str | None,
    key_path: str | None,
    password_given: bool = True,
) -> bytes | None:
    """The key that unlocks ``source`` (from ``key_path``) when its ``header`` says it needs a
    key file, else None after checking that no key file was given (:class:`WrongSecret`) and,
    when ``password_given``, that ``password`` is not empty (:class:`NeedsPassword`)."""
    if header.needs_key_file:
        if not key_path:
            raise NeedsKeyFile(source)
        return container.read_key_file(key_path)
    if key_path:
        raise WrongSecret(source)
    if password_given and not password:
        raise NeedsPassword()
    return None


@dataclass(frozen=True)
class DecryptContainer:
    """Decrypt the CipherBench file ``source`` into ``output`` with ``password`` (None to ask
    for it once the header says one is needed) or the key file ``key_path``.
    ``key_path_if_needed``: a key file given for a password file is ignored (a dialog that hides
    the field) instead of refused (:class:`WrongSecret`)."""

    source: str
    output: str
    password: str | None = field(default=None, repr=False)
    key_path: str | None = None
    library: str | None = None
    force: bool = False
    allow_expensive_kdf: bool = False
    key_path_if_needed: bool = False


@dataclass(frozen=True)
class DecryptedContainer:
    """What :func:`decrypt_container` wrote (``info`` has the library and the timings)."""

    output: Path
    info: container.ContainerInfo


def decrypt_container(
    request: DecryptContainer,
    *,
    ask_password: Callable[[], str] | None = None,
    on_expensive_kdf: Callable[[KdfCost], None] | None = None,
    on_ready: Callable[[], None] | None = None,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> DecryptedContainer:
    """Carry out ``request`` (blocking). The paths are checked and the header read before any
    secret: :class:`NeedsKeyFile`, :class:`WrongSecret`, :class:`RawKeyGiven`, and
    :class:`ExpensiveKdf` for a password derivation above the reader's policy unless
    ``allow_expensive_kdf`` (then ``on_expensive_kdf`` hears its cost). ``ask_password``
    supplies a password the request lacks; ``on_ready`` runs just before the decryption."""
    r = request
    key_inputs = [r.key_path] if r.key_path and not r.key_path_if_needed else []
    container.check_paths(r.source, r.output, force=r.force, inputs=key_inputs)
    header = container.read_header(r.source)  # says what it needs before any password is asked
    key_path = None if r.key_path_if_needed and not header.needs_key_file else r.key_path
    asked = r.password is None and ask_password is not None
    key = decrypt_secret(
        header, r.source, password=r.password, key_path=key_path, password_given=not asked
    )
    password: str | None = None
    if key is None:
        assert header.argon2 is not None
        try:  # refused before anyone types a password
            container.check_kdf_cost(header.argon2)
        except ExpensiveKdf as exc:
            if not r.allow_expensive_kdf:
                raise
            if on_expensive_kdf is not None:
                on_expensive_kdf(exc.cost)
        password = ask_password() if asked and ask_password is not None else r.password
    if on_ready is not None:
        on_ready()
    info = container.decrypt_file(
        r.source,
        r.output,
        password=password,
        key=key,
        library=r.library,
        force=r.force,
        allow_expensive_kdf=r.allow_expensive_kdf,
        on_progress=on_progress,
        cancel=cancel,
        inputs=[key_path] if key is not None and key_path else [],
    )
    return DecryptedContainer(Path(r.output), info)


@dataclass(frozen=True)
class ExportRaw:
    """Encrypt ``source`` to the bare ciphertext ``output`` under a fresh random key and IV,
    written to the JSON key file ``key_path`` (mode 0600); ``force`` may replace both."""

    source: str
    output: str
    key_path: str
    cipher_id: str = container.DEFAULT_CIPHER
    library: str | None = None
    key_bits: int | None = None
    force: bool = False


def export_raw_file(
    request: ExportRaw,
    *,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> RawKey:
    """Carry out ``request`` (blocking); the key written, without its secret in the repr."""
    r = request
    return export_raw(
        r.source,
        r.output,
        r.key_path,
        cipher_id=r.cipher_id,
        library=r.library,
        key_bits=r.key_bits,
        force=r.force,
        on_progress=on_progress,
        cancel=cancel,
    )


def describe_container(info: container.ContainerInfo) -> str:
    """Two lines about a CipherBench file, without any secret."""
    size = f"{info.plaintext_bytes:,} bytes"
    if not info.plaintext_bytes_exact:
        size = f"at most {size}"
    chunk = format_bytes(info.chunk_bytes).replace(".00", "")
    chunks = f"{counted(info.chunks, 'chunk')} of {chunk}"
    if info.argon2 is not None:
        unlock = (
            f"a password (Argon2id, {info.argon2.memory_kib // 1024} MiB, "
            f"{info.argon2.iterations} passes)"
        )
    else:
        unlock = "a key file"
    return (
        f"CipherBench file (format {info.format_version}): {info.cipher_id}, {info.key_bits}-bit "
        f"key, {size} of plaintext in {chunks}.\nUnlocked by {unlock}."
    )


def describe_secret(info: container.ContainerInfo) -> str:
    """What unlocks a file, in a few words ("password, Argon2id 64 MiB x 3" or "key file")."""
    if info.argon2 is None:
        return "key file"
    return f"password, Argon2id {info.argon2.memory_kib // 1024} MiB x {info.argon2.iterations}"
