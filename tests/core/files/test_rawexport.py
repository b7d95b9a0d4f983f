"""Raw export: bare ciphertext + JSON key file, read back by us and by `openssl enc`."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from functools import cache
from pathlib import Path

import pytest

from app.core.ciphers.registry import REGISTRY, CipherSpec, Kind, cipher_ids, lookup
from app.core.errors import AuthenticationError, Cancelled, UserError
from app.core.files import rawexport
from app.core.files.container import new_key, write_key_file
from app.core.files.rawexport import (
    ContainerKeyGiven,
    RawKey,
    decrypt_raw,
    export_raw,
    read_raw_key,
)

SIZES = (0, 1, 15, 16, 17, 100)
OPENSSL = shutil.which("openssl")
# The ciphers the issue names, plus every other one `openssl enc` has.
OPENSSL_IDS = sorted({s.id for s in REGISTRY if s.openssl_name})


def _any_spec(cipher_id: str) -> CipherSpec:
    return next(s for s in REGISTRY if s.id == cipher_id)


def _key_bits_for_openssl(cipher_id: str) -> int | None:
    return 128 if cipher_id.startswith("bf-") or cipher_id == "rc4" else None


@cache
def _openssl_has(name: str) -> bool:
    spec = next(s for s in REGISTRY if s.openssl_name == name)
    legacy = spec.algorithm in ("Blowfish", "DES", "RC4")
    args = [str(OPENSSL), "enc", f"-{name}", "-K", "00" * spec.key_bytes, "-in", os.devnull]
    if spec.iv_bytes:
        args += ["-iv", "00" * spec.iv_bytes]
    if legacy:
        args += ["-provider", "legacy", "-provider", "default"]
    return subprocess.run(args, capture_output=True).returncode == 0


@pytest.mark.parametrize("cipher_id", cipher_ids())
def test_round_trip_every_cipher(tmp_path: Path, cipher_id: str) -> None:
    src, ct, pt, key = tmp_path / "in", tmp_path / "ct", tmp_path / "pt", tmp_path / "k.json"
    for size in SIZES:
        data = os.urandom(size)
        src.write_bytes(data)
        # 32-byte chunks: a 100-byte input streams through update() several times
        raw = export_raw(src, ct, key, cipher_id=cipher_id, force=True, chunk_bytes=32)
        spec = lookup(cipher_id, raw.library, raw.key_bits)
        assert raw.ciphertext_bytes == ct.stat().st_size == spec.output_bytes(size)
        decrypt_raw(src=ct, dst=pt, key_in=key, force=True, chunk_bytes=48)
        assert pt.read_bytes() == data


def test_key_file_contents_and_mode(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.write_bytes(b"attack at dawn")
    raw = export_raw(src, tmp_path / "ct", tmp_path / "k.json", cipher_id="aes-256-cbc")
    assert stat.S_IMODE((tmp_path / "k.json").stat().st_mode) == 0o600
    data = json.loads((tmp_path / "k.json").read_text())
    assert data["cipher"] == "aes-256-cbc" and data["padding"] == "PKCS#7"
    assert data["key_hex"] == raw.key.hex() and data["iv_hex"] == raw.iv.hex()
    assert "anyone who has it can decrypt" in data["warning"]
    assert "no integrity protection" in data["warning"]
    assert data["openssl_decrypt"].startswith("openssl enc -d -aes-256-cbc -K ")
    assert data["tag"] is None
    assert read_raw_key(tmp_path / "k.json") == raw


def test_aead_key_file_describes_the_tag(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.write_bytes(b"attack at dawn")
    export_raw(src, tmp_path / "ct", tmp_path / "k.json", cipher_id="aes-128-siv")
    data = json.loads((tmp_path / "k.json").read_text())
    assert data["tag"] == {
        "bytes": 16,
        "position": "before the ciphertext",
        "associated_data": "none",
    }
    assert len(bytes.fromhex(data["nonce_hex"])) == 16
    assert data["openssl_decrypt"] is None and "AEAD" in data["openssl_note"]
    assert "integrity" not in data["warning"]


def test_repr_hides_the_key(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.write_bytes(b"x")
    raw = export_raw(src, tmp_path / "ct", tmp_path / "k.json", cipher_id="aes-128-ctr")
    assert raw.key.hex() not in repr(raw) and raw.iv.hex() not in repr(raw)
    assert "<hidden>" in repr(raw)


def test_any_library_decrypts_a_raw_export(tmp_path: Path) -> None:
    src = tmp_path / "in"
    data = os.urandom(1000)
    src.write_bytes(data)
    for cipher_id in ("aes-256-gcm", "chacha20-poly1305", "aes-128-ctr", "chacha20", "bf-cbc"):
        export_raw(
            src,
            tmp_path / "ct",
            tmp_path / "k",
            cipher_id=cipher_id,
            library="pycryptodome",
            force=True,
        )
        decrypt_raw(
            tmp_path / "ct", tmp_path / "pt", tmp_path / "k", library="cryptography", force=True
        )
        assert (tmp_path / "pt").read_bytes() == data


@pytest.mark.skipif(OPENSSL is None, reason="no openssl command")
@pytest.mark.parametrize("cipher_id", OPENSSL_IDS)
def test_openssl_decrypts_the_export(tmp_path: Path, cipher_id: str) -> None:
    bits = _key_bits_for_openssl(cipher_id)
    name = _any_spec(cipher_id).openssl_name
    assert name is not None
    if not _openssl_has(name):
        pytest.skip(f"this openssl lacks {name}")
    src = tmp_path / "in"
    for size in (0, 1000, 70_000):  # 70 kB: longer than openssl's 8 KiB buffer, several chunks
        data = os.urandom(size)
        src.write_bytes(data)
        raw = export_raw(
            src,
            tmp_path / "ct",
            tmp_path / "k.json",
            cipher_id=cipher_id,
            key_bits=bits,
            force=True,
            chunk_bytes=4096,
        )
        command = raw.openssl_command(str(tmp_path / "ct"), str(tmp_path / "pt"))
        assert command is not None
        result = subprocess.run(command, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        assert (tmp_path / "pt").read_bytes() == data
        (tmp_path / "pt").unlink()


@pytest.mark.skipif(OPENSSL is None, reason="no openssl command")
@pytest.mark.parametrize("cipher_id", ["aes-256-cbc", "aes-128-ctr", "des-ede3-cbc", "bf-cbc"])
def test_we_decrypt_what_openssl_encrypted(tmp_path: Path, cipher_id: str) -> None:
    bits = _key_bits_for_openssl(cipher_id) or _any_spec(cipher_id).key_bits
    spec = _any_spec(cipher_id).with_key_bits(bits)
    assert spec.openssl_name is not None
    if not _openssl_has(spec.openssl_name):
        pytest.skip(f"this openssl lacks {spec.openssl_name}")
    data = os.urandom(5000)
    (tmp_path / "in").write_bytes(data)
    raw = RawKey(cipher_id, "", bits, os.urandom(spec.key_bytes), os.urandom(spec.iv_bytes), 0, 0)
    command = raw.openssl_command(str(tmp_path / "in"), str(tmp_path / "ct"))
    assert command is not None
    command[2] = "-e"
    subprocess.run(command, check=True, capture_output=True)
    decrypt_raw(tmp_path / "ct", tmp_path / "pt", raw)
    assert (tmp_path / "pt").read_bytes() == data


def test_long_blowfish_keys_say_openssl_cannot(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.write_bytes(b"data")
    raw = export_raw(src, tmp_path / "ct", tmp_path / "k.json", cipher_id="bf-cbc")
    assert raw.key_bits == 256
    assert raw.openssl_command("ct", "pt") is None
    data = json.loads((tmp_path / "k.json").read_text())
    assert data["openssl_decrypt"] is None and "128-bit" in data["openssl_note"]


def test_modified_aead_export_fails_without_output(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.write_bytes(os.urandom(500))
    export_raw(src, tmp_path / "ct", tmp_path / "k.json", cipher_id="aes-256-gcm")
    blob = bytearray((tmp_path / "ct").read_bytes())
    blob[10] ^= 1
    (tmp_path / "ct").write_bytes(bytes(blob))
    with pytest.raises(AuthenticationError):
        decrypt_raw(tmp_path / "ct", tmp_path / "pt", tmp_path / "k.json")
    assert not (tmp_path / "pt").exists()


def test_wrong_key_or_truncated_padded_export_fails_without_output(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.write_bytes(os.urandom(500))
    export_raw(src, tmp_path / "ct", tmp_path / "k.json", cipher_id="aes-128-cbc")
    blob = (tmp_path / "ct").read_bytes()
    (tmp_path / "short").write_bytes(blob[:-3])
    with pytest.raises(AuthenticationError):
        decrypt_raw(tmp_path / "short", tmp_path / "pt", tmp_path / "k.json")
    assert not (tmp_path / "pt").exists()


def test_outputs_are_checked_before_any_work(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.write_bytes(b"data")
    (tmp_path / "k.json").write_text("old key")
    with pytest.raises(UserError, match="already exists"):
        export_raw(src, tmp_path / "ct", tmp_path / "k.json", cipher_id="aes-128-cbc")
    assert (tmp_path / "k.json").read_text() == "old key" and not (tmp_path / "ct").exists()
    with pytest.raises(UserError, match="is the input"):
        export_raw(src, tmp_path / "ct", src, cipher_id="aes-128-cbc", force=True)
    with pytest.raises(UserError, match="given twice"):
        export_raw(src, tmp_path / "ct", tmp_path / "ct", cipher_id="aes-128-cbc")
    assert src.read_bytes() == b"data"


def test_cancel_leaves_neither_file(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.write_bytes(os.urandom(10_000))
    with pytest.raises(Cancelled):
        export_raw(
            src,
            tmp_path / "ct",
            tmp_path / "k.json",
            cipher_id="aes-128-ctr",
            chunk_bytes=1024,
            cancel=iter([False, False, True]).__next__,
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_aead_export_refuses_what_does_not_fit_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rawexport, "RAW_AEAD_MAX_BYTES", 100)
    src = tmp_path / "in"
    src.write_bytes(bytes(101))
    with pytest.raises(UserError, match="CipherBench format"):
        export_raw(src, tmp_path / "ct", tmp_path / "k.json", cipher_id="aes-256-gcm")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        ('{"format": "other"}', "not a raw-export key"),
        ('{"format": "cipherbench-raw-key", "version": 1}', "damaged"),
        (
            '{"format": "cipherbench-raw-key", "version": 1, "cipher": "aes-128-cbc", '
            '"key_bits": 128, "key_hex": "00", "iv_hex": "00"}',
            "length",
        ),
        (
            '{"format": "cipherbench-raw-key", "version": 1, "cipher": "nope", '
            '"key_bits": 128, "key_hex": "00", "iv_hex": "00"}',
            "lacks",
        ),
    ],
)
def test_bad_raw_key_files(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "k.json").write_text(content)
    with pytest.raises(UserError, match=message):
        read_raw_key(tmp_path / "k.json")


def test_a_container_key_file_is_not_a_raw_key(tmp_path: Path) -> None:
    write_key_file(tmp_path / "k", new_key())
    with pytest.raises(ContainerKeyGiven) as caught:
        read_raw_key(tmp_path / "k")
    # the command line adds "; decrypt without --raw" (tests/cli/test_cli_messages.py)
    assert caught.value.path == str(tmp_path / "k")
    assert str(caught.value) == f"{tmp_path / 'k'} is a CipherBench key file, not a raw-export key"
    assert "--" not in str(caught.value)


def test_every_openssl_entry_is_a_raw_kind() -> None:
    for spec in REGISTRY:
        if spec.openssl_name:
            assert spec.kind is not Kind.AEAD


@pytest.mark.parametrize("change", ["cut", "added"])
def test_a_raw_file_of_another_length_than_its_key_file_says_is_refused(
    tmp_path: Path, change: str
) -> None:
    """CTR cannot tell a cut file: it decrypted half a file without a word. The key file
    records the ciphertext's length, and a file of another length is refused, nothing written."""
    src = tmp_path / "in"
    src.write_bytes(os.urandom(2000))
    export_raw(src, tmp_path / "ct", tmp_path / "k.json", cipher_id="aes-128-ctr")
    blob = (tmp_path / "ct").read_bytes()
    (tmp_path / "ct").write_bytes(blob[:1000] if change == "cut" else blob + b"x")
    size = 1000 if change == "cut" else 2001
    word = "shorter: cut off" if change == "cut" else "longer: something was added"
    with pytest.raises(AuthenticationError, match=f"is {size:,} bytes, .* 2,000 bytes \\({word}"):
        decrypt_raw(tmp_path / "ct", tmp_path / "pt", tmp_path / "k.json")
    assert not (tmp_path / "pt").exists()
