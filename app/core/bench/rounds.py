"""A benchmark in rounds: every job again in a fresh worker, each round in a random order.

A round is the unit of evidence of every claim (:mod:`app.core.study.claims`): what differs
between workers and moments shows between rounds, never between the repetitions of one worker.

    run = RoundsRun(jobs, rounds=6)        # rounds=1: exactly a BenchmarkRun
    for event in run.events():             # the one vocabulary (app.core.bench.events): per
        ...                                # round a Progress of its RoundStarted, of each job's
                                           # JobStarted/JobProgress/JobSample (index: the job's),
                                           # an Outcome of a JobFailed at once, of each job's
                                           # JobFinished (merged) after the last round; Finished
    run.cancel()

The order of each round is ``random.Random(f"cipherbench-order:{seed}:{round}")``'s shuffle,
so a rerun runs the same orders. A job's rounds are merged (:func:`merge_rounds`): samples
concatenated, statistics recomputed, each round's share kept in ``JobResult.rounds``; the
memory pass runs in the first round only. A job that fails in any round fails, and runs no
further round. A cancel ends with the jobs merged over the rounds they completed (their
``JobFinished`` too). A kept ciphertext (the window's "save ciphertext") is the first round's,
with that round's key.
"""

from __future__ import annotations

import threading
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace

from app.core.bench.events import (
    JobEvent,
    JobFailed,
    JobFinished,
    JobUpdate,
    RoundStarted,
    RunSteps,
)
from app.core.bench.jobs import BenchOptions, Job
from app.core.bench.kept import JobSecret
from app.core.bench.results import JobResult, RoundInfo, RunResult
from app.core.bench.runner import BenchmarkRun
from app.core.bench.stats import stability_warnings, summarize
from app.core.runtime.events import Event, Finished, Outcome, drained, expanded, relayed
from app.core.runtime.rounds import round_order

_STABILITY_PREFIXES = ("encryption:", "decryption:")
_CONTENDED_PREFIX = "the worker got only "  # app.core.bench.measure's contention warning


def _contention(parts: Sequence[JobResult]) -> str:
    """One warning for the rounds whose worker waited for the CPU, instead of one each."""
    shares = [
        p.cpu_percent for p in parts if any(w.startswith(_CONTENDED_PREFIX) for w in p.warnings)
    ]
    if not shares:
        return ""
    low, high = min(shares), max(shares)
    got = f"{low:.0f} %" if round(low) == round(high) else f"{low:.0f}-{high:.0f} %"
    return (
        f"in {len(shares)} of {len(parts)} rounds the worker got only {got} of a CPU core "
        "while timed: other programs competed for the CPU, so those rounds' times are too long"
    )


class RunDriver:
    """A driver of engine runs one after another (the rounds of a benchmark, a study): its
    ``cancel()``, from any thread, stops the run going on and every later one. Every engine run
    it makes shares its :attr:`cancel_event` (``BenchmarkRun(..., cancel=self.cancel_event)``),
    so setting that event, as a worker of the window does, is the same as :meth:`cancel`."""

    def __init__(self, cancel: threading.Event | None = None) -> None:
        self._cancel = cancel if cancel is not None else threading.Event()

    @property
    def cancel_event(self) -> threading.Event:
        """Set by :meth:`cancel`; every engine run of the driver polls it."""
        return self._cancel

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()


def later_round(job: Job) -> Job:
    """``job`` in a round after the first: the memory pass and a kept ciphertext are the
    first round's (memory does not drift, and the pass costs a full round trip)."""
    return replace(
        job, options=replace(job.options, measure_memory=False), keep_ciphertext_path=None
    )


