"""Running key setup: every entry's rounds in fresh workers, then its result."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import Any

from app.core.bench.environment import capture_environment
from app.core.ciphers.registry import select
from app.core.keysetup.result import KeySetupEntry, KeySetupResult
from app.core.runtime.envelope import EntryFailure, timestamp
from app.core.runtime.events import Finished, Progress
from app.core.runtime.rounds import RoundTask, collect_rounds


def run(values: Mapping[str, Any], cancel: threading.Event) -> Iterator[Progress | Finished]:
    specs = select(values["cipher"], values["library"])
    entries = [(s.id, s.library, s.key_bits) for s in specs]
    tasks = [
        RoundTask(f"{c} [{lib}]", "app.core.keysetup.measure:time_round", [(c, lib, bits)])
        for c, lib, bits in entries
    ]
    started = timestamp()
    collected = yield from collect_rounds(tasks, values["rounds"], cancel)
    samples = {i: [value[0] for value in got] for i, got in collected.values.items()}
    result = KeySetupResult(
        results=tuple(
            KeySetupEntry(c, lib, bits, tuple(samples[i]))
            for i, (c, lib, bits) in enumerate(entries)
            if samples[i]
        ),
        failures=tuple(
            EntryFailure(entries[i][0], entries[i][1], m) for i, m in collected.failed.items()
        ),
        rounds=values["rounds"],
        environment=capture_environment(),
        started_at=started,
        finished_at=timestamp(),
        cancelled=cancel.is_set(),
    )
    yield Finished(result)
