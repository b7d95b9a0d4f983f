"""The registry as data: ids, libraries, key sizes, and what every entry promises."""

import pytest

from app.core.ciphers.adapters import get_adapter
from app.core.ciphers.registry import REGISTRY, Kind, cipher_ids, libraries_for, lookup, select
from app.core.errors import UserError


def test_ids_are_unique_per_library():
    keys = [(s.id, s.library) for s in REGISTRY]
    assert len(keys) == len(set(keys))


def test_the_issue_minimum_is_present():
    ids = set(cipher_ids())
    for bits in (128, 192, 256):
        for mode in ("ecb", "cbc", "cfb", "ofb", "ctr", "gcm"):
            cid = f"aes-{bits}-{mode}"
            assert {"cryptography", "pycryptodome"} <= set(libraries_for(cid)), cid
        for mode in ("ccm", "ocb", "siv", "eax"):
            assert f"aes-{bits}-{mode}" in ids
    for cid in ("chacha20", "chacha20-poly1305"):
        assert set(libraries_for(cid)) == {"cryptography", "pycryptodome"}
    assert "xchacha20-poly1305" in ids
    for prefix in ("bf", "des-ede3", "des"):
        for mode in ("ecb", "cbc", "cfb", "ofb", "ctr"):
            assert f"{prefix}-{mode}" in ids
    assert set(libraries_for("rc4")) == {"cryptography", "pycryptodome"}
    for mode in ("ecb", "cbc", "cfb", "ofb", "ctr"):
        assert "pyaes" in libraries_for(f"aes-128-{mode}")


def test_openssl_names_where_openssl_has_them():
    assert lookup("aes-256-cbc", "cryptography").openssl_name == "aes-256-cbc"
    assert lookup("des-ede3-cbc", "pycryptodome").openssl_name == "des-ede3-cbc"
    assert lookup("bf-ctr", "pycryptodome").openssl_name is None


def test_blowfish_defaults_to_256_bits_and_takes_key_bits():
    assert lookup("bf-cbc", "pycryptodome").key_bits == 256
    assert lookup("bf-cbc", "pycryptodome", 128).key_bits == 128
    with pytest.raises(UserError, match="does not take a 12-bit key"):
        lookup("bf-cbc", "pycryptodome", 12)
    with pytest.raises(UserError, match="does not take a 2048-bit key"):
        lookup("rc4", "cryptography", 2048)
    assert lookup("rc4", "pycryptodome", 2048).key_bits == 2048


def test_lookup_errors_are_plain():
    with pytest.raises(UserError, match="unknown cipher"):
        lookup("aes-512-cbc", "cryptography")
    with pytest.raises(UserError, match="not offered by pyaes"):
        lookup("aes-256-gcm", "pyaes")
    with pytest.raises(UserError, match="unknown library"):
        lookup("aes-256-gcm", "openssl")


def test_select_all_libraries():
    specs = select(["aes-128-cbc"], "all")
    assert [s.library for s in specs] == ["cryptography", "pycryptodome", "pyaes"]


def test_weak_choices_carry_notes():
    assert any("ECB" in n for n in lookup("aes-128-ecb", "cryptography").notes)
    assert any("birthday" in n for n in lookup("bf-cbc", "cryptography").notes)
    assert any("brute" in n for n in lookup("des-cbc", "pycryptodome").notes)
    assert any("broken" in n for n in lookup("rc4", "cryptography").notes)
    assert lookup("aes-256-gcm", "cryptography").notes == ()


@pytest.mark.parametrize("spec", REGISTRY, ids=lambda s: s.label)
def test_every_entry_builds_its_cipher(spec):
    adapter = get_adapter(spec.library)
    key = bytes(i % 256 for i in range(spec.key_bytes))  # all-zero 3DES keys degenerate
    iv = bytes(spec.iv_bytes)
    # Built, and working: a round trip of 64 zero bytes that the cipher really changed.
    plain = bytes(64)
    out = bytearray(64 + 64)
    back = bytearray(64 + 64)
    if spec.kind is Kind.AEAD:
        nonce = bytes(range(spec.iv_bytes))
        n = adapter.aead(spec, key).seal_into(nonce, memoryview(plain), memoryview(out), b"")
        m = adapter.aead(spec, key).open_into(nonce, memoryview(out)[:n], memoryview(back), b"")
        sealed = bytes(out[:64])
        assert n > 64 and bytes(back[:m]) == plain
    else:
        adapter.raw(spec, key, iv, decrypt=False).update_into(memoryview(plain), memoryview(out))
        sealed = bytes(out[:64])
        decrypting = adapter.raw(spec, key, iv, decrypt=True)
        decrypting.update_into(memoryview(sealed), memoryview(back))
        assert bytes(back[:64]) == plain
    assert sealed != plain
