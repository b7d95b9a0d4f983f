"""Hand-built runs of each kind for the history's tests (tiny: a few samples each), and the
environment they claim, so a test names only what it is about; and the round trip every kind's
result makes through the history."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest
from factories import job_result

from app.core.bench.results import JobResult, RoundInfo, RunResult
from app.core.bench.run_info import Environment, RunOptions
from app.core.bench.stats import summarize
from app.core.runtime.envelope import EntryFailure
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.result import StudyResult
from app.core.transfer.results import EndSample, RunSample, TransferResult, TransferRun

PREVIEW = "c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0"  # "ciphertext"


def environment(**changes: Any) -> Environment:
    """A machine: ``cpu_model``, ``packages`` (merged), any top-level key replaced."""
    data: dict[str, Any] = {
        "cpu": {
            "model": changes.pop("cpu_model", "Test CPU 3000"),
            "logical_cores": 2,
            "features": {"aes": True, "avx2": True},
        },
        "os": {"platform": "Linux-6.1-x86_64", "system": "Linux"},
        "python": {"version": "3.11.2"},
        "packages": {"cryptography": "50.0.2", "pycryptodome": "4.4.0"}
        | changes.pop("packages", {}),
        "openssl_version": "OpenSSL 4.0.0",
        "cipherbench_version": "0.1.0",
        "captured_at": "2026-11-01T10:00:00+00:00",
    }
    data.update(changes)
    return Environment(data)


def bench_run(
    jobs: Sequence[Any] | None = None,
    *,
    started_at: str = "2026-11-01T10:00:00+00:00",
    env: Environment | None = None,
    failures: Sequence[EntryFailure] = (),
    cancelled: bool = False,
) -> RunResult:
    """A finished ``bench`` run: by default one aes-256-ctr job whose preview is PREVIEW."""
    results = tuple(jobs) if jobs is not None else (job_result(ciphertext_preview_hex=PREVIEW),)
    return RunResult(
        results=results,
        failures=tuple(failures),
        environment=env or environment(),
        options=RunOptions(repeat=3, warmup=1, data_mode="memory", measure_memory=True),
        started_at=started_at,
        finished_at=started_at.replace("10:00:00", "10:00:05"),
        cancelled=cancelled,
        tool={"name": "CipherBench", "version": "0.1.0"},
    )


def timed_job(samples_s: Sequence[float], rounds: int = 6, **changes: Any) -> Any:
    """A job whose encryption and decryption both took ``samples_s``, in ``rounds`` rounds of
    equal size (the last takes the remainder; 1: a plain bench job)."""
    info: tuple[RoundInfo, ...] = ()
    if rounds > 1:
        n = len(samples_s)
        sizes = [n // rounds] * (rounds - 1)
        sizes.append(n - sum(sizes))
        info = tuple(RoundInfo(i, 0, k, k, 99.0) for i, k in enumerate(sizes))
    return job_result(enc_s=samples_s, dec_s=samples_s, rounds=info, **changes)


# (cipher, key bits, mode, seconds for 2 KB): the entries of :func:`study_result`.
AES_CBC = (("aes-128-cbc", 128, "CBC", 20e-6), ("aes-256-cbc", 256, "CBC", 24e-6))


def study_result(
    started_at: str = "2026-11-02T10:00:00+00:00",
    entries: Sequence[tuple[str, int, str, float]] = AES_CBC,
    library: str = "pycryptodome",
) -> StudyResult:
    """A finished study of ``entries`` (of ``library``) on 2 and 4 KB, two rounds of two."""
    study = Study(
        "tiny",
        tuple(CipherChoice(cipher, library) for cipher, *_ in entries),
        title="AES-128 vs AES-256",
        sizes=(SizeInput("2 KB", 2000), SizeInput("4 KB", 4000)),
        repeat=4,
        rounds=2,
    )
    rounds = (RoundInfo(0, 0, 2, 2, 99.5), RoundInfo(1, 1, 2, 2, 99.5))
    jobs = [
        study_job(
            (cipher, library, bits, mode),
            (label, size),
            [t * size / 2000 * f for f in (1.0, 1.02, 0.98, 1.01)],
            [t * size / 2000 * f for f in (0.9, 0.92, 0.88, 0.91)],
            rounds,
            ciphertext_preview_hex=PREVIEW,
        )
        for label, size in (("2 KB", 2000), ("4 KB", 4000))
        for cipher, bits, mode, t in entries
    ]
    return finished_study(study, jobs, 2, started_at, started_at.replace("10:00:00", "10:01:00"))


def study_job(
    entry: tuple[str, str, int, str],
    size: tuple[str, int],
    enc_s: Sequence[float],
    dec_s: Sequence[float],
    rounds: tuple[RoundInfo, ...],
    **changes: Any,
) -> JobResult:
    """One cell of a hand-built study: ``entry`` (cipher, library, key bits, mode) on the
    input ``size`` (label, bytes), its samples split in ``rounds``."""
    cipher, library, bits, mode = entry
    label, n = size
    return job_result(
        cipher=cipher, library=library, key_bits=bits, mode=mode, input_label=label,
        input_bytes=n, enc_s=list(enc_s), dec_s=list(dec_s), rounds=rounds, **changes,
    )  # fmt: skip


def finished_study(
    study: Study, jobs: Sequence[JobResult], per_round: int, started_at: str, finished_at: str
) -> StudyResult:
    """``study`` finished with every round it asked for, ``per_round`` repetitions each."""
    return StudyResult(
        study=study,
        results=tuple(jobs),
        failures=(),
        environment=environment(),
        rounds=study.rounds,
        rounds_completed=study.rounds,
        repeat_per_round=per_round,
        started_at=started_at,
        finished_at=finished_at,
        tool={"name": "CipherBench", "version": "0.1.0"},
    )


def _end(wall: float) -> EndSample:
    return EndSample(wall, wall / 2, 40 * 2**20, 42 * 2**20)


def transfer_result(cipher: str = "aes-256-gcm", samples_s: Sequence[float] = (0.01, 0.011, 0.012)):
    """A transfer study cell's result, each run a round of its own."""
    runs = tuple(RunSample(t, _end(t), _end(t), True) for t in samples_s)
    return TransferResult(
        cipher_id=cipher,
        library=None if cipher == "none" else "cryptography",
        input_label="random 200 KB",
        input_bytes=200_000,
        chunk_bytes=65536,
        chunks=4,
        runs=runs,
        warmups=(),
        timing=summarize(samples_s, 200_000, (0.02,)),
        warnings=(),
        round_sizes=(1,) * len(samples_s),
    )


