"""Hand-built sweep results for the tests: plausible figures, consistent by construction."""

from __future__ import annotations

from app.core.bench.run_info import Environment
from app.core.sweep.results import SweepEntry, SweepPoint, SweepResult


def point(op: str, n: int, ns: float, ad: int = 0, rounds: int = 2) -> SweepPoint:
    return SweepPoint(
        op, n, ad, tuple((ns * 0.99, ns, ns * 1.01) for _ in range(rounds)), calls=(10,) * rounds
    )


def entry(
    cipher: str = "aes-128-gcm",
    library: str = "cryptography",
    *,
    ns_per_byte: float = 0.1,
    fixed_ns: float = 800.0,
    lengths: tuple[int, ...] = (16, 1350, 1 << 20),
    aes_instructions: bool = True,
    note: str = "",
) -> SweepEntry:
    points = [point("key setup", 0, 1300.0)]
    for n in lengths:
        t = fixed_ns + ns_per_byte * n
        points += [point("encrypt", n, t), point("decrypt", n, t * 1.02)]
    return SweepEntry(
        cipher=cipher,
        library=library,
        key_bits=128,
        aes_instructions=aes_instructions,
        library_version="50.0.2",
        points=tuple(points),
        clock_mhz=2600.0,
        rounds=2,
        note=note,
    )


def sweep_result(*entries: SweepEntry, kind: str = "sweep", title: str = "") -> SweepResult:
    return SweepResult(
        kind=kind,
        entries=entries or (entry(),),
        failures=(),
        options={"lengths": [16, 1350, 1 << 20], "rounds": 2},
        environment=Environment.from_dict({"cpu": {"model": "Test CPU"}}),
        started_at="2026-11-27T10:00:00+00:00",
        finished_at="2026-11-27T10:01:00+00:00",
        cipherbench_version="1.0",
        title=title,
    )
