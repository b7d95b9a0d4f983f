"""Raw export: the bare ciphertext of one message plus a JSON key file, for other tools.

Unlike the CipherBench format (:mod:`app.core.container`) a raw export has no header, no password
and, for the unauthenticated modes, no integrity protection: it is what ``openssl enc -K -iv``
reads and writes. The key file holds everything needed to decrypt; it is written with mode 0600
and says so in its ``warning`` field.

API (plain callables for progress and cancel, as in :mod:`app.core.container`):

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

OpenSSL 3.0's ``enc`` takes Blowfish and RC4 keys of 128 bits only (it cuts a longer ``-K``), and
Blowfish, single DES and RC4 need ``-provider legacy -provider default``;
:meth:`RawKey.openssl_command` handles both and the JSON records why when it cannot.
"""

from __future__ import annotations

import io
import json
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.adapters import SLACK, get_adapter
from app.core.container import (
    DEFAULT_CIPHER,
    KEY_FILE_FORMAT,
    AtomicOutput,
    CancelCheck,
    Progress,
    ProgressCallback,
    check_paths,
    choose_spec,
    open_input,
    read_full,
)
from app.core.errors import AuthenticationError, UserError
from app.core.message import MessageCipher
from app.core.registry import CipherSpec, Kind, libraries_for
from app.core.units import MIB

RAW_KEY_FORMAT = "cipherbench-raw-key"
RAW_CHUNK_BYTES = MIB
RAW_AEAD_MAX_BYTES = 1024 * MIB
_KEY_JSON_MAX_BYTES = 64 * 1024
_LEGACY_PROVIDER = ("Blowfish", "DES", "RC4")  # moved to OpenSSL 3's legacy provider
_OPENSSL_128_ONLY = ("Blowfish", "RC4")  # `openssl enc` 3.0 uses the default key length

WARNING_AUTHENTICATED = (
    "This file holds the key: anyone who has it can decrypt the data. Keep it private, and "
    "apart from the ciphertext."
)
WARNING_UNAUTHENTICATED = (
    WARNING_AUTHENTICATED + " The ciphertext has no integrity protection: a modified file "
    "decrypts to wrong data without any error."
)


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
        if spec.algorithm in _LEGACY_PROVIDER:
            args += ["-provider", "legacy", "-provider", "default"]
        return [*args, "-in", ciphertext, "-out", plaintext]

    def openssl_note(self) -> str | None:
        """Why ``openssl enc`` cannot decrypt this export, or None when it can."""
        spec = self.spec
        if spec.kind is Kind.AEAD:
            return "openssl enc does not support AEAD ciphers"
        if spec.openssl_name is None:
            return f"openssl enc has no {spec.id}"
        if spec.algorithm in _OPENSSL_128_ONLY and self.key_bits != 128:
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
                raise UserError(
                    f"{source} is a CipherBench key file, not a raw-export key; decrypt "
                    "without --raw"
                )
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
    source = Path(path)
    try:
        st = source.stat()
        if not stat.S_ISREG(st.st_mode) or st.st_size > _KEY_JSON_MAX_BYTES:
            raise UserError(f"{source} is not a raw-export key file")
        text = source.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read the key file {source}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise UserError(f"{source} is not a raw-export key file (not JSON)") from None
    return RawKey.from_json(data, str(source))


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
    iv = secrets.token_bytes(spec.iv_bytes)
    if spec.algorithm == "ChaCha20":
        # Block counter 0 and a random 96-bit nonce (RFC 8439): a random 32-bit counter could
        # overflow within a big file, where libraries disagree (OpenSSL carries, pycryptodome
        # stops).
        iv = bytes(4) + iv[4:]
    with open_input(src) as fin, AtomicOutput(dst, force=force) as out:
        total = os.fstat(fin.fileno()).st_size
        progress = Progress(on_progress, cancel, total)
        if spec.kind is Kind.AEAD:
            plain, written = _aead_one_message(spec, key, iv, fin, out, progress, src, False)
        else:
            cipher = MessageCipher(spec, get_adapter(spec.library), key, iv, decrypt=False)
            plain, written = _stream(cipher, spec, chunk_bytes, fin, out, progress, src)
        raw_key = RawKey(spec.id, spec.library, spec.key_bits, key, iv, plain, written)
        write_raw_key(key_out, raw_key, force=force)
        try:
            out.commit()
        except BaseException:
            Path(key_out).unlink(missing_ok=True)
            raise
    progress.finish()
    return raw_key


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
    check_paths(src, dst, force=force)
    with open_input(src) as fin, AtomicOutput(dst, force=force, mode=0o600) as out:
        total = os.fstat(fin.fileno()).st_size
        progress = Progress(on_progress, cancel, total)
        if spec.kind is Kind.AEAD:
            _aead_one_message(spec, raw_key.key, raw_key.iv, fin, out, progress, src, True)
        else:
            adapter = get_adapter(spec.library)
            cipher = MessageCipher(spec, adapter, raw_key.key, raw_key.iv, decrypt=True)
            _stream(cipher, spec, chunk_bytes, fin, out, progress, src)
        out.commit()
    progress.finish()
    return raw_key


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
    bufs = (bytearray(chunk_bytes), bytearray(chunk_bytes))
    out_view = memoryview(bytearray(chunk_bytes + spec.block_bytes + SLACK))
    cur = memoryview(bufs[0])
    n = read_full(fin, cur, src)
    done, written, index = n, 0, 0
    while True:
        progress.check_cancel()
        nxt = memoryview(bufs[(index + 1) % 2])
        n_next = read_full(fin, nxt, src) if n == chunk_bytes else 0
        last = n_next == 0
        m = cipher.final(cur[:n], out_view) if last else cipher.update(cur[:n], out_view)
        out.write(out_view[:m])
        written += m
        progress.update(done)
        if last:
            return done, written
        cur, n = nxt, n_next
        done += n
        index += 1


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
