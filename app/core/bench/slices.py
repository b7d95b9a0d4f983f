"""How memory mode's timed samples are cut, as the sweep cuts its points.

- **Batches**: a call shorter than :data:`MIN_SAMPLE_NS` is timed in a batch of calls, each
  with a cipher context of its own made before the clock, calibrated after the warm-up as the
  sweep and pyperf do (:func:`calibrate`); a sample is then the batch's time per call.
- **Slices**: one direction's samples run in a row for about :data:`SLICE_NS` after an
  untimed warm-up (a batch; a single message warmed as the sweep warms it), then the other
  direction's (:class:`Slices`); a run of decryptions is checked after the next run of
  encryptions, which only reads the plaintext. Alternating single calls would time each call
  after the other direction's work, at a colder moment than the sweep's: AES-GCM at 16 MiB
  took 2.2x as long after 10 ms of other work on this 2-core VM.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.bench.jobs import BenchOptions, Job
from app.core.bench.workloads import MemoryWorkload, Timing
from app.core.ciphers.message import MAX_CONTEXTS
from app.core.timing.batches import MAX_WARM_UP_SLICES, WARM_UP_NS, warm_single

MIN_SAMPLE_NS = 1_000_000  # a sample spans 1 ms of calls, or MAX_CALLS (the sweep's target too)
MAX_CALLS = MAX_CONTEXTS  # a batch makes a cipher object per call
CALIBRATE_MAX = 16 << 20  # without a warm-up, inputs up to 16 MiB get a calibration trip
SLICE_NS = 20_000_000  # a run of one direction's samples (the sweep's: 0.1 s over 5 passes)
MAX_SLICE = 50


def in_a_row(call: Callable[[], Timing], n: int, warm_up: bool, single: bool) -> list[Timing]:
    """``n`` timed calls in a row, after an untimed one when ``warm_up``, or when each call is
    a single message (``single``), the sweep's warm-up (:func:`warm_single`: 10 ms, and on
    while the calls still get faster, for at most two slices)."""
    if warm_up and single:
        warm_single(lambda: call()[1], WARM_UP_NS, MAX_WARM_UP_SLICES * SLICE_NS)
    elif warm_up:
        call()
    return [call() for _ in range(n)]


@dataclass
class Timings:
    """The samples gathered so far, in seconds, and the CPU and wall time they took."""

    warm_e: list[float] = field(default_factory=list)
    warm_d: list[float] = field(default_factory=list)
    enc: list[float] = field(default_factory=list)
    dec: list[float] = field(default_factory=list)
    setup: list[float] = field(default_factory=list)
    enc_cpu: int = 0
    dec_cpu: int = 0
    wall_ns: int = 0

    def add(self, e: Timing, d: Timing) -> None:
        s_e, t_e, c_e, w_e = e
        _, t_d, c_d, w_d = d
        self.enc.append(t_e / 1e9)
        self.dec.append(t_d / 1e9)
        self.setup.append(s_e / 1e9)
        self.enc_cpu += c_e
        self.dec_cpu += c_d
        self.wall_ns += w_e + w_d


@dataclass
class Slices:
    """How memory mode's timed samples are cut (``on``; off in stream mode and under a test's
    clock): ``calls`` per sample (a batch, when a call is shorter than :data:`MIN_SAMPLE_NS`),
    ``run`` samples of one direction in a row, a sample lasting about ``sample_ns``."""

    on: bool
    calls: int = 1
    run: int = 1
    sample_ns: int = 0  # 0: not known yet

    def start(self, wl: MemoryWorkload, job: Job, t: Timings, label: str) -> None:
        """Calibrate the batch, then size the slices by it or by the last warm-up."""
        per_call = 0
        if worth_batching(job, t.warm_e, t.warm_d):
            self.calls, per_call = calibrate(wl, label)
        if self.calls > 1:
            self.size(self.calls * per_call)
        elif t.warm_e and t.warm_d:
            self.size(int(max(t.warm_e[-1], t.warm_d[-1]) * 1e9))
        elif per_call:
            self.size(per_call)

    def size(self, sample_ns: int) -> None:
        """Slices for samples of about ``sample_ns``."""
        self.sample_ns = max(1, sample_ns)
        self.run = max(1, min(MAX_SLICE, SLICE_NS // self.sample_ns))

    def now(self, t: Timings, opts: BenchOptions) -> int:
        """This slice's samples: a whole slice unless fewer reach both ``repeat`` and
        ``min_time_s`` (so a run asked for one sample times one), never past ``max_repeat``."""
        done_ns = min(sum(t.enc), sum(t.dec)) * self.calls * 1e9
        left_ns = max(0.0, opts.min_time_s * 1e9 - done_ns)
        for_time = int(-(-left_ns // self.sample_ns)) if self.sample_ns else 1
        needed = max(opts.repeat - len(t.enc), for_time, 1)
        return max(1, min(self.run, needed, opts.max_repeat - len(t.enc)))

    def warms_up(self, n: int) -> bool:
        """Whether a slice of ``n`` begins with an untimed warm-up: in a row, or a sample
        shorter than two slices (the sweep warms up every point that short)."""
        return self.on and (n > 1 or 0 < self.sample_ns < MAX_WARM_UP_SLICES * SLICE_NS)


def worth_batching(job: Job, warm_e: list[float], warm_d: list[float]) -> bool:
    """Whether a call may be shorter than a sample should be: its warm-up was (a warm-up is
    cold, so slower than the calls after it), or, without a warm-up, the input is small."""
    if warm_e and warm_d:
        return min(warm_e[-1], warm_d[-1]) * 1e9 < MIN_SAMPLE_NS
    return job.input.size_bytes <= CALIBRATE_MAX


def calibrate(wl: MemoryWorkload, label: str) -> tuple[int, int]:
    """Batch the calls of ``wl`` so a sample lasts about :data:`MIN_SAMPLE_NS` (at most
    :data:`MAX_CALLS` calls, each with a cipher object of its own), as the sweep and
    pyperf calibrate theirs: untimed, verified round trips of the batch found so far, until a
    batch lasts long enough (a few milliseconds in all). Returns the calls per sample and
    the last time per call measured (ns)."""
    calls = 1
    for _ in range(4):
        wl.batch(calls)
        _, t_e, _, _ = wl.encrypt()
        _, t_d, _, _ = wl.decrypt()
        wl.check(label)
        per_call = max(1, min(t_e, t_d))
        if per_call * calls >= MIN_SAMPLE_NS or calls >= MAX_CALLS:
            break
        calls = min(MAX_CALLS, -(-MIN_SAMPLE_NS // per_call))
    wl.batch(calls)
    return calls, per_call
