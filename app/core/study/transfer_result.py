"""What a transfer study produced (``workload = "transfer"``, the loopback study): one
:class:`~app.core.transfer.results.TransferResult` per (cipher, input), its failures, the
machine, and the claims derived from the raw total times as a cipher study derives them: per
cipher a fit of total time against size, per input each pair compared on their rounds (each a fresh
sender and receiver: :mod:`app.core.study.claims`).

Frozen; the derived values are computed on first use and kept.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any

from app.core.study.analysis import LinearFit, fit_time_vs_size
from app.core.study.claims import Comparison, compare
from app.core.study.definition import UNITS
from app.core.study.result import StudyRecord, record_fields
from app.core.transfer.results import TransferResult, transfer_result_from_dict
from app.core.units import MIB


def transfer_rate(result: TransferResult, units: str) -> float:
    """Input size over the median total time, in ``units`` (a key of ``UNITS``)."""
    median = result.timing.median_s
    return result.input_bytes / median / UNITS[units] if median > 0 else 0.0


def end_mib(result: TransferResult, end: str) -> float:
    """The largest peak above baseline of one end ("sender" or "receiver") in MiB."""
    return float(getattr(result, end).peak_above_baseline_bytes) / MIB


@dataclass(frozen=True)
class TransferFit:
    cipher_label: str
    fit: LinearFit | None  # None: fewer than two sizes


@dataclass(frozen=True)
class TransferComparison:
    input_label: str
    comparison: Comparison

    @property
    def direction(self) -> str:
        return "transfer"

    def sentence(self) -> str:
        return self.comparison.sentence()

    def to_dict(self) -> dict[str, Any]:
        return {"input": self.input_label, **self.comparison.to_dict()}


@dataclass(frozen=True)
class TransferStudyResult(StudyRecord[TransferResult]):
    """A transfer study's results; ``cancelled``: stopped before every cell ran."""

    rounds_completed: int = 1  # rounds run (each cell's own are its ``round_sizes``)

    def how_run(self) -> str:
        s = self.study
        if s.rounds == 1:
            return (
                f"one transfer after another over TCP loopback, {s.chunk_bytes:,}-byte chunks, "
                f"{s.warmup} warm-up and {s.repeat} timed runs each, both ends in processes of "
                "their own"
            )
        extra = (
            f", then up to {self.rounds_completed} for the cells of claims not yet within "
            f"±{s.precision_percent:g} %"
            if self.rounds_completed > s.rounds
            else ""
        )
        return (
            f"{s.rounds} interleaved rounds over TCP loopback{extra}, each round in a random "
            f"order of its own, each cell's round a fresh sender and receiver process with "
            f"{s.warmup} warm-up and {s.repeat_per_round} timed runs, {s.chunk_bytes:,}-byte "
            "chunks"
        )

    @cached_property
    def fits(self) -> tuple[TransferFit, ...]:
        """Per cipher, the least-squares line of median total time on size."""
        out = []
        for label in self.cipher_labels():
            points = [(r.input_bytes, r.timing.median_s) for r in self.results if r.label == label]
            try:
                fit: LinearFit | None = fit_time_vs_size(points)
            except ValueError:
                fit = None
            out.append(TransferFit(label, fit))
        return tuple(out)

    @cached_property
    def comparisons(self) -> tuple[TransferComparison, ...]:
        """Per input, each pair of ciphers, from the raw total times."""
        out = []
        for input_label, results in self.by_input().items():
            for a, b in itertools.combinations(results, 2):
                try:
                    c = compare(
                        a.label,
                        a.round_samples(),
                        b.label,
                        b.round_samples(),
                        direction="transfer",
                        margin=self.study.margin_percent / 100,
                        target=self.study.precision_percent / 100,
                    )
                except ValueError:
                    continue
                out.append(TransferComparison(input_label, c))
        return tuple(out)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TransferStudyResult:
        """Inverse of :meth:`to_dict`. The statistics come again from the raw times, and the
        fits and comparisons are derived from them as they were (they are deterministic).
        Raises ``KeyError``, ``TypeError`` or ``ValueError`` on a malformed record."""
        return cls(
            **record_fields(data),
            results=tuple(transfer_result_from_dict(r) for r in data["results"]),
            rounds_completed=int(data.get("rounds_completed", 1)),
        )

    def to_dict(self) -> dict[str, Any]:
        fits = [
            {"cipher": f.cipher_label, "fit": None if f.fit is None else asdict(f.fit)}
            for f in self.fits
        ]
        record = self._record(
            {"how_run": self.how_run(), "rounds_completed": self.rounds_completed},
            {"fits": fits, "comparisons": [c.to_dict() for c in self.comparisons]},
        )
        return {"workload": "transfer", **record}
