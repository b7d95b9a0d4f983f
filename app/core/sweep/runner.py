"""Supervising a sweep: every round of every entry in its own fresh worker, rounds interleaved.

Round 1 of every entry runs before round 2 of any (as the studies interleave their rounds), so
a moment of load touches every entry alike rather than one entry's every round. A worker that
fails or dies ends its entry with a message (the rounds it finished are kept); a cancel kills
the running worker and keeps every finished round. As the benchmark's workers, each worker dies
with this process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.core.bench.run_info import Environment
from app.core.errors import Cancelled
from app.core.runtime.envelope import NamedFailure
from app.core.runtime.rounds import RoundTask, WorkerFailed, one_round
from app.core.sweep.jobs import RoundSamples, SweepJob
from app.core.sweep.results import SweepEntry, SweepResult, merge_rounds

MAX_ROUNDS = 50


@dataclass(frozen=True)
class SweepProgress:
    """Where a sweep is: ``fraction`` of all its work done; ``label`` running round
    ``round`` of ``rounds``."""

    label: str
    round: int
    rounds: int
    fraction: float


ProgressFn = Callable[[SweepProgress], None]


class RoundFailed(Exception):
    """A worker did not finish its round; the message says why in one sentence."""


def run_round_isolated(
    job: SweepJob, cancel: threading.Event, progress: Callable[[float], None] | None = None
) -> RoundSamples:
    """One round of ``job`` in a fresh worker. Raises :class:`RoundFailed` or ``Cancelled``."""
    task = RoundTask(f"sweep {job.label}", "app.core.sweep.worker:run_one_round", job)
    try:
        for kind, value in one_round(task, cancel):
            if kind == "done":
                samples: RoundSamples = value
                return samples
            if kind == "progress" and progress is not None:
                progress(float(value))
    except WorkerFailed as exc:
        raise RoundFailed(str(exc)) from None
    raise RoundFailed("the worker process ended without its samples")


def run_jobs(
    jobs: Sequence[SweepJob],
    rounds: int,
    cancel: threading.Event | None = None,
    progress: ProgressFn | None = None,
    notes: Sequence[str] = (),
) -> tuple[list[SweepEntry], list[NamedFailure], bool]:
    """``(entries, failures, cancelled)``: each job's rounds merged into its entry (in the order
    of ``jobs``; ``notes[i]`` is job i's note), the jobs that failed, and whether a cancel
    stopped the sweep."""
    cancel = cancel or threading.Event()
    done: dict[int, list[RoundSamples]] = {i: [] for i in range(len(jobs))}
    failed: dict[int, str] = {}
    total = max(1, rounds * len(jobs))
    finished = 0
    cancelled = False
    try:
        for r in range(1, rounds + 1):
            for i, job in enumerate(jobs):
                if i in failed:
                    finished += 1
                    continue

                def report(
                    fraction: float, job: SweepJob = job, r: int = r, before: int = finished
                ) -> None:
                    if progress is not None:
                        overall = (before + fraction) / total
                        progress(SweepProgress(job.label, r, rounds, overall))

                report(0.0)
                try:
                    done[i].append(run_round_isolated(job, cancel, report))
                except RoundFailed as exc:
                    failed[i] = str(exc)
                finished += 1
    except Cancelled:
        cancelled = True
    entries = [
        merge_rounds(done[i], notes[i] if i < len(notes) else "")
        for i in range(len(jobs))
        if done[i]
    ]
    failures = [NamedFailure(jobs[i].label, message) for i, message in failed.items()]
    return entries, failures, cancelled


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def run_sweep(
    jobs: Sequence[SweepJob],
    rounds: int,
    options: dict[str, Any],
    *,
    kind: str = "sweep",
    title: str = "",
    notes: Sequence[str] = (),
    cancel: threading.Event | None = None,
    progress: ProgressFn | None = None,
) -> SweepResult:
    """Run ``jobs`` for ``rounds`` rounds each and gather the result, the machine with it."""
    import app
    from app.core.bench.environment import capture_environment

    started = now_iso()
    t0 = time.monotonic()
    entries, failures, cancelled = run_jobs(jobs, rounds, cancel, progress, notes)
    return SweepResult(
        kind=kind,
        entries=tuple(entries),
        failures=tuple(failures),
        options={
            **options,
            "rounds": rounds,
            "passes": max((j.passes for j in jobs), default=1),
            "elapsed_s": round(time.monotonic() - t0, 3),
        },
        environment=Environment.from_dict(capture_environment()),
        started_at=started,
        finished_at=now_iso(),
        cipherbench_version=getattr(app, "__version__", None),
        cancelled=cancelled,
        title=title,
    )
