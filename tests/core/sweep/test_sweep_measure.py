"""One sweep round measured in this process: what a call is for each kind of cipher."""

from __future__ import annotations

import statistics
from dataclasses import replace

import pytest

from app.core.ciphers.adapters import get_adapter
from app.core.ciphers.hardware import TooLate, switch_off
from app.core.ciphers.registry import REGISTRY, Kind
from app.core.errors import UserError
from app.core.sweep import calls, measure
from app.core.sweep.calls import rejecting
from app.core.sweep.jobs import SweepJob
from app.core.sweep.measure import run_round
from app.core.sweep.plan import DEFAULT_LENGTHS, ladder_jobs, parse_lengths, sweep_plan
from app.core.timing import batches
from app.core.timing.batches import (
    MIN_SAMPLE_NS,
    repeated,
    time_calls,
    warm_single,
    warm_slice,
)


def job(cipher: str, library: str = "cryptography", **kw) -> SweepJob:
    fields = {"lengths": (16, 1350, 4096), "point_time_s": 0.005, "key_bits": 128}
    fields.update(kw)
    return SweepJob(cipher, library, **fields)


def test_an_aead_round_times_encrypt_decrypt_forgery_key_setup_and_associated_data() -> None:
    j = job("aes-128-gcm", ad_lengths=(13, 1024), ad_at=(1350,))
    seen = []
    r = run_round(j, seen.append)
    keys = {(p.operation, p.message_bytes, p.ad_bytes) for p in r.points}
    assert ("key setup", 0, 0) in keys
    for n in (16, 1350, 4096):
        assert {("encrypt", n, 0), ("decrypt", n, 0), ("forgery", n, 0), ("message", n, 0)} <= keys
    assert {("encrypt", 1350, 13), ("encrypt", 1350, 1024)} <= keys
    assert ("encrypt", 16, 13) not in keys  # associated data only where asked
    assert len(r.points) == calls.point_count(j, measure.lookup("aes-128-gcm", "cryptography"))
    assert seen[-1] == pytest.approx(1.0) and seen == sorted(seen)
    assert r.library_version and r.clock_mhz != 0
    for p in r.points:  # batched: each sample long enough to time, unless one call already is
        assert len(p.ns_per_call) >= 5
        # The batch was sized at one moment; a shared machine may run 2-3x faster later, so
        # the typical sample, not the fastest, is what must stay far above the timer's cost.
        assert statistics.median(p.ns_per_call) * p.calls >= MIN_SAMPLE_NS * 0.25


@pytest.mark.parametrize(
    "cipher,library", [("aes-128-cbc", "cryptography"), ("aes-128-ecb", "pycryptodome"),
                       ("aes-128-ctr", "pycryptodome"), ("chacha20", "cryptography")]
)  # fmt: skip
def test_raw_modes_time_any_message_length_padded_where_the_mode_pads(cipher, library) -> None:
    r = run_round(job(cipher, library, key_bits=128 if "aes" in cipher else 256))
    ops = sorted({p.operation for p in r.points})
    assert ops == ["decrypt", "encrypt", "key setup", "message"]  # no forgery without a tag
    assert {p.message_bytes for p in r.points} == {0, 16, 1350, 4096}


def test_pure_python_skips_lengths_a_call_of_which_would_take_too_long(monkeypatch) -> None:
    monkeypatch.setattr(measure, "MAX_CALL_S", 0.5)
    r = run_round(job("aes-128-ctr", "pyaes", lengths=(16, 32 * 1024, 1 << 20), decrypt=False))
    assert {p.message_bytes for p in r.points} == {0, 16, 32 * 1024}
    (skip,) = r.skipped
    assert skip.message_bytes == 1 << 20 and "one call would take about" in skip.reason


@pytest.mark.parametrize(
    "spec", [s for s in REGISTRY if s.kind is Kind.AEAD], ids=lambda s: s.label
)
def test_an_aead_length_runs_on_two_buffers_and_stays_authentic_pass_after_pass(spec) -> None:
    """A length's points in their order, then associated data's, twice over: the forgery (the
    sealed message under a nonce one bit off) is refused by every AEAD, and the decryption
    (back over the message) authenticates after every other point's writes."""
    j = job(spec.id, spec.library, key_bits=spec.key_bits, ad_lengths=(13,), ad_at=(64,))
    made = calls.length_calls(j, spec, get_adapter(spec.library), 64)
    assert [c.key for c in made] == [
        ("forgery", 64, 0), ("decrypt", 64, 0), ("message", 64, 0), ("encrypt", 64, 0),
        ("encrypt", 64, 13),
    ]  # fmt: skip
    for _ in range(2):
        for call in made:
            call.batch(2)()  # a refused forgery returns; an accepted one or a failed open raises


