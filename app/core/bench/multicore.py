"""Every core at once: N copies of a job in N worker processes (``bench --processes N``).

Like ``openssl speed -multi``: the copies start together over the same input, each in its own
worker (:func:`app.core.bench.isolation.run_isolated`, so each has its own temporary folder and
each still verifies its round trips), and the aggregate throughput is the **sum of the copies'
own throughputs** (each copy's input bytes / its mean time per repetition). The copies skip
the separate memory pass (the single-process run already measured it) and repeat until each
direction took ``COPY_MIN_TIME_S``, so that their timed sections overlap; when they overlapped
less than ``MIN_OVERLAP`` of the time the runner adds a warning to the result. With more copies
than cores the sum overstates what the machine does (a copy's time outside its timed calls
absorbs part of the waiting): the CLI warns that such figures measure contention.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator
from dataclasses import replace

from app.core.bench.events import Event, JobFailed, JobFinished, JobProgress
from app.core.bench.isolation import run_isolated
from app.core.bench.jobs import Job
from app.core.bench.results import Aggregate, JobResult
from app.core.bench.stats import TimingStats
from app.core.errors import Cancelled

_POLL_S = 0.1
_TIMED_PHASE = "encrypt / decrypt"  # measure._time_repetitions' phase once warm-ups are done
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


def _mean_rate_mb_s(input_bytes: int, stats: TimingStats) -> float:
    return input_bytes / stats.mean_s / 1e6 if stats.mean_s > 0 else 0.0


def aggregate_of(copies: list[JobResult]) -> Aggregate:
    """The sum of the copies' throughputs (MB/s), each from its **mean** time: a median would
    keep the repetitions a copy ran alone between the others' time slices."""
    return Aggregate(
        processes=len(copies),
        encrypt_throughput_mb_s=sum(_mean_rate_mb_s(r.input_bytes, r.encrypt) for r in copies),
        decrypt_throughput_mb_s=sum(_mean_rate_mb_s(r.input_bytes, r.decrypt) for r in copies),
    )


class _Copy(threading.Thread):
    """Iterates one ``run_isolated`` generator; keeps its last progress and its outcome."""

    def __init__(self, job: Job, index: int, stop: threading.Event) -> None:
        super().__init__(name=f"cipherbench-copy-{index}", daemon=True)
        self.job, self.index, self.stop = job, index, stop
        self.fraction = 0.0
        self.result: JobResult | None = None
        self.failure: str | None = None
        # When the timed repetitions began and the result came back, on this process's clock.
        self.timed_from = self.timed_to = 0.0

    def run(self) -> None:
        try:
            for event in run_isolated(self.job, self.index, self.stop):
                if isinstance(event, JobProgress):
                    self.fraction = event.fraction
                    if event.phase == _TIMED_PHASE and not self.timed_from:
                        self.timed_from = time.monotonic()
                elif isinstance(event, JobFinished):
                    self.timed_to = time.monotonic()
                    self.result = event.result
                elif isinstance(event, JobFailed):
                    self.failure = event.message
        except Cancelled:
            self.failure = "cancelled"
        except Exception as exc:  # reported by the caller, never lost in a thread
            self.failure = f"{type(exc).__name__}: {exc}"


def run_copies(
    job: Job, index: int, processes: int, cancel: threading.Event
) -> Generator[Event, None, tuple[Aggregate, float] | str]:
    """Run ``processes`` copies of ``job`` at once; yields ``JobProgress`` events (phase
    ``"N processes"``) and returns the :class:`Aggregate` with the copies' :func:`overlap`
    (seen from here: first timed repetition to result), or a failure message when a copy
    failed (its verification included). Raises ``Cancelled`` once ``cancel`` is set; closing
    the generator early also stops every copy (each worker is killed, its folder removed)."""
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
            yield JobProgress(index, phase, min(c.fraction for c in copies))
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
    spans = [(c.timed_from or c.timed_to, c.timed_to) for c in copies]
    return aggregate_of([c.result for c in copies if c.result is not None]), overlap(spans)


def _wait_any(copies: list[_Copy]) -> None:
    for c in copies:
        if c.is_alive():
            c.join(_POLL_S)
            return
