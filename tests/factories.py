"""The one hand-built :class:`JobResult` the tests share (GUI tables, exports, hostile input).

Every field has a plausible value; a test names only what it is about. Statistics are derived
from the samples with the engine's own ``summarize``, so they are consistent by construction."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from app.core.bench.results import JobResult
from app.core.bench.stats import summarize

MIB = 2**20


def job_result(
    *,
    cipher: str = "aes-256-ctr",
    library: str = "cryptography",
    algorithm: str = "AES",
    key_bits: int = 256,
    mode: str = "CTR",
    input_label: str = "input.bin",
    input_bytes: int = 1_000_000,
    output_bytes: int | None = None,
    enc_s: Sequence[float] = (0.001, 0.0011, 0.0009),
    dec_s: Sequence[float] = (0.002, 0.0021, 0.0019),
    enc_warmup_s: Sequence[float] = (0.01,),
    dec_warmup_s: Sequence[float] = (0.02,),
    peak_rss: int | None = 80 * MIB,
    baseline_rss: int = 40 * MIB,
    python_peak: int = MIB,
    **changes: Any,
) -> JobResult:
    """A finished job; ``output_bytes`` defaults to the input plus a 16-byte tag, the memory
    figures all go when ``peak_rss`` is None; ``changes`` replace any other field."""
    result = JobResult(
        cipher=cipher,
        library=library,
        algorithm=algorithm,
        key_bits=key_bits,
        mode=mode,
        data_mode="memory",
        input_label=input_label,
        input_bytes=input_bytes,
        output_bytes=input_bytes + 16 if output_bytes is None else output_bytes,
        chunk_bytes=None,
        verified_round_trips=len(enc_s) + 1,
        # With rounds, the median is the cell's (the median of the rounds' medians).
        encrypt=summarize(
            enc_s, input_bytes, enc_warmup_s, [r.encrypt_n for r in changes.get("rounds", ())]
        ),
        decrypt=summarize(
            dec_s, input_bytes, dec_warmup_s, [r.decrypt_n for r in changes.get("rounds", ())]
        ),
        key_setup_s=(1e-6,),
        ciphertext_preview_hex="00112233445566778899aabbccddeeff" * 2,
        peak_rss_bytes=peak_rss,
        baseline_rss_bytes=None if peak_rss is None else baseline_rss,
        python_peak_bytes=None if peak_rss is None else python_peak,
        cpu_percent=99.5,
    )
    return dataclasses.replace(result, **changes)