def test_a_forgery_that_is_accepted_stops_the_round() -> None:
    def accepting(nonce, src, dst, aad) -> int:
        return len(src)

    with pytest.raises(AssertionError, match="forged message was accepted"):
        rejecting(accepting, b"n" * 12, memoryview(bytearray(32)), memoryview(bytearray(32)))()


def test_timing_batches_calls_until_a_sample_lasts_a_millisecond() -> None:
    calls = []
    t = time_calls(repeated(lambda: calls.append(1)), 0.01)
    assert t.calls > 100 and len(t.ns_per_call) >= 5 and not t.cycles_per_call
    assert all(0 < x < 10_000 for x in t.ns_per_call)


def test_a_later_slice_warms_up_with_the_whole_batch_it_will_time() -> None:
    made: list[int] = []

    def batch(calls: int):
        made.append(calls)
        return lambda: None

    t = time_calls(batch, 0.0, min_samples=2, calls=50)
    assert made == [50, 50, 50] and len(t.ns_per_call) == 2  # warm-up, then two samples


def test_a_call_that_is_its_own_sample_is_warmed_for_the_time_asked() -> None:
    made: list[int] = []

    def batch(calls: int):
        made.append(calls)
        return lambda: None

    warm_slice(batch, 1, 0)
    assert made == [1]  # at least one call
    warm_slice(batch, 1, 20_000_000)
    assert len(made) > 2  # calls go on until 20 ms have passed
    made.clear()
    warm_slice(batch, 8, 20_000_000)
    assert made == [8]  # a batch of several calls is warmed once, whatever the time


def _calls_timed(ns: list[int], clock: list[int] | None = None, step_ns: int = 0):
    """A call that reports the n-th of ``ns`` as its time (then the last), moving the fake
    ``clock`` on by ``step_ns``; and the list of the times it reported."""
    made: list[int] = []

    def call_ns() -> int:
        made.append(ns[min(len(made), len(ns) - 1)])
        if clock is not None:
            clock[0] += step_ns
        return made[-1]

    return call_ns, made


def test_a_single_call_is_warmed_while_it_still_speeds_up_for_at_most_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    call_ns, made = _calls_timed([16, 8, 4, 2, 2, 2, 2])
    warm_single(call_ns, 0, 10**12)
    assert made == [16, 8, 4, 2, 2]  # on until a call is no faster than the one before
    call_ns, made = _calls_timed([100, 97, 90])  # 97 is 3 % faster: no longer speeding up
    warm_single(call_ns, 0, 10**12)
    assert made == [100, 97]
    clock = [0]  # the time that has passed: what the calls say, whatever the machine's load
    monkeypatch.setattr(batches.time, "perf_counter_ns", lambda: clock[0])
    call_ns, made = _calls_timed([int(1e6 * 0.9**k) for k in range(50)], clock, 4_000_000)
    warm_single(call_ns, 0, 10_000_000)
    assert len(made) == 3  # 10 % faster each time, but 10 ms have passed (calls of 4 ms)
    clock[0] = 0
    call_ns, made = _calls_timed([5, 5, 5, 5], clock, 2_000_000)
    warm_single(call_ns, 6_000_000, 6_000_000)
    assert len(made) == 3  # not faster, but on until 6 ms have passed


def test_a_batch_of_whole_messages_holds_at_most_max_contexts_cipher_objects() -> None:
    from app.core.bench import slices
    from app.core.ciphers.adapters import get_adapter
    from app.core.ciphers.message import MAX_CONTEXTS
    from app.core.ciphers.registry import lookup
    from app.core.sweep.calls import message_call

    made: list[int] = []

    def batch(calls: int):
        made.append(calls)
        return lambda: None  # far too quick: calibration would grow the batch to millions

    t = time_calls(batch, 0.0, min_samples=1, max_calls=MAX_CONTEXTS)
    assert t.calls <= MAX_CONTEXTS and max(made) <= MAX_CONTEXTS
    spec = lookup("aes-128-ctr", "cryptography", 128)
    src = memoryview(bytearray(16))
    call = message_call(spec, get_adapter("cryptography"), bytes(16), bytes(16), src, src)
    assert call.max_calls == MAX_CONTEXTS == slices.MAX_CALLS  # the sweep's and the bench's


