"""Saving what a finished benchmark job kept (:class:`~app.core.bench.kept.FinishedJob`): the kept
ciphertext as a raw export (with the same JSON key file as ``python main.py encrypt --raw``), or the
plaintext decrypted back from it. Plain Python; the window runs it in a ``TaskWorker`` off the GUI
thread. Which kept ciphertexts are one message is explained in :mod:`app.core.bench.kept`.

Keys go only into the key file the user asked for; never into logs, settings, exports or messages
(:class:`~app.core.bench.kept.JobSecret` and :class:`~app.core.files.rawexport_key.RawKey` hide
them in their repr).
"""

from __future__ import annotations

import os
from pathlib import Path

from app.core.bench.kept import FinishedJob, JobSecret
from app.core.ciphers.adapters import SLACK, get_adapter
from app.core.ciphers.message import MessageCipher
from app.core.ciphers.registry import lookup
from app.core.errors import UserError
from app.core.files.progress import CancelCheck, Progress, ProgressCallback, read_chunks
from app.core.files.rawexport import RawKey, commit_with_key_file, decrypt_raw
from app.core.runtime.output_checks import check_paths
from app.core.runtime.safe_files import AtomicOutput, open_input
from app.core.units import MIB

RAW_KEY_SUFFIX = ".key.json"
_COPY_BYTES = MIB


def raw_key_path(ciphertext_path: str | os.PathLike[str]) -> Path:
    """Where the key of a raw export goes by default: ``<ciphertext>.key.json``."""
    return Path(str(ciphertext_path) + RAW_KEY_SUFFIX)


def _kept_secret(job: FinishedJob) -> JobSecret:
    secret = job.secret
    if secret is None:
        raise UserError(f"{job.result.label} did not keep its ciphertext")
    if not os.path.isfile(secret.ciphertext_path):
        raise UserError(
            "the job's ciphertext is gone (it is kept only until Reset); run the benchmark again"
        )
    return secret


def kept_raw_key(job: FinishedJob) -> RawKey:
    """The raw-export key of a kept one-message ciphertext."""
    secret = _kept_secret(job)
    r = job.result
    size = os.path.getsize(secret.ciphertext_path)
    return RawKey(r.cipher, r.library, r.key_bits, secret.key, secret.iv, r.input_bytes, size)


def save_kept_raw(
    job: FinishedJob,
    ciphertext_path: str | os.PathLike[str],
    key_path: str | os.PathLike[str],
    *,
    force: bool = False,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> RawKey:
    """Copy the job's kept one-message ciphertext to ``ciphertext_path`` and write its key file
    (mode 0600) to ``key_path``, as ``export_raw`` would have. Nothing is left on failure."""
    if not job.kept_is_one_message:
        raise UserError(f"{job.result.label} kept no single-message ciphertext")
    raw_key = kept_raw_key(job)
    kept = _kept_secret(job).ciphertext_path
    check_paths(kept, ciphertext_path, key_path, force=force)
    with open_input(kept) as fin, AtomicOutput(ciphertext_path, force=force) as out:
        progress = Progress(on_progress, cancel, os.fstat(fin.fileno()).st_size)
        for chunk, _last in read_chunks(fin, _COPY_BYTES, progress, kept):
            out.write(chunk)
        commit_with_key_file(out, key_path, raw_key, force=force)
    progress.finish()
    return raw_key


def decrypt_kept(
    job: FinishedJob,
    path: str | os.PathLike[str],
    *,
    on_progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> Path:
    """Decrypt the job's kept ciphertext into ``path`` (replaced if it exists: the caller asked
    the user), mode 0600. Returns ``path``."""
    secret = _kept_secret(job)
    r = job.result
    if job.kept_is_one_message:
        decrypt_raw(
            secret.ciphertext_path,
            path,
            kept_raw_key(job),
            library=r.library,
            force=True,
            on_progress=on_progress,
            cancel=cancel,
        )
        return Path(path)
    # Stream-mode AEAD: one sealed record (chunk + tag) per chunk, each opened on its own.
    spec = lookup(r.cipher, r.library, r.key_bits)
    if not r.chunk_bytes:
        raise UserError(f"{r.label}: the kept ciphertext does not say its chunk size")
    record = r.chunk_bytes + spec.tag_bytes
    cipher = MessageCipher(spec, get_adapter(spec.library), secret.key, secret.iv, decrypt=True)
    out_view = memoryview(bytearray(record + SLACK))
    check_paths(secret.ciphertext_path, path, force=True)
    with (
        open_input(secret.ciphertext_path) as fin,
        AtomicOutput(path, force=True, mode=0o600) as out,
    ):
        progress = Progress(on_progress, cancel, os.fstat(fin.fileno()).st_size)
        for chunk, _last in read_chunks(fin, record, progress, secret.ciphertext_path):
            out.write(out_view[: cipher.update(chunk, out_view)])
        out.commit()
    progress.finish()
    return Path(path)
