"""A sweep's results: per entry and point, the raw samples of every round, and their summary.

Units: time per call in ns; throughput in MB/s (10^6 bytes per second, the message's bytes,
not the padding's or the tag's); cycles per byte from the CPU's counter when the worker had one
(``counter``), otherwise time x the clock frequency the kernel reported (``clock_mhz``), marked
as an estimate in every view. Median and quartiles pool every sample of every round; each
round's own median is kept beside them (``round_medians_ns``), since a round is one worker at
one moment and two rounds differ more than two samples of one round do.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core.bench.run_info import Environment
from app.core.export.json_export import json_safe
from app.core.runtime.envelope import NamedFailure, named_failures, named_failures_json
from app.core.sweep.jobs import DECRYPT, ENCRYPT, KEY_SETUP, PointSamples, RoundSamples

FORMAT = "cipherbench-sweep"
VERSION = 1
SWEEP, LADDER = "sweep", "ladder"


@dataclass(frozen=True)
class SweepPoint:
    """One operation at one message (and associated data) length, over every round."""

    operation: str
    message_bytes: int
    ad_bytes: int
    rounds_ns: tuple[tuple[float, ...], ...]  # per round: its samples' time per call (ns)
    rounds_cycles: tuple[tuple[float, ...], ...] = ()  # per round, when counted
    calls: tuple[int, ...] = ()  # per round: calls per sample

    @property
    def samples_ns(self) -> list[float]:
        return [x for r in self.rounds_ns for x in r]

    @property
    def median_ns(self) -> float:
        """The median of the rounds' medians: each round (one worker at one moment) counts
        once, however many samples its calibration gave it."""
        return statistics.median(self.round_medians_ns)

    @property
    def quartiles_ns(self) -> tuple[float, float]:
        xs = sorted(self.samples_ns)
        if len(xs) < 2:
            return xs[0], xs[0]
        q1, _, q3 = statistics.quantiles(xs, n=4, method="inclusive")
        return q1, q3

    @property
    def round_medians_ns(self) -> list[float]:
        return [statistics.median(r) for r in self.rounds_ns if r]

    @property
    def ns_per_byte(self) -> float | None:
        return self.median_ns / self.message_bytes if self.message_bytes else None

    @property
    def mb_s(self) -> float | None:
        """Message bytes per microsecond = MB/s (10^6 bytes per second)."""
        m = self.median_ns
        return self.message_bytes / m * 1e3 if self.message_bytes and m > 0 else None

    def cycles_per_call(self, clock_mhz: float | None) -> float | None:
        """Counted cycles per call as the time is taken: the median of the rounds' medians
        (each round counts once); else the estimate, time x ``clock_mhz``."""
        counted = [statistics.median(r) for r in self.rounds_cycles if r]
        if counted:
            return statistics.median(counted)
        return self.median_ns * clock_mhz / 1e3 if clock_mhz else None

    def cycles_per_byte(self, clock_mhz: float | None) -> float | None:
        cycles = self.cycles_per_call(clock_mhz)
        if cycles is None or not self.message_bytes:
            return None
        return cycles / self.message_bytes

    def to_dict(self) -> dict[str, Any]:
        return {
            "operation": self.operation,
            "message_bytes": self.message_bytes,
            "ad_bytes": self.ad_bytes,
            "rounds_ns": [list(r) for r in self.rounds_ns],
            "rounds_cycles": [list(r) for r in self.rounds_cycles],
            "calls": list(self.calls),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SweepPoint:
        return cls(
            operation=str(data["operation"]),
            message_bytes=int(data["message_bytes"]),
            ad_bytes=int(data.get("ad_bytes", 0)),
            rounds_ns=tuple(tuple(float(x) for x in r) for r in data["rounds_ns"]),
            rounds_cycles=tuple(tuple(float(x) for x in r) for r in data.get("rounds_cycles", ())),
            calls=tuple(int(c) for c in data.get("calls", ())),
        )


@dataclass(frozen=True)
class SweepEntry:
    """One cipher entry (one library, with or without the AES instructions) over its lengths."""

    cipher: str
    library: str
    key_bits: int
    aes_instructions: bool
    library_version: str
    points: tuple[SweepPoint, ...]
    skipped: Mapping[int, str] = field(default_factory=dict)  # message bytes -> why not timed
    counter: bool = False  # cycles counted by the CPU in every round
    clock_mhz: float | None = None  # the kernel's clock figure over the rounds
    rounds: int = 0
    note: str = ""  # e.g. the pure-Python stand-in of a ladder

    @property
    def label(self) -> str:
        hw = "" if self.aes_instructions else ", AES instructions off"
        return f"{self.cipher} [{self.library}{hw}]"

    @property
    def cycles_source(self) -> str:
        if self.counter:
            return "CPU cycle counter"
        if self.clock_mhz:
            return f"estimate: time x {self.clock_mhz:,.0f} MHz (the kernel's clock figure)"
        return "not available (no cycle counter and no clock figure)"

    def point(self, operation: str, message_bytes: int, ad_bytes: int = 0) -> SweepPoint | None:
        for p in self.points:
            if (p.operation, p.message_bytes, p.ad_bytes) == (operation, message_bytes, ad_bytes):
                return p
        return None

    def curve(self, operation: str = ENCRYPT) -> list[SweepPoint]:
        """The points of ``operation`` without associated data, by message length."""
        found = [p for p in self.points if p.operation == operation and p.ad_bytes == 0]
        return sorted((p for p in found if p.message_bytes), key=lambda p: p.message_bytes)

    @property
    def key_setup_ns(self) -> float | None:
        p = self.point(KEY_SETUP, 0)
        return p.median_ns if p else None

    def fixed_cost_ns(self, operation: str = ENCRYPT) -> float | None:
        """What any message costs whatever its length: the shortest message's time less its
        bytes at the longest message's rate (never below zero); None with fewer than 2
        lengths."""
        curve = self.curve(operation)
        if len(curve) < 2:
            return None
        short, long = curve[0], curve[-1]
        rate = long.median_ns / long.message_bytes
        return max(0.0, short.median_ns - rate * short.message_bytes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cipher": self.cipher,
            "library": self.library,
            "library_version": self.library_version,
            "key_bits": self.key_bits,
            "aes_instructions": self.aes_instructions,
            "rounds": self.rounds,
            "counter": self.counter,
            "clock_mhz": self.clock_mhz,
            "note": self.note,
            "skipped": [{"message_bytes": n, "reason": r} for n, r in self.skipped.items()],
            "points": [p.to_dict() for p in self.points],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SweepEntry:
        mhz = data.get("clock_mhz")
        return cls(
            cipher=str(data["cipher"]),
            library=str(data["library"]),
            key_bits=int(data["key_bits"]),
            aes_instructions=bool(data.get("aes_instructions", True)),
            library_version=str(data.get("library_version", "")),
            points=tuple(SweepPoint.from_dict(p) for p in data["points"]),
            skipped={int(s["message_bytes"]): str(s["reason"]) for s in data.get("skipped", ())},
            counter=bool(data.get("counter", False)),
            clock_mhz=None if mhz is None else float(mhz),
            rounds=int(data.get("rounds", 0)),
            note=str(data.get("note", "")),
        )


def merge_rounds(rounds: Sequence[RoundSamples], note: str = "") -> SweepEntry:
    """The entry measured by ``rounds`` (at least one, all of the same job)."""
    job = rounds[0].job
    keys: dict[tuple[str, int, int], list[PointSamples]] = {}
    for r in rounds:
        for p in r.points:
            keys.setdefault((p.operation, p.message_bytes, p.ad_bytes), []).append(p)
    points = tuple(
        SweepPoint(
            operation=op,
            message_bytes=n,
            ad_bytes=ad,
            rounds_ns=tuple(p.ns_per_call for p in ps),
            rounds_cycles=tuple(p.cycles_per_call for p in ps if p.cycles_per_call),
            calls=tuple(p.calls for p in ps),
        )
        for (op, n, ad), ps in keys.items()
    )
    skipped = {s.message_bytes: s.reason for r in rounds for s in r.skipped}
    mhz = [r.clock_mhz for r in rounds if r.clock_mhz]
    return SweepEntry(
        cipher=job.cipher_id,
        library=job.library,
        key_bits=job.key_bits,
        aes_instructions=job.aes_instructions,
        library_version=rounds[0].library_version,
        points=points,
        skipped=skipped,
        counter=all(r.counter for r in rounds),
        clock_mhz=statistics.fmean(mhz) if mhz else None,
        rounds=len(rounds),
        note=note,
    )


@dataclass(frozen=True)
class SweepResult:
    """A ``sweep`` or a ``ladder`` run: every entry, the options, the machine.
    ``options`` holds ``lengths``, ``ad_lengths``, ``ad_at``, ``rounds`` and
    ``point_time_s``."""

    kind: str  # SWEEP or LADDER
    entries: tuple[SweepEntry, ...]
    failures: tuple[NamedFailure, ...]
    options: Mapping[str, Any]
    environment: Environment
    started_at: str
    finished_at: str
    cipherbench_version: str | None = None
    cancelled: bool = False
    title: str = ""  # a ladder's cipher, say

    @property
    def results(self) -> tuple[SweepEntry, ...]:
        """The entries, under the name every stored run uses."""
        return self.entries

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "title": self.title,
            "cipherbench": self.cipherbench_version,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "cancelled": self.cancelled,
            "options": dict(self.options),
            "results": [e.to_dict() for e in self.entries],
            "failures": named_failures_json(self.failures),
            "environment": self.environment.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SweepResult:
        """Inverse of :meth:`to_dict`; ``KeyError``, ``TypeError`` or ``ValueError`` when
        malformed."""
        kind = str(data.get("kind", SWEEP))
        if kind not in (SWEEP, LADDER):
            raise ValueError(f"unknown kind of sweep {kind!r}")
        return cls(
            kind=kind,
            entries=tuple(SweepEntry.from_dict(e) for e in data["results"]),
            failures=named_failures(data["failures"]),
            options=dict(data["options"]),
            environment=Environment.from_dict(data["environment"]),
            started_at=str(data["started_at"]),
            finished_at=str(data["finished_at"]),
            cipherbench_version=data.get("cipherbench"),
            cancelled=bool(data.get("cancelled", False)),
            title=str(data.get("title", "")),
        )


def sweep_document(result: SweepResult) -> dict[str, Any]:
    """The JSON document of ``result`` (``sweep --out x.json``), as Python objects."""
    return {"format": FORMAT, "version": VERSION, **json_safe(result.to_dict())}


DIRECTIONS = (ENCRYPT, DECRYPT)
