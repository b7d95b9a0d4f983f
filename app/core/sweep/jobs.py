"""What one sweep round measures (a :class:`SweepJob`), what it sends back (raw samples), and
what a whole sweep or ladder runs (a :class:`SweepPlan`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ENCRYPT, DECRYPT, FORGERY, KEY_SETUP = "encrypt", "decrypt", "forgery", "key setup"
MESSAGE = "message"  # encrypting a whole message with a cipher object of its own, as bench does
OPERATIONS = (ENCRYPT, DECRYPT, FORGERY, KEY_SETUP, MESSAGE)


@dataclass(frozen=True)
class SweepJob:
    """One cipher entry over message lengths, in one fresh worker (one round).

    ``ad_lengths`` (AEADs only) are timed for encryption at each of ``ad_at`` that is also one
    of ``lengths``; ``aes_instructions=False`` runs the worker with the CPU's AES instructions
    switched off (:mod:`app.core.ciphers.hardware`)."""

    cipher_id: str
    library: str
    key_bits: int
    lengths: tuple[int, ...]
    ad_lengths: tuple[int, ...] = ()
    ad_at: tuple[int, ...] = ()
    forgery: bool = True
    key_setup: bool = True
    decrypt: bool = True
    message: bool = True
    aes_instructions: bool = True
    point_time_s: float = 0.1  # timed per point and round, after calibration
    passes: int = 5  # slices each point's time is cut into, spread over the round

    @property
    def label(self) -> str:
        hw = "" if self.aes_instructions else ", AES instructions off"
        return f"{self.cipher_id} [{self.library}{hw}]"


@dataclass(frozen=True)
class PointSamples:
    """One point of one round: ``calls`` calls per timer read, each sample's time per call."""

    operation: str  # one of OPERATIONS
    message_bytes: int
    ad_bytes: int
    calls: int
    ns_per_call: tuple[float, ...]
    cycles_per_call: tuple[float, ...] = ()  # from the hardware counter; empty without one


@dataclass(frozen=True)
class SkippedPoint:
    """A length not timed, and why (one call would take too long, say)."""

    message_bytes: int
    reason: str


@dataclass(frozen=True)
class RoundSamples:
    """Everything one worker measured for one :class:`SweepJob`."""

    job: SweepJob
    points: tuple[PointSamples, ...]
    skipped: tuple[SkippedPoint, ...]
    counter: bool  # cycles counted by the CPU (else estimated from time)
    clock_mhz: float | None  # the kernel's clock figure, the mean of before and after
    library_version: str


@dataclass(frozen=True)
class SweepPlan:
    """What a sweep or a ladder runs (``kind``): the jobs, each for ``rounds`` rounds, each
    one's note (``notes[i]``: job i's), the run's options as its result keeps them, and a
    ladder's title (its cipher)."""

    kind: str
    jobs: tuple[SweepJob, ...]
    rounds: int
    options: Mapping[str, Any] = field(default_factory=dict)
    title: str = ""
    notes: tuple[str, ...] = ()