def test_lengths_parse_sorted_distinct_and_bounded() -> None:
    assert parse_lengths("4KiB, 16,1350,16") == (16, 1350, 4096)
    for bad, words in [("", "at least one"), ("0", "at least 1 byte"), ("1GiB", "go up to"),
                       ("12 parsecs", "unknown unit")]:  # fmt: skip
        with pytest.raises(UserError, match=words):
            parse_lengths(bad)
    assert DEFAULT_LENGTHS[0] == 16 and DEFAULT_LENGTHS[-1] == 16 << 20
    assert {64, 576, 1350, 1536, 4096} <= set(DEFAULT_LENGTHS)


def test_a_sweep_plan_takes_the_compiled_libraries_and_ad_only_for_aeads() -> None:
    jobs = sweep_plan(["aes-256-gcm", "aes-256-cbc"]).jobs
    assert [(j.cipher_id, j.library) for j in jobs] == [
        ("aes-256-gcm", "cryptography"), ("aes-256-gcm", "pycryptodome"),
        ("aes-256-cbc", "cryptography"), ("aes-256-cbc", "pycryptodome"),
    ]  # fmt: skip
    assert jobs[0].ad_lengths == (13, 64, 1024) and jobs[0].forgery
    assert jobs[2].ad_lengths == () and not jobs[2].forgery
    with pytest.raises(UserError, match="at least one cipher"):
        sweep_plan([])


def test_the_ladder_has_on_off_and_pure_python_steps_with_a_stand_in_noted() -> None:
    jobs, notes = ladder_jobs("aes-128-gcm")
    assert [(j.library, j.cipher_id, j.aes_instructions) for j in jobs] == [
        ("cryptography", "aes-128-gcm", True),
        ("cryptography", "aes-128-gcm", False),
        ("pyaes", "aes-128-ctr", True),
    ]
    assert "pure Python has no GCM: aes-128-ctr stands in" in notes[2]
    jobs, notes = ladder_jobs("aes-256-ctr", ["cryptography", "pycryptodome"])
    assert len(jobs) == 5 and jobs[-1].cipher_id == "aes-256-ctr" and notes[-1] == "pure Python"
    with pytest.raises(UserError, match="chacha20-poly1305 is ChaCha20-Poly1305"):
        ladder_jobs("chacha20-poly1305")


def test_the_aes_instructions_cannot_be_switched_off_once_openssl_is_loaded() -> None:
    import cryptography.hazmat.bindings._rust  # noqa: F401  (loaded in this test process)

    with pytest.raises(TooLate):
        switch_off()


def test_a_short_messages_per_call_cost_is_not_taken_for_a_rate_when_foreseeing_long_calls(
    monkeypatch,
) -> None:
    monkeypatch.setattr(measure, "MAX_CALL_S", 0.5)
    r = run_round(job("aes-128-gcm", "pycryptodome", lengths=(16, 64, 4 << 20), decrypt=False,
                      forgery=False))  # fmt: skip
    assert [s.message_bytes for s in r.skipped] == [0]  # only the key setup (see below)
    assert {p.message_bytes for p in r.points} == {16, 64, 4 << 20}
    assert all(p.operation != "key setup" for p in r.points)  # made per message: none apart


def test_a_first_length_whose_single_call_is_too_long_is_skipped_after_one_call(
    monkeypatch,
) -> None:
    monkeypatch.setattr(measure, "MAX_CALL_S", 0.001)
    r = run_round(job("aes-128-ctr", "pyaes", lengths=(64 * 1024,), decrypt=False))
    (skip,) = r.skipped
    assert "one call took" in skip.reason and not [p for p in r.points if p.message_bytes]


