"""What a finished benchmark job leaves behind for a front-end to save: :class:`FinishedJob`,
the kept ciphertext's key material in a :class:`JobSecret`.

What the engine keeps (``keep_ciphertext_path``) is one message, exactly what
:func:`app.core.files.rawexport.export_raw` writes, in memory mode, and in stream mode for every
cipher that is not AEAD (the chunks go through one cipher context, padded at the end). Stream-mode
AEAD seals every chunk on its own (the nonce's last 8 bytes XORed with the chunk index, one tag
per chunk): no other tool reads that, so a raw export of such a job encrypts the input again as
one message, and only :func:`app.core.files.kept.decrypt_kept` reads the kept file.

Saving the kept ciphertext or the plaintext decrypted back from it is in
:mod:`app.core.files.kept`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from app.core.bench.jobs import InputSpec
from app.core.bench.results import JobResult
from app.core.ciphers.registry import Kind, lookup
from app.core.errors import UserError


@dataclass(frozen=True)
class JobSecret:
    """Key material of a kept ciphertext. repr hides the values so it never reaches a log."""

    ciphertext_path: str
    key: bytes
    iv: bytes

    def __repr__(self) -> str:
        return f"JobSecret(ciphertext_path={self.ciphertext_path!r}, key=<hidden>, iv=<hidden>)"


@dataclass(frozen=True)
class FinishedJob:
    """One row of the results table with what it needs to be saved: the input as it was
    benchmarked, and the kept ciphertext with its key (None when the job kept none)."""

    result: JobResult
    input: InputSpec
    secret: JobSecret | None = None

    def __repr__(self) -> str:  # the result is long; the secret hides itself anyway
        return f"FinishedJob({self.result.label}, input={self.input.path!r}, kept={self.kept})"

    @property
    def kept(self) -> bool:
        return self.secret is not None

    @property
    def kept_is_one_message(self) -> bool:
        """Whether the kept ciphertext is a raw export as it is (see the module docstring)."""
        if self.secret is None:
            return False
        spec = lookup(self.result.cipher, self.result.library, self.result.key_bits)
        return self.result.data_mode == "memory" or spec.kind is not Kind.AEAD


def check_input_unchanged(job: FinishedJob) -> None:
    """Refuse to encrypt the job's input again when it is gone or is not what was benchmarked."""
    spec = job.input
    try:
        st = os.stat(spec.path)
    except OSError:
        if spec.generated:
            raise UserError(
                "the generated input of this job is gone (it is deleted on Reset or when it is "
                "removed from the inputs); run the benchmark again"
            ) from None
        raise UserError(f"the input {spec.path} of this job is gone") from None
    if st.st_size != spec.size_bytes or st.st_mtime_ns != spec.mtime_ns:
        raise UserError(
            f"{spec.label} changed since the benchmark ran; encrypt it with File > Encrypt "
            "file… instead, or run the benchmark again"
        )
