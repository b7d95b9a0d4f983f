"""The measured job, in-process: repetition logic with a fake clock, every registry entry in both
data modes, verification and input-change detection."""

import dataclasses
import os
import re

import pytest

from app.core.bench.inputs import inspect_file
from app.core.bench.jobs import BenchOptions, Job
from app.core.bench.measure import run_job
from app.core.ciphers.message import stream_output_bytes
from app.core.ciphers.registry import REGISTRY, Kind
from app.core.errors import UserError


class FakeClock:
    """Each call advances by ``step_ns``: setup, start and stop reads give one step of work."""

    def __init__(self, step_ns: int) -> None:
        self.now = 0
        self.step = step_ns

    def __call__(self) -> int:
        self.now += self.step
        return self.now


@pytest.fixture
def small_file(tmp_path):
    p = tmp_path / "input.bin"
    p.write_bytes(os.urandom(1000))
    return p


def _job(path, cipher="aes-128-cbc", library="pycryptodome", **opts):
    spec = inspect_file(path)
    from app.core.ciphers.registry import lookup

    bits = lookup(cipher, library).key_bits
    return Job(cipher, library, bits, spec, BenchOptions(**opts))


def test_fake_clock_gives_exact_statistics(small_file):
    clock = FakeClock(step_ns=2_000_000)  # 2 ms per timed call
    result, _ = run_job(
        _job(small_file, repeat=5, warmup=2, min_time_s=0, measure_memory=False), clock=clock
    )
    enc = result.encrypt
    assert enc.samples_s == (0.002,) * 5
    assert enc.warmup_s == (0.002,) * 2  # warm-ups kept apart, not counted
    assert enc.median_s == 0.002 and enc.stdev_s == 0.0
    assert enc.throughput_mb_s == pytest.approx(1000 / 0.002 / 1e6)
    assert len(result.key_setup_s) == 5
    assert result.verified


def test_tiny_inputs_repeat_until_min_time(small_file):
    clock = FakeClock(step_ns=1_000_000)  # 1 ms each: 100 repetitions make 0.1 s
    result, _ = run_job(
        _job(small_file, repeat=5, warmup=0, min_time_s=0.1, measure_memory=False), clock=clock
    )
    assert len(result.encrypt.samples_s) == 100
    assert len(result.decrypt.samples_s) == 100


def test_max_repeat_caps_repetitions(small_file):
    clock = FakeClock(step_ns=1000)
    result, _ = run_job(
        _job(small_file, repeat=3, warmup=0, min_time_s=10, max_repeat=40, measure_memory=False),
        clock=clock,
    )
    assert len(result.encrypt.samples_s) == 40


def test_memory_pass_reports_peaks(small_file):
    result, _ = run_job(_job(small_file, repeat=1, warmup=0, min_time_s=0))
    assert result.peak_rss_bytes is not None and result.baseline_rss_bytes is not None
    assert result.peak_rss_bytes >= result.baseline_rss_bytes
    assert result.python_peak_bytes > 0


def test_no_memory_option_skips_the_pass(small_file):
    result, _ = run_job(_job(small_file, repeat=1, warmup=0, min_time_s=0, measure_memory=False))
    assert result.peak_rss_bytes is None and result.python_peak_bytes is None


@pytest.mark.parametrize("mode", ["memory", "stream"])
@pytest.mark.parametrize("spec", REGISTRY, ids=lambda s: s.label)
def test_every_entry_round_trips_in_both_modes(tmp_path, spec, mode):
    size = 200 if spec.library == "pyaes" else 3000  # several 1 KiB chunks, a partial last one
    p = tmp_path / "in.bin"
    p.write_bytes(os.urandom(size))
    job = Job(
        spec.id,
        spec.library,
        spec.key_bits,
        inspect_file(p),
        BenchOptions(
            repeat=1, warmup=0, min_time_s=0, data_mode=mode, chunk_bytes=1024, measure_memory=False
        ),
    )
    result, _ = run_job(job)
    assert result.verified
    expected = (
        spec.output_bytes(size) if mode == "memory" else stream_output_bytes(spec, size, 1024)
    )
    assert result.output_bytes == expected
    assert len(result.ciphertext_preview_hex) == 64
    assert p.read_bytes() != b"" and p.stat().st_size == size  # the input is never modified


