"""Running a leak test: each entry in a fresh worker (:mod:`.worker`), then its result."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from app.core.bench.environment import capture_environment
from app.core.ciphers.registry import Kind, select
from app.core.document.numbers import count_text, figure
from app.core.errors import UserError
from app.core.leak.job import CONTROL_CLASSES, CONTROL_LIBRARY, CONTROLS, LeakJob
from app.core.leak.result import LeakEntry, LeakResult
from app.core.runtime.definition import Finished, Progress
from app.core.runtime.envelope import EntryFailure
from app.core.runtime.rounds import RoundTask, collect_rounds

TASK = "app.core.leak.worker:leak_round"


def jobs(values: Mapping[str, Any], seed: int) -> list[LeakJob]:
    """The entries asked for (controls first, then each cipher from each library named), each
    with the AES instructions on, off or both (off only where it changes something: AES from
    a compiled library)."""
    ids = [c.strip().lower() for c in values["cipher"]]
    names = [(c, CONTROL_LIBRARY, 0) for c in ids if c in CONTROLS]
    if names and values["classes"] not in CONTROL_CLASSES:
        raise UserError(
            f"{names[0][0]} takes the classes fixed-random (the first byte differs, or the "
            "last) or random-random (the A/A control)"
        )
    ciphers = [c for c in ids if c not in CONTROLS]
    specs = []
    if ciphers:
        specs = [s for lib in values["library"] or (None,) for s in select(ciphers, lib)]
        specs = list({(s.id, s.library, s.key_bits): s for s in specs}.values())
    for s in specs:
        if s.kind is Kind.BLOCK and s.padded and values["length"] % s.block_bytes:
            raise UserError(
                f"a length of {values['length']} bytes is not whole blocks of {s.id} "
                f"({s.block_bytes} bytes): ECB and CBC are timed without padding"
            )
        names.append((s.id, s.library, s.key_bits))
    switch = values["aes_instructions"]
    out = []
    for cipher, library, bits in names:
        hardware = library in ("cryptography", "pycryptodome") and cipher.startswith("aes")
        steps = {"on": (True,), "off": (False,), "both": (True, False)}[switch]
        for on in steps if hardware else (True,):
            out.append(
                LeakJob(
                    cipher,
                    library,
                    bits,
                    values["classes"],
                    values["length"],
                    float(values["budget"]),
                    seed,
                    on,
                )
            )
    return out


def run(values: Mapping[str, Any], cancel: threading.Event) -> Iterator[Progress | Finished]:
    seed = values["seed"] if values["seed"] is not None else secrets.randbelow(2**31)
    todo = jobs(values, seed)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    tasks = [RoundTask(j.label, TASK, j) for j in todo]
    collected = yield from _live(collect_rounds(tasks, 1, cancel))
    entries = []
    for i, job in enumerate(todo):
        for got in collected.values[i]:
            names = (job.cipher, job.library, job.key_bits)
            entries.append(LeakEntry.measured(names, job.aes_instructions, got))
    result = LeakResult(
        results=tuple(entries),
        failures=tuple(
            EntryFailure(todo[i].cipher, todo[i].library, m) for i, m in collected.failed.items()
        ),
        rounds=1,
        classes=values["classes"],
        length=values["length"],
        budget_s=float(values["budget"]),
        seed=seed,
        environment=capture_environment(),
        started_at=started,
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
        cancelled=cancel.is_set(),
    )
    yield Finished(result)


def _live(events: Any) -> Any:
    """The rounds' progress with the running entry's |t| and calls in its words."""
    while True:
        try:
            event = next(events)
        except StopIteration as done:
            return done.value
        detail = event.detail
        if detail and detail.get("t") is not None:
            what = (
                f"{event.what}: |t| = {figure(abs(detail['t']))} after "
                f"{count_text(detail['calls'])} calls"
            )
            event = Progress(event.fraction, what, detail)
        yield event
