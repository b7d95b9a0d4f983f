"""Shared by the hostile-input tests: the command line as a user runs it, and a small run."""

from __future__ import annotations

import multiprocessing.process
from pathlib import Path
from typing import Any

import factories
import pytest

from app.cli import main as cli
from app.core.bench.results import JobResult, RunResult
from app.core.runtime.output_checks import OutputExists
from app.core.runtime.safe_files import AtomicOutput


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str) -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cipherbench: error: "), err
    assert "Traceback" not in err and "internal error" not in err
    assert len(lines[0]) < 300  # no echo of hundreds of digits


def forbid_workers(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Make starting any child process (a benchmark worker, a transfer end) fail, and record
    each attempt: a command that refuses its input with nothing recorded refused it before its
    run began. The failure itself would show as an internal error (exit 3)."""
    started: list[object] = []

    def start(process: object) -> None:
        started.append(process)
        raise AssertionError("a worker process was started")

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", start)
    return started


def output_that_appeared_meanwhile(target: Path) -> OutputExists:
    """What an AtomicOutput without --force raises when ``target``, absent when the output
    began, exists when it is committed (another program wrote it meanwhile)."""
    with AtomicOutput(target, force=False) as out:
        out.write(b"new")
        target.write_bytes(b"appeared meanwhile")
        with pytest.raises(OutputExists) as caught:
            out.commit()
    return caught.value


def small_job(label: str = "data.bin", samples: int = 3, **changes: Any) -> JobResult:
    times = [0.001 + i * 1e-5 for i in range(samples)]
    fields: dict[str, Any] = {
        "cipher": "aes-128-ctr",
        "key_bits": 128,
        "input_label": label,
        "input_bytes": 5000,
        "output_bytes": 5000,
        "enc_s": times,
        "dec_s": times,
        "enc_warmup_s": [0.002],
        "dec_warmup_s": [0.002],
        "peak_rss": None,
        "ciphertext_preview_hex": "00" * 32,
        "cpu_percent": 99.0,
    }
    return factories.job_result(**{**fields, **changes})


def small_run(*jobs: JobResult) -> RunResult:
    jobs = jobs or (small_job(),)
    inputs = [{"label": j.input_label, "bytes": j.input_bytes} for j in jobs]
    return RunResult(
        results=tuple(jobs),
        failures=(),
        environment={"cpu": "test"},
        options={"repeat": 3, "warmup": 1, "inputs": inputs},
        started_at="2024-01-01T00:00:00+00:00",
        finished_at="2024-01-01T00:00:01+00:00",
        tool={"name": "CipherBench", "version": "test"},
    )
