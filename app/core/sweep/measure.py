"""One sweep round, inside its worker: every point of a :class:`SweepJob`, timed in slices.

A shared machine has episodes: for a second or so everything runs 20-35 % slower (a
neighbour on the other hyperthread, a frequency step). Timed point after point, an episode
takes every sample of the few points it falls on and moves their medians (AES-256-GCM at
4 KiB read 1,342 ns in one round and 2,069 ns in the next, on this 2-core VM). So a round
times its points in :attr:`SweepJob.passes` slices spread over the whole round: pass after
pass over every point, each slice a share of the point's time. An episode then takes a
minority of each point's samples, and their median steps over it (pyperf spreads its values
over processes for the same reason; here the slices spread them over the round's time).

The calls of a length (:mod:`app.core.sweep.calls`) are made once and kept across the passes
while all kept hold under :data:`KEEP_BYTES`; longer lengths get theirs made afresh in each
pass (a new key, nonce and message), outside the timer. A length whose single call would take
longer than :data:`MAX_CALL_S` (pure Python at megabytes) is skipped, in the first pass.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from app.core.ciphers.adapters import get_adapter
from app.core.ciphers.registry import lookup
from app.core.sweep.calls import (
    KEY_SETUP_BYTES,
    PER_MESSAGE_OBJECTS,
    Call,
    buffer_bytes,
    has_key_setup,
    key_setup_call,
    length_calls,
    length_point_count,
    point_count,
)
from app.core.sweep.jobs import ENCRYPT, PointSamples, RoundSamples, SkippedPoint, SweepJob
from app.core.timing.batches import TooSlow, time_calls
from app.core.timing.cycles import CycleCounter, clock_mhz, open_counter
from app.core.units import MIB

MAX_CALL_S = 2.0
RATE_FROM_BYTES = 16 * 1024
KEEP_BYTES = 64 * MIB

Progress = Callable[[float], None]
Key = tuple[str, int, int]


class _Point:
    """One point's samples, slice after slice; calibrated in its first slice."""

    def __init__(self, key: Key) -> None:
        self.key = key
        # A call longer than its slice gets only its share of these (pure Python at 1 MiB).
        self.min_samples = 3 if key[1] >= MIB else 5
        self.calls: int | None = None
        self.long = False
        self.ns: list[float] = []
        self.cycles: list[float] = []

    def time(
        self, call: Call, budget_s: float, counter: CycleCounter | None, pass_no: int, passes: int
    ) -> None:
        """One slice, in pass ``pass_no`` of ``passes`` (each ``budget_s`` long)."""
        due = math.ceil(self.min_samples * (pass_no + 1) / passes) - len(self.ns)
        if self.long and due <= 0:
            return
        t = time_calls(
            call.fn,
            budget_s,
            counter,
            min_samples=max(1, due),
            max_call_ns=int(MAX_CALL_S * 1e9),
            calls=self.calls,
        )
        if self.calls is None:
            self.calls = t.calls
            self.long = t.calls == 1 and max(t.ns_per_call) >= budget_s * 1e9
            if self.long and max(t.ns_per_call) >= budget_s * passes * 1e9:
                # Longer than the point's whole time: 3 in all, as when timed in one go.
                self.min_samples = min(self.min_samples, 3)
        self.ns += t.ns_per_call
        self.cycles += t.cycles_per_call

    def samples(self) -> PointSamples:
        op, n, ad = self.key
        return PointSamples(op, n, ad, self.calls or 1, tuple(self.ns), tuple(self.cycles))


def run_round(job: SweepJob, progress: Progress | None = None) -> RoundSamples:
    """Time every point of ``job`` in this process (a fresh worker: see app.core.sweep.runner)."""
    spec = lookup(job.cipher_id, job.library, job.key_bits)
    adapter = get_adapter(job.library)
    counter = open_counter()
    mhz_before = clock_mhz()
    passes = max(1, job.passes)
    budget_s = job.point_time_s / passes
    total = point_count(job, spec) * passes  # slices; less a skipped length's
    points: dict[Key, _Point] = {}
    skipped: dict[int, SkippedPoint] = {}
    kept: dict[int, list[Call]] = {}
    kept_bytes = 0
    done = 0
    done_at: dict[int, int] = {}  # slices timed per message length

    def report() -> None:
        if progress is not None:
            progress(done / total if total > 0 else 1.0)

    def time(call: Call, pass_no: int) -> None:
        nonlocal done
        point = points.get(call.key) or _Point(call.key)
        point.time(call, budget_s, counter, pass_no, passes)
        points[call.key] = point
        done += 1
        done_at[call.message_bytes] = done_at.get(call.message_bytes, 0) + 1
        report()

    def skip(length: int, reason: str) -> None:
        """``length`` out of the round: its points, its kept calls and its slices to come."""
        nonlocal kept_bytes, total
        skipped[length] = SkippedPoint(length, reason)
        for key in [k for k in points if k[1] == length]:
            del points[key]
        if kept.pop(length, None) is not None:
            kept_bytes -= buffer_bytes(spec, length)
        total -= length_point_count(job, spec, length) * passes - done_at.get(length, 0)
        report()

    def time_length(length: int, pass_no: int) -> None:
        """One slice of each of ``length``'s points. Its calls, unless kept, go on return,
        before the next length's are made (both could be large: 4 x 64 MiB for an AEAD)."""
        nonlocal kept_bytes
        calls = kept.get(length)
        if calls is None:
            calls = length_calls(job, spec, adapter, length)
            if kept_bytes + buffer_bytes(spec, length) <= KEEP_BYTES:
                kept[length] = calls
                kept_bytes += buffer_bytes(spec, length)
        try:
            for call in calls:
                time(call, pass_no)
        except TooSlow as exc:  # only in a point's first slice (its calibration)
            skip(length, str(exc))

    if job.key_setup and not has_key_setup(job, spec):
        skipped[KEY_SETUP_BYTES] = SkippedPoint(
            KEY_SETUP_BYTES, PER_MESSAGE_OBJECTS[spec.kind, job.library]
        )
    try:
        for pass_no in range(passes):
            if has_key_setup(job, spec):
                time(key_setup_call(spec, adapter), pass_no)
            for length in job.lengths:
                if length in skipped:
                    continue
                if pass_no == 0 and (guess := _predicted_ns(points, length)) > MAX_CALL_S * 1e9:
                    skip(length, f"one call would take about {guess / 1e9:,.0f} s")
                    continue
                time_length(length, pass_no)
    finally:
        if counter is not None:
            counter.close()
    mhz_after = clock_mhz()
    known = [m for m in (mhz_before, mhz_after) if m]
    return RoundSamples(
        job=job,
        points=tuple(p.samples() for p in points.values()),
        skipped=tuple(skipped.values()),
        counter=counter is not None,
        clock_mhz=sum(known) / len(known) if known else None,
        library_version=adapter.version(),
    )


def _predicted_ns(points: dict[Key, _Point], length: int) -> float:
    """A call's time at ``length`` at the rate of the longest length timed so far, once that
    is at least :data:`RATE_FROM_BYTES` (shorter messages' times are mostly per-call cost, not
    a rate); 0 (no guess) before. The warm-up call's own time still stops a length whose
    single call is too long (app.core.timing.batches.TooSlow)."""
    timed = [(k[1], min(p.ns)) for k, p in points.items() if k[0] == ENCRYPT and not k[2]]
    longest = max(timed, default=(0, 0.0))
    if longest[0] < RATE_FROM_BYTES:
        return 0.0
    return longest[1] / longest[0] * length
