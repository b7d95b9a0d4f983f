"""The papers' load-all program as a memory pass of its own: three copies of the input for a
block mode (the file, a padded copy, a new ciphertext), two for a stream cipher, measured one
direction at a time; and the key-length study's memory set beside the paper's on that basis."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.bench.inputs import generated_input, inspect_file
from app.core.bench.jobs import LOAD_ALL, BenchOptions
from app.core.bench.load_all import measure_load_all, workload_sentences
from app.core.bench.measure import run_job
from app.core.bench.plan import check_options, make_jobs
from app.core.bench.results import JobResult
from app.core.bench.workloads import Material
from app.core.ciphers.adapters import get_adapter
from app.core.ciphers.registry import lookup
from app.core.errors import UserError, VerificationError
from app.core.runtime.events import result_of
from app.core.study.definition import study_with
from app.core.study.paper import match_published
from app.core.study.presets import find_study
from app.core.study.runner import StudyRun

MB = 1_000_000

# Jobs run in this process (tests/jobs_here.py): these tests are about the memory pass's figures.
pytestmark = pytest.mark.usefixtures("in_process_jobs")


def _material(tmp_path: Path, cipher: str, library: str, size: int) -> Material:
    path = tmp_path / "input.bin"
    path.write_bytes(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
    spec = lookup(cipher, library)
    return Material(spec, get_adapter(library), b"k" * spec.key_bytes, b"\0" * 16, str(path), size)


@pytest.mark.parametrize(
    ("cipher", "library", "copies"),
    [("aes-128-cbc", "pycryptodome", 3.0), ("aes-128-cbc", "cryptography", 3.0),
     ("aes-256-ctr", "pycryptodome", 2.0), ("aes-256-gcm", "cryptography", 2.0)],
)  # fmt: skip
def test_a_block_mode_holds_three_copies_and_a_stream_cipher_two(
    tmp_path: Path, cipher: str, library: str, copies: float
) -> None:
    material = _material(tmp_path, cipher, library, MB + 5)  # a partial last block to pad
    work = tmp_path / "work"
    work.mkdir()
    memory = measure_load_all(material, str(work))
    assert memory.workload == LOAD_ALL
    for direction in ("encrypt", "decrypt"):
        # The copies, and at most a quarter more of what the library allocates on its own
        assert copies <= memory.python_peak(direction) / material.size < copies + 0.25
        assert 0 <= memory.rss_delta(direction) < 4 * material.size
    assert list(work.iterdir()) == []  # the ciphertext file it went through is gone


def test_a_round_trip_that_does_not_give_the_input_back_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.bench import load_all
    from app.core.ciphers.message import MessageCipher

    class Corrupting(MessageCipher):
        """Decrypts, then spoils the first byte (a library that got it wrong)."""

        def final(self, src: memoryview, dst: memoryview) -> int:
            n = super().final(src, dst)
            if self._decrypt:
                dst[0] ^= 1
            return n

    monkeypatch.setattr(load_all, "MessageCipher", Corrupting)
    material = _material(tmp_path, "aes-128-ctr", "pycryptodome", 4096)
    with pytest.raises(VerificationError, match="load-all"):
        measure_load_all(material, str(tmp_path))


def test_a_job_asked_for_it_reports_it_and_keeps_it_in_its_json(tmp_path: Path) -> None:
    spec = lookup("aes-128-cbc", "pycryptodome")
    options = BenchOptions(repeat=1, memory_workload=LOAD_ALL, min_time_s=0.0)
    (job,) = make_jobs([spec], generated_input(200_000, str(tmp_path)), options)
    result, _ = run_job(job)
    memory = result.workload_memory
    assert memory is not None and memory.python_peak("encrypt") >= 3 * 200_000
    assert JobResult.from_dict(result.to_dict()) == result
    (plain,) = make_jobs([spec], inspect_file(job.input.path), replace(options, memory_workload=""))
    assert run_job(plain)[0].workload_memory is None


def test_unknown_workloads_and_a_workload_without_the_memory_pass_are_refused() -> None:
    with pytest.raises(UserError, match="unknown memory workload 'half'"):
        check_options(BenchOptions(memory_workload="half"))
    with pytest.raises(UserError, match="runs in the memory pass"):
        check_options(BenchOptions(memory_workload=LOAD_ALL, measure_memory=False))
    assert workload_sentences("") == [] and "padded copy" in workload_sentences(LOAD_ALL)[0]


def test_a_figure_of_the_load_all_program_needs_the_study_to_run_it() -> None:
    study = find_study("aes-key-sizes")
    with pytest.raises(UserError, match='memory_workload = "load-all"'):
        replace(study, memory_workload="").validate()


def test_the_key_length_studys_memory_meets_the_papers_three_copies() -> None:
    """Issue 32: run with the paper's program, ours comes within 10 % of the paper's 3 MB for
    1 MB, for every key length."""
    preset = find_study("aes-key-sizes")
    study = study_with(preset, sizes=preset.sizes[:1], repeat=1, rounds=1, time_budget_s=0.0)
    matches = match_published(result_of(StudyRun(study).events()))
    memory = [m for m in matches if m.figure.quantity == "memory" and m.input_label]
    assert len(memory) == 3 and all(m.input_label == "1 MB" for m in memory)
    for m in memory:
        assert m.measured is not None and m.measured / m.figure.value == pytest.approx(1, abs=0.1)


def test_bench_prints_it_in_80_columns_and_exports_it(capsys, tmp_path: Path, monkeypatch) -> None:
    from app.cli import main as cli

    monkeypatch.setenv("COLUMNS", "80")
    out_csv = tmp_path / "r.csv"
    argv = ["bench", "--size", "64KB", "--cipher", "aes-128-cbc", "--library", "pycryptodome"]
    code = cli.main([*argv, "--memory-workload", "load-all", "--out", str(out_csv)])
    out = capsys.readouterr().out
    assert code == 0 and "load-all program" in out and max(map(len, out.splitlines())) <= 80
    assert re.search(r"aes-128-cbc \[pycryptodome\]: encrypt 0\.1[89]\d* / ", out)  # 3 x 64 KB
    header = out_csv.read_text().splitlines()[0].split(",")
    assert "load_all_decrypt_rss_delta_bytes" in header
    assert cli.main([*argv, "--memory-workload", "load-all", "--no-memory"]) == 2
    assert "memory measurement switched off" in capsys.readouterr().err
