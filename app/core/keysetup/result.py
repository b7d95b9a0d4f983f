"""A key setup run: each entry's samples by round, the machine, the times; and its document."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.ciphers.registry import Kind, lookup
from app.core.document.estimate import CELL_TIME, time_estimate
from app.core.document.model import Document, Table
from app.core.errors import UserError
from app.core.runtime.envelope import (
    Envelope,
    entry_dict,
    entry_names,
    envelope_dict,
    envelope_fields,
)
from app.core.text import counted

FORMAT = "cipherbench-keysetup"
PER_MESSAGE_OBJECTS = ("pycryptodome",)  # its AEADs schedule the key per message
VERSION = 1


@dataclass(frozen=True)
class KeySetupEntry:
    cipher: str
    library: str
    key_bits: int
    rounds_ns: tuple[tuple[float, ...], ...]  # per round, ns per context made

    @property
    def input_label(self) -> str:
        return "a fresh key"


@dataclass(frozen=True, kw_only=True)
class KeySetupResult(Envelope):
    results: tuple[KeySetupEntry, ...]

    def to_dict(self) -> dict[str, Any]:
        data = envelope_dict(self, FORMAT, VERSION)
        data["results"] = [
            entry_dict(e, rounds_ns=[list(r) for r in e.rounds_ns]) for e in self.results
        ]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KeySetupResult:
        results = tuple(
            KeySetupEntry(
                *entry_names(r), tuple(tuple(float(x) for x in rnd) for rnd in r["rounds_ns"])
            )
            for r in data["results"]
        )
        return cls(results=results, **envelope_fields(data))


def _per_message(entry: KeySetupEntry) -> bool:
    if entry.library not in PER_MESSAGE_OBJECTS:
        return False
    try:
        return lookup(entry.cipher, entry.library, entry.key_bits).kind is Kind.AEAD
    except UserError:  # an entry this CipherBench no longer has
        return False


def key_setup_document(result: KeySetupResult) -> Document:
    """One row per entry: the time to make a context, median [95 % interval], in µs."""
    rows = []
    for e in result.results:
        estimate = time_estimate(e.rounds_ns).scaled(1e-3)  # ns -> µs
        rows.append((e.cipher, e.library, f"{e.key_bits}", estimate, f"{len(e.rounds_ns)}"))
    notes = []
    wrappers = [e for e in result.results if _per_message(e)]
    if wrappers:
        notes.append(
            f"{', '.join(sorted({e.cipher for e in wrappers}))} [pycryptodome]: pycryptodome "
            "makes its AEAD cipher object (key schedule included) for every message, so its "
            "key setup is inside every seal and open; this figure is making the wrapper alone."
        )
    rounds = {(e.cipher, e.library): len(e.rounds_ns) for e in result.results}
    for f in result.failures:
        done = rounds.get((f.cipher, f.library))
        what = "Not measured" if done is None else f"Stopped after {done} round(s)"
        notes.append(f"{what}: {f.cipher} [{f.library}]: {f.message}")
    if result.cancelled:
        notes.append("The run was cancelled: the table holds what finished before it stopped.")
    table = Table(
        "Time to make a cipher context from a fresh key",
        ("Cipher", "Library", "Key (bits)", "Key setup (µs)", "Rounds"),
        tuple(rows),
        tuple(notes),
        text_columns=3,
    )
    method = (
        "Each entry's cipher context (key schedule, IV or nonce taken in) was made from a fresh "
        "random key in calibrated batches of calls (each sample at least 1 ms), in "
        f"{counted(result.rounds, 'round')}, each round in a fresh worker process, the entries of "
        f"a round in a random order of their own. Each time is {CELL_TIME}; the interval is a "
        "distribution-free 95 % interval over rounds ([n/a] from 2 to 5 rounds; with one "
        "round, over the samples of its one worker, which covers only the noise within one "
        "process)."
    )
    return Document("Key setup", (table,), method)
