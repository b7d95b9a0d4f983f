"""Hand-built engine values for GUI tests that do not need the real engine."""

from __future__ import annotations

from app.core.results import JobResult, MonitorSample
from app.core.stats import summarize


def job_result(
    cipher: str = "aes-256-ctr",
    library: str = "cryptography",
    *,
    algorithm: str = "AES",
    mode: str = "CTR",
    key_bits: int = 256,
    input_bytes: int = 1_000_000,
    enc_s: tuple[float, ...] = (0.001, 0.0011, 0.0009),
    dec_s: tuple[float, ...] = (0.002, 0.0021, 0.0019),
    warnings: tuple[str, ...] = (),
    peak_rss: int | None = 80 * 2**20,
) -> JobResult:
    return JobResult(
        cipher=cipher,
        library=library,
        algorithm=algorithm,
        key_bits=key_bits,
        mode=mode,
        data_mode="memory",
        input_label="input.bin",
        input_bytes=input_bytes,
        output_bytes=input_bytes + 16,
        chunk_bytes=None,
        verified=True,
        encrypt=summarize(enc_s, input_bytes, (0.01,)),
        decrypt=summarize(dec_s, input_bytes, (0.02,)),
        key_setup_s=(1e-6,),
        ciphertext_preview_hex="00112233445566778899aabbccddeeff" * 2,
        peak_rss_bytes=peak_rss,
        baseline_rss_bytes=None if peak_rss is None else 40 * 2**20,
        python_peak_bytes=None if peak_rss is None else 2**20,
        cpu_percent=99.5,
        warnings=warnings,
        monitor=(MonitorSample(0.05, 50.0, 30 * 2**20), MonitorSample(0.1, 100.0, 60 * 2**20)),
    )
