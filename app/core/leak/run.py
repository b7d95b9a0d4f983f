"""Running a leak test: each entry in a fresh worker (:mod:`.worker`), then its result."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.core.bench.environment import capture_environment
from app.core.ciphers.registry import CipherSpec, Kind, select
from app.core.document.numbers import count_text, figure
from app.core.errors import UserError
from app.core.leak.job import CONTROL_CLASSES, CONTROL_LIBRARY, CONTROLS, LeakJob
from app.core.leak.result import LeakEntry, LeakResult
from app.core.runtime.envelope import EntryFailure, timestamp
from app.core.runtime.events import Finished, Progress, relayed
from app.core.runtime.rounds import RoundTask, collect_rounds

TASK = "app.core.leak.worker:leak_round"


def jobs(values: Mapping[str, Any], seed: int) -> list[LeakJob]:
    """The entries asked for: controls first, then each cipher from each library named."""
    ids = [c.strip().lower() for c in values["cipher"]]
    controls = [(c, CONTROL_LIBRARY, 0) for c in ids if c in CONTROLS]
    if controls and values["classes"] not in CONTROL_CLASSES:
        raise UserError(
            f"{controls[0][0]} takes the classes fixed-random (the first byte differs, or the "
            "last) or random-random (the A/A control)"
        )
    ciphers = [c for c in ids if c not in CONTROLS]
    specs = []
    if ciphers:
        specs = [s for lib in values["library"] or (None,) for s in select(ciphers, lib)]
        specs = list({(s.id, s.library, s.key_bits): s for s in specs}.values())
    template = LeakJob(
        "", "", 0, values["classes"], values["length"], float(values["budget"]), seed
    )
    return entry_jobs(controls, specs, template, values["aes_instructions"])


def entry_jobs(
    controls: Sequence[tuple[str, str, int]],
    specs: Sequence[CipherSpec],
    template: LeakJob,
    switch: str = "on",
) -> list[LeakJob]:
    """A job of ``template``'s classes, length, budget and seed for each control and entry,
    with the AES instructions on, off or both (off only where it changes something: AES from
    a compiled library). ``UserError`` for a length that is not whole blocks of an ECB or CBC
    entry."""
    names = list(controls)
    for s in specs:
        if s.kind is Kind.BLOCK and s.padded and template.length % s.block_bytes:
            raise UserError(
                f"a length of {template.length} bytes is not whole blocks of {s.id} "
                f"({s.block_bytes} bytes): ECB and CBC are timed without padding"
            )
        names.append((s.id, s.library, s.key_bits))
    steps = {"on": (True,), "off": (False,), "both": (True, False)}[switch]
    out = []
    for cipher, library, bits in names:
        hardware = library in ("cryptography", "pycryptodome") and cipher.startswith("aes")
        for on in steps if hardware else (True,):
            out.append(replace(template, cipher=cipher, library=library, key_bits=bits,
                               aes_instructions=on))  # fmt: skip
    return out


def run(values: Mapping[str, Any], cancel: threading.Event) -> Iterator[Progress | Finished]:
    """The command's and the window's run: the entries asked for, then the result."""
    seed = values["seed"] if values["seed"] is not None else secrets.randbelow(2**31)
    result = yield from leak(jobs(values, seed), cancel)
    yield Finished(result)


def leak(todo: Sequence[LeakJob], cancel: threading.Event) -> Generator[Progress, None, LeakResult]:
    """Each job in a fresh worker (a study's leak test too); its progress with the running
    entry's |t|, then (``yield from``'s value) the result. The jobs share their classes,
    length, budget and seed."""
    first = todo[0]
    started = timestamp()
    tasks = [RoundTask(j.label, TASK, j) for j in todo]
    collected = yield from _live(collect_rounds(tasks, 1, cancel))
    entries = []
    for i, job in enumerate(todo):
        for got in collected.values[i]:
            names = (job.cipher, job.library, job.key_bits)
            entries.append(LeakEntry.measured(names, job.aes_instructions, got))
    return LeakResult(
        results=tuple(entries),
        failures=tuple(
            EntryFailure(todo[i].cipher, todo[i].library, m) for i, m in collected.failed.items()
        ),
        rounds=1,
        classes=first.classes,
        length=first.length,
        budget_s=first.budget_s,
        seed=first.seed,
        environment=capture_environment(),
        started_at=started,
        finished_at=timestamp(),
        cancelled=cancel.is_set(),
    )


def _live(events: Generator[Progress, None, Any]) -> Generator[Progress, None, Any]:
    """The rounds' progress with the running entry's |t| and calls in its words."""
    return (yield from relayed(events, _in_words))


def _in_words(event: Progress) -> Progress:
    detail = event.detail
    if not detail or detail.get("t") is None:
        return event
    t, calls = figure(abs(detail["t"])), count_text(detail["calls"])
    return Progress(event.fraction, event.what, detail, f"|t| = {t} after {calls} calls")
