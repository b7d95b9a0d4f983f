"""A leak test's result: per entry, what its worker measured (:mod:`.measure`). Frozen, and to
and from the JSON the history stores."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.leak.job import CONTROL_LIBRARY
from app.core.runtime.envelope import (
    Envelope,
    entry_dict,
    entry_names,
    envelope_dict,
    envelope_fields,
)

FORMAT = "cipherbench-leak"
VERSION = 1


def _float(value: Any) -> float:
    return math.nan if value is None else float(value)


@dataclass(frozen=True)
class LeakEntry:
    cipher: str
    library: str
    key_bits: int
    aes_instructions: bool  # False: measured with the CPU's AES instructions off
    calls: int  # measured calls (the discarded first batch not counted)
    per_class: tuple[int, int]
    best_test: str  # the test with the largest |t| ("raw", "cropped at 98.6 %", ...)
    t: float  # its t: positive when class 0 is slower; nan before any test counted
    detectable_ns: float  # the smallest mean shift the most sensitive test would have seen
    t_raw: float
    t_second_order: float
    curve: tuple[tuple[int, float], ...]  # (calls so far, the largest |t| then)
    mean_effect_ns: tuple[float, float, float]  # the best test's class 0 - class 1 means, CI
    effect_ns: tuple[float, float, float]  # median class 0 - class 1, its 95 % interval
    median_ns: tuple[float, float]  # each class's median call time
    batch: int
    cpu: int  # the core the worker was pinned to (-1: not pinned)
    stopped_early: bool  # |t| reached the leak threshold before the budget ended
    seconds: float

    @property
    def label(self) -> str:
        hw = ", AES instructions off" if not self.aes_instructions else ""
        return f"{self.cipher} [{self.library}{hw}]"

    @classmethod
    def measured(
        cls, names: tuple[str, str, int], aes_instructions: bool, got: Mapping[str, Any]
    ) -> LeakEntry:
        """From the worker's dict (or the JSON's, which holds the same keys)."""
        effect = tuple(_float(v) for v in got["effect_ns"])
        means = tuple(_float(v) for v in got["mean_effect_ns"])
        medians = tuple(_float(v) for v in got["median_ns"])
        return cls(
            *names,
            aes_instructions=aes_instructions,
            calls=int(got["calls"]),
            per_class=(int(got["per_class"][0]), int(got["per_class"][1])),
            best_test=str(got["best_test"]),
            t=_float(got["t"]),
            detectable_ns=_float(got["detectable_ns"]),
            t_raw=_float(got["t_raw"]),
            t_second_order=_float(got["t_second_order"]),
            curve=tuple((int(n), float(t)) for n, t in got["curve"]),
            mean_effect_ns=(means[0], means[1], means[2]),
            effect_ns=(effect[0], effect[1], effect[2]),
            median_ns=(medians[0], medians[1]),
            batch=int(got["batch"]),
            cpu=int(got["cpu"]),
            stopped_early=bool(got["stopped_early"]),
            seconds=float(got["seconds"]),
        )

    def figures(self) -> dict[str, Any]:
        def number(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {
            "calls": self.calls,
            "per_class": list(self.per_class),
            "best_test": self.best_test,
            "t": number(self.t),
            "detectable_ns": number(self.detectable_ns),
            "t_raw": number(self.t_raw),
            "t_second_order": number(self.t_second_order),
            "curve": [list(p) for p in self.curve],
            "mean_effect_ns": [number(x) for x in self.mean_effect_ns],
            "effect_ns": [number(x) for x in self.effect_ns],
            "median_ns": [number(x) for x in self.median_ns],
            "batch": self.batch,
            "cpu": self.cpu,
            "stopped_early": self.stopped_early,
            "seconds": self.seconds,
        }


@dataclass(frozen=True, kw_only=True)
class LeakResult(Envelope):
    results: tuple[LeakEntry, ...]
    classes: str  # one of job.CLASSES
    length: int  # message bytes
    budget_s: float  # per entry
    seed: int  # of the classes' draw and the inputs: the same seed draws the same classes

    def to_dict(self) -> dict[str, Any]:
        data = envelope_dict(self, FORMAT, VERSION)
        data.update(classes=self.classes, length=self.length, budget_s=self.budget_s)
        data["seed"] = self.seed
        data["results"] = [
            entry_dict(e, aes_instructions=e.aes_instructions, **e.figures(),
                       input_label=self.input_label(e))
            for e in self.results
        ]  # fmt: skip
        return data

    def input_label(self, entry: LeakEntry) -> str:
        """What the entry's calls took, as the history lists a run's inputs:
        ``16-byte messages (fixed-random)``, ``16-byte tags (fixed-random)``."""
        what = "tags" if entry.library == CONTROL_LIBRARY else "messages"
        hw = "" if entry.aes_instructions else ", AES instructions off"
        return f"{self.length}-byte {what} ({self.classes}{hw})"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LeakResult:
        return cls(
            results=tuple(
                LeakEntry.measured(entry_names(e), bool(e.get("aes_instructions", True)), e)
                for e in data["results"]
            ),
            classes=str(data["classes"]),
            length=int(data["length"]),
            budget_s=float(data["budget_s"]),
            seed=int(data["seed"]),
            **envelope_fields(data),
        )
