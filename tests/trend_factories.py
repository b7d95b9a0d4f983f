"""Series of runs for the trend's tests (engine, command line, window): the same bench run
again and again on one machine, with noise at the three levels a real series has, and, when
asked, a step in throughput from one run on and a library version changed at another.

Noise, as standard deviations of log times (about 2 % between runs in all): each run 1 % (that
day's machine), each round 1.5 % (a fresh worker), each repetition 1 %. Encryption and
decryption share the run's level and have rounds of their own."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from factories import job_result

from app.core.bench.results import RoundInfo, RunResult
from app.core.bench.run_info import Environment, InputSummary, RunOptions
from app.core.history.records import RunSummary, StoredRun
from app.core.sweep.results import SweepEntry, SweepPoint, SweepResult

RUN_SD, ROUND_SD, SAMPLE_SD = 0.01, 0.015, 0.01
BASE_S = 1e-3  # 1 MB in 1 ms: 1,000 MB/s before any step
INPUT = "input.bin"
INPUT_BYTES = 1_000_000
ENTRIES = (("aes-256-ctr", "cryptography", 256),)


def environment(version: str = "50.0.2") -> Environment:
    return Environment(
        {
            "cpu": {"model": "Test CPU 3000", "logical_cores": 2, "features": {"aes": True}},
            "os": {"platform": "Linux-6.1-x86_64", "system": "Linux"},
            "python": {"version": "3.11.2"},
            "packages": {"cryptography": version, "pycryptodome": "4.4.0"},
            "openssl_version": "OpenSSL 4.0.0",
            "cipherbench_version": "0.1.0",
        }
    )


def series_results(
    seed: int,
    *,
    runs: int = 10,
    step_at: int | None = None,
    step: float = -0.10,
    version_at: int | None = None,
    rounds: int = 6,
    per_round: int = 5,
    entries: Sequence[tuple[str, str, int]] = ENTRIES,
) -> list[RunResult]:
    """``runs`` bench runs a day apart; from run index ``step_at`` on (0-based) every entry's
    throughput is ``1 + step`` times what it was; from ``version_at`` on cryptography is
    51.0.0 instead of 50.0.2."""
    rng = random.Random(seed)
    out = []
    for i in range(runs):
        level = rng.gauss(0.0, RUN_SD)
        if step_at is not None and i >= step_at:
            level -= math.log1p(step)  # throughput x (1 + step): time / (1 + step)
        jobs = []
        for cipher, library, bits in entries:
            samples: dict[str, list[float]] = {"enc": [], "dec": []}
            for direction, times in samples.items():
                factor = 1.0 if direction == "enc" else 1.1
                for _ in range(rounds):
                    r = level + rng.gauss(0.0, ROUND_SD)
                    times += [
                        BASE_S * factor * math.exp(r + rng.gauss(0.0, SAMPLE_SD))
                        for _ in range(per_round)
                    ]
            info = tuple(RoundInfo(k, 0, per_round, per_round, 99.0) for k in range(rounds))
            jobs.append(
                job_result(
                    cipher=cipher,
                    library=library,
                    key_bits=bits,
                    input_label=INPUT,
                    input_bytes=INPUT_BYTES,
                    enc_s=samples["enc"],
                    dec_s=samples["dec"],
                    rounds=info if rounds > 1 else (),
                )
            )
        version = "51.0.0" if version_at is not None and i >= version_at else "50.0.2"
        started = f"2026-10-{i + 1:02d}T10:00:00+00:00"
        out.append(
            RunResult(
                results=tuple(jobs),
                failures=(),
                environment=environment(version),
                options=RunOptions(
                    repeat=per_round,
                    warmup=1,
                    data_mode="memory",
                    inputs=(InputSummary(INPUT, INPUT_BYTES),),
                ),
                started_at=started,
                finished_at=started.replace("10:00:00", "10:00:30"),
                tool={"name": "CipherBench", "version": "0.1.0"},
            )
        )
    return out


def stored(results: Sequence[RunResult], first_id: int = 1, **summary: Any) -> list[StoredRun]:
    """``results`` as the history hands them out, ids from ``first_id``, without a database."""
    out = []
    for i, r in enumerate(results):
        values: dict[str, Any] = {
            "id": first_id + i,
            "kind": "bench",
            "title": "t",
            "started_at": r.started_at,
            "finished_at": r.finished_at,
            "recorded_at": r.finished_at,
            "hostname": "lab-1",
            "cpu_model": r.environment.cpu_model,
            "ciphers": tuple(dict.fromkeys(j.cipher for j in r.results)),
            "inputs": (INPUT,),
            "source": "here",
            "cancelled": False,
            "cipherbench_version": "0.1.0",
        }
        out.append(StoredRun(RunSummary(**(values | summary)), r))
    return out


def sweep() -> SweepResult:
    """A tiny sweep: a kind that has no trend."""
    points = tuple(
        SweepPoint(op, n, 0, ((900.0, 1000.0, 1100.0),) * 2, calls=(10, 10))
        for op in ("encrypt", "decrypt")
        for n in (16, 4096)
    )
    entry = SweepEntry(
        "aes-128-gcm", "cryptography", 128, True, "50.0.2", points, clock_mhz=2600.0, rounds=2
    )
    return SweepResult(
        kind="sweep",
        entries=(entry,),
        failures=(),
        options={"lengths": [16, 4096], "rounds": 2},
        environment=Environment.from_dict({"cpu": {"model": "Test CPU"}}),
        started_at="2026-11-27T10:00:00+00:00",
        finished_at="2026-11-27T10:01:00+00:00",
        cipherbench_version="1.0",
    )
