"""Raw export: the bare ciphertext of one message plus a JSON key file, for other tools.

Unlike the CipherBench format (:mod:`app.core.files.container`) a raw export has no header, no
password
and, for the unauthenticated modes, no integrity protection: it is what ``openssl enc -K -iv``
reads and writes. The key file (:mod:`app.core.files.rawexport_key`) holds everything needed to
decrypt; it is written with mode 0600 and says so in its ``warning`` field.

API (plain callables for progress and cancel, as in :mod:`app.core.files.container`):

- ``export_raw(src, dst, key_out, *, cipher_id, library=None, key_bits=None, force=False,
  chunk_bytes=RAW_CHUNK_BYTES, on_progress=None, cancel=None) -> RawKey``: random key and IV.
- ``decrypt_raw(src, dst, key_in, *, library=None, force=False, ...) -> RawKey``: ``key_in`` is a
  key file path or a :class:`RawKey`.
- ``RawKey`` (repr hides key and IV), ``write_raw_key(path, raw_key, force=False)``,
  ``read_raw_key(path) -> RawKey``: for a ciphertext made elsewhere (a benchmark's kept output).
- ``RawKey.openssl_command(ciphertext, plaintext)``: the ``openssl enc -d`` argument list, or None
  when OpenSSL 3.0's ``enc`` cannot decrypt it.

What the ciphertext is, per kind (as :meth:`MessageCipher.final` of one message produces):

- ECB, CBC: PKCS#7 padded (1..block bytes added). CTR: the IV is the whole initial counter block,
  incremented as a big-endian integer (as OpenSSL). CFB: full-block CFB (CFB128 for AES).
  ChaCha20: OpenSSL's 16-byte IV, a 4-byte little-endian block counter then the 12-byte nonce.
  RC4: no IV. These stream from disk in chunks of ``chunk_bytes``, so memory stays bounded.
- AEAD: ``ciphertext || tag`` (SIV: ``tag || ciphertext``), no associated data. An AEAD message
  is sealed in one call, so the whole input is held in memory: at most :data:`RAW_AEAD_MAX_BYTES`.
  Use the CipherBench format for bigger files.
"""

from __future__ import annotations

import io
import os
import secrets
from pathlib import Path

from app.core.ciphers.adapters import SLACK, get_adapter
from app.core.ciphers.message import MessageCipher
from app.core.ciphers.registry import CipherSpec, Kind
from app.core.errors import AuthenticationError, UserError
from app.core.files.container import DEFAULT_CIPHER, choose_spec
from app.core.files.progress import CancelCheck, Progress, ProgressCallback, read_chunks
from app.core.files.rawexport_key import ContainerKeyGiven, RawKey, read_raw_key, write_raw_key
from app.core.runtime.output_checks import check_paths
from app.core.runtime.safe_files import AtomicOutput, open_input, read_full
from app.core.units import MIB

# The API, with the key-file names callers need from app.core.files.rawexport_key.
__all__ = [
    "RAW_AEAD_MAX_BYTES",
    "RAW_CHUNK_BYTES",
    "ContainerKeyGiven",
    "RawKey",
    "decrypt_raw",
    "export_raw",
    "read_raw_key",
    "write_raw_key",
]

RAW_CHUNK_BYTES = MIB
RAW_AEAD_MAX_BYTES = 1024 * MIB


