"""Every registry entry against published test vectors; libraries against each other.

The checks themselves live in app.core.ciphers.selftest (they also run as ``python main.py
selftest``);
these tests run them per entry, so a failure names the entry, and show that they can fail.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.core.ciphers import selftest, selftest_derived, selftest_vectors
from app.core.ciphers.registry import REGISTRY, CipherSpec, Kind
from app.core.ciphers.selftest import (
    cross_library_agreement,
    derived_checks,
    format_report,
    reference_rc4,
    repeated_key_vectors,
    report_to_dict,
    run_selftest,
)
from app.core.ciphers.selftest_vectors import (
    applicable_ocb_iterated,
    applicable_vectors,
    check_ocb_iterated,
    check_vector,
)
from app.core.ciphers.vectors import (
    DOCUMENTS,
    OCB_ITERATED,
    VECTORS,
    Vector,
    VectorFileError,
    load_documents,
    load_vectors,
)
from app.core.resources import resource_path

ENTRIES = [pytest.param(s, id=s.label) for s in REGISTRY]
SHARED_IDS = sorted({s.id for s in REGISTRY if sum(t.id == s.id for t in REGISTRY) > 1})
MODES_WITH_VECTORS = sorted({(v.algorithm, v.mode) for v in VECTORS})


def _entry(algorithm: str, mode: str) -> CipherSpec:
    """The first registry entry for ``algorithm`` in ``mode``."""
    return next(s for s in REGISTRY if s.algorithm == algorithm and s.mode == mode)


def _flip_first_bit(hex_text: str) -> str:
    data = bytearray(bytes.fromhex(hex_text))
    data[0] ^= 0x80
    return data.hex()


# --- the data ---------------------------------------------------------------------------------


def test_vector_data_is_well_formed() -> None:
    for v in VECTORS:
        for name in ("key", "iv", "plaintext", "ciphertext", "aad", "tag"):
            bytes.fromhex(getattr(v, name))  # raises on a typo
        assert v.document in DOCUMENTS, v.location
        assert len(v.plaintext) == len(v.ciphertext), v.source
        if v.mode in ("ECB", "CBC"):
            spec = _entry(v.algorithm, v.mode)
            assert len(v.plaintext) // 2 % spec.block_bytes == 0, v.source
    for item in OCB_ITERATED:
        assert item.document in DOCUMENTS
        bytes.fromhex(item.output)


def test_every_registry_mode_has_published_vectors_except_ctr_of_64_bit_ciphers() -> None:
    missing = {(s.algorithm, s.mode) for s in REGISTRY} - set(MODES_WITH_VECTORS)
    # OpenSSL has no CTR for Blowfish/3DES/DES, and nobody publishes vectors for it: derived.
    assert missing == {("Blowfish", "CTR"), ("3DES", "CTR"), ("DES", "CTR")}


def test_aead_vectors_carry_16_byte_tags() -> None:
    for v in VECTORS:
        if _entry(v.algorithm, v.mode).kind is Kind.AEAD:
            assert len(v.tag) == 32, v.source


# --- published vectors, per entry ---------------------------------------------------------------


@pytest.mark.parametrize("spec", ENTRIES)
def test_entry_has_a_published_or_derived_check(spec: CipherSpec) -> None:
    rng = random.Random(1)
    has_published = bool(applicable_vectors(spec) or applicable_ocb_iterated(spec))
    has_derived = bool(
        repeated_key_vectors(spec, spec.key_bits)
        or derived_checks(spec, selftest.get_adapter(spec.library), rng)
    )
    assert has_published or has_derived


@pytest.mark.parametrize("spec", ENTRIES)
def test_entry_passes_its_published_vectors(spec: CipherSpec) -> None:
    failures = [f for v in applicable_vectors(spec) for f in check_vector(spec, v)]
    failures += [
        f for item in applicable_ocb_iterated(spec) for f in check_ocb_iterated(spec, item)
    ]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("spec", ENTRIES)
def test_entry_passes_its_derived_checks(spec: CipherSpec) -> None:
    adapter = selftest.get_adapter(spec.library)
    failures = [
        f
        for bits in {spec.key_bits, max(spec.key_bits_allowed or (spec.key_bits,))}
        for v in repeated_key_vectors(spec, bits)
        for f in check_vector(spec, v, adapter)
    ]
    failures += [f for r in derived_checks(spec, adapter, random.Random(7)) for f in r.failures]
    assert not failures, "\n".join(failures)


def test_fixed_size_entries_have_a_vector_at_their_key_size() -> None:
    for spec in REGISTRY:
        if spec.key_bits_allowed or (spec.mode == "CTR" and spec.block_bytes == 8):
            continue
        sizes = {v.key_bits for v in applicable_vectors(spec)}
        sizes |= {i.key_bits for i in applicable_ocb_iterated(spec)}
        assert spec.key_bits in sizes, spec.label


# --- the checks can fail ----------------------------------------------------------------------


@pytest.mark.parametrize(("algorithm", "mode"), MODES_WITH_VECTORS)
def test_a_corrupted_ciphertext_is_detected(algorithm: str, mode: str) -> None:
    spec = _entry(algorithm, mode)
    vector = next(v for v in applicable_vectors(spec) if v.plaintext)
    assert check_vector(spec, vector) == []
    bad = replace(vector, ciphertext=_flip_first_bit(vector.ciphertext))
    assert check_vector(spec, bad), f"{spec.label}: a flipped ciphertext bit went unnoticed"


@pytest.mark.parametrize(("algorithm", "mode"), MODES_WITH_VECTORS)
def test_a_corrupted_key_is_detected(algorithm: str, mode: str) -> None:
    spec = _entry(algorithm, mode)
    vector = applicable_vectors(spec)[0]
    bad = replace(vector, key=_flip_first_bit(vector.key))
    assert check_vector(spec, bad), f"{spec.label}: a wrong key went unnoticed"


def test_a_corrupted_tag_is_detected() -> None:
    for spec in REGISTRY:
        if spec.kind is Kind.AEAD:
            for vector in applicable_vectors(spec)[:1]:
                bad = replace(vector, tag=_flip_first_bit(vector.tag))
                assert check_vector(spec, bad), spec.label


def test_a_wrong_tag_position_is_detected() -> None:
    # SIV puts its tag first (RFC 5297); a registry entry claiming otherwise must fail.
    spec = next(s for s in REGISTRY if s.mode == "SIV")
    vector = applicable_vectors(spec)[0]
    assert check_vector(replace(spec, tag_first=False), vector)


def test_a_wrong_mode_is_detected() -> None:
    # CFB and OFB share the first block; a multi-block vector must still tell them apart.
    spec = _entry("AES", "CFB")
    vector = max(applicable_vectors(spec), key=lambda v: len(v.plaintext))
    assert check_vector(replace(spec, mode="OFB"), vector)


def test_a_corrupted_ocb_iterated_output_is_detected() -> None:
    item = OCB_ITERATED[-1]
    spec = next(s for s in REGISTRY if s.mode == "OCB" and s.key_bits == item.key_bits)
    assert check_ocb_iterated(spec, item) == []
    assert check_ocb_iterated(spec, replace(item, output=_flip_first_bit(item.output)))


def test_reference_rc4_matches_rfc_6229() -> None:
    for v in VECTORS:
        if v.algorithm == "RC4":
            stream = reference_rc4(bytes.fromhex(v.key), v.offset + len(v.ciphertext) // 2)
            assert stream[v.offset :].hex() == v.ciphertext, v.source  # plaintext is all zero


def test_a_broken_ctr_counter_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    # A CTR that only counted in the low 32 bits would pass RFC 3686; the derived check must not.
    spec = next(s for s in REGISTRY if s.id == "des-ede3-ctr")
    adapter = selftest.get_adapter(spec.library)
    real = selftest.encrypt_bytes

    def low_32_bit_counter(spec_, adapter_, key, iv, data):  # type: ignore[no-untyped-def]
        if spec_.mode != "CTR":
            return real(spec_, adapter_, key, iv, data)
        ecb = selftest._ecb_spec(spec_)
        start = int.from_bytes(iv, "big")
        blocks = -(-len(data) // 8)
        counters = b"".join(
            ((start & ~0xFFFFFFFF) | ((start + i) & 0xFFFFFFFF)).to_bytes(8, "big")
            for i in range(blocks)
        )
        stream = selftest._raw(adapter_, ecb, key, b"", counters, False)
        return bytes(a ^ b for a, b in zip(data, stream, strict=False))

    monkeypatch.setattr(selftest_derived, "encrypt_bytes", low_32_bit_counter)
    results = derived_checks(spec, adapter, random.Random(3))
    assert any(r.failures for r in results)


# --- cross-library agreement ------------------------------------------------------------------


@pytest.mark.parametrize("cipher_id", SHARED_IDS)
def test_libraries_agree(cipher_id: str) -> None:
    group = [s for s in REGISTRY if s.id == cipher_id]
    cases, failures = cross_library_agreement(group, random.Random(cipher_id))
    assert cases >= 7
    assert not failures, "\n".join(failures)


def test_disagreement_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    real = selftest.encrypt_bytes

    def pycryptodome_off_by_one_bit(spec, adapter, key, iv, data):  # type: ignore[no-untyped-def]
        out = real(spec, adapter, key, iv, data)
        if spec.library == "pycryptodome" and out:
            out = bytes([out[0] ^ 1]) + out[1:]
        return out

    monkeypatch.setattr(selftest, "encrypt_bytes", pycryptodome_off_by_one_bit)
    group = [s for s in REGISTRY if s.id == "aes-128-cbc"]
    _, failures = cross_library_agreement(group, random.Random(0))
    assert failures


# --- the whole self-test ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def report() -> selftest.SelfTestReport:
    return run_selftest()


def test_selftest_reports_no_failures(report: selftest.SelfTestReport) -> None:
    assert report.ok, "\n".join(report.failures)
    assert [(e.id, e.library) for e in report.entries] == [(s.id, s.library) for s in REGISTRY]
    for e in report.entries:
        assert e.vectors_passed + e.derived_passed > 0, e.label
        assert e.key_bits in e.key_sizes, e.label
        assert e.agreement.startswith(("agree", "single library")), e.label


def test_selftest_is_quick(report: selftest.SelfTestReport) -> None:
    # About a second on a laptop; the bound only catches a check that went quadratic.
    assert report.seconds < 30


def test_selftest_output_formats(report: selftest.SelfTestReport) -> None:
    text = format_report(report)
    assert f"{len(REGISTRY)} of {len(REGISTRY)} entries passed" in text
    assert "aes-256-gcm" in text and "Sources:" in text
    data = json.loads(json.dumps(report_to_dict(report)))
    assert data["ok"] is True
    assert len(data["entries"]) == len(REGISTRY)
    assert set(data["sources"]) >= {"NIST CAVP AESAVS", "RFC 6229"}


def test_selftest_reports_a_failing_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = next(s for s in REGISTRY if s.id == "aes-128-ecb" and s.library == "cryptography")
    first = next(i for i, v in enumerate(VECTORS) if v.algorithm == "AES" and v.mode == "ECB")
    broken = replace(VECTORS[first], ciphertext=_flip_first_bit(VECTORS[first].ciphertext))
    vectors = (*VECTORS[:first], broken, *VECTORS[first + 1 :])
    monkeypatch.setattr(selftest_vectors, "VECTORS", vectors)
    result = run_selftest([spec])
    assert not result.ok
    assert result.failures and "aes-128-ecb [cryptography]" in result.failures[0]
    assert "FAIL" in format_report(result)


def test_an_entry_without_vectors_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = next(s for s in REGISTRY if s.id == "aes-128-gcm-siv")
    without_gcm_siv = tuple(v for v in VECTORS if v.mode != "GCM-SIV")
    monkeypatch.setattr(selftest_vectors, "VECTORS", without_gcm_siv)
    result = run_selftest([spec])
    assert any("no test vector" in f for f in result.failures)


def test_vector_source_names_its_location() -> None:
    v: Vector = VECTORS[0]
    assert v.source.startswith(v.document) and "COUNT" in v.source


# --- the vector files and their reader ----------------------------------------------------------


def _copy_vectors(tmp_path: Path) -> Path:
    folder = tmp_path / "vectors"
    shutil.copytree(resource_path("vectors"), folder)
    return folder


def test_the_shipped_files_hold_every_vector_once() -> None:
    assert len(load_vectors()) == len(VECTORS) == len(set(VECTORS)) > 150
    assert {v.document for v in VECTORS} <= set(load_documents())


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda row: row.update(key_size=128), "unknown fields ['key_size']"),
        (lambda row: row.update(key="zz"), "key is not hex"),
        (lambda row: row.update(document="A paper nobody cites"), "no citation for"),
        (lambda row: row.pop("ciphertext"), "ciphertext"),
    ],
)
def test_a_malformed_vector_file_is_refused_by_name(
    tmp_path: Path, change: Callable[[dict[str, Any]], object], said: str
) -> None:
    folder = _copy_vectors(tmp_path)
    path = folder / "des.json"
    data = json.loads(path.read_text())
    change(data["vectors"][0])
    path.write_text(json.dumps(data))
    with pytest.raises(VectorFileError, match=re.escape(said)) as caught:
        load_vectors(folder)
    assert "des.json" in str(caught.value)


def test_a_new_algorithm_is_a_new_file(tmp_path: Path) -> None:
    folder = _copy_vectors(tmp_path)
    des = json.loads((folder / "des.json").read_text())
    (folder / "des-again.json").write_text(json.dumps({**des, "algorithm": "DES2"}))
    loaded = load_vectors(folder)
    assert sum(v.algorithm == "DES2" for v in loaded) == len(des["vectors"])
