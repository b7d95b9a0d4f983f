"""The results of transfers: frozen values with the unit in every field name, raw samples kept,
statistics derived (:func:`app.core.bench.stats.summarize`, as ``bench`` does).

A whole ``transfer`` command is a :class:`TransferRun`; its JSON document (``transfer --out``,
the history) is ``{"format": "cipherbench-transfer", "version": 1, **run.to_dict()}``
(:func:`transfer_document`), and :meth:`TransferRun.from_dict` reads it back.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from app.core.bench.run_info import Environment
from app.core.bench.stats import TimingStats, summarize
from app.core.document.estimate import split_rounds
from app.core.export.json_export import json_safe
from app.core.runtime.envelope import NamedFailure, named_failures, named_failures_json
from app.core.transfer.load_series import LoadPoint

FORMAT = "cipherbench-transfer"
VERSION = 1
# The keys of a run's document that TransferRun reads; any other is kept in ``extra``.
_RUN_KEYS = frozenset(
    [
        "format",
        "version",
        "cipherbench",
        "input",
        "input_bytes",
        "started_at",
        "finished_at",
        "cancelled",
        "options",
        "results",
        "failures",
        "environment",
    ]
)


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
    # First byte sent to the last byte handed to the sender's kernel: where a sender's clock
    # stops (seed 004's "total time"), before the receiver has verified anything. 0: not known.
    sent_seconds: float = 0.0
    # Both ends' CPU % and memory every 50 ms during the run (empty: not sampled, an older run)
    series: tuple[LoadPoint, ...] = ()


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
        return {**asdict(self), "peak_above_baseline_bytes": self.peak_above_baseline_bytes}


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
    # A study's rounds (each a fresh sender and receiver): how many of ``runs`` each gave, in
    # order; empty: one pair of processes ran them all.
    round_sizes: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.cipher_id} ({self.library})" if self.library else self.cipher_id

    @property
    def sent_median_s(self) -> float | None:
        """The median of the sender-side times (first byte sent to the last handed to the
        kernel: where seed 004's clock stops); None when not known (an older result)."""
        sent = [r.sent_seconds for r in self.runs if r.sent_seconds > 0]
        return statistics.median(sent) if sent else None

    def round_samples(self) -> tuple[tuple[float, ...], ...]:
        """The total times by round: the unit of evidence of a claim (one round without
        ``round_sizes``)."""
        return split_rounds(self.timing.samples_s, self.round_sizes)

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
            "round_sizes": list(self.round_sizes),
            "warnings": list(self.warnings),
        }


def _run_dict(run: RunSample) -> dict[str, Any]:
    def end(s: EndSample) -> dict[str, Any]:
        return {**asdict(s), "cpu_percent": s.cpu_percent}

    return {
        "total_seconds": run.total_seconds,
        "sent_seconds": run.sent_seconds,
        "verified": run.verified,
        "sender": end(run.sender),
        "receiver": end(run.receiver),
        "series": [p.to_list() for p in run.series],
    }


def _end_from_dict(data: Mapping[str, Any]) -> EndSample:
    return EndSample(
        wall_seconds=float(data["wall_seconds"]),
        cpu_seconds=float(data["cpu_seconds"]),
        baseline_rss_bytes=int(data["baseline_rss_bytes"]),
        peak_rss_bytes=int(data["peak_rss_bytes"]),
    )


def transfer_result_from_dict(data: Mapping[str, Any]) -> TransferResult:
    """Inverse of :meth:`TransferResult.to_dict`. The statistics are derived again from the raw
    samples; the warm-up runs come back as their times only (``timing.warmup_s``), so
    ``warmups`` is empty. Raises ``KeyError``, ``TypeError`` or ``ValueError`` on a malformed
    record."""
    total = data["total_seconds"]
    runs = tuple(
        RunSample(
            total_seconds=float(r["total_seconds"]),
            sender=_end_from_dict(r["sender"]),
            receiver=_end_from_dict(r["receiver"]),
            verified=bool(r["verified"]),
            sent_seconds=float(r.get("sent_seconds", 0.0)),
            series=tuple(LoadPoint.from_list(p) for p in r.get("series", ())),
        )
        for r in data["runs"]
    )
    round_sizes = tuple(int(n) for n in data.get("round_sizes", ()))
    return TransferResult(
        cipher_id=str(data["cipher"]),
        library=data.get("library"),
        input_label=str(data["input"]),
        input_bytes=int(data["input_bytes"]),
        chunk_bytes=int(data["chunk_bytes"]),
        chunks=int(data["chunks"]),
        runs=runs,
        warmups=(),
        timing=summarize(
            total["samples_s"], int(data["input_bytes"]), total["warmup_s"], round_sizes
        ),
        warnings=tuple(data.get("warnings", ())),
        round_sizes=round_sizes,
    )


@dataclass(frozen=True)
class TransferRun:
    """One ``transfer`` command: every cipher on one input, the options, the machine.
    ``options`` holds ``chunk_bytes``, ``repeat``, ``warmup`` and ``timeout_s``."""

    input_label: str
    input_bytes: int
    options: Mapping[str, Any]
    results: tuple[TransferResult, ...]
    failures: tuple[NamedFailure, ...]
    environment: Environment
    started_at: str  # ISO 8601, UTC
    finished_at: str
    cipherbench_version: str | None = None
    cancelled: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys this version does not know

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cipherbench": self.cipherbench_version,
            "input": self.input_label,
            "input_bytes": self.input_bytes,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "cancelled": self.cancelled,
            "options": dict(self.options),
            "results": [r.to_dict() for r in self.results],
            "failures": named_failures_json(self.failures),
            "environment": self.environment.to_dict(),
        }
        out.update(self.extra)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TransferRun:
        """Inverse of :meth:`to_dict`; also reads files written before the run had times (the
        environment's capture time stands for both). Raises ``KeyError``, ``TypeError`` or
        ``ValueError`` on a malformed document."""
        environment = Environment.from_dict(data["environment"])
        when = environment.captured_at or ""
        return cls(
            input_label=str(data["input"]),
            input_bytes=int(data["input_bytes"]),
            options=dict(data["options"]),
            results=tuple(transfer_result_from_dict(r) for r in data["results"]),
            failures=named_failures(data["failures"]),
            environment=environment,
            started_at=str(data.get("started_at") or when),
            finished_at=str(data.get("finished_at") or when),
            cipherbench_version=data.get("cipherbench"),
            cancelled=bool(data.get("cancelled", False)),
            extra={k: v for k, v in data.items() if k not in _RUN_KEYS},
        )


def transfer_document(run: TransferRun) -> dict[str, Any]:
    """The JSON document of ``run`` (``transfer --out``), as Python objects."""
    return {"format": FORMAT, "version": VERSION, **json_safe(run.to_dict())}