def export_raw(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    key_out: str | os.PathLike[str],
    *,
    cipher_id: str = DEFAULT_CIPHER,
    library: str | None = None,
    key_bits: int | None = None,
    force: bool = False,
    chunk_bytes: int = RAW_CHUNK_BYTES,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> RawKey:
    """Encrypt ``src`` to the bare ciphertext ``dst`` under a fresh random key and IV, and write
    them to the JSON ``key_out`` (mode 0600). ``force`` allows replacing both outputs. Nothing is
    left behind on failure or cancel."""
    spec = choose_spec(cipher_id, library, key_bits)
    _check_chunk(spec, chunk_bytes)
    check_paths(src, dst, key_out, force=force)
    key = secrets.token_bytes(spec.key_bytes)
    # Block counter at 0 (ChaCha20: a random 96-bit nonce, RFC 8439): a random 32-bit counter
    # could overflow within a big file, where libraries disagree.
    iv = spec.fresh_iv(secrets.token_bytes)
    with open_input(src) as fin, AtomicOutput(dst, force=force) as out:
        total = os.fstat(fin.fileno()).st_size
        progress = Progress(on_progress, cancel, total)
        if spec.kind is Kind.AEAD:
            plain, written = _aead_one_message(spec, key, iv, fin, out, progress, src, False)
        else:
            cipher = MessageCipher(spec, get_adapter(spec.library), key, iv, decrypt=False)
            plain, written = _stream(cipher, spec, chunk_bytes, fin, out, progress, src)
        raw_key = RawKey(spec.id, spec.library, spec.key_bits, key, iv, plain, written)
        commit_with_key_file(out, key_out, raw_key, force=force)
    progress.finish()
    return raw_key


def commit_with_key_file(
    out: AtomicOutput, key_path: str | os.PathLike[str], raw_key: RawKey, *, force: bool
) -> None:
    """Write the key file, then move the ciphertext into place. If that fails the key file is
    removed again: a ciphertext and its key file exist together or not at all."""
    write_raw_key(key_path, raw_key, force=force)
    try:
        out.commit()
    except BaseException:
        Path(key_path).unlink(missing_ok=True)
        raise


def decrypt_raw(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    key_in: str | os.PathLike[str] | RawKey,
    *,
    library: str | None = None,
    force: bool = False,
    chunk_bytes: int = RAW_CHUNK_BYTES,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> RawKey:
    """Decrypt a raw export with its key file (or :class:`RawKey`) into ``dst`` (mode 0600).

    AEAD and padded modes raise :class:`AuthenticationError` on a wrong key or a modified file;
    the other modes cannot tell and produce wrong bytes: that is what "raw" means."""
    raw_key = key_in if isinstance(key_in, RawKey) else read_raw_key(key_in)
    spec = choose_spec(raw_key.cipher_id, library, raw_key.key_bits)
    _check_chunk(spec, chunk_bytes)
    key_file = [] if isinstance(key_in, RawKey) else [key_in]
    check_paths(src, dst, force=force, inputs=key_file)  # the plaintext never replaces its key
    with open_input(src) as fin:
        total = os.fstat(fin.fileno()).st_size
        _check_length(raw_key, total, src)
        progress = Progress(on_progress, cancel, total)
        with AtomicOutput(dst, force=force, mode=0o600) as out:
            _decrypt_into(spec, raw_key, chunk_bytes, fin, out, progress, src)
            out.commit()
    progress.finish()
    return raw_key


def _check_length(raw_key: RawKey, size: int, src: str | os.PathLike[str]) -> None:
    """A raw file of another length than its key file recorded is refused before any output:
    a stream mode would decrypt a cut file without a word (it cannot tell)."""
    expected = raw_key.ciphertext_bytes
    if expected and size != expected:
        what = "shorter: cut off" if size < expected else "longer: something was added"
        raise AuthenticationError(
            f"{os.fspath(src)} is {size:,} bytes, but its key file says the ciphertext was "
            f"{expected:,} bytes ({what}, or the key file is another file's); nothing was "
            "written"
        )


def _decrypt_into(
    spec: CipherSpec,
    raw_key: RawKey,
    chunk_bytes: int,
    fin: io.FileIO,
    out: AtomicOutput,
    progress: Progress,
    src: str | os.PathLike[str],
) -> None:
    if spec.kind is Kind.AEAD:
        _aead_one_message(spec, raw_key.key, raw_key.iv, fin, out, progress, src, True)
    else:
        adapter = get_adapter(spec.library)
        cipher = MessageCipher(spec, adapter, raw_key.key, raw_key.iv, decrypt=True)
        _stream(cipher, spec, chunk_bytes, fin, out, progress, src)


def _check_chunk(spec: CipherSpec, chunk_bytes: int) -> None:
    if chunk_bytes < 16 or chunk_bytes % 16:
        raise UserError(f"the chunk size must be a positive multiple of 16, not {chunk_bytes}")


def _stream(
    cipher: MessageCipher,
    spec: CipherSpec,
    chunk_bytes: int,
    fin: io.FileIO,
    out: AtomicOutput,
    progress: Progress,
    src: str | os.PathLike[str],
) -> tuple[int, int]:
    """One message, chunk by chunk: ``update`` for every chunk but the last, ``final`` on the
    last (found by reading one chunk ahead). Returns (bytes read, bytes written)."""
    out_view = memoryview(bytearray(chunk_bytes + spec.block_bytes + SLACK))
    done = written = 0
    for chunk, last in read_chunks(fin, chunk_bytes, progress, src):
        m = cipher.final(chunk, out_view) if last else cipher.update(chunk, out_view)
        out.write(out_view[:m])
        written += m
        done += len(chunk)
    return done, written


def _aead_one_message(
    spec: CipherSpec,
    key: bytes,
    nonce: bytes,
    fin: io.FileIO,
    out: AtomicOutput,
    progress: Progress,
    src: str | os.PathLike[str],
    decrypt: bool,
) -> tuple[int, int]:
    """Seal or open the whole input as one AEAD message (the tag covers all of it)."""
    size = progress.total
    if size > RAW_AEAD_MAX_BYTES + (spec.tag_bytes if decrypt else 0):
        raise UserError(
            f"a raw {spec.id} export is one message held in memory, at most "
            f"{RAW_AEAD_MAX_BYTES // MIB} MiB; use the CipherBench format for bigger files"
        )
    buf = bytearray(size + 1)  # one spare byte shows a file that grew since fstat
    n = read_full(fin, memoryview(buf), src)
    if n > size:
        raise UserError(f"{src} changed while it was read")
    progress.check_cancel()
    progress.update(n // 2)
    out_view = memoryview(bytearray(n + spec.tag_bytes + SLACK))
    aead = get_adapter(spec.library).aead(spec, key)
    src_view = memoryview(buf)[:n]
    if decrypt:
        try:
            m = aead.open_into(nonce, src_view, out_view, b"")
        except AuthenticationError:
            raise AuthenticationError(
                "authentication failed: wrong key file, or the ciphertext was modified"
            ) from None
    else:
        m = aead.seal_into(nonce, src_view, out_view, b"")
    out.write(out_view[:m])
    return n, m
