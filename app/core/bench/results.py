"""Frozen results. Units are in field names; raw samples are kept and statistics derived."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from app.core.bench.stats import TimingStats


@dataclass(frozen=True)
class MonitorSample:
    """The worker process seen from outside every 50 ms (seed 004's monitor)."""

    t_s: float  # since the job started
    cpu_percent: float  # of one core; above 100 when a library uses several threads
    rss_bytes: int


@dataclass(frozen=True)
class JobResult:
    cipher: str  # registry id, e.g. "aes-256-gcm"
    library: str
    algorithm: str
    key_bits: int
    mode: str
    data_mode: str
    input_label: str
    input_bytes: int
    output_bytes: int  # ciphertext size (stream-mode AEAD: one tag per chunk)
    chunk_bytes: int | None  # stream mode only
    verified: bool  # decrypted output equals the input (bytes or SHA-256)
    encrypt: TimingStats
    decrypt: TimingStats
    key_setup_s: tuple[float, ...]  # context creation (key schedule), timed on its own
    ciphertext_preview_hex: str  # first 32 bytes of ciphertext
    peak_rss_bytes: int | None  # kernel high-water mark of the worker in the memory pass
    baseline_rss_bytes: int | None  # worker RSS when that pass began
    python_peak_bytes: int | None  # tracemalloc peak in the memory pass (what seed 000 reports)
    cpu_percent: float  # process CPU time / wall time over the timed runs
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # the entry's security notes (ECB, 64-bit block, ...)
    monitor: tuple[MonitorSample, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.cipher} [{self.library}]"

    @property
    def expansion_bytes(self) -> int:
        return self.output_bytes - self.input_bytes

    @property
    def memory_above_baseline_bytes(self) -> int | None:
        if self.peak_rss_bytes is None or self.baseline_rss_bytes is None:
            return None
        return self.peak_rss_bytes - self.baseline_rss_bytes

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["expansion_bytes"] = self.expansion_bytes
        d["memory_above_baseline_bytes"] = self.memory_above_baseline_bytes
        for direction in ("encrypt", "decrypt"):
            d[direction]["stdev_percent"] = getattr(self, direction).stdev_percent
        return d


@dataclass(frozen=True)
class JobFailure:
    cipher: str
    library: str
    message: str


@dataclass(frozen=True)
class RunResult:
    """Everything one run produced, with the machine it ran on."""

    results: tuple[JobResult, ...]
    failures: tuple[JobFailure, ...]
    environment: dict[str, Any]
    options: dict[str, Any]
    started_at: str  # ISO 8601, UTC
    finished_at: str
    cancelled: bool = False
    tool: dict[str, Any] = field(default_factory=dict)  # CipherBench name and version

    def to_dict(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "cancelled": self.cancelled,
            "options": self.options,
            "environment": self.environment,
            "results": [r.to_dict() for r in self.results],
            "failures": [asdict(f) for f in self.failures],
        }
