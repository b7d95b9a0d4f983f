"""What the Encrypt and Decrypt dialogs say, in plain Python (quick enough for the GUI thread).

:func:`window_message` words the core's structured errors for the window (the core names no
command-line option; the window has none to give) and :func:`worded_for_window` re-raises them
so worded; :func:`plain_message` makes a message a sentence; :func:`expensive_kdf_question`
asks before an unusually expensive password check. The hints: why a cipher is weak
(:func:`weakness`, :func:`weak_cipher_warning`), what a raw export gives up (:func:`raw_notes`,
:func:`kept_ciphertext_note`), what a raw-export key is (:func:`describe_raw_key`,
:func:`raw_ciphertext_info`) and how strong a password looks (:func:`password_hint`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from app.core.ciphers.registry import CipherSpec, Kind, UnknownCipher, weakness_labels
from app.core.errors import UserError
from app.core.files import container
from app.core.files.protect import KeyFileExists, NeedsKeyFile, RawKeyGiven
from app.core.files.rawexport import ContainerKeyGiven, RawKey

# --- the window's wording of errors -----------------------------------------------------------


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


def expensive_kdf_question(message: str) -> str:
    """The question before paying a file's unusually expensive Argon2id cost (``message``: the
    core's sentence, with the estimated time and memory)."""
    return (
        f"{plain_message(message)}\n\nFiles CipherBench writes take a fraction of "
        "a second. A file from someone you do not trust may ask for this only to waste your "
        "time and memory. Cancel stops it at any moment.\n\nCheck the password anyway?"
    )


# --- hints about a cipher, a key and a password -----------------------------------------------


def weakness(spec: CipherSpec) -> str:
    """Why ``spec`` should not protect real data, or ""."""
    return ", ".join(weakness_labels(spec))


def weak_cipher_warning(spec: CipherSpec) -> str:
    """The warning under a weak cipher (fine for benchmarks, not for data), or ""."""
    weak = weakness(spec)
    if not weak:
        return ""
    return (
        f"⚠ {spec.id} is weak ({weak}): fine for benchmarks, not for "
        f"protecting data. Use {container.DEFAULT_CIPHER} for that."
    )


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


def kept_ciphertext_note(kept_is_one_message: bool) -> str:
    """What a raw save of a finished job writes (after :func:`raw_notes`): the benchmark's own
    ciphertext when the job kept it as one message, else its input encrypted again."""
    return (
        " Saves the benchmark's own ciphertext."
        if kept_is_one_message
        else " Encrypts the input again with a fresh key (this job kept no "
        "single-message ciphertext)."
    )


def raw_ciphertext_info(raw_key: RawKey | None) -> str:
    """What the Decrypt dialog says of raw ciphertext, given its key (None: none chosen yet, or
    not a raw-export key)."""
    return "Raw ciphertext (not a CipherBench file): " + (
        describe_raw_key(raw_key)
        if raw_key is not None
        else "Choose the .key.json file that was exported with it."
    )


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
