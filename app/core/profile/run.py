"""Running a profile: every entry's rounds in fresh workers (:mod:`.sampler`), then its
result."""

from __future__ import annotations

import threading
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.core.bench.environment import capture_environment
from app.core.bench.inputs import cleanup_generated, generated_input, inspect_file
from app.core.bench.jobs import BenchOptions, InputSpec, Job
from app.core.ciphers.registry import CipherSpec, select
from app.core.profile.result import ProfileEntry, ProfileResult, ProfileRound
from app.core.profile.sampler import find_profiler, profiler_version
from app.core.runtime import scratch
from app.core.runtime.envelope import EntryFailure, timestamp
from app.core.runtime.events import Finished, Progress
from app.core.runtime.rounds import RoundTask, collect_rounds

MIN_SAMPLES = 100  # samples of timed calls a direction should get in each round


def entries(values: Mapping[str, Any]) -> list[CipherSpec]:
    """The entries asked for: every cipher from every library named (default: the compiled
    ones), each once."""
    libraries = values["library"] or (None,)
    specs = [s for library in libraries for s in select(values["cipher"], library)]
    return list({(s.id, s.library, s.key_bits): s for s in specs}.values())


def options(rate: int, base: BenchOptions | None = None) -> BenchOptions:
    """The jobs' options (``base``'s, a study's: its data mode and chunks): timed long enough
    for :data:`MIN_SAMPLES` a direction at ``rate`` and no longer (one call at least, no
    warm-up: a slow call on a large file is profiled once a direction, not six times), no
    memory pass (it is not what is profiled)."""
    return replace(
        base or BenchOptions(),
        repeat=1,
        warmup=0,
        measure_memory=False,
        memory_workload="",
        min_time_s=max(0.1, MIN_SAMPLES / rate),
    )


def run(values: Mapping[str, Any], cancel: threading.Event) -> Iterator[Progress | Finished]:
    """The command's and the window's run: the entries asked for on the input asked for."""
    specs = entries(values)
    given: InputSpec = (
        inspect_file(values["file"]) if values["file"] else generated_input(values["size"])
    )
    try:
        result = yield from profile(
            specs, [given], values["rounds"], values["rate"], cancel, profiler=values["profiler"]
        )
    finally:
        cleanup_generated(given)
    yield Finished(result)


def profile(
    specs: Sequence[CipherSpec],
    inputs: Sequence[InputSpec],
    rounds: int,
    rate: int,
    cancel: threading.Event,
    base: BenchOptions | None = None,
    profiler: str = "py-spy",
) -> Generator[Progress, None, ProfileResult]:
    """Every entry of ``specs`` on every input, ``rounds`` rounds each under ``profiler``
    (py-spy or perf; a study's profile too, with its options as ``base``); its progress, then
    (``yield from``'s value) the result."""
    found = find_profiler(profiler)
    version = profiler_version(found) if found else ""
    started = timestamp()
    jobs = [Job(s.id, s.library, s.key_bits, i, options(rate, base)) for i in inputs for s in specs]
    task = "app.core.profile.sampler:profile_round"
    folder = scratch.make_dir("profile-")  # the rounds' files: here, watched by the janitor
    try:
        asked = found or profiler  # the profiler, or the name of the one not found
        tasks = [
            RoundTask(f"{j.label} {j.input.label}", task, (j, rate, asked, folder)) for j in jobs
        ]
        collected = yield from collect_rounds(tasks, rounds, cancel)
    finally:
        scratch.remove(folder)
    return ProfileResult(
        results=tuple(
            ProfileEntry(
                job.cipher_id,
                job.library,
                job.key_bits,
                job.input.label,
                job.input.size_bytes,
                tuple(ProfileRound.from_dict(v) for v in collected.values[i]),
            )
            for i, job in enumerate(jobs)
            if collected.values[i]
        ),
        failures=tuple(
            EntryFailure(jobs[i].cipher_id, jobs[i].library, m) for i, m in collected.failed.items()
        ),
        rounds=rounds,
        rate=rate,
        profiler=version,
        environment=capture_environment(),
        started_at=started,
        finished_at=timestamp(),
        cancelled=cancel.is_set(),
    )
