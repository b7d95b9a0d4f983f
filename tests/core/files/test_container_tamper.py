"""Every way to damage a CipherBench file must fail cleanly: AuthenticationError or UserError, no
output file, no temporary file left, and an existing output left as it was.

Each case is checked for one cipher of each construction: AEAD with the tag after (GCM,
ChaCha20-Poly1305) and before (SIV) the ciphertext, encrypt-then-MAC over a padded block mode
(CBC), a counter mode (CTR) and a keyless-IV stream cipher (RC4).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.core.errors import AuthenticationError, UserError
from app.core.files.container import (
    Argon2Params,
    decrypt_file,
    encrypt_file,
    new_key,
    read_header,
)

CHUNK = 64
FAST = Argon2Params(memory_kib=64, iterations=1, lanes=1)
CIPHERS = ["aes-256-gcm", "chacha20-poly1305", "aes-256-siv", "aes-256-cbc", "aes-128-ctr", "rc4"]
PLAINTEXT = os.urandom(4 * CHUNK + 10)  # four full chunks and a short last one


@dataclass
class Sample:
    blob: bytes
    key: bytes
    header_bytes: int
    chunk_ct: int  # stored size of a full chunk

    def chunks(self) -> list[bytes]:
        body = self.blob[self.header_bytes :]
        full = [body[i : i + self.chunk_ct] for i in range(0, 4 * self.chunk_ct, self.chunk_ct)]
        return [*full, body[4 * self.chunk_ct :]]

    def with_chunks(self, chunks: list[bytes]) -> bytes:
        return self.blob[: self.header_bytes] + b"".join(chunks)


AEADS = ("aes-256-gcm", "chacha20-poly1305", "aes-256-siv")


def _overhead(cipher_id: str) -> int:
    return 16 if cipher_id in AEADS else 32  # AEAD tag, or HMAC-SHA256


def _last_len(cipher_id: str) -> int:
    """Stored size of the last chunk: 10 plaintext bytes (CBC: padded to 16) plus overhead."""
    return (16 if cipher_id == "aes-256-cbc" else 10) + _overhead(cipher_id)


def _make(folder: Path, cipher_id: str, key: bytes | None = None) -> Sample:
    key = key or new_key()
    folder.mkdir(exist_ok=True)
    src = folder / "plain.bin"
    src.write_bytes(PLAINTEXT)
    enc = folder / f"{cipher_id}.cbf"
    info = encrypt_file(src, enc, cipher_id=cipher_id, key=key, chunk_bytes=CHUNK, force=True)
    return Sample(enc.read_bytes(), key, info.header_bytes, CHUNK + _overhead(cipher_id))


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Sample]:
    folder = tmp_path_factory.mktemp("samples")
    return {cid: _make(folder, cid) for cid in CIPHERS}


def _expect_rejected(folder: Path, blob: bytes, **secret: Any) -> str:
    """Decrypt ``blob``; it must fail with a UserError and leave the folder as it was."""
    src = folder / "tampered.cbf"
    src.write_bytes(blob)
    out = folder / "out"
    before = sorted(p.name for p in folder.iterdir())
    with pytest.raises(UserError) as caught:
        decrypt_file(src, out, **secret)
    assert not out.exists()
    assert sorted(p.name for p in folder.iterdir()) == before  # no temporary file left
    return str(caught.value)


def test_the_untouched_samples_decrypt(tmp_path: Path, samples: dict[str, Sample]) -> None:
    for cid, sample in samples.items():
        (tmp_path / cid).write_bytes(sample.blob)
        decrypt_file(tmp_path / cid, tmp_path / f"{cid}.out", key=sample.key)
        assert (tmp_path / f"{cid}.out").read_bytes() == PLAINTEXT
        assert len(sample.blob) == sample.header_bytes + 4 * sample.chunk_ct + _last_len(cid)


@pytest.mark.parametrize("cipher_id", CIPHERS)
def test_every_header_byte_flipped(
    tmp_path: Path, samples: dict[str, Sample], cipher_id: str
) -> None:
    sample = samples[cipher_id]
    for pos in range(sample.header_bytes):
        blob = bytearray(sample.blob)
        blob[pos] ^= 1 << (pos % 8)
        _expect_rejected(tmp_path, bytes(blob), key=sample.key)


@pytest.mark.parametrize("cipher_id", CIPHERS)
def test_every_body_byte_flipped(
    tmp_path: Path, samples: dict[str, Sample], cipher_id: str
) -> None:
    """Covers every ciphertext byte and every tag or MAC byte of every chunk."""
    sample = samples[cipher_id]
    for pos in range(sample.header_bytes, len(sample.blob)):
        blob = bytearray(sample.blob)
        blob[pos] ^= 0x80 >> (pos % 8)
        message = _expect_rejected(tmp_path, bytes(blob), key=sample.key)
        assert isinstance(message, str) and "chunk" in message


@pytest.mark.parametrize("cipher_id", CIPHERS)
def test_cut_at_every_length(tmp_path: Path, samples: dict[str, Sample], cipher_id: str) -> None:
    """At and between chunk boundaries, inside the header, down to an empty file."""
    sample = samples[cipher_id]
    for length in range(len(sample.blob)):
        _expect_rejected(tmp_path, sample.blob[:length], key=sample.key)


def _boundary_cases(sample: Sample) -> Iterator[tuple[str, bytes]]:
    c = sample.chunks()
    yield "swap first two", sample.with_chunks([c[1], c[0], *c[2:]])
    yield "swap middle", sample.with_chunks([c[0], c[2], c[1], c[3], c[4]])
    yield "repeat a chunk", sample.with_chunks([c[0], c[1], c[1], c[2], c[3], c[4]])
    yield "duplicate over another", sample.with_chunks([c[0], c[0], c[2], c[3], c[4]])
    yield "drop first", sample.with_chunks(c[1:])
    yield "drop middle", sample.with_chunks([c[0], c[1], c[3], c[4]])
    yield "drop last", sample.with_chunks(c[:4])
    yield "last chunk first", sample.with_chunks([c[4], c[1], c[2], c[3], c[0]])
    yield "only the last chunk", sample.with_chunks([c[4]])
    yield "only the header", sample.with_chunks([])
    yield "last chunk twice", sample.blob + c[4]
    yield "a full chunk appended", sample.blob + c[0]
    yield "one byte appended", sample.blob + b"\x00"
    yield "a block appended", sample.blob + bytes(16)
    yield "the header appended", sample.blob + sample.blob[: sample.header_bytes]
    yield "the whole file twice", sample.blob + sample.blob


@pytest.mark.parametrize("cipher_id", CIPHERS)
def test_reordered_repeated_dropped_and_appended_chunks(
    tmp_path: Path, samples: dict[str, Sample], cipher_id: str
) -> None:
    sample = samples[cipher_id]
    for name, blob in _boundary_cases(sample):
        assert blob != sample.blob, name
        _expect_rejected(tmp_path, blob, key=sample.key)


@pytest.mark.parametrize("cipher_id", ["aes-256-gcm", "aes-256-cbc"])
def test_pieces_of_another_file_with_the_same_key(tmp_path: Path, cipher_id: str) -> None:
    """Same key file, so only the per-file salt and the header MAC keep files apart."""
    key = new_key()
    a = _make(tmp_path / "a", cipher_id, key)
    b = _make(tmp_path / "b", cipher_id, key)
    ca, cb = a.chunks(), b.chunks()
    cases = [
        a.blob[: a.header_bytes] + b.blob[b.header_bytes :],  # header of A, body of B
        a.with_chunks([ca[0], cb[1], *ca[2:]]),  # one chunk from B at the same index
        a.with_chunks([*ca[:4], cb[4]]),  # B's last chunk
    ]
    for blob in cases:
        _expect_rejected(tmp_path, blob, key=key)


def test_wrong_key_file(tmp_path: Path, samples: dict[str, Sample]) -> None:
    for sample in samples.values():
        message = _expect_rejected(tmp_path, sample.blob, key=new_key())
        assert "wrong password or key file" in message


def test_wrong_password_and_password_file_damage(tmp_path: Path) -> None:
    src = tmp_path / "plain.bin"
    src.write_bytes(PLAINTEXT)
    enc = tmp_path / "pw.cbf"
    encrypt_file(src, enc, password="right", kdf_params=FAST, chunk_bytes=CHUNK)
    blob = enc.read_bytes()
    enc.unlink()
    src.unlink()
    assert "wrong password" in _expect_rejected(tmp_path, blob, password="wrong")
    _expect_rejected(tmp_path, blob, password="Right")
    _expect_rejected(tmp_path, blob, key=new_key())
    # The lowest bit of every header byte: KDF cost, salt, file salt and MAC included. Values
    # a hostile file could use to ask for huge work are refused before the KDF runs.
    header_bytes = _header_len(blob, tmp_path)
    for pos in range(header_bytes):
        tampered = bytearray(blob)
        tampered[pos] ^= 1
        _expect_rejected(tmp_path, bytes(tampered), password="right")


def _header_len(blob: bytes, folder: Path) -> int:
    path = folder / "probe.cbf"
    path.write_bytes(blob)
    try:
        return read_header(path).header_bytes
    finally:
        path.unlink()


def test_failure_keeps_an_existing_output(tmp_path: Path, samples: dict[str, Sample]) -> None:
    sample = samples["aes-256-gcm"]
    damaged = bytearray(sample.blob)
    damaged[-1] ^= 1  # the very last tag byte: every earlier chunk decrypts first
    (tmp_path / "in.cbf").write_bytes(bytes(damaged))
    (tmp_path / "out").write_bytes(b"previous content")
    with pytest.raises(AuthenticationError):
        decrypt_file(tmp_path / "in.cbf", tmp_path / "out", key=sample.key, force=True)
    assert (tmp_path / "out").read_bytes() == b"previous content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.cbf", "out"]
