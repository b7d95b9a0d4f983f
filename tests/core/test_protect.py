"""The file-protection use case shared by the command line and the window."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.errors import Cancelled, UserError
from app.core.files import container
from app.core.files.container import Argon2Params
from app.core.files.protect import (
    EncryptContainer,
    KeyFileExists,
    KeyFileMissing,
    NeedsKeyFile,
    NeedsPassword,
    RawKeyGiven,
    Secret,
    WrongSecret,
    decrypt_secret,
    describe_container,
    describe_secret,
    encrypt_container,
)

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
