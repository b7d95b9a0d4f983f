"""Hand-built studies for the publication kit's figure tests: entries x inputs, each job in
``rounds`` rounds of ``per_round`` repetitions, times proportional to size with a fixed cost
and a little spread, so medians and intervals are known and differ between entries."""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.core.bench.results import RoundInfo
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.result import StudyResult
from tests.core.history.history_factories import finished_study, study_job

# (cipher, library, key bits, mode, bytes per second)
ENTRIES = (
    ("aes-128-gcm", "cryptography", 128, "GCM", 4.0e9),
    ("aes-256-gcm", "cryptography", 256, "GCM", 3.2e9),
    ("chacha20-poly1305", "cryptography", 256, "ChaCha20-Poly1305", 1.5e9),
    ("aes-128-cbc", "pyaes", 128, "CBC", 0.4e6),
)


def made_study(
    sizes: Sequence[tuple[str, int]] = (("1 KB", 1000), ("1 MB", 10**6), ("100 MB", 10**8)),
    *,
    files: Sequence[tuple[str, int]] = (),
    entries: Sequence[tuple[str, str, int, str, float]] = ENTRIES[:3],
    rounds: int = 6,
    per_round: int = 3,
    units: str = "MB/s",
    seed: int = 1,
) -> StudyResult:
    """A finished study of ``sizes`` (generated inputs) or of ``files`` (name, bytes)."""
    rng = random.Random(seed)
    inputs = list(files) or list(sizes)
    study = Study(
        "made",
        tuple(CipherChoice(c, lib) for c, lib, *_ in entries),
        title="Made-up study",
        sizes=tuple(SizeInput(label, n) for label, n in sizes) if not files else (),
        files=tuple(f"/data/{name}" for name, _ in files),
        repeat=per_round * rounds,
        rounds=rounds,
        units=units,
    )
    return _finished(study, inputs, entries, rounds, per_round, rng)


def _finished(
    study: Study,
    inputs: Sequence[tuple[str, int]],
    entries: Sequence[tuple[str, str, int, str, float]],
    rounds: int,
    per_round: int,
    rng: random.Random,
) -> StudyResult:
    info = tuple(RoundInfo(i, i, per_round, per_round, 99.0) for i in range(rounds))
    jobs = []
    for label, n in inputs:
        for cipher, library, bits, mode, speed in entries:

            def times(slower: float, speed: float = speed, n: int = n) -> list[float]:
                base = (20e-6 + n / speed) * slower
                return [base * rng.uniform(0.95, 1.08) for _ in range(rounds * per_round)]

            jobs.append(
                study_job((cipher, library, bits, mode), (label, n), times(1.0), times(0.9), info)
            )
    return finished_study(
        study, jobs, per_round, "2026-11-02T10:00:00+00:00", "2026-11-02T10:05:00+00:00"
    )


def key_length_study(seed: int = 5) -> StudyResult:
    """The key-length study (preset ``aes-key-sizes``: AES-128/192/256-CBC in pycryptodome on
    1, 10 and 50 MB, with the paper's figures and claims), finished with made-up times."""
    from app.core.study.presets import find_study

    study = find_study("aes-key-sizes")
    speeds = {"aes-128-cbc": 0.9e9, "aes-192-cbc": 0.8e9, "aes-256-cbc": 0.7e9}
    entries = [
        (
            c.cipher_id,
            c.library or "pycryptodome",
            int(c.cipher_id[4:7]),
            "CBC",
            speeds[c.cipher_id],
        )
        for c in study.ciphers
    ]
    inputs = [(s.label, s.size_bytes) for s in study.sizes]
    rng = random.Random(seed)
    return _finished(study, inputs, entries, study.rounds, 3, rng)
