"""The plain-Python side of the encryption dialogs: names, previews, messages, no secrets."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_factories import job_result

from app.core.bench.jobs import InputSpec
from app.core.bench.kept import FinishedJob, JobSecret
from app.core.ciphers.registry import UnknownCipher
from app.core.errors import UserError
from app.core.files import container
from app.core.files.container import Argon2Params
from app.core.files.protect import KeyFileExists, NeedsKeyFile, NeedsPassword, RawKeyGiven
from app.core.files.rawexport import ContainerKeyGiven
from app.core.runtime.output_checks import OutputExists
from app.gui.dialogs.crypt_files import default_key_path, default_output, identify, plaintext_name
from app.gui.dialogs.crypt_tasks import DecryptRequest, EncryptRequest, Protection, encrypt
from app.gui.dialogs.crypt_texts import (
    password_hint,
    plain_message,
    window_message,
    worded_for_window,
)
from app.gui.dialogs.preview import as_text, hex_dump, read_preview

SECRET = "s3cret-password"


def test_reprs_hide_passwords_and_keys() -> None:
    job = FinishedJob(
        job_result(), InputSpec("/in", "in", 1, 0), JobSecret("/kept", b"\x11" * 32, b"\x22" * 16)
    )
    request = EncryptRequest(
        "/in", "/out", "aes-256-gcm", Protection.PASSWORD, password=SECRET, job=job
    )
    text = repr(request) + repr(DecryptRequest("/in", "/out", password=SECRET)) + repr(job)
    assert SECRET not in text and "11" * 8 not in text and "22" * 8 not in text


def test_preview_text_binary_and_empty(tmp_path: Path) -> None:
    text = tmp_path / "t.txt"
    text.write_bytes(("é" * 3000).encode())  # 6000 bytes: the cut falls inside a character
    p = read_preview(text, 4095)
    assert p.kind == "text" and p.text == "é" * 2047 and p.total_bytes == 6000
    binary = tmp_path / "b.bin"
    binary.write_bytes(b"\x00\x01AB" * 10)
    p = read_preview(binary)
    assert p.kind == "binary"
    assert p.text.splitlines()[0] == (
        "00000000  00 01 41 42 00 01 41 42  00 01 41 42 00 01 41 42  |..AB..AB..AB..AB|"
    )
    assert p.text.splitlines()[-1] == "00000020  00 01 41 42 00 01 41 42" + " " * 27 + "|..AB..AB|"
    empty = tmp_path / "e"
    empty.write_bytes(b"")
    assert read_preview(empty).kind == "empty"
    assert as_text("latin-1: caf\xe9".encode("latin-1")) is None
    assert as_text(b"tabs\tand\r\nlines\f") == "tabs\tand\r\nlines\f"
    assert hex_dump(b"") == ""


def test_names_follow_the_output() -> None:
    assert default_output("/d/a.txt", Protection.PASSWORD, "aes-256-gcm") == "/d/a.txt.cbf"
    assert default_output("/d/a.txt", Protection.RAW, "bf-cbc") == "/d/a.txt.bf-cbc.enc"
    assert default_key_path("/d/a.txt.cbf", Protection.NEW_KEY_FILE) == "/d/a.txt.cbkey"
    assert default_key_path("/d/x.enc", Protection.RAW) == "/d/x.enc.key.json"
    assert plaintext_name("/d/a.txt.cbf") == "a.txt"
    assert plaintext_name("/d/a.txt.aes-256-ctr.enc") == "a.txt"
    assert plaintext_name("/d/a.txt.enc") == "a.txt"
    assert plaintext_name("/d/blob") == "blob.decrypted"


def test_password_hint_grows_with_length() -> None:
    assert password_hint("") == ""
    assert "too short" in password_hint("abc")
    assert "weak" in password_hint("a" * 8)
    assert "fair" in password_hint("a" * 12)
    assert password_hint("a" * 16) == "16 characters: good."


def test_window_messages_have_no_command_line_hints() -> None:
    assert plain_message(window_message(OutputExists("/x"))) == "/x already exists."
    assert plain_message(window_message(RawKeyGiven("/k"))) == (
        "/k is the key of a raw export, not of a CipherBench file; choose the file that was "
        "exported with it."
    )
    assert plain_message(window_message(ContainerKeyGiven("/k"))) == (
        "/k is a CipherBench key file, not a raw-export key; choose a raw export's .key.json file."
    )
    assert plain_message(window_message(UnknownCipher("nope"))) == (
        "Unknown cipher 'nope'; see the cipher list."
    )
    assert window_message(KeyFileExists("/k")) == (
        "/k already exists; a key file is never replaced: choose another name"
    )
    assert window_message(NeedsKeyFile("/f")) == "this file needs its key file"
    assert window_message(UserError("as it is")) == "as it is"


def test_worded_for_window_rewords_only_what_the_window_words_otherwise() -> None:
    with pytest.raises(UserError) as caught, worded_for_window():
        raise RawKeyGiven("/k")
    assert type(caught.value) is UserError and "--" not in str(caught.value)
    assert str(caught.value) == window_message(RawKeyGiven("/k"))
    with pytest.raises(NeedsPassword), worded_for_window():  # the same words: the same error
        raise NeedsPassword()


def test_identify(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(container, "DEFAULT_ARGON2", Argon2Params(64, 1, 1))
    src = tmp_path / "a.txt"
    src.write_bytes(b"hello")
    out = tmp_path / "a.cbf"
    container.encrypt_file(src, out, password=SECRET)
    assert identify(str(out)).info.needs_password
    raw = identify(str(src))
    assert raw.info is None and raw.raw_key_guess is None
    (tmp_path / "a.txt.key.json").write_text("{}")
    assert identify(str(src)).raw_key_guess == str(tmp_path / "a.txt.key.json")
    out.write_bytes(out.read_bytes()[:20])  # a CipherBench file, cut: said so, not "raw"
    with pytest.raises(UserError):
        identify(str(out))


def test_core_errors_are_worded_for_the_window(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_bytes(b"hello")
    key = tmp_path / "a.key.json"
    key.write_text('{"format": "cipherbench-raw-key", "version": 1}')
    for protection in (Protection.KEY_FILE, Protection.NEW_KEY_FILE):
        request = EncryptRequest(
            str(src), str(tmp_path / "o"), "aes-256-gcm", protection, key_path=str(key)
        )
        with pytest.raises(UserError) as caught:
            encrypt(request)
        assert "--" not in str(caught.value)
    assert "choose another name" in str(caught.value)
    assert not (tmp_path / "o").exists()
