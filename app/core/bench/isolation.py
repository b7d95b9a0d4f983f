"""Running one job in a fresh worker process, supervised from outside (as pyperf does).

Why a process per job: the peak memory of that process is exactly the job's; a crash, a
``MemoryError`` or a cancel cannot take the caller down; and a library holding the GIL inside a
large call cannot freeze the caller's window. The caller samples the worker's CPU and resident
memory every 50 ms (the loopback study's monitor), without disturbing the measured process, and
receives its progress through a pipe.
"""

from __future__ import annotations

import errno
import os
import signal
import threading
import time
import traceback
from collections.abc import Generator, Iterator
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from app.core.bench.events import JobFailed, JobFinished, JobProgress, JobSample, JobUpdate
from app.core.bench.jobs import Job
from app.core.bench.results import MonitorSample
from app.core.errors import Cancelled, UserError, VerificationError
from app.core.runtime import scratch
from app.core.runtime.children import Child, signal_name
from app.core.units import MIB

if TYPE_CHECKING:
    import psutil

SAMPLE_INTERVAL_S = 0.05


def failure_message(job: Job, exc: BaseException) -> tuple[str, str]:
    """What the parent shows for an exception in the worker, and a traceback for bugs."""
    if isinstance(exc, UserError):
        return str(exc), ""
    if isinstance(exc, VerificationError):
        return f"verification failed: {exc}", ""
    if isinstance(exc, MemoryError):
        if job.options.data_mode == "memory":
            return "not enough memory for this input in memory mode; use the stream data mode", ""
        return "not enough memory for the stream buffers; choose a smaller chunk size", ""
    return f"{type(exc).__name__}: {exc}", traceback.format_exc()


def _child_main(conn: Connection, job: Job, work_dir: str) -> None:
    """The worker: run ``job`` and send its outcome (``app.core.runtime.children`` has made it
    deaf to the terminal and mortal with its supervisor, which owns and removes ``work_dir``)."""
    try:
        from app.core.bench.measure import run_job

        def progress(phase: str, fraction: float) -> None:
            conn.send(("progress", phase, fraction))

        result, secret = run_job(job, progress, work_dir=work_dir)
        message: tuple[Any, ...] = ("done", result, secret)
    except BaseException as exc:  # report everything; the parent decides how to show it
        if isinstance(exc, OSError) and exc.errno == errno.EPIPE:  # EPIPE: the supervisor is gone
            os._exit(1)
        message = ("failed", *failure_message(job, exc))
    try:
        conn.send(message)
        conn.close()
    except OSError:  # the supervisor is gone: nobody to tell, and no traceback to print
        os._exit(1)


def _unexpected_exit(code: int | None, samples: list[MonitorSample]) -> str:
    """Why a worker ended without a word. A SIGKILL is the kernel's out-of-memory killer only
    when the worker held a large share of the memory; otherwise someone killed it."""
    name = signal_name(code)
    if name is not None:
        text = f"the worker process was stopped by {name} from outside CipherBench"
        if code == -signal.SIGKILL and samples:
            import psutil

            last_rss = samples[-1].rss_bytes
            if last_rss > 0.5 * (last_rss + psutil.virtual_memory().available):
                text += (
                    f" (it used {last_rss / MIB:,.0f} MiB: the system probably ran out of memory)"
                )
        return text
    return f"the worker process stopped unexpectedly (exit code {code})"


def run_isolated(job: Job, index: int, cancel: threading.Event) -> Iterator[JobUpdate]:
    """Run ``job`` in a new process; yields ``JobProgress`` and ``JobSample`` events, then one
    ``JobFinished`` or ``JobFailed``. Raises ``Cancelled`` (worker killed) once ``cancel`` is
    set. Closing the generator early also kills the worker. The job's temporary files live in a
    folder this process makes and removes, whatever happens to the worker."""
    work_dir = scratch.make_dir("job-")
    try:
        worker = Child(_child_main, job, work_dir, name=f"cipherbench-{job.label}", duplex=False)
        samples: list[MonitorSample] = []
        try:
            outcome = yield from _supervise(worker, index, cancel, samples)
            code = worker.exit_code() if outcome is None else None
        finally:
            worker.stop()
    finally:
        scratch.remove(work_dir)
    if outcome is None:
        yield JobFailed(index, job, _unexpected_exit(code, samples))
    elif outcome[0] == "done":
        yield JobFinished(index, replace(outcome[1], monitor=tuple(samples)), outcome[2])
    else:
        yield JobFailed(index, job, outcome[1])


def _supervise(
    worker: Child,
    index: int,
    cancel: threading.Event,
    samples: list[MonitorSample],
) -> Generator[JobUpdate, None, tuple[Any, ...] | None]:
    """Relay the worker's progress and sample its CPU and memory until it reports its outcome
    (returned) or ends without one (None)."""
    # Imported here, by the supervisor: the worker imports this module too (``_child_main``),
    # and psutil would add 12 ms to the start of every fresh worker.
    import psutil

    monitor: psutil.Process | None = None
    try:
        monitor = psutil.Process(worker.pid)
        monitor.cpu_percent(None)  # the first call only starts the count
    except psutil.Error:
        monitor = None
    recv = worker.conn
    t0 = time.monotonic()
    next_sample = t0 + SAMPLE_INTERVAL_S
    while True:
        if cancel.is_set():
            raise Cancelled()
        timeout = max(0.0, min(SAMPLE_INTERVAL_S, next_sample - time.monotonic()))
        if recv.poll(timeout):
            try:
                msg = recv.recv()
            except EOFError:
                return None
            if msg[0] != "progress":
                return msg
            yield JobProgress(index, msg[1], msg[2])
            continue
        now = time.monotonic()
        if now >= next_sample:
            next_sample = now + SAMPLE_INTERVAL_S
            if monitor is not None:
                try:
                    sample = MonitorSample(
                        now - t0, monitor.cpu_percent(None), monitor.memory_info().rss
                    )
                except psutil.Error:
                    pass
                else:
                    samples.append(sample)
                    yield JobSample(index, sample)
        if not worker.is_alive() and not recv.poll():
            return None