def test_stream_aead_adds_one_tag_per_chunk():
    spec = next(s for s in REGISTRY if s.id == "aes-256-gcm")
    assert spec.kind is Kind.AEAD
    assert stream_output_bytes(spec, 3000, 1024) == 3000 + 3 * 16
    assert stream_output_bytes(spec, 0, 1024) == 16


def test_input_changed_before_the_job_is_refused(small_file):
    job = _job(small_file)
    small_file.write_bytes(os.urandom(1001))
    with pytest.raises(UserError, match="changed during the run"):
        run_job(job)


def test_input_vanished_is_refused(small_file):
    job = _job(small_file)
    small_file.unlink()
    with pytest.raises(UserError, match="vanished"):
        run_job(job)


def test_kept_ciphertext_decrypts_with_the_returned_secret(tmp_path, small_file):
    from app.core.ciphers.adapters import get_adapter
    from app.core.ciphers.message import decrypt_bytes
    from app.core.ciphers.registry import lookup

    for mode in ("memory", "stream"):
        keep = tmp_path / f"kept-{mode}.bin"
        job = dataclasses.replace(
            _job(
                small_file,
                cipher="aes-256-gcm",
                library="cryptography",
                repeat=1,
                warmup=0,
                min_time_s=0,
                data_mode=mode,
                measure_memory=False,
            ),
            keep_ciphertext_path=str(keep),
        )
        _, secret = run_job(job)
        assert secret is not None and "hidden" in repr(secret)
        assert secret.key.hex() not in repr(secret)
        spec = lookup("aes-256-gcm", "cryptography")
        plain = decrypt_bytes(
            spec, get_adapter("cryptography"), secret.key, secret.iv, keep.read_bytes()
        )
        assert plain == small_file.read_bytes()


def test_cpu_contention_is_flagged(small_file, monkeypatch):
    import time as real_time

    from app.core.bench import workloads

    class HalfCpu:
        """The process gets half the wall-clock time as CPU time: another program competes."""

        def __getattr__(self, name):
            return getattr(real_time, name)

        @staticmethod
        def process_time_ns():
            return real_time.perf_counter_ns() // 2

    monkeypatch.setattr(workloads, "time", HalfCpu())
    big = small_file.parent / "big.bin"
    big.write_bytes(os.urandom(4 << 20))  # samples well above the too-short threshold
    result, _ = run_job(_job(big, repeat=2, warmup=0, min_time_s=0, measure_memory=False))
    assert result.cpu_percent < 60
    assert any("competed for the CPU" in w for w in result.warnings)


def test_stream_workload_checks_against_the_given_digest(small_file, tmp_path):
    import hashlib

    from app.core.bench.workloads import Material, StreamWorkload
    from app.core.ciphers.adapters import get_adapter
    from app.core.ciphers.registry import lookup

    spec = lookup("aes-128-ctr", "cryptography")
    key, iv = bytes(range(16)), bytes(16)
    args = (
        Material(spec, get_adapter("cryptography"), key, iv, str(small_file), 1000),
        256,
        str(tmp_path),
    )
    right = hashlib.sha256(small_file.read_bytes()).digest()
    for digest, expected in ((right, True), (bytes(32), False), (None, True)):
        wl = StreamWorkload(*args, digest=digest)
        wl.encrypt()
        wl.decrypt()
        assert wl.verify() is expected
        wl.close()


def _stream_job_with_hook(path, hook):
    """A stream-mode job whose progress callback calls ``hook`` once the timed runs began."""
    job = _job(
        path,
        data_mode="stream",
        chunk_bytes=1024,
        repeat=3,
        warmup=0,
        min_time_s=0,
        measure_memory=False,
    )
    fired = []

    def progress(phase, fraction):
        if phase == "encrypt / decrypt" and not fired:
            fired.append(True)
            hook()

    return job, progress


def test_input_rewritten_in_place_is_reported_as_changed_not_as_a_cipher_failure(small_file):
    size = small_file.stat().st_size

    def rewrite():
        with open(small_file, "r+b") as fh:  # same size, other bytes
            fh.write(os.urandom(size))

    job, progress = _stream_job_with_hook(small_file, rewrite)
    with pytest.raises(UserError, match="changed during the run") as info:
        run_job(job, progress)
    assert "verification" not in str(info.value)


def test_input_deleted_mid_run_gets_a_plain_sentence(small_file):
    job, progress = _stream_job_with_hook(small_file, small_file.unlink)
    with pytest.raises(UserError, match="vanished during the run") as info:
        run_job(job, progress)
    assert "Errno" not in str(info.value) and "FileNotFoundError" not in str(info.value)


