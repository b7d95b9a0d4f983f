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

from app.core.ciphers.adapters import Adapter, get_adapter
from app.core.ciphers.registry import CipherSpec, lookup
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
from app.core.timing.batches import MAX_WARM_UP_SLICES, TooSlow, time_calls
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
        self.long = False  # one call fills the slice: its share of samples, not a slice's
        self.warm = True  # warmed before each slice: all but a call longer than the warm-up
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
            call.batch,
            budget_s,
            counter,
            min_samples=max(1, due),
            max_call_ns=int(MAX_CALL_S * 1e9),
            calls=self.calls,
            warm_up=self.warm,
            max_calls=call.max_calls,
        )
        if self.calls is None:
            self.calls = t.calls
            self.long = t.calls == 1 and max(t.ns_per_call) >= budget_s * 1e9
            self.warm = min(t.ns_per_call) < MAX_WARM_UP_SLICES * budget_s * 1e9
            if self.long and max(t.ns_per_call) >= budget_s * passes * 1e9:
                # Longer than the point's whole time: 3 in all, as when timed in one go.
                self.min_samples = min(self.min_samples, 3)
        self.ns += t.ns_per_call
        self.cycles += t.cycles_per_call

    def samples(self) -> PointSamples:
        op, n, ad = self.key
        return PointSamples(op, n, ad, self.calls or 1, tuple(self.ns), tuple(self.cycles))


class _Round:
    """One round while it runs: its points, the lengths skipped, the calls kept across passes
    and the slices done (for ``progress``)."""

    def __init__(
        self,
        job: SweepJob,
        spec: CipherSpec,
        adapter: Adapter,
        counter: CycleCounter | None,
        progress: Progress | None,
    ) -> None:
        self.job, self.spec, self.adapter, self.counter = job, spec, adapter, counter
        self.progress = progress
        self.passes = max(1, job.passes)
        self.budget_s = job.point_time_s / self.passes
        self.total = point_count(job, spec) * self.passes  # slices; less a skipped length's
        self.points: dict[Key, _Point] = {}
        self.skipped: dict[int, SkippedPoint] = {}
        self.kept: dict[int, list[Call]] = {}
        self.kept_bytes = 0
        self.done = 0
        self.done_at: dict[int, int] = {}  # slices timed per message length

    def report(self) -> None:
        if self.progress is not None:
            self.progress(self.done / self.total if self.total > 0 else 1.0)

    def time(self, call: Call, pass_no: int) -> None:
        point = self.points.get(call.key) or _Point(call.key)
        point.time(call, self.budget_s, self.counter, pass_no, self.passes)
        self.points[call.key] = point
        self.done += 1
        self.done_at[call.message_bytes] = self.done_at.get(call.message_bytes, 0) + 1
        self.report()

    def skip(self, length: int, reason: str) -> None:
        """``length`` out of the round: its points, its kept calls and its slices to come."""
        self.skipped[length] = SkippedPoint(length, reason)
        for key in [k for k in self.points if k[1] == length]:
            del self.points[key]
        if self.kept.pop(length, None) is not None:
            self.kept_bytes -= buffer_bytes(self.spec, length)
        remaining = length_point_count(self.job, self.spec, length) * self.passes
        self.total -= remaining - self.done_at.get(length, 0)
        self.report()

    def time_length(self, length: int, pass_no: int) -> None:
        """One slice of each of ``length``'s points. Its calls, unless kept, go on return,
        before the next length's are made (both could be large: 4 x 64 MiB for an AEAD)."""
        calls = self.kept.get(length)
        if calls is None:
            calls = length_calls(self.job, self.spec, self.adapter, length)
            if self.kept_bytes + buffer_bytes(self.spec, length) <= KEEP_BYTES:
                self.kept[length] = calls
                self.kept_bytes += buffer_bytes(self.spec, length)
        try:
            for call in calls:
                self.time(call, pass_no)
        except TooSlow as exc:  # only in a point's first slice (its calibration)
            self.skip(length, str(exc))

    def time_pass(self, pass_no: int) -> None:
        """One slice of every point still in the round; in the first pass, a length whose
        call would take longer than :data:`MAX_CALL_S` is skipped before it is made."""
        if has_key_setup(self.job, self.spec):
            self.time(key_setup_call(self.spec, self.adapter), pass_no)
        for length in self.job.lengths:
            if length in self.skipped:
                continue
            if pass_no == 0 and (guess := _predicted_ns(self.points, length)) > MAX_CALL_S * 1e9:
                self.skip(length, f"one call would take about {guess / 1e9:,.0f} s")
                continue
            self.time_length(length, pass_no)


def run_round(job: SweepJob, progress: Progress | None = None) -> RoundSamples:
    """Time every point of ``job`` in this process (a fresh worker: see app.core.sweep.runner)."""
    spec = lookup(job.cipher_id, job.library, job.key_bits)
    adapter = get_adapter(job.library)
    counter = open_counter()
    mhz_before = clock_mhz()
    state = _Round(job, spec, adapter, counter, progress)
    if job.key_setup and not has_key_setup(job, spec):
        state.skipped[KEY_SETUP_BYTES] = SkippedPoint(
            KEY_SETUP_BYTES, PER_MESSAGE_OBJECTS[spec.kind, job.library]
        )
    try:
        for pass_no in range(state.passes):
            state.time_pass(pass_no)
    finally:
        if counter is not None:
            counter.close()
    mhz_after = clock_mhz()
    known = [m for m in (mhz_before, mhz_after) if m]
    return RoundSamples(
        job=job,
        points=tuple(p.samples() for p in state.points.values()),
        skipped=tuple(state.skipped.values()),
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
