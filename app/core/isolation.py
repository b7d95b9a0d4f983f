"""Running one job in a fresh worker process, supervised from outside (as pyperf does).

Why a process per job: the peak memory of that process is exactly the job's; a crash, a
``MemoryError`` or a cancel cannot take the caller down; and a library holding the GIL inside a
large call cannot freeze the caller's window. The caller samples the worker's CPU and resident
memory every 50 ms (seed 004's monitor), without disturbing the measured process, and receives
its progress through a pipe.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import Any

import psutil

from app.core.errors import Cancelled, UserError, VerificationError
from app.core.events import Event, JobFailed, JobFinished, JobProgress, JobSample
from app.core.jobs import Job
from app.core.results import MonitorSample

SAMPLE_INTERVAL_S = 0.05
_CTX = mp.get_context("spawn")  # never fork: the caller may be a Qt process with threads


def _child_main(job: Job, conn: Connection) -> None:
    # Ctrl-C reaches the whole process group; the supervisor decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        from app.core.measure import run_job

        def progress(phase: str, fraction: float) -> None:
            conn.send(("progress", phase, fraction))

        result, secret = run_job(job, progress)
        conn.send(("done", result, secret))
    except UserError as exc:
        conn.send(("failed", str(exc), ""))
    except VerificationError as exc:
        conn.send(("failed", f"verification failed: {exc}", ""))
    except MemoryError:
        conn.send(
            (
                "failed",
                "not enough memory for this input in memory mode; use the stream data mode",
                "",
            )
        )
    except BaseException as exc:  # report everything; the parent decides how to show it
        conn.send(
            ("failed", f"{job.label} failed: {type(exc).__name__}: {exc}", traceback.format_exc())
        )
    finally:
        conn.close()


def _stop(proc: Any) -> None:
    if proc.is_alive():
        proc.terminate()
        proc.join(0.5)
    if proc.is_alive():
        proc.kill()
    proc.join(1.0)


def run_isolated(job: Job, index: int, cancel: threading.Event) -> Iterator[Event]:
    """Run ``job`` in a new process; yields ``JobProgress`` and ``JobSample`` events, then one
    ``JobFinished`` or ``JobFailed``. Raises ``Cancelled`` (worker killed) once ``cancel`` is
    set. Closing the generator early also kills the worker."""
    recv, send = _CTX.Pipe(duplex=False)
    proc = _CTX.Process(
        target=_child_main, args=(job, send), name=f"cipherbench-{job.label}", daemon=True
    )
    proc.start()
    send.close()
    try:
        monitor = psutil.Process(proc.pid)
        monitor.cpu_percent(None)
    except psutil.Error:
        monitor = None
    t0 = time.monotonic()
    next_sample = t0 + SAMPLE_INTERVAL_S
    outcome: tuple[Any, ...] | None = None
    samples: list[MonitorSample] = []
    try:
        while outcome is None:
            if cancel.is_set():
                raise Cancelled()
            timeout = max(0.0, min(SAMPLE_INTERVAL_S, next_sample - time.monotonic()))
            if recv.poll(timeout):
                try:
                    msg = recv.recv()
                except EOFError:
                    break
                if msg[0] == "progress":
                    yield JobProgress(index, msg[1], msg[2])
                else:
                    outcome = msg
                continue
            now = time.monotonic()
            if now >= next_sample:
                next_sample = now + SAMPLE_INTERVAL_S
                if monitor is not None:
                    try:
                        cpu = monitor.cpu_percent(None)
                        rss = monitor.memory_info().rss
                        sample = MonitorSample(now - t0, cpu, rss)
                        samples.append(sample)
                        yield JobSample(index, sample)
                    except psutil.Error:
                        pass
            if not proc.is_alive() and not recv.poll():
                break
    finally:
        recv.close()
        _stop(proc)
    if outcome is None:
        code = proc.exitcode
        why = " (killed: out of memory?)" if code in (-9, 137) else ""
        yield JobFailed(
            index,
            job,
            f"{job.label}: the worker process stopped unexpectedly, exit code {code}{why}",
        )
    elif outcome[0] == "done":
        yield JobFinished(index, replace(outcome[1], monitor=tuple(samples)), outcome[2])
    else:
        yield JobFailed(index, job, outcome[1])
