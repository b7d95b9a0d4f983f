"""A profile run: per entry, each round's timed stacks and the job's times with and without
the profiler. Frozen, and to and from the JSON the history stores."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.core.runtime.envelope import (
    Envelope,
    entry_dict,
    entry_names,
    envelope_dict,
    envelope_fields,
)

FORMAT = "cipherbench-profile"
VERSION = 1


@dataclass(frozen=True)
class ProfileRound:
    """One round of one entry, in one fresh worker: the job timed as the bench times it, then
    the same job in a fresh process under the profiler."""

    plain_s: tuple[tuple[float, ...], tuple[float, ...]]  # per call: encrypt, decrypt samples
    profiled_s: tuple[tuple[float, ...], tuple[float, ...]]  # the same under the profiler
    stacks: Mapping[str, int] = field(default_factory=dict)  # timed samples by stack
    untimed: int = 0  # samples outside the timed calls (start, imports, setup)
    errors: int = 0  # samples py-spy could not take
    native: bool = False  # native frames sampled (py-spy --native)
    user_s: float = 0.0  # the unprofiled job's CPU time in user space ...
    system_s: float = 0.0  # ... and in the kernel
    profiled_first: bool = False  # the order of the two runs in this round
    note: str = ""  # why this round has no profile (no profiler, or it failed)

    @property
    def samples(self) -> int:
        return sum(self.stacks.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "plain_s": [list(d) for d in self.plain_s],
            "profiled_s": [list(d) for d in self.profiled_s],
            "stacks": dict(self.stacks),
            "untimed": self.untimed,
            "errors": self.errors,
            "native": self.native,
            "user_s": self.user_s,
            "system_s": self.system_s,
            "profiled_first": self.profiled_first,
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ProfileRound:
        def pair(value: Any) -> tuple[tuple[float, ...], tuple[float, ...]]:
            enc, dec = value
            return tuple(map(float, enc)), tuple(map(float, dec))

        return cls(
            plain_s=pair(data["plain_s"]),
            profiled_s=pair(data["profiled_s"]),
            stacks={str(k): int(v) for k, v in dict(data.get("stacks") or {}).items()},
            untimed=int(data.get("untimed", 0)),
            errors=int(data.get("errors", 0)),
            native=bool(data.get("native", False)),
            user_s=float(data.get("user_s", 0.0)),
            system_s=float(data.get("system_s", 0.0)),
            profiled_first=bool(data.get("profiled_first", False)),
            note=str(data.get("note", "")),
        )


@dataclass(frozen=True)
class ProfileEntry:
    cipher: str
    library: str
    key_bits: int
    input_label: str
    input_bytes: int
    rounds: tuple[ProfileRound, ...]

    @property
    def label(self) -> str:
        return f"{self.cipher} [{self.library}]"

    def stacks(self) -> Counter[str]:
        """Every round's timed samples, added up (what the flame graph draws)."""
        total: Counter[str] = Counter()
        for r in self.rounds:
            total.update(r.stacks)
        return total


@dataclass(frozen=True, kw_only=True)
class ProfileResult(Envelope):
    results: tuple[ProfileEntry, ...]
    rate: int  # samples a second asked of the profiler
    profiler: str  # "py-spy 0.4.3", "perf version 6.1.187", or "" when none was found

    def to_dict(self) -> dict[str, Any]:
        data = envelope_dict(self, FORMAT, VERSION)
        data.update(rate=self.rate, profiler=self.profiler)
        data["results"] = [
            entry_dict(e, input_bytes=e.input_bytes, rounds=[r.to_dict() for r in e.rounds])
            for e in self.results
        ]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ProfileResult:
        results = tuple(
            ProfileEntry(
                *entry_names(e),
                str(e["input_label"]),
                int(e["input_bytes"]),
                tuple(ProfileRound.from_dict(r) for r in e["rounds"]),
            )
            for e in data["results"]
        )
        return cls(
            results=results,
            rate=int(data.get("rate", 0)),
            profiler=str(data.get("profiler", "")),
            **envelope_fields(data),
        )