def test_the_pure_python_stand_in_of_a_siv_ladder_has_the_nominal_key_size() -> None:
    jobs, _ = ladder_jobs("aes-256-siv")
    assert jobs[-1].cipher_id == "aes-256-ctr" and jobs[-1].library == "pyaes"


def test_a_ladder_of_all_libraries_leaves_out_those_without_the_mode_and_says_so() -> None:
    jobs, notes = ladder_jobs("aes-128-gcm-siv", ["cryptography", "pycryptodome"])
    assert [(j.library, j.aes_instructions) for j in jobs] == [
        ("cryptography", True), ("cryptography", False), ("pyaes", True),
    ]  # fmt: skip
    assert notes[0] == "pycryptodome offers no aes-128-gcm-siv"
    jobs, notes = ladder_jobs("aes-128-gcm", ["cryptography", "pycryptodome"])
    assert len(jobs) == 5 and notes[0] == ""


def test_a_round_times_its_points_in_passes_so_an_episode_moves_no_median(monkeypatch) -> None:
    """A slow second on a shared machine (here: every call during the second of five passes
    takes twice as long) takes one slice of each point, and each point's median steps over
    it; timed point after point (one pass), the points it fell on would read twice as slow."""
    from app.core.timing.batches import Timed

    j = job("aes-128-gcm")
    per_pass = calls.point_count(j, measure.lookup("aes-128-gcm", "cryptography", 128))
    order: list[float] = []
    total = [0]

    def fake(fn, budget_s, counter=None, min_samples=5, calls=None, **_options):
        order.append(budget_s)
        slow = total[0] / 5 <= len(order) - 1 < 2 * total[0] / 5  # the round's second fifth
        return Timed(10, (2000.0 if slow else 1000.0,) * max(min_samples, 3), ())

    def medians(r):
        return [sorted(p.ns_per_call)[len(p.ns_per_call) // 2] for p in r.points]

    monkeypatch.setattr(measure, "time_calls", fake)
    total[0] = 5 * per_pass
    r = run_round(j)
    assert len(order) == 5 * per_pass and set(order) == {j.point_time_s / 5}
    assert medians(r) == [1000.0] * per_pass
    order.clear()
    total[0] = per_pass
    r = run_round(replace(j, passes=1))  # point after point: the episode takes whole points
    in_episode = sum(per_pass / 5 <= i < 2 * per_pass / 5 for i in range(per_pass))
    assert len(order) == per_pass and medians(r).count(2000.0) == in_episode >= 2


def test_a_call_longer_than_its_slice_is_timed_only_its_share_of_times(monkeypatch) -> None:
    monkeypatch.setattr(measure, "MAX_CALL_S", 60.0)  # a loaded machine: never "too long"
    r = run_round(job("aes-128-ctr", "pyaes", lengths=(1 << 16,), decrypt=False, message=False,
                      key_setup=False, point_time_s=0.01))  # fmt: skip
    (p,) = r.points
    assert p.calls == 1 and len(p.ns_per_call) == 3  # not one per pass: 3 in all, as ever


@pytest.mark.parametrize(
    ("machine", "variable", "value"),
    [("x86_64", "OPENSSL_ia32cap", "~0x200000200000000"), ("AMD64", "OPENSSL_ia32cap", None),
     ("aarch64", "OPENSSL_armcap", "1"), ("arm64", "OPENSSL_armcap", "1")],
)  # fmt: skip
def test_openssls_aes_instructions_are_switched_off_by_the_machines_own_variable(
    machine, variable, value
) -> None:
    from app.core.ciphers.hardware import openssl_switch

    name, got = openssl_switch(machine)
    assert name == variable and (value is None or got == value)
    if name == "OPENSSL_armcap":  # a whole vector: NEON kept, ARMv8 AES and PMULL gone
        assert int(got, 0) & 1 and not int(got, 0) & (1 << 2) and not int(got, 0) & (1 << 5)


def _fake_lengths(monkeypatch, made: list) -> None:
    """``length_calls`` made of marker calls (one encrypt each), remembered weakly in ``made``."""
    import weakref

    class Fn:
        def __init__(self, length: int) -> None:
            self.length = length

        def __call__(self) -> None:
            return None

    def fake_length_calls(job, spec, adapter, length):
        fn = Fn(length)
        made.append(weakref.ref(fn))
        return [calls.Call("encrypt", length, 0, fn)]

    monkeypatch.setattr(measure, "length_calls", fake_length_calls)


def test_progress_reaches_one_when_lengths_are_skipped(monkeypatch) -> None:
    from app.core.timing.batches import Timed, TooSlow

    def fake(fn, budget_s, counter=None, min_samples=5, calls=None, **_options):
        if calls is None and getattr(fn, "length", 0) == 4096:
            raise TooSlow(3 * 10**9)
        return Timed(10, (1000.0,) * max(min_samples, 3), ())

    _fake_lengths(monkeypatch, [])
    monkeypatch.setattr(measure, "time_calls", fake)
    for lengths in [(16, 1350, 4096), (16, 4096, 1350), (4096,)]:
        seen: list[float] = []
        j = job("aes-128-ctr", "pycryptodome", lengths=lengths, decrypt=False, message=False)
        r = run_round(j, seen.append)
        assert [s.message_bytes for s in r.skipped] == [4096]
        assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0), lengths


def test_a_call_longer_than_the_whole_point_time_is_timed_three_times_below_a_mebibyte(
    monkeypatch,
) -> None:
    from app.core.timing.batches import Timed

    def fake(fn, budget_s, counter=None, min_samples=5, calls=None, **_options):
        ns = 10 * budget_s * 5 * 1e9  # ten times the point's whole time
        return Timed(1, (ns,) * (2 if calls is None else min_samples), ())

    _fake_lengths(monkeypatch, [])
    monkeypatch.setattr(measure, "time_calls", fake)
    j = job(
        "aes-128-ctr", "pyaes", lengths=(256 * 1024,), key_setup=False, decrypt=False, message=False
    )
    r = run_round(j)
    (p,) = r.points
    assert len(p.ns_per_call) == 3  # as when a point was timed in one go


def test_a_length_not_kept_lets_go_of_the_last_ones_calls_before_making_its_own(
    monkeypatch,
) -> None:
    from app.core.timing.batches import Timed

    made: list = []
    _fake_lengths(monkeypatch, made)
    live_when_made: list[int] = []
    real = measure.length_calls

    def counting(job, spec, adapter, length):
        live_when_made.append(sum(ref() is not None for ref in made))
        return real(job, spec, adapter, length)

    monkeypatch.setattr(measure, "length_calls", counting)
    monkeypatch.setattr(measure, "KEEP_BYTES", 0)  # nothing kept: every length made each pass
    monkeypatch.setattr(
        measure, "time_calls", lambda fn, *a, calls=None, **k: Timed(10, (1000.0,) * 5, ())
    )
    lengths = (16, 1350, 4096)
    run_round(job("aes-128-ctr", "pycryptodome", lengths=lengths, key_setup=False, decrypt=False))
    assert len(live_when_made) == 15 and max(live_when_made) == 0


@pytest.mark.parametrize(
    "cipher,library", [("aes-128-cbc", "cryptography"), ("aes-128-gcm", "cryptography"),
                       ("aes-128-cbc", "pycryptodome"), ("chacha20-poly1305", "pycryptodome")]
)  # fmt: skip
def test_the_whole_message_point_encrypts_it_as_the_bench_does(cipher, library) -> None:
    """Each call a cipher object of its own, made before the clock: its output is the message's
    ciphertext as one encryption makes it (the bench's loop, final_each), however many calls."""
    import secrets

    from app.core.ciphers.adapters import get_adapter
    from app.core.ciphers.message import encrypt_bytes

    spec = measure.lookup(cipher, library, 256 if "chacha" in cipher else 128)
    adapter = get_adapter(library)
    key, iv = secrets.token_bytes(spec.key_bytes), spec.fresh_iv(secrets.token_bytes)
    message = secrets.token_bytes(40)
    dst = memoryview(bytearray(200))
    call = calls.message_call(spec, adapter, key, iv, memoryview(message), dst)
    assert call.key == ("message", 40, 0)
    expected = encrypt_bytes(spec, adapter, key, iv, message)
    for n in (1, 3):
        dst[:] = bytes(200)
        call.batch(n)()
        assert bytes(dst[: len(expected)]) == expected
    ladder, _ = ladder_jobs("aes-128-gcm")
    assert not any(j.message for j in ladder)  # a ladder step times its one call only