def transfer_run(started_at: str = "2026-11-03T10:00:00+00:00", **changes: Any) -> TransferRun:
    run = TransferRun(
        input_label="random 200 KB",
        input_bytes=200_000,
        options={"chunk_bytes": 65536, "repeat": 3, "warmup": 1, "timeout_s": 10.0},
        results=(transfer_result(), transfer_result("none", (0.005, 0.0051, 0.0052))),
        failures=(),
        environment=environment(),
        started_at=started_at,
        finished_at=started_at.replace("10:00:00", "10:00:02"),
        cipherbench_version="0.1.0",
    )
    return dataclasses.replace(run, **changes)


def transfer_study(started_at: str = "2026-11-05T10:00:00+00:00"):
    """A study of loopback transfers (``workload = "transfer"``): two ciphers on one size."""
    from app.core.study.transfer_result import TransferStudyResult

    study = Study(
        "loop",
        (CipherChoice("aes-256-gcm"), CipherChoice("none")),
        sizes=(SizeInput("200 KB", 200_000),),
        repeat=3,
        workload="transfer",
    )
    return TransferStudyResult(
        study=study,
        results=(transfer_result(), transfer_result("none", (0.005, 0.0051, 0.0052))),
        failures=(),
        environment=environment(),
        started_at=started_at,
        finished_at=started_at.replace("10:00:00", "10:00:09"),
        tool={"name": "CipherBench", "version": "0.1.0"},
    )


def stored_and_shown(result: Any, capsys: pytest.CaptureFixture[str]) -> str:
    """Records ``result`` in this test's history, asserts that it loads back equal, and returns
    what ``cipherbench history show`` prints of it."""
    from app.cli.main import main
    from app.core.history.store import History

    with History.open() as history:
        run_id = history.record(result)
        again = history.load(run_id).result
    assert again == result
    capsys.readouterr()
    assert main(["history", "show", str(run_id)]) == 0
    return capsys.readouterr().out
