"""The file-protection use case shared by the command line and the window."""

from __future__ import annotations

from pathlib import Path

import pytest
from kdf_files import HOSTILE, write_container

from app.core.errors import Cancelled, UserError
from app.core.files import container
from app.core.files.container import Argon2Params
from app.core.files.container_keys import ExpensiveKdf, KdfCost, kdf_cost
from app.core.files.protect import (
    DecryptContainer,
    EncryptContainer,
    ExportRaw,
    KeyFileExists,
    KeyFileMissing,
    NeedsKeyFile,
    NeedsPassword,
    RawKeyGiven,
    Secret,
    WrongSecret,
    decrypt_container,
    decrypt_secret,
    describe_container,
    describe_secret,
    encrypt_container,
    export_raw_file,
)
from app.core.files.rawexport import decrypt_raw

SECRET = "s3cret-password"


@pytest.fixture(autouse=True)
def _cheap_kdf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(container, "DEFAULT_ARGON2", Argon2Params(64, 1, 1))


@pytest.fixture
def plain(tmp_path: Path) -> str:
    path = tmp_path / "plain.txt"
    path.write_bytes(b"hello, world\n" * 100)
    return str(path)


def test_password_asked_only_after_the_checks(tmp_path: Path, plain: str) -> None:
    asked: list[str] = []

    def ask() -> str:
        asked.append("x")
        return SECRET

    missing = EncryptContainer(str(tmp_path / "nope"), str(tmp_path / "o"), Secret.PASSWORD)
    with pytest.raises(UserError, match="no such file"):
        encrypt_container(missing, ask_password=ask)
    assert asked == []
    out = tmp_path / "o.cbf"
    done = encrypt_container(EncryptContainer(plain, str(out), Secret.PASSWORD), ask_password=ask)
    assert asked == ["x"] and done.output == out and done.new_key_file is None
    assert done.unlocked_by is Secret.PASSWORD and "Argon2id" in describe_secret(done.info)
    assert "Unlocked by a password" in describe_container(container.read_header(out))


def test_empty_password_is_refused(tmp_path: Path, plain: str) -> None:
    request = EncryptContainer(plain, str(tmp_path / "o"), Secret.PASSWORD, password="")
    with pytest.raises(NeedsPassword):
        encrypt_container(request)
    assert not (tmp_path / "o").exists()


def test_new_key_file_is_created_then_used_and_never_replaced(tmp_path: Path, plain: str) -> None:
    key = tmp_path / "k.cbkey"
    out = tmp_path / "o.cbf"
    done = encrypt_container(
        EncryptContainer(plain, str(out), Secret.NEW_KEY_FILE, key_path=str(key))
    )
    assert done.new_key_file == key and done.unlocked_by is Secret.NEW_KEY_FILE
    assert describe_secret(done.info) == "key file"
    again = EncryptContainer(plain, str(tmp_path / "o2"), Secret.NEW_KEY_FILE, key_path=str(key))
    with pytest.raises(KeyFileExists) as caught:
        encrypt_container(again)
    assert caught.value.path == str(key) and "--" not in str(caught.value)
    reuse = EncryptContainer(plain, str(tmp_path / "o3"), Secret.KEY_FILE, key_path=str(key))
    assert encrypt_container(reuse).unlocked_by is Secret.KEY_FILE


def test_a_failed_encryption_removes_the_new_key_file(tmp_path: Path, plain: str) -> None:
    key = tmp_path / "k.cbkey"
    request = EncryptContainer(plain, str(tmp_path / "o"), Secret.NEW_KEY_FILE, key_path=str(key))
    with pytest.raises(Cancelled):
        encrypt_container(request, cancel=lambda: True)
    assert not key.exists() and not (tmp_path / "o").exists()


def test_a_missing_key_file_is_named(tmp_path: Path, plain: str) -> None:
    key = str(tmp_path / "none.cbkey")
    request = EncryptContainer(plain, str(tmp_path / "o"), Secret.KEY_FILE, key_path=key)
    with pytest.raises(KeyFileMissing) as caught:
        encrypt_container(request)
    assert caught.value.path == key and "--" not in str(caught.value)


def test_decrypt_secret_follows_the_header(tmp_path: Path, plain: str) -> None:
    key = tmp_path / "k.cbkey"
    by_key = tmp_path / "k.cbf"
    encrypt_container(EncryptContainer(plain, str(by_key), Secret.NEW_KEY_FILE, key_path=str(key)))
    by_password = tmp_path / "p.cbf"
    encrypt_container(EncryptContainer(plain, str(by_password), Secret.PASSWORD, password=SECRET))
    key_header = container.read_header(by_key)
    password_header = container.read_header(by_password)
    assert decrypt_secret(key_header, "k", password=None, key_path=str(key)) == (
        container.read_key_file(key)
    )
    with pytest.raises(NeedsKeyFile) as needs:
        decrypt_secret(key_header, "k", password=SECRET, key_path=None)
    assert needs.value.path == "k"
    with pytest.raises(WrongSecret):
        decrypt_secret(password_header, "p", password=SECRET, key_path=str(key))
    with pytest.raises(NeedsPassword):
        decrypt_secret(password_header, "p", password="", key_path=None)
    assert (
        decrypt_secret(password_header, "p", password=None, key_path=None, password_given=False)
        is None
    )
    assert decrypt_secret(password_header, "p", password=SECRET, key_path=None) is None


def test_a_raw_export_key_is_no_key_file(tmp_path: Path, plain: str) -> None:
    raw_key = tmp_path / "x.key.json"
    raw_key.write_text('{"format": "cipherbench-raw-key", "version": 1}')
    request = EncryptContainer(plain, str(tmp_path / "o"), Secret.KEY_FILE, key_path=str(raw_key))
    with pytest.raises(RawKeyGiven) as caught:
        encrypt_container(request)
    assert caught.value.path == str(raw_key) and "--" not in str(caught.value)