def test_warm_ups_and_the_memory_pass_are_verified_round_trips_but_not_samples(small_file):
    clock = FakeClock(step_ns=2_000_000)
    result, _ = run_job(
        _job(small_file, repeat=3, warmup=2, min_time_s=0, measure_memory=True), clock=clock
    )
    assert len(result.encrypt.samples_s) == 3 and len(result.decrypt.samples_s) == 3
    assert len(result.encrypt.warmup_s) == 2 and len(result.decrypt.warmup_s) == 2
    assert result.verified_round_trips == 3 + 2 + 1
    # Key setup is read before the timed region starts: one clock step of its own per timed run.
    assert result.key_setup_s == (0.002,) * 3
    assert result.peak_rss_bytes is not None


@pytest.mark.parametrize("mode", ["memory", "stream"])
def test_a_short_decryption_fails_verification(small_file, tmp_path, mode):
    from app.core.bench.workloads import Material, MemoryWorkload, StreamWorkload
    from app.core.ciphers.adapters import get_adapter
    from app.core.ciphers.registry import lookup
    from app.core.errors import VerificationError

    spec = lookup("aes-128-ctr", "cryptography")
    material = Material(
        spec, get_adapter("cryptography"), bytes(range(16)), bytes(16), str(small_file), 1000
    )
    wl = (
        MemoryWorkload(material)
        if mode == "memory"
        else StreamWorkload(material, 256, str(tmp_path))
    )
    try:
        wl.encrypt()
        wl.output_bytes -= 1  # a ciphertext one byte short decrypts to 999 bytes
        with pytest.raises(VerificationError, match="decryption returned 999 bytes"):
            wl.decrypt()
    finally:
        wl.close()


def test_a_memory_pass_that_cannot_allocate_reports_memory_not_a_python_error(
    small_file, monkeypatch
):
    import app.core.bench.measure as measure

    def no_room(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(measure, "MemoryWorkload", no_room)
    with pytest.raises(MemoryError):  # isolation words it for the mode; was UnboundLocalError
        run_job(_job(small_file, measure_memory=True, repeat=1, warmup=0))


@pytest.mark.parametrize("library", ["cryptography", "pycryptodome"])  # out of place, in place
def test_a_tiny_input_is_timed_in_batches_of_calls_never_too_short(tmp_path, library) -> None:
    tiny = tmp_path / "tiny.bin"
    tiny.write_bytes(os.urandom(16))
    for cipher in ("aes-128-cbc", "aes-128-gcm", "aes-128-ctr"):
        job = _job(tiny, cipher, library, repeat=5, warmup=1, min_time_s=0, measure_memory=False)
        result, _ = run_job(job)
        assert result.calls_per_sample > 1 and result.verified
        # Each sample is the time per call of a batch that lasted about a millisecond.
        batch_s = result.encrypt.median_s * result.calls_per_sample
        assert 0.2e-3 < batch_s < 50e-3
        assert not any("too short" in w for w in result.warnings)


def test_a_long_call_is_timed_alone(tmp_path) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(4 << 20))  # about a millisecond a call or more
    job = _job(big, "aes-128-ctr", "cryptography", repeat=2, warmup=1, min_time_s=0)
    result, _ = run_job(job)
    assert result.verified and result.encrypt.median_s > 0
    if min(result.encrypt.warmup_s[-1], result.decrypt.warmup_s[-1]) >= 1e-3:
        assert result.calls_per_sample == 1


