"""Every core at once: N copies of a job in N worker processes (``bench --processes N``).

Like ``openssl speed -multi``: the copies start together over the same input, each in its own
worker (:func:`app.core.bench.isolation.run_isolated`, so each has its own temporary folder and
each still verifies its round trips). The copies skip the separate memory pass (the
single-process run already measured it) and repeat until each direction took
``COPY_MIN_TIME_S``, so that their timed sections overlap.

The aggregate is what the machine did, never more. Each worker records its timed span (first
timed repetition's start to the last one's end) on the machine-wide monotonic clock, the CPU
time it used in that span and in its encryption and decryption calls
(:class:`~app.core.bench.results.TimedSpan`). Per direction::

    aggregate = bytes / CPU-seconds of that direction's calls (a core's speed at the work)
              x CPU-seconds of the copies' spans / wall time from first start to last end
                (the cores the copies kept busy, on average)

Why not the sum of the copies' throughputs (the first version): with more copies than cores a
copy's encryption often ran while another copy hashed its round trip (untimed), so each copy
saw nearly a whole core and the sum reported 2.4x on 2 cores. Why not simply the bytes over
the wall window: a repetition is encrypt + decrypt + verify, so the window holds both
directions and the SHA-256 checks, and one copy would score a sixth of its own speed. Here the
second factor is the kernel's CPU accounting, which cannot exceed the cores there are (nor what
other programs left us), so the aggregate cannot exceed the cores times a core's speed; copies
that start apart lower it (busy time counted over the whole window), they cannot raise it. The
runner warns when the copies were timed together less than ``MIN_OVERLAP`` of the window.

A limit, in stream mode: a call that waits for the disk spends wall time but no CPU time, so
"a core's speed" (bytes per CPU-second) then describes the CPU's work, not the file's; the busy
factor falls with the waiting, which partly makes up for it. Memory mode, where the calls do
no I/O, is what the aggregate is for (as ``openssl speed -multi``).
"""

from __future__ import annotations

import threading
from collections.abc import Generator
from dataclasses import replace

from app.core.bench.events import JobFailed, JobFinished, JobProgress, JobUpdate
from app.core.bench.isolation import run_isolated
from app.core.bench.jobs import Job
from app.core.bench.results import Aggregate, JobResult, TimedSpan
from app.core.errors import Cancelled

_POLL_S = 0.1
# Each copy times each direction this long at least (within max_repeat), so that the copies'
# start-up jitter (a spawned interpreter each) is small against their timed sections.
COPY_MIN_TIME_S = 1.0
MIN_OVERLAP = 0.8  # below this share of the copies' timed spans in common, warn


def overlap(spans: list[tuple[float, float]]) -> float:
    """The share of the whole span (first start to last end) during which every copy was in
    its timed section: 1.0 when they ran exactly together, 0.0 when one finished first."""
    whole = max(e for _, e in spans) - min(s for s, _ in spans)
    common = min(e for _, e in spans) - max(s for s, _ in spans)
    return 1.0 if whole <= 0 else max(0.0, common) / whole


def _span(copy: JobResult) -> TimedSpan:
    if copy.timed_span is None:
        raise ValueError(f"{copy.label}: no timed span (not measured by a worker)")
    return copy.timed_span


def aggregate_of(copies: list[JobResult]) -> Aggregate:
    """What the copies did together, in MB/s per direction (see the module docstring): their
    bytes per CPU-second of the direction's calls, times their CPU-seconds over the wall time
    from the first copy's first timed start to the last copy's last timed end. Raises
    ``ValueError`` for a copy without a :class:`TimedSpan`."""
    spans = [_span(c) for c in copies]
    window_ns = max(s.end_ns for s in spans) - min(s.start_ns for s in spans)
    busy_cpu_ns = sum(s.cpu_ns for s in spans)

    def rate(direction: str) -> float:
        done = sum(c.input_bytes * len(getattr(c, direction).samples_s) for c in copies)
        cpu_ns = sum(getattr(s, f"{direction}_cpu_ns") for s in spans)
        if window_ns <= 0 or cpu_ns <= 0:
            return 0.0
        # bytes / cpu_ns x busy_cpu_ns / window_ns is bytes per ns: x 1e9 / 1e6 for MB/s
        return done * busy_cpu_ns / (cpu_ns * window_ns) * 1e3

    return Aggregate(len(copies), rate("encrypt"), rate("decrypt"))


class _Copy(threading.Thread):
    """Iterates one ``run_isolated`` generator; keeps its last progress and its outcome."""

    def __init__(self, job: Job, index: int, stop: threading.Event) -> None:
        super().__init__(name=f"cipherbench-copy-{index}", daemon=True)
        self.job, self.index, self.stop = job, index, stop
        self.fraction = 0.0
        self.result: JobResult | None = None
        self.failure: str | None = None

    def run(self) -> None:
        try:
            for event in run_isolated(self.job, self.index, self.stop):
                if isinstance(event, JobProgress):
                    self.fraction = event.fraction
                elif isinstance(event, JobFinished):
                    self.result = event.result
                elif isinstance(event, JobFailed):
                    self.failure = event.message
        except Cancelled:
            self.failure = "cancelled"
        except Exception as exc:  # reported by the caller, never lost in a thread
            self.failure = f"{type(exc).__name__}: {exc}"


def run_copies(
    job: Job, index: int, processes: int, cancel: threading.Event
) -> Generator[JobUpdate, None, tuple[Aggregate, float] | str]:
    """Run ``processes`` copies of ``job`` at once; yields ``JobProgress`` events (phase
    ``"N processes"``, fraction 0.5 to 1: the second half of the job) and returns the
    :class:`Aggregate` with the :func:`overlap` of the copies' timed spans, or a failure
    message when a copy failed (its verification included). Raises ``Cancelled`` once
    ``cancel`` is set; closing the generator early also stops every copy (each worker is
    killed, its folder removed)."""
    if processes < 1:
        raise ValueError("processes must be at least 1")
    opts = job.options
    copy_opts = replace(
        opts, measure_memory=False, min_time_s=max(opts.min_time_s, COPY_MIN_TIME_S)
    )
    copy_job = replace(job, options=copy_opts)
    copy_job = replace(copy_job, keep_ciphertext_path=None)
    stop = threading.Event()
    copies = [_Copy(copy_job, index, stop) for _ in range(processes)]
    phase = f"{processes} processes"
    try:
        for c in copies:
            c.start()
        while any(c.is_alive() for c in copies):
            if cancel.is_set():
                raise Cancelled()
            _wait_any(copies)
            # The runner gave the single-process run the first half of the job's progress.
            yield JobProgress(index, phase, 0.5 + min(c.fraction for c in copies) / 2)
    finally:
        stop.set()  # a no-op once every copy ended; else kills the remaining workers
        for c in copies:
            c.join()
    failed = [
        (n, c.failure) for n, c in enumerate(copies, 1) if c.result is None or not c.result.verified
    ]
    if failed:
        n, message = failed[0]
        return f"copy {n} of {processes}: {message or 'no result'}"
    results = [c.result for c in copies if c.result is not None]
    spans = [_span(r) for r in results]
    return aggregate_of(results), overlap([(s.start_ns, s.end_ns) for s in spans])


def _wait_any(copies: list[_Copy]) -> None:
    for c in copies:
        if c.is_alive():
            c.join(_POLL_S)
            return