# --- decrypt_container and export_raw_file -----------------------------------------------------


def _encrypted(tmp_path: Path, plain: str, secret: Secret, key_path: str | None = None) -> str:
    out = str(tmp_path / "enc.cbf")
    request = EncryptContainer(plain, out, secret, password=SECRET, key_path=key_path)
    encrypt_container(request)
    return out


def test_decrypt_container_with_a_password(tmp_path: Path, plain: str) -> None:
    enc, out = _encrypted(tmp_path, plain, Secret.PASSWORD), str(tmp_path / "out")
    calls: list[str] = []
    done = decrypt_container(
        DecryptContainer(enc, out, password=SECRET),
        ask_password=lambda: calls.append("asked") or "",
        on_ready=lambda: calls.append("ready"),
    )
    assert calls == ["ready"]  # a password in the request is never asked again
    assert done.output == Path(out) and done.info.plaintext_bytes == 1300
    assert Path(out).read_bytes() == Path(plain).read_bytes()
    assert "s3cret" not in repr(DecryptContainer(enc, out, password=SECRET))


def test_decrypt_container_asks_once_the_header_is_read(tmp_path: Path, plain: str) -> None:
    enc, out = _encrypted(tmp_path, plain, Secret.PASSWORD), tmp_path / "out"
    calls: list[str] = []

    def ask() -> str:
        calls.append("asked")
        return SECRET

    decrypt_container(DecryptContainer(enc, str(out)), ask_password=ask)
    assert calls == ["asked"] and out.read_bytes() == Path(plain).read_bytes()
    with pytest.raises(NeedsPassword):  # no password and no one to ask
        decrypt_container(DecryptContainer(enc, str(tmp_path / "o2")))
    with pytest.raises(UserError, match="already exists"):  # paths first: nobody is asked
        decrypt_container(DecryptContainer(enc, str(out)), ask_password=ask)
    assert calls == ["asked"]


def test_decrypt_container_with_a_key_file(tmp_path: Path, plain: str) -> None:
    key = str(tmp_path / "k.cbkey")
    enc, out = _encrypted(tmp_path, plain, Secret.NEW_KEY_FILE, key), tmp_path / "out"
    with pytest.raises(NeedsKeyFile) as caught:
        decrypt_container(DecryptContainer(enc, str(out), password=SECRET))
    assert caught.value.path == enc and not out.exists()
    decrypt_container(DecryptContainer(enc, str(out), key_path=key))
    assert out.read_bytes() == Path(plain).read_bytes()
    with pytest.raises(UserError, match="is the input file"):  # the key file is an input
        decrypt_container(DecryptContainer(enc, key, key_path=key, force=True))


def test_decrypt_container_key_file_only_if_needed(tmp_path: Path, plain: str) -> None:
    enc, out = _encrypted(tmp_path, plain, Secret.PASSWORD), tmp_path / "out"
    stray = str(tmp_path / "stray.cbkey")
    container.write_key_file(stray, container.new_key())
    with pytest.raises(WrongSecret):
        decrypt_container(DecryptContainer(enc, str(out), password=SECRET, key_path=stray))
    request = DecryptContainer(
        enc, str(out), password=SECRET, key_path=stray, key_path_if_needed=True
    )
    decrypt_container(request)
    assert out.read_bytes() == Path(plain).read_bytes()


def test_decrypt_container_refuses_an_expensive_kdf_before_asking(tmp_path: Path) -> None:
    enc = str(write_container(tmp_path / "hostile.cbf", HOSTILE))
    asked: list[str] = []
    with pytest.raises(ExpensiveKdf) as caught:
        decrypt_container(
            DecryptContainer(enc, str(tmp_path / "out")), ask_password=lambda: asked.pop()
        )
    assert caught.value.cost == kdf_cost(HOSTILE) and asked == []
    assert not (tmp_path / "out").exists()


def test_decrypt_container_may_pay_an_expensive_kdf(
    tmp_path: Path, plain: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    enc, out = _encrypted(tmp_path, plain, Secret.PASSWORD), tmp_path / "out"
    cost = kdf_cost(HOSTILE)

    def too_expensive(argon2: Argon2Params) -> None:
        raise ExpensiveKdf(cost)

    monkeypatch.setattr(container, "check_kdf_cost", too_expensive)
    request = DecryptContainer(enc, str(out), password=SECRET)
    with pytest.raises(ExpensiveKdf):
        decrypt_container(request)
    heard: list[KdfCost] = []
    allowed = DecryptContainer(enc, str(out), password=SECRET, allow_expensive_kdf=True)
    decrypt_container(allowed, on_expensive_kdf=heard.append)
    assert heard == [cost] and out.read_bytes() == Path(plain).read_bytes()


def test_export_raw_file_round_trip(tmp_path: Path, plain: str) -> None:
    out, key, back = (str(tmp_path / n) for n in ("p.enc", "p.key.json", "back"))
    raw_key = export_raw_file(ExportRaw(plain, out, key, "aes-128-ctr", key_bits=None))
    assert raw_key.cipher_id == "aes-128-ctr" and raw_key.plaintext_bytes == 1300
    assert decrypt_raw(out, back, key).cipher_id == "aes-128-ctr"
    assert Path(back).read_bytes() == Path(plain).read_bytes()
    with pytest.raises(UserError, match="already exists"):
        export_raw_file(ExportRaw(plain, out, str(tmp_path / "k2.json"), "aes-128-ctr"))
    export_raw_file(ExportRaw(plain, out, key, "aes-128-ctr", force=True))
