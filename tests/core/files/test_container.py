"""The CipherBench file format: round trips for every cipher, the API's rules, the header parser.

Small chunks (64 bytes) and a cheap Argon2 keep the whole file fast; the defaults stay strong.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import stat
import struct
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.ciphers.registry import REGISTRY, Kind, cipher_ids, libraries_for, lookup
from app.core.errors import AuthenticationError, Cancelled, UserError
from app.core.files import container, container_format
from app.core.files.container import (
    DEFAULT_ARGON2,
    MAGIC,
    Argon2Params,
    ContainerInfo,
    decrypt_file,
    encrypt_file,
    new_key,
    parse_header,
    read_header,
    read_key_file,
    write_key_file,
)

CHUNK = 64
SIZES = (0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5)
FAST = Argon2Params(memory_kib=64, iterations=1, lanes=1)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _digest(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


# --- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("cipher_id", cipher_ids())
def test_round_trip_every_cipher_at_every_edge_size(tmp_path: Path, cipher_id: str) -> None:
    key = new_key()
    src, enc, out = tmp_path / "in", tmp_path / "in.cbf", tmp_path / "out"
    for size in SIZES:
        data = os.urandom(size)
        _write(src, data)
        info = encrypt_file(src, enc, cipher_id=cipher_id, key=key, chunk_bytes=CHUNK, force=True)
        assert info.cipher_id == cipher_id
        assert info.plaintext_bytes == size
        assert info.chunks == max(1, -(-size // CHUNK))
        assert info.container_bytes == enc.stat().st_size
        header = read_header(enc)
        assert (header.cipher_id, header.key_bits, header.chunk_bytes) == (
            cipher_id,
            info.key_bits,
            CHUNK,
        )
        assert header.needs_key_file and not header.needs_password
        assert header.chunks == info.chunks
        if header.plaintext_bytes_exact:
            assert header.plaintext_bytes == size
        else:  # padded modes: an upper bound within one block
            assert size <= header.plaintext_bytes < size + 16
        result = decrypt_file(enc, out, key=key, force=True)
        assert out.read_bytes() == data
        assert result.plaintext_bytes == size and result.plaintext_bytes_exact


def _libraries(cipher_id: str) -> list[str]:
    return [lib for lib in libraries_for(cipher_id) if lib != "pyaes"]


CROSS = [
    "aes-256-gcm",
    "aes-128-ccm",
    "aes-192-ocb",
    "aes-256-siv",
    "chacha20-poly1305",
    "aes-256-cbc",
    "aes-128-ecb",
    "aes-128-ctr",
    "aes-256-cfb",
    "aes-192-ofb",
    "chacha20",
    "rc4",
    "bf-cbc",
    "des-ede3-ofb",
]


@pytest.mark.parametrize("cipher_id", CROSS)
def test_any_library_decrypts_what_another_encrypted(tmp_path: Path, cipher_id: str) -> None:
    key = new_key()
    data = os.urandom(3 * CHUNK + 9)
    src, enc, out = _write(tmp_path / "in", data), tmp_path / "enc", tmp_path / "out"
    for enc_lib, dec_lib in itertools.permutations(_libraries(cipher_id), 2):
        info = encrypt_file(
            src, enc, cipher_id=cipher_id, library=enc_lib, key=key, chunk_bytes=CHUNK, force=True
        )
        assert info.library == enc_lib
        result = decrypt_file(enc, out, key=key, library=dec_lib, force=True)
        assert result.library == dec_lib
        assert out.read_bytes() == data


@pytest.mark.parametrize("cipher_id", ["aes-128-cbc", "aes-256-ctr", "aes-192-cfb", "aes-128-ofb"])
def test_pure_python_library_reads_and_writes_the_same_format(
    tmp_path: Path, cipher_id: str
) -> None:
    key = new_key()
    data = os.urandom(2 * CHUNK + 3)
    src, enc, out = _write(tmp_path / "in", data), tmp_path / "enc", tmp_path / "out"
    encrypt_file(src, enc, cipher_id=cipher_id, library="pyaes", key=key, chunk_bytes=CHUNK)
    decrypt_file(enc, out, key=key)  # cryptography by default
    assert out.read_bytes() == data
    encrypt_file(src, enc, cipher_id=cipher_id, key=key, chunk_bytes=CHUNK, force=True)
    decrypt_file(enc, out, key=key, library="pyaes", force=True)
    assert out.read_bytes() == data


@pytest.mark.parametrize(
    ("cipher_id", "bits"), [("bf-cbc", 32), ("bf-ctr", 448), ("rc4", 40), ("rc4", 2048)]
)
def test_variable_key_sizes_are_recorded_and_used(
    tmp_path: Path, cipher_id: str, bits: int
) -> None:
    key = new_key()
    data = os.urandom(2 * CHUNK + 1)
    src, enc, out = _write(tmp_path / "in", data), tmp_path / "enc", tmp_path / "out"
    info = encrypt_file(src, enc, cipher_id=cipher_id, key_bits=bits, key=key, chunk_bytes=CHUNK)
    assert info.key_bits == bits == read_header(enc).key_bits
    decrypt_file(enc, out, key=key)  # rc4-2048 falls back to pycryptodome by itself
    assert out.read_bytes() == data


def test_password_round_trip_and_fresh_salt_every_time(tmp_path: Path) -> None:
    data = os.urandom(5 * CHUNK)
    src = _write(tmp_path / "in", data)
    a, b, out = tmp_path / "a", tmp_path / "b", tmp_path / "out"
    for target in (a, b):
        encrypt_file(src, target, password="correct horse", kdf_params=FAST, chunk_bytes=CHUNK)
    assert a.read_bytes() != b.read_bytes()
    info = read_header(a)
    assert info.needs_password and info.argon2 == FAST
    assert decrypt_file(a, out, password="correct horse").plaintext_bytes == len(data)
    assert out.read_bytes() == data


def test_key_file_encryption_twice_differs_too(tmp_path: Path) -> None:
    key = new_key()
    src = _write(tmp_path / "in", b"same plaintext")
    encrypt_file(src, tmp_path / "a", key=key)
    encrypt_file(src, tmp_path / "b", key=key)
    a, b = (tmp_path / "a").read_bytes(), (tmp_path / "b").read_bytes()
    assert a != b
    assert a[len(MAGIC) :].find(b"same plaintext") == -1


def test_password_is_unicode_normalised(tmp_path: Path) -> None:
    src = _write(tmp_path / "in", b"x")
    encrypt_file(src, tmp_path / "enc", password="caf\u00e9", kdf_params=FAST)  # composed é
    decrypt_file(tmp_path / "enc", tmp_path / "out", password="cafe\u0301")  # e + accent
    assert (tmp_path / "out").read_bytes() == b"x"


def test_default_chunk_size_on_a_few_mebibytes(tmp_path: Path) -> None:
    data = os.urandom(2 * container.DEFAULT_CHUNK_BYTES + 12345)
    src, enc, out = _write(tmp_path / "in", data), tmp_path / "enc", tmp_path / "out"
    info = encrypt_file(src, enc, key=(key := new_key()))
    assert info.chunk_bytes == container.DEFAULT_CHUNK_BYTES and info.chunks == 3
    assert info.cipher_id == "aes-256-gcm" and info.library == "cryptography"
    decrypt_file(enc, out, key=key)
    assert out.read_bytes() == data


def test_defaults_stay_strong() -> None:
    DEFAULT_ARGON2.check()
    assert DEFAULT_ARGON2.memory_kib >= 46 * 1024  # at least OWASP's Argon2id minimum
    assert DEFAULT_ARGON2.memory_kib * DEFAULT_ARGON2.iterations >= 64 * 1024 * 3
    assert container.DEFAULT_CIPHER == "aes-256-gcm"


# --- the rules of the API --------------------------------------------------------------------


def test_input_is_never_modified(tmp_path: Path) -> None:
    key = new_key()
    src = _write(tmp_path / "in", os.urandom(300))
    before = _digest(src)
    encrypt_file(src, tmp_path / "enc", key=key, chunk_bytes=CHUNK)
    enc_before = _digest(tmp_path / "enc")
    decrypt_file(tmp_path / "enc", tmp_path / "out", key=key)
    assert _digest(src) == before
    assert _digest(tmp_path / "enc") == enc_before


def test_output_equal_to_input_is_refused_in_every_spelling(tmp_path: Path) -> None:
    key = new_key()
    src = _write(tmp_path / "in", b"data")
    (tmp_path / "link").symlink_to(src)
    os.link(src, tmp_path / "hard")
    sub = tmp_path / "sub"
    sub.mkdir()
    for same in (src, tmp_path / "sub" / ".." / "in", tmp_path / "link", tmp_path / "hard"):
        with pytest.raises(UserError, match="is the input"):
            encrypt_file(src, same, key=key, force=True)
    assert src.read_bytes() == b"data"


def test_existing_output_needs_force(tmp_path: Path) -> None:
    key = new_key()
    src = _write(tmp_path / "in", b"data")
    out = _write(tmp_path / "out", b"keep me")
    with pytest.raises(UserError, match="already exists"):
        encrypt_file(src, out, key=key)
    assert out.read_bytes() == b"keep me"
    encrypt_file(src, out, key=key, force=True)
    assert out.read_bytes().startswith(MAGIC)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing", "no such file"),
        (lambda p: p, "not a regular file"),
    ],
)
def test_bad_inputs(tmp_path: Path, make: Callable[[Path], Path], message: str) -> None:
    with pytest.raises(UserError, match=message):
        encrypt_file(make(tmp_path), tmp_path / "out", key=new_key())


def test_bad_outputs(tmp_path: Path) -> None:
    src = _write(tmp_path / "in", b"data")
    with pytest.raises(UserError, match="is a folder"):
        encrypt_file(src, tmp_path, key=new_key(), force=True)
    with pytest.raises(UserError, match="does not exist"):
        encrypt_file(src, tmp_path / "nowhere" / "out", key=new_key())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "password or a key"),
        ({"password": "pw", "key": bytes(32)}, "password or a key"),
        ({"key": bytes(16)}, "32 bytes"),
        ({"password": ""}, "empty"),
        ({"key": bytes(32), "chunk_bytes": 100}, "multiple of 16"),
        ({"key": bytes(32), "chunk_bytes": 0}, "multiple of 16"),
        ({"key": bytes(32), "cipher_id": "rot13"}, "unknown cipher"),
        ({"key": bytes(32), "cipher_id": "aes-256-eax", "library": "cryptography"}, "not offered"),
        ({"key": bytes(32), "cipher_id": "bf-cbc", "key_bits": 1024}, "does not take"),
        ({"password": "pw", "kdf_params": Argon2Params(2**21, 1, 1)}, "memory"),
    ],
)
def test_bad_arguments_are_user_errors(
    tmp_path: Path, kwargs: dict[str, Any], message: str
) -> None:
    src = _write(tmp_path / "in", b"data")
    with pytest.raises(UserError, match=message):
        encrypt_file(src, tmp_path / "out", **{"kdf_params": FAST, **kwargs})
    assert not (tmp_path / "out").exists()


def test_decrypt_says_what_the_file_needs(tmp_path: Path) -> None:
    src = _write(tmp_path / "in", b"data")
    encrypt_file(src, tmp_path / "pw", password="pw", kdf_params=FAST)
    encrypt_file(src, tmp_path / "kf", key=new_key())
    with pytest.raises(UserError, match="needs a password"):
        decrypt_file(tmp_path / "pw", tmp_path / "out")
    with pytest.raises(UserError, match="not a key file"):
        decrypt_file(tmp_path / "pw", tmp_path / "out", key=new_key())
    with pytest.raises(UserError, match="needs its key file"):
        decrypt_file(tmp_path / "kf", tmp_path / "out")
    with pytest.raises(UserError, match="not a password"):
        decrypt_file(tmp_path / "kf", tmp_path / "out", password="pw")
    with pytest.raises(UserError, match="not a CipherBench encrypted file"):
        decrypt_file(src, tmp_path / "out", password="pw")
    assert not (tmp_path / "out").exists()


def test_decrypted_output_is_private_and_the_container_follows_the_umask(tmp_path: Path) -> None:
    key = new_key()
    src = _write(tmp_path / "in", b"secret")
    encrypt_file(src, tmp_path / "enc", key=key)
    decrypt_file(tmp_path / "enc", tmp_path / "out", key=key)
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == 0o600
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((tmp_path / "enc").stat().st_mode) == 0o666 & ~umask


def test_progress_is_throttled_and_ends_at_the_total(tmp_path: Path) -> None:
    key = new_key()
    data = os.urandom(200 * CHUNK + 1)
    src, enc = _write(tmp_path / "in", data), tmp_path / "enc"
    calls: list[tuple[int, int]] = []
    encrypt_file(
        src, enc, key=key, chunk_bytes=CHUNK, on_progress=lambda d, t: calls.append((d, t))
    )
    assert calls[0] == (0, len(data)) and calls[-1] == (len(data), len(data))
    assert len(calls) < 20  # 201 chunks, one call per 50 ms at most
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    calls.clear()
    decrypt_file(enc, tmp_path / "out", key=key, on_progress=lambda d, t: calls.append((d, t)))
    size = enc.stat().st_size
    assert calls[-1] == (size, size) and len(calls) < 20


def test_cancel_raises_and_leaves_nothing(tmp_path: Path) -> None:
    key = new_key()
    src = _write(tmp_path / "in", os.urandom(50 * CHUNK))
    checks = iter(range(1000))
    with pytest.raises(Cancelled):
        encrypt_file(
            src, tmp_path / "enc", key=key, chunk_bytes=CHUNK, cancel=lambda: next(checks) == 10
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]
    encrypt_file(src, tmp_path / "enc", key=key, chunk_bytes=CHUNK)
    event = threading.Event()
    event.set()
    with pytest.raises(Cancelled):
        decrypt_file(tmp_path / "enc", tmp_path / "out", key=key, cancel=event)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enc", "in"]


def test_ctrl_c_mid_way_leaves_nothing(tmp_path: Path) -> None:
    key = new_key()
    src = _write(tmp_path / "in", os.urandom(20 * CHUNK))
    encrypt_file(src, tmp_path / "enc", key=key, chunk_bytes=CHUNK)

    def interrupt_at_chunk_5() -> Callable[[], bool]:
        calls = iter(range(1000))

        def check() -> bool:
            if next(calls) == 5:
                raise KeyboardInterrupt
            return False

        return check

    with pytest.raises(KeyboardInterrupt):
        decrypt_file(tmp_path / "enc", tmp_path / "out", key=key, cancel=interrupt_at_chunk_5())
    with pytest.raises(KeyboardInterrupt):
        encrypt_file(
            src, tmp_path / "enc2", key=key, chunk_bytes=CHUNK, cancel=interrupt_at_chunk_5()
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enc", "in"]


def test_results_and_errors_hold_no_secret(tmp_path: Path) -> None:
    password = "hunter2-very-secret"
    src = _write(tmp_path / "in", b"data")
    info = encrypt_file(src, tmp_path / "enc", password=password, kdf_params=FAST)
    for text in (repr(info), str(info.to_json()), repr(read_header(tmp_path / "enc"))):
        assert password not in text
    with pytest.raises(AuthenticationError) as caught:
        decrypt_file(tmp_path / "enc", tmp_path / "out", password=password + "x")
    assert password not in str(caught.value)
    key = new_key()
    info = encrypt_file(src, tmp_path / "enc2", key=key)
    assert key.hex() not in repr(info) and key.hex() not in str(info.to_json())


def test_container_info_json_is_plain_data(tmp_path: Path) -> None:
    import json

    src = _write(tmp_path / "in", b"data")
    info = encrypt_file(src, tmp_path / "enc", password="pw", kdf_params=FAST)
    data = json.loads(json.dumps(info.to_json()))
    assert data["argon2"] == {"memory_kib": 64, "iterations": 1, "lanes": 1}
    assert data["key_source"] == "password"
    assert isinstance(read_header(tmp_path / "enc"), ContainerInfo)


# --- key files -------------------------------------------------------------------------------


def test_key_file_round_trip_mode_and_no_overwrite(tmp_path: Path) -> None:
    key = new_key()
    path = tmp_path / "k.key"
    write_key_file(path, key)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_key_file(path) == key
    assert "warning" in path.read_text()
    with pytest.raises(UserError, match="already exists"):
        write_key_file(path, new_key())
    assert read_key_file(path) == key
    write_key_file(path, (other := new_key()), force=True)
    assert read_key_file(path) == other


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "not JSON"),
        (b"[1, 2]", "not a CipherBench key file"),
        (b'{"format": "cipherbench-key-file", "version": 2, "key_hex": ""}', "unknown version"),
        (b'{"format": "cipherbench-key-file", "version": 1, "key_hex": "abcd"}', "damaged"),
        (b'{"format": "cipherbench-key-file", "version": 1, "key_hex": "zz"}', "damaged"),
        (b'{"format": "cipherbench-raw-key", "version": 1}', "raw export"),
        (b"\xff\xfe", "not JSON"),
    ],
)
def test_bad_key_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = _write(tmp_path / "k", content)
    with pytest.raises(UserError, match=message):
        read_key_file(path)


def test_missing_key_file(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="cannot read the key file"):
        read_key_file(tmp_path / "nope")


# --- the header parser -----------------------------------------------------------------------


def _valid_header(cipher_id: str = "aes-256-gcm", argon2: Argon2Params | None = FAST) -> bytes:
    spec = lookup(cipher_id, "cryptography")
    salt = os.urandom(16) if argon2 else b""
    signed = container_format.encode_header(spec, CHUNK, argon2, salt, os.urandom(32))
    return signed + os.urandom(32)


VALID_HEADERS = [_valid_header(), _valid_header("bf-cbc", None), _valid_header("rc4", FAST)]


def test_parser_reads_what_the_writer_wrote() -> None:
    header = parse_header(VALID_HEADERS[0] + b"body follows")
    assert header.raw == VALID_HEADERS[0]
    assert header.cipher_id == "aes-256-gcm" and header.argon2 == FAST
    assert parse_header(VALID_HEADERS[1]).key_source == container.KEY_SOURCE_KEY_FILE


def test_parser_names_a_newer_version() -> None:
    with pytest.raises(UserError, match="version 2"):
        parse_header(MAGIC + b"\x02" + VALID_HEADERS[0][9:])


def _parse_or_user_error(data: bytes) -> None:
    try:
        header = parse_header(data)
    except UserError:
        return
    assert data.startswith(header.raw)
    assert len(header.raw) <= container_format.MAX_HEADER_BYTES


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_parser_arbitrary_bytes_only_user_errors(data: bytes) -> None:
    _parse_or_user_error(data)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_parser_after_a_valid_magic(data: bytes) -> None:
    _parse_or_user_error(MAGIC + b"\x01" + data)


@settings(max_examples=500, deadline=None)
@given(
    st.sampled_from(VALID_HEADERS),
    st.lists(st.tuples(st.integers(0, 200), st.integers(0, 255)), max_size=6),
    st.integers(0, 220),
)
def test_parser_mutated_and_cut_headers(
    header: bytes, edits: list[tuple[int, int]], cut: int
) -> None:
    data = bytearray(header)
    for pos, value in edits:
        if pos < len(data):
            data[pos] = value
    _parse_or_user_error(bytes(data[:cut]))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(VALID_HEADERS), st.binary(max_size=200))
def test_read_header_on_files_never_fails_otherwise(header: bytes, body: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f"
        path.write_bytes(header[: len(body) % (len(header) + 1)] + body)
        with contextlib.suppress(UserError):
            read_header(path)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted({(s.kind, s.tag_bytes, s.block_bytes) for s in REGISTRY})),
    st.sampled_from([16, 64, 1024]),
    st.integers(0, 20_000),
)
def test_layout_inverts_the_writer(shape: tuple[Kind, int, int], chunk: int, size: int) -> None:
    kind, tag, block = shape
    spec = next(s for s in REGISTRY if (s.kind, s.tag_bytes, s.block_bytes) == shape)
    overhead = tag if kind is Kind.AEAD else container_format.MAC_BYTES
    full = max(0, -(-size // chunk) - 1)
    last_plain = size - full * chunk
    last = last_plain + overhead
    if kind is Kind.BLOCK:
        last = (last_plain // block + 1) * block + overhead
    body = full * (chunk + overhead) + last
    layout = container_format.body_layout(spec, chunk, body)
    assert (layout.full_chunks, layout.last_bytes) == (full, last)
    assert layout.plaintext_bytes >= size
    for wrong in (body + 1, body - 1):
        try:
            other = container_format.body_layout(spec, chunk, wrong)
        except AuthenticationError:
            continue
        assert (other.full_chunks, other.last_bytes) != (full, last)


def test_header_layout_matches_the_documented_offsets() -> None:
    header = VALID_HEADERS[0]
    n = header[9]
    assert header[:8] == b"\x89CBF\r\n\x1a\n" and header[8] == 1
    assert header[10 : 10 + n] == b"aes-256-gcm"
    assert struct.unpack(">HI", header[10 + n : 16 + n]) == (256, CHUNK)
    assert header[16 + n] == 2
    assert struct.unpack(">IIBB", header[17 + n : 27 + n]) == (64, 1, 1, 16)
    assert len(header) == 17 + n + 10 + 16 + 32 + 32
