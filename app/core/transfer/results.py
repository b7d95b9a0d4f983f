"""The results of transfers: frozen values with the unit in every field name, raw samples kept,
statistics derived (:func:`app.core.bench.stats.summarize`, as ``bench`` does)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from app.core.bench.stats import TimingStats


@dataclass(frozen=True)
class EndSample:
    """One end (sender or receiver) in one run. ``cpu_percent`` is its CPU time over its own
    part of the transfer divided by that part's wall time (100 = one core busy)."""

    wall_seconds: float
    cpu_seconds: float
    baseline_rss_bytes: int
    peak_rss_bytes: int  # the kernel's high-water mark during the run (reset just before)

    @property
    def cpu_percent(self) -> float:
        return 100.0 * self.cpu_seconds / self.wall_seconds if self.wall_seconds > 0 else 0.0

    @property
    def peak_above_baseline_bytes(self) -> int:
        return max(0, self.peak_rss_bytes - self.baseline_rss_bytes)


@dataclass(frozen=True)
class RunSample:
    """One transfer: first byte sent to last byte verified (sender's and receiver's clocks are
    the same monotonic clock), and whether both digests matched."""

    total_seconds: float
    sender: EndSample
    receiver: EndSample
    verified: bool


@dataclass(frozen=True)
class EndSummary:
    """One end over the counted runs: the median CPU %, and the run with the largest peak."""

    cpu_percent: float
    baseline_rss_bytes: int
    peak_rss_bytes: int

    @property
    def peak_above_baseline_bytes(self) -> int:
        return max(0, self.peak_rss_bytes - self.baseline_rss_bytes)

    @classmethod
    def of(cls, samples: list[EndSample]) -> EndSummary:
        worst = max(samples, key=lambda s: s.peak_above_baseline_bytes)
        return cls(
            statistics.median(s.cpu_percent for s in samples),
            worst.baseline_rss_bytes,
            worst.peak_rss_bytes,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "cpu_percent": self.cpu_percent,
            "baseline_rss_bytes": self.baseline_rss_bytes,
            "peak_rss_bytes": self.peak_rss_bytes,
            "peak_above_baseline_bytes": self.peak_above_baseline_bytes,
        }


@dataclass(frozen=True)
class TransferResult:
    """Every run of one cipher on one input. ``timing`` holds the total times (warm-ups apart);
    throughput is the input size over the median total time."""

    cipher_id: str
    library: str | None  # None for the plaintext baseline
    input_label: str
    input_bytes: int
    chunk_bytes: int
    chunks: int
    runs: tuple[RunSample, ...]
    warmups: tuple[RunSample, ...]
    timing: TimingStats
    warnings: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.cipher_id} ({self.library})" if self.library else self.cipher_id

    @property
    def verified(self) -> bool:
        return all(r.verified for r in (*self.warmups, *self.runs))

    @property
    def throughput_mb_s(self) -> float:
        return self.timing.throughput_mb_s

    @property
    def throughput_mib_s(self) -> float:
        return self.timing.throughput_mib_s

    @property
    def sender(self) -> EndSummary:
        return EndSummary.of([r.sender for r in self.runs])

    @property
    def receiver(self) -> EndSummary:
        return EndSummary.of([r.receiver for r in self.runs])

    def to_dict(self) -> dict[str, Any]:
        t = self.timing
        return {
            "cipher": self.cipher_id,
            "library": self.library,
            "input": self.input_label,
            "input_bytes": self.input_bytes,
            "chunk_bytes": self.chunk_bytes,
            "chunks": self.chunks,
            "verified": self.verified,
            "throughput_mb_s": self.throughput_mb_s,
            "throughput_mib_s": self.throughput_mib_s,
            "total_seconds": {
                "min_s": t.min_s,
                "median_s": t.median_s,
                "mean_s": t.mean_s,
                "stdev_s": t.stdev_s,
                "iqr_s": t.iqr_s,
                "max_s": t.max_s,
                "samples_s": list(t.samples_s),
                "warmup_s": list(t.warmup_s),
            },
            "sender": self.sender.to_dict(),
            "receiver": self.receiver.to_dict(),
            "runs": [_run_dict(r) for r in self.runs],
            "warnings": list(self.warnings),
        }


def _run_dict(run: RunSample) -> dict[str, Any]:
    def end(s: EndSample) -> dict[str, Any]:
        return {
            "wall_seconds": s.wall_seconds,
            "cpu_seconds": s.cpu_seconds,
            "cpu_percent": s.cpu_percent,
            "baseline_rss_bytes": s.baseline_rss_bytes,
            "peak_rss_bytes": s.peak_rss_bytes,
        }

    return {
        "total_seconds": run.total_seconds,
        "verified": run.verified,
        "sender": end(run.sender),
        "receiver": end(run.receiver),
    }