def repeat_per_round(repeat: int, rounds: int) -> int:
    """The timed repetitions each round makes of ``repeat`` in all: split over the rounds,
    rounded up, at least one."""
    return max(1, -(-repeat // max(1, rounds)))


def per_round(options: BenchOptions, rounds: int) -> BenchOptions:
    """``options`` for each of ``rounds`` rounds: the repetitions (rounded up) and the minimum
    time of tiny inputs split over the rounds, so that the whole costs about the same."""
    if rounds <= 1:
        return options
    return replace(
        options,
        repeat=repeat_per_round(options.repeat, rounds),
        min_time_s=options.min_time_s / rounds,
    )


def merge_rounds(parts: Sequence[JobResult], places: Sequence[tuple[int, int]] = ()) -> JobResult:
    """One result from a job's rounds: raw samples and warm-ups concatenated and summarized
    again, memory from the round that measured it, stability warnings recomputed; with
    ``places`` (each part's round and position in it), each round's share in ``rounds``."""
    first = parts[0]
    rounds = (
        tuple(
            RoundInfo(rnd, pos, len(p.encrypt.samples_s), len(p.decrypt.samples_s), p.cpu_percent)
            for p, (rnd, pos) in zip(parts, places, strict=True)
        )
        if places
        else ()
    )
    if len(parts) == 1:
        return replace(first, rounds=rounds)
    size = first.input_bytes
    enc, dec = (
        summarize(
            [s for p in parts for s in getattr(p, d).samples_s],
            size,
            [w for p in parts for w in getattr(p, d).warmup_s],
            # The rounds are the cell's unit only when their shares are kept (round_samples).
            [len(getattr(p, d).samples_s) for p in parts] if rounds else (),
        )
        for d in ("encrypt", "decrypt")
    )
    memory = next((p for p in parts if p.peak_rss_bytes is not None), first)
    others = dict.fromkeys(
        w
        for p in parts
        for w in p.warnings
        if not w.startswith(_STABILITY_PREFIXES) and not w.startswith(_CONTENDED_PREFIX)
    )
    calls = min(p.calls_per_sample for p in parts)
    warnings = stability_warnings(enc, "encryption", calls) + stability_warnings(
        dec, "decryption", calls
    )
    contended = _contention(parts)
    if contended:
        warnings.append(contended)
    return replace(
        first,
        encrypt=enc,
        decrypt=dec,
        key_setup_s=tuple(k for p in parts for k in p.key_setup_s),
        verified_round_trips=sum(p.verified_round_trips for p in parts),
        peak_rss_bytes=memory.peak_rss_bytes,
        baseline_rss_bytes=memory.baseline_rss_bytes,
        python_peak_bytes=memory.python_peak_bytes,
        workload_memory=memory.workload_memory,
        direction_memory=memory.direction_memory,
        cpu_percent=sum(p.cpu_percent for p in parts) / len(parts),
        warnings=(*warnings, *others),
        # The first round's timeline only: later rounds' would overlap it on the time axis.
        monitor=memory.monitor,
        rounds=rounds,
        calls_per_sample=calls,
    )


class RoundsRun(RunDriver):
    """``jobs`` in ``rounds`` interleaved rounds (module doc); ``processes`` as BenchmarkRun's,
    in the first round only (the copies' aggregate is one figure, not a sample). Each job's
    ``repeat`` (and tiny inputs' minimum time) is its whole run's: split over the rounds here
    (:func:`per_round`), so a front-end hands over what the user asked for."""

    def __init__(
        self,
        jobs: list[Job],
        *,
        rounds: int = 1,
        seed: int = 0,
        environment: bool = True,
        processes: int = 1,
        cancel: threading.Event | None = None,
    ) -> None:
        if rounds < 1:
            raise ValueError("rounds must be at least 1")
        super().__init__(cancel)
        self.jobs = [replace(j, options=per_round(j.options, rounds)) for j in jobs]
        self.rounds = rounds
        self.seed = seed
        self.processes = processes
        self._environment = environment
        self._secrets: dict[int, JobSecret] = {}  # a kept ciphertext: the first round's

    def events(self) -> Generator[Event, None, None]:
        """The run in the one vocabulary (module doc)."""
        if self.rounds == 1:
            run = BenchmarkRun(
                self.jobs,
                environment=self._environment,
                processes=self.processes,
                cancel=self.cancel_event,
            )
            yield from run.events()
            return
        steps = RunSteps(len(self.jobs) * self.rounds)
        parts: dict[int, list[JobResult]] = {}
        places: dict[int, list[tuple[int, int]]] = {}
        failed: set[int] = set()
        runs: list[RunResult] = []
        for round_no in range(self.rounds):
            if self.cancelled:
                break
            order = [i for i in round_order(len(self.jobs), self.seed, round_no) if i not in failed]
            if not order:
                break
            yield steps.round(RoundStarted(round_no, self.rounds, tuple(order)))
            one = self._round(round_no, order, parts, places, failed)
            runs.append((yield from relayed(one, steps.event)))
            if runs[-1].cancelled:
                break
        done = [i for i in sorted(parts) if i not in failed]
        merged = {i: merge_rounds(parts[i], places[i]) for i in done}
        for i in done:  # after a cancel too: merged over the rounds each one completed
            yield Outcome(JobFinished(i, merged[i], self._secrets.get(i)))
        yield Finished(self._finished(runs, [merged[i] for i in done]))

    def _finished(self, runs: list[RunResult], results: list[JobResult]) -> RunResult:
        """The whole run: the first round's machine and start, the last round's end, every
        round's failures, the merged results."""
        if not runs:  # cancelled before the first round
            runs = [drained(BenchmarkRun([], environment=False).job_events())]
        return replace(
            runs[0],
            results=tuple(results),
            failures=tuple(f for r in runs for f in r.failures),
            finished_at=runs[-1].finished_at,
            cancelled=self.cancelled or any(r.cancelled for r in runs),
        )

    def _round(
        self,
        round_no: int,
        order: list[int],
        parts: dict[int, list[JobResult]],
        places: dict[int, list[tuple[int, int]]],
        failed: set[int],
    ) -> Generator[JobUpdate, None, RunResult]:
        """One round's job events, renumbered as the run's jobs (a job's finish kept for the
        merge, not said); (``yield from``'s value) the round's run."""
        jobs = [self.jobs[i] for i in order]
        if round_no > 0:  # memory, the copies' aggregate, a kept ciphertext: the first round's
            jobs = [later_round(j) for j in jobs]
        run = BenchmarkRun(
            jobs,
            environment=self._environment and round_no == 0,
            processes=self.processes if round_no == 0 else 1,
            cancel=self.cancel_event,
        )

        def renumbered(ev: JobUpdate) -> Iterator[JobUpdate]:
            if isinstance(ev, JobFinished):
                i = order[ev.index]
                parts.setdefault(i, []).append(ev.result)
                if ev.secret is not None:
                    self._secrets[i] = ev.secret
                places.setdefault(i, []).append((round_no, ev.index))
            elif isinstance(ev, JobFailed):
                failed.add(order[ev.index])
                yield replace(ev, index=order[ev.index])
            elif isinstance(ev, JobEvent):  # started, progress, a sample: renumbered
                yield replace(ev, index=order[ev.index])

        # Closed early (the consumer stopped), the running worker is killed.
        result: RunResult = yield from expanded(run.job_events(), renumbered)
        return result
