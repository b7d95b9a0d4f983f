"""Running a sweep through the one rounds driver (:func:`~app.core.runtime.rounds.collect_rounds`):
every round of every entry in its own fresh worker, round 1 of every entry before round 2 of any,
each entry first in turn and the others in a seeded order (a moment of load touches all alike).

    for event in run_sweep(SweepPlan(SWEEP, jobs, rounds), cancel):   # Progress ..., Finished
        ...

A worker that fails or dies ends its entry with a message (the rounds it finished are kept); a
cancel kills the running worker and keeps every finished round (``cancelled=True``). As the
benchmark's workers, each worker dies with this process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator, Iterator

from app.core.bench.run_info import Environment
from app.core.runtime.envelope import NamedFailure, timestamp
from app.core.runtime.events import Event, Finished, Progress
from app.core.runtime.rounds import RoundTask, collect_rounds
from app.core.sweep.jobs import SweepPlan
from app.core.sweep.results import SweepResult, merge_rounds

MAX_ROUNDS = 50
TASK = "app.core.sweep.worker:run_one_round"


def run_sweep(plan: SweepPlan, cancel: threading.Event | None = None) -> Iterator[Event]:
    """Run ``plan``: :class:`Progress` as it goes, then :class:`Finished` with the
    :class:`SweepResult`."""
    result = yield from sweep(plan, cancel)
    yield Finished(result)


def sweep(
    plan: SweepPlan, cancel: threading.Event | None = None
) -> Generator[Progress, None, SweepResult]:
    """:func:`run_sweep`'s progress, then (``yield from``'s value) its result, the machine
    with it."""
    from app import __version__
    from app.core.bench.environment import capture_environment

    cancel = cancel or threading.Event()
    started = timestamp()
    t0 = time.monotonic()
    jobs, notes = plan.jobs, plan.notes
    tasks = [RoundTask(job.label, TASK, job) for job in jobs]
    collected = yield from collect_rounds(tasks, plan.rounds, cancel)
    cancelled = cancel.is_set()  # before the machine is read: a Cancel then stops nothing
    entries = [
        merge_rounds(collected.values[i], notes[i] if i < len(notes) else "")
        for i in range(len(jobs))
        if collected.values[i]
    ]
    return SweepResult(
        kind=plan.kind,
        entries=tuple(entries),
        failures=tuple(NamedFailure(jobs[i].label, m) for i, m in collected.failed.items()),
        options={
            **plan.options,
            "rounds": plan.rounds,
            "passes": max((j.passes for j in jobs), default=1),
            "elapsed_s": round(time.monotonic() - t0, 3),
        },
        environment=Environment.from_dict(capture_environment()),
        started_at=started,
        finished_at=timestamp(),
        cipherbench_version=__version__,
        cancelled=cancelled,
        title=plan.title,
    )
