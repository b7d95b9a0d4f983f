"""Where a sample's time goes: the rules, on frames and stacks py-spy recorded of real jobs
(``recorded_stacks.txt``: aes-128-ctr at 23 KB in pyaes, cryptography and pycryptodome)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.profile import rules
from app.core.profile.stacks import TIMED_LOOP, leaf_functions, parse_raw, shares

RECORDED = Path(__file__).with_name("recorded_stacks.txt")
RUST = "cryptography/hazmat/bindings/_rust.abi3.so"


def recorded() -> dict[str, list[str]]:
    """The recorded raw lines by library."""
    out: dict[str, list[str]] = {}
    for block in RECORDED.read_text().split("# ")[1:]:
        head, *lines = block.splitlines()
        out[head.split(":")[0]] = lines
    return out


@pytest.mark.parametrize(
    ("frame", "share"),
    [
        ("AES.encrypt (pyaes/aes.py)", rules.CIPHER_PYTHON),
        ("AES.encrypt.<locals>.<listcomp> (pyaes/aes.py)", rules.CIPHER_PYTHON),
        ("CtrMode._ctr (Crypto/Cipher/_mode_ctr.py)", rules.LIBRARY_PYTHON),
        ("Cipher.encryptor (cryptography/hazmat/primitives/ciphers/base.py)", rules.LIBRARY_PYTHON),
        ("MessageCipher.final (app/core/ciphers/message.py)", rules.HARNESS),
        ("copy (copy.py)", rules.OTHER_PYTHON),
        ("_find_and_load (<frozen importlib._bootstrap>)", rules.OTHER_PYTHON),
        ("gc_collect_main (libpython3.11.so.1.0)", rules.INTERPRETER),
        (f"aesni_ctr32_encrypt_blocks ({RUST})", rules.NATIVE_CIPHER),
        (f"ossl_cipher_hw_generic_ctr ({RUST})", rules.NATIVE_CIPHER),
        (f"_RNvMs6_NtCs7MpWdNTwp7n_4pyo36bufferNtB5_15PyUntypedBuffer3get ({RUST})", rules.BINDING),
        ("internal_AESNI_encrypt (AESNI.c)", rules.NATIVE_CIPHER),
        ("xor_key_stream (raw_ctr.c)", rules.NATIVE_CIPHER),
        ("AES_encrypt (Crypto/Cipher/_raw_aes.abi3.so)", rules.NATIVE_CIPHER),
        ("cdata_call (_cffi_backend.cpython-311-x86_64-linux-gnu.so)", rules.BINDING),
        ("ffi_call_unix64 (unix64.S)", rules.BINDING),
        ("__memmove_avx_unaligned_erms (libc.so.6)", rules.C_LIBRARY),
        ("0x7f45b0e4524a (libc.so.6)", rules.C_LIBRARY),
        ("0x7f45b0e4524a", rules.OTHER_NATIVE),
    ],
)  # fmt: skip
def test_a_frame_is_put_in_its_class(frame: str, share: rules.Share) -> None:
    assert rules.classify(frame) == share


def test_only_the_timed_calls_are_kept_under_their_direction() -> None:
    lines = [
        "<module> (app/core/profile/sampled.py);_measure (app/core/bench/measure.py) 7",
        "_time_repetitions (app/core/bench/measure.py);_Workload._timed "
        "(app/core/bench/workloads.py);MessageCipher.__init__ (app/core/ciphers/message.py) 3",
        "_Workload._timed (app/core/bench/workloads.py);MemoryWorkload.encrypt.<locals>.body "
        "(app/core/bench/workloads.py);AES.encrypt (pyaes/aes.py) 5",
        "StreamWorkload.decrypt.<locals>.body (app/core/bench/workloads.py) 2",
        "MemoryWorkload.encrypt.<locals>.body (elsewhere/workloads.py);x (pyaes/aes.py) 4",
        "not a line",
        "",
    ]
    sampled = parse_raw(lines)
    assert sampled.timed == {"encrypt;AES.encrypt (pyaes/aes.py)": 5, "decrypt": 2}
    assert sampled.untimed == 7 + 3 + 4  # setup of a context, and a look-alike elsewhere
    assert shares(sampled.timed) == {"cipher's Python code": 5 / 7, "harness": 2 / 7}
    assert leaf_functions(sampled.timed)[TIMED_LOOP] == 2


def test_the_recorded_jobs_split_as_the_pyaes_report_says() -> None:
    by_library = {lib: parse_raw(lines) for lib, lines in recorded().items()}
    interpreted = {
        lib: sum(v for k, v in shares(s.timed).items() if rules.BY_NAME[k].group == "interpreted")
        for lib, s in by_library.items()
    }
    assert interpreted["pyaes"] > 0.9  # the interpreter runs pyaes's own code
    assert shares(by_library["pyaes"].timed)["cipher's Python code"] > 0.9
    assert shares(by_library["cryptography"].timed)["native cipher code"] > 0.5
    assert shares(by_library["pycryptodome"].timed)["native cipher code"] > 0.5
    for s in by_library.values():
        assert s.untimed > 0 and abs(sum(shares(s.timed).values()) - 1) < 1e-9


def test_a_rust_name_is_cut_to_its_last_names() -> None:
    frame = (
        "_RNvMst_NtNtCsi1HTDsDXWYj_17cryptography_rust7backend7ciphersNtB5_15PyCipherContext"
        "24___pymethod_update_into__ (cryptography/hazmat/bindings/_rust.abi3.so)"
    )
    assert rules.short_frame(frame) == (
        "ciphers::PyCipherContext::__pymethod_update_into__ (_rust.abi3.so)"
    )
    assert rules.short_frame("AES.encrypt (pyaes/aes.py)") == "AES.encrypt (aes.py)"
    assert (
        rules.short_frame("0x7f45b0e4524a (libc.so.6)") == "(a function without a name) (libc.so.6)"
    )


@pytest.mark.parametrize(
    ("frame", "share"),
    [
        (r"AES.encrypt (pyaes\aes.py)", rules.CIPHER_PYTHON),  # Windows paths
        (r"MessageCipher.final (app\core\ciphers\message.py)", rules.HARNESS),
        (r"aesni_ctr32_encrypt_blocks (bindings\_rust.pyd)", rules.NATIVE_CIPHER),
        ("gc_collect_main (python311.dll)", rules.INTERPRETER),
        ("gc_collect_main (Modules/gcmodule.c)", rules.INTERPRETER),  # debug symbols' sources
        ("long_bitwise (Objects/longobject.c)", rules.INTERPRETER),
        ("_int_malloc (malloc.c)", rules.C_LIBRARY),
        ("__memmove_avx_unaligned_erms (memmove-vec-unaligned-erms.S)", rules.C_LIBRARY),
    ],
)  # fmt: skip
def test_other_platforms_and_debug_symbols_land_in_their_class(
    frame: str, share: rules.Share
) -> None:
    assert rules.classify(frame) == share