@pytest.mark.parametrize("library", ["cryptography", "pycryptodome"])  # out of place, in place
def test_memory_mode_times_each_direction_in_slices_and_checks_each_slice(
    tmp_path, monkeypatch, library
) -> None:
    """As the sweep times its points: encryptions in a row after an untimed one, then as many
    decryptions, not single calls alternating (a call after the other direction's work is
    timed at a colder moment); each run of decryptions is checked once, after the next run of
    encryptions (which only reads the plaintext), and the last at the end."""
    from app.core.bench import workloads

    tiny = tmp_path / "tiny.bin"
    tiny.write_bytes(os.urandom(16))
    order: list[str] = []
    for name, letter in (("encrypt", "e"), ("decrypt", "d"), ("verify", "v")):
        real = getattr(workloads.MemoryWorkload, name)

        def recording(self, _real=real, _letter=letter):
            order.append(_letter)
            return _real(self)

        monkeypatch.setattr(workloads.MemoryWorkload, name, recording)
    from app.core.bench import slices

    # Batches of 50 calls of 20 µs, without the calibration's own untimed round trips.
    monkeypatch.setattr(slices, "calibrate", lambda wl, _label: (wl.batch(50), (50, 20_000))[1])
    job = _job(tiny, "aes-128-gcm", library, repeat=30, warmup=1, min_time_s=0)
    result, _ = run_job(job)
    memory_pass, warm_up, timed = "edv", "ed", "".join(order)
    assert timed.startswith(memory_pass + warm_up)
    timed = timed.removeprefix(memory_pass + warm_up)
    assert re.fullmatch(r"(e+vd+)+v", timed), timed  # the warm-up's check after the first run
    slices = re.findall(r"(e+)v(d+)", timed)
    assert len(slices) >= 2 and all(len(e) == len(d) for e, d in slices)
    assert max(len(e) for e, _ in slices) > 2  # each a run of calls in a row
    # Each slice's first call of each direction warms up, untimed.
    assert len(result.encrypt.samples_s) == 30 == sum(len(e) - 1 for e, _ in slices)
    assert result.verified_round_trips == len(slices) + 1 + 1  # slices, warm-up, memory pass


def test_without_a_warm_up_the_first_sample_sizes_the_slices(tmp_path) -> None:
    """No warm-up (the profile's jobs) and an input too large to calibrate: the first timed
    sample alone, then slices sized by it, as with a warm-up."""
    from app.core.bench import slices

    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(slices.CALIBRATE_MAX + 16))
    job = _job(big, "aes-128-ctr", "cryptography", repeat=12, warmup=0, min_time_s=0)
    result, _ = run_job(job)
    first = result.encrypt.samples_s[0]
    if first >= slices.SLICE_NS / 1e9 / 2:
        pytest.skip("one call is as long as a slice here: no slices to cut")
    assert result.calls_per_sample == 1 and len(result.encrypt.samples_s) == 12
    assert result.verified_round_trips < 12  # fewer checks than samples: slices


@pytest.mark.parametrize("size", [1000, 4 << 20])
def test_a_decryption_that_writes_nothing_fails_the_check(tmp_path, monkeypatch, size) -> None:
    """The timed runs decrypt back over the plaintext: without its ends spoiled before each
    run, a decryption that left the buffer alone would pass the check on what was there."""
    from app.core.bench import workloads
    from app.core.errors import VerificationError

    real = workloads.final_each

    def lazy(contexts, src, dst):
        return len(src) if contexts[0]._decrypt else real(contexts, src, dst)

    monkeypatch.setattr(workloads, "final_each", lazy)
    data = tmp_path / "data.bin"
    data.write_bytes(os.urandom(size))
    job = _job(data, "aes-128-ctr", "cryptography", repeat=3, warmup=1, measure_memory=False)
    with pytest.raises(VerificationError, match="differs from the input"):
        run_job(job)


def test_the_timed_runs_keep_the_ciphertext_apart_and_only_the_memory_pass_works_in_place(
    tmp_path, monkeypatch
) -> None:
    """PyCryptodome works in place. A slice of one call after its untimed warm-up once
    encrypted its own output (the decryption failed, "bad padding", on 10 MB in CI), and in
    place the timed runs read 5-8 % faster at 16 MiB than two buffers, as the sweep times."""
    from app.core.bench import slices
    from app.core.bench.workloads import Material, MemoryWorkload
    from app.core.ciphers.adapters import get_adapter
    from app.core.ciphers.registry import lookup

    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(4 << 20))
    spec = lookup("aes-128-cbc", "pycryptodome")
    material = Material(spec, get_adapter("pycryptodome"), bytes(16), bytes(16), str(big), 4 << 20)
    timed, memory_pass = MemoryWorkload(material), MemoryWorkload(material, in_place=True)
    try:
        assert timed.cipher is not timed.plain and memory_pass.cipher is memory_pass.plain
        for _ in range(3):  # in a row, as a slice runs them
            timed.encrypt()
        timed.decrypt()
        assert timed.verify()
    finally:
        timed.close()
        memory_pass.close()
    monkeypatch.setattr(slices, "MAX_SLICE", 1)  # a call alone in its slice, warmed up
    job = _job(big, "aes-128-cbc", "pycryptodome", repeat=2, warmup=1, min_time_s=0)
    result, _ = run_job(job)
    assert result.verified and len(result.encrypt.samples_s) == 2
