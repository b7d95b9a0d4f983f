"""The registry's rows as a contract: every row has published vectors and adapter support, and
what differs between ciphers (IV counter, nominal key size, weaknesses) is read from the row."""

from __future__ import annotations

import random

import pytest

from app.core.ciphers.adapters import get_adapter
from app.core.ciphers.registry import (
    REGISTRY,
    ROWS,
    WEAKNESS_NOTES,
    CipherSpec,
    Kind,
    Row,
    lookup,
    weakness_labels,
)
from app.core.ciphers.selftest import format_report, run_selftest
from app.core.ciphers.vectors import VECTORS

# Modes nobody publishes vectors for (OpenSSL has no CTR for 64-bit block ciphers): these rows
# rest on the derived CTR-from-ECB check, which needs published ECB vectors of the algorithm.
DERIVED_ONLY = {("Blowfish", "CTR"), ("3DES", "CTR"), ("DES", "CTR")}


def row_problems(rows: tuple[Row, ...]) -> list[str]:
    """What keeps each row from being runnable and checked: missing vectors or adapter support."""
    published = {(v.algorithm, v.mode) for v in VECTORS}
    problems = []
    for row in rows:
        where = f"{row.id} ({row.algorithm} {row.mode})"
        if (row.algorithm, row.mode) not in published:
            if (row.algorithm, row.mode) not in DERIVED_ONLY:
                problems.append(f"{where}: no published vectors")
            elif (row.algorithm, "ECB") not in published:
                problems.append(f"{where}: derived check has no published ECB vectors")
        for bits in row.sizes:
            for spec in row.specs(bits):
                if not get_adapter(spec.library).supports(spec):
                    problems.append(f"{where}: {spec.library} adapter lacks it")
    return problems


def test_every_row_has_published_vectors_and_adapter_support() -> None:
    assert not row_problems(ROWS)


def test_a_row_without_vectors_or_support_is_caught() -> None:
    serpent = Row(
        id="serpent-{bits}-cbc",
        algorithm="Serpent",
        mode="CBC",
        kind=Kind.BLOCK,
        sizes=(128,),
        libraries=("cryptography",),
        block_bytes=16,
        iv_bytes=16,
    )
    problems = row_problems((serpent,))
    assert any("no published vectors" in p for p in problems)
    assert any("adapter lacks it" in p for p in problems)


def test_every_entry_comes_from_a_row() -> None:
    assert len(REGISTRY) == sum(len(r.specs(b)) for r in ROWS for b in r.sizes)


@pytest.mark.parametrize("spec", [pytest.param(s, id=s.label) for s in REGISTRY])
def test_adapter_supports_every_entry(spec: CipherSpec) -> None:
    assert get_adapter(spec.library).supports(spec)


def test_get_adapter_rejects_an_unknown_library() -> None:
    with pytest.raises(ValueError, match="no adapter"):
        get_adapter("nacl")


# --- the IV counter rule ----------------------------------------------------------------------


def test_chacha20_fresh_iv_starts_its_block_counter_at_zero() -> None:
    spec = lookup("chacha20", "pycryptodome")
    iv = spec.fresh_iv(lambda n: b"\xff" * n)
    assert iv == bytes(4) + b"\xff" * 12


def test_ctr_fresh_iv_zeroes_the_low_32_bits() -> None:
    for cid, library, size in (("aes-128-ctr", "pyaes", 16), ("bf-ctr", "pycryptodome", 8)):
        iv = lookup(cid, library).fresh_iv(lambda n: b"\xff" * n)
        assert iv == b"\xff" * (size - 4) + bytes(4)


def test_fresh_iv_leaves_ivs_without_a_counter_alone() -> None:
    for cid in ("aes-128-cbc", "aes-128-gcm", "chacha20-poly1305"):
        rng = random.Random(5)
        spec = lookup(cid, "cryptography")
        assert spec.fresh_iv(rng.randbytes) == random.Random(5).randbytes(spec.iv_bytes)
    assert lookup("rc4", "cryptography").fresh_iv() == b""


# --- data that used to be parsed from ids -----------------------------------------------------


def test_nominal_key_bits_come_from_the_row() -> None:
    assert lookup("aes-128-siv", "cryptography").nominal_key_bits == 128
    assert lookup("aes-128-siv", "cryptography").key_bits == 256
    assert lookup("aes-192-gcm", "cryptography").nominal_key_bits == 192
    assert lookup("bf-cbc", "pycryptodome", 128).nominal_key_bits == 128


def test_weakness_labels_are_written_once() -> None:
    assert weakness_labels(lookup("des-ecb", "pycryptodome")) == [
        "ECB leaks patterns",
        "64-bit block (Sweet32)",
        "56-bit key",
    ]
    assert weakness_labels(lookup("rc4", "cryptography")) == ["RC4 is broken"]
    pyaes = lookup("aes-128-cbc", "pyaes")
    assert WEAKNESS_NOTES["pyaes"] in pyaes.notes and weakness_labels(pyaes) == []


# --- Camellia: the cipher added as one row plus its vectors -----------------------------------


def test_camellia_is_one_row_per_mode_and_passes_the_selftest() -> None:
    camellia = [s for s in REGISTRY if s.algorithm == "Camellia"]
    assert [s.id for s in camellia] == [
        f"camellia-{bits}-{mode}" for bits in (128, 192, 256) for mode in ("ecb", "cbc")
    ]
    assert all(s.openssl_name == s.id and s.library == "cryptography" for s in camellia)
    report = run_selftest(camellia)
    assert report.ok, "\n".join(report.failures)
    assert all(e.vectors_passed and e.key_bits in e.key_sizes for e in report.entries)
    assert "camellia-256-cbc" in format_report(report)


def test_openssl_limits_are_row_data() -> None:
    blowfish = lookup("bf-cbc", "pycryptodome")
    assert blowfish.openssl_legacy and blowfish.openssl_key_bits == (128,)
    assert lookup("des-cbc", "pycryptodome").openssl_legacy
    assert lookup("bf-ctr", "pycryptodome").openssl_name is None
    camellia = lookup("camellia-128-cbc", "cryptography")
    assert not camellia.openssl_legacy and camellia.openssl_key_bits == ()
