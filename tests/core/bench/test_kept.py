"""What a finished job kept: FinishedJob, the input check, saving and decrypting the kept file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.core.bench.jobs import InputSpec
from app.core.bench.kept import FinishedJob, JobSecret, check_input_unchanged
from app.core.bench.results import JobResult
from app.core.bench.stats import summarize
from app.core.errors import UserError
from app.core.files.kept import decrypt_kept, kept_raw_key, raw_key_path, save_kept_raw
from app.core.files.rawexport import export_raw, read_raw_key

PLAIN = bytes(range(256)) * 41 + b"tail"  # not a multiple of the block size


def _result(cipher: str, library: str, key_bits: int, data_mode: str = "memory") -> JobResult:
    return JobResult(
        cipher=cipher,
        library=library,
        algorithm="AES",
        key_bits=key_bits,
        mode="CBC",
        data_mode=data_mode,
        input_label="in.bin",
        input_bytes=len(PLAIN),
        output_bytes=len(PLAIN) + 16,
        chunk_bytes=None,
        verified_round_trips=2,
        encrypt=summarize((0.001,), len(PLAIN), ()),
        decrypt=summarize((0.001,), len(PLAIN), ()),
        key_setup_s=(1e-6,),
        ciphertext_preview_hex="00",
        peak_rss_bytes=None,
        baseline_rss_bytes=None,
        python_peak_bytes=None,
        cpu_percent=None,
        warnings=(),
        monitor=(),
    )


def _input(path: Path, generated: bool = False) -> InputSpec:
    st = os.stat(path)
    return InputSpec(str(path), path.name, st.st_size, st.st_mtime_ns, generated)


@pytest.fixture
def kept_job(tmp_path: Path) -> FinishedJob:
    """A job whose kept ciphertext is a real raw export of ``in.bin``."""
    src = tmp_path / "in.bin"
    src.write_bytes(PLAIN)
    ct = tmp_path / "kept.bin"
    rk = export_raw(src, ct, tmp_path / "kept.key.json")
    result = _result(rk.cipher_id, rk.library, rk.key_bits)
    return FinishedJob(result, _input(src), JobSecret(str(ct), rk.key, rk.iv))


def test_finished_job_says_what_it_kept(kept_job: FinishedJob) -> None:
    assert kept_job.kept and kept_job.kept_is_one_message
    bare = FinishedJob(kept_job.result, kept_job.input)
    assert not bare.kept and not bare.kept_is_one_message
    assert "<hidden>" in repr(kept_job.secret)
    assert (
        repr(kept_job)
        == f"FinishedJob({kept_job.result.label}, input={kept_job.input.path!r}, kept=True)"
    )


def test_raw_key_path_is_beside_the_ciphertext(tmp_path: Path) -> None:
    assert raw_key_path(tmp_path / "x.bin") == tmp_path / "x.bin.key.json"


def test_check_input_unchanged(kept_job: FinishedJob, tmp_path: Path) -> None:
    check_input_unchanged(kept_job)
    src = Path(kept_job.input.path)
    src.write_bytes(PLAIN + b"!")
    with pytest.raises(UserError, match="changed since the benchmark ran"):
        check_input_unchanged(kept_job)
    src.unlink()
    with pytest.raises(UserError, match="of this job is gone"):
        check_input_unchanged(kept_job)
    generated = FinishedJob(kept_job.result, _input_gone(kept_job.input))
    with pytest.raises(UserError, match="generated input of this job is gone"):
        check_input_unchanged(generated)


def _input_gone(spec: InputSpec) -> InputSpec:
    return InputSpec(spec.path, spec.label, spec.size_bytes, spec.mtime_ns, generated=True)


def test_save_kept_raw_copies_the_ciphertext_and_writes_its_key(
    kept_job: FinishedJob, tmp_path: Path
) -> None:
    assert kept_job.secret is not None
    out, key_out = tmp_path / "out.bin", tmp_path / "out.key.json"
    raw_key = save_kept_raw(kept_job, out, key_out)
    assert out.read_bytes() == Path(kept_job.secret.ciphertext_path).read_bytes()
    assert read_raw_key(key_out) == raw_key == kept_raw_key(kept_job)
    assert key_out.stat().st_mode & 0o777 == 0o600
    with pytest.raises(UserError):
        save_kept_raw(kept_job, out, key_out)  # exists, no force
    save_kept_raw(kept_job, out, key_out, force=True)


def test_decrypt_kept_gives_the_input_back(kept_job: FinishedJob, tmp_path: Path) -> None:
    out = tmp_path / "plain.bin"
    assert decrypt_kept(kept_job, out) == out
    assert out.read_bytes() == PLAIN
    assert out.stat().st_mode & 0o777 == 0o600


def test_kept_file_gone_or_never_kept(kept_job: FinishedJob, tmp_path: Path) -> None:
    bare = FinishedJob(kept_job.result, kept_job.input)
    with pytest.raises(UserError, match="did not keep its ciphertext"):
        decrypt_kept(bare, tmp_path / "p")
    with pytest.raises(UserError, match="kept no single-message ciphertext"):
        save_kept_raw(bare, tmp_path / "c", tmp_path / "k")
    assert kept_job.secret is not None
    os.unlink(kept_job.secret.ciphertext_path)
    with pytest.raises(UserError, match="ciphertext is gone"):
        decrypt_kept(kept_job, tmp_path / "p")
    assert not (tmp_path / "p").exists()
