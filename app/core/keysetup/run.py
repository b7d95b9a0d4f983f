"""Running key setup: every entry's rounds in fresh workers, then its result."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from app.core.bench.environment import capture_environment
from app.core.ciphers.registry import select
from app.core.keysetup.result import KeySetupEntry, KeySetupFailure, KeySetupResult
from app.core.runtime.definition import Finished, Progress
from app.core.runtime.rounds import (
    RoundDone,
    RoundFailed,
    RoundProgress,
    RoundStarted,
    RoundTask,
    run_rounds,
)


def run(values: Mapping[str, Any], cancel: threading.Event) -> Iterator[Progress | Finished]:
    specs = select(values["cipher"], values["library"])
    entries = [(s.id, s.library, s.key_bits) for s in specs]
    tasks = [
        RoundTask(f"{c} [{lib}]", "app.core.keysetup.measure:time_round", [(c, lib, bits)])
        for c, lib, bits in entries
    ]
    started = datetime.now(UTC).isoformat(timespec="seconds")
    samples: dict[int, list[tuple[float, ...]]] = {i: [] for i in range(len(tasks))}
    failed: dict[int, str] = {}
    cancelled = False
    events = run_rounds(tasks, values["rounds"], cancel=cancel)
    try:
        for event in events:
            if isinstance(event, RoundStarted):
                what = f"round {event.round + 1}/{event.rounds} {tasks[event.task].label}"
            elif isinstance(event, RoundProgress):
                yield Progress(event.fraction, what)
            elif isinstance(event, RoundDone):
                samples[event.task].append(event.value[0])
            elif isinstance(event, RoundFailed):
                failed[event.task] = event.message
    except (KeyboardInterrupt, GeneratorExit):
        events.close()
        raise
    cancelled = cancel.is_set()
    result = KeySetupResult(
        results=tuple(
            KeySetupEntry(c, lib, bits, tuple(samples[i]))
            for i, (c, lib, bits) in enumerate(entries)
            if samples[i]
        ),
        failures=tuple(
            KeySetupFailure(entries[i][0], entries[i][1], m.splitlines()[0])
            for i, m in failed.items()
        ),
        rounds=values["rounds"],
        environment=capture_environment(),
        started_at=started,
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
        cancelled=cancelled,
    )
    yield Finished(result)
