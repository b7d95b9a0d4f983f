"""`encrypt` and `decrypt` on the command line: exit codes, messages, files left behind, secrets.

``run`` builds a parser of the two commands alone and does what the main entry point does with a
:class:`UserError` (print ``cipherbench: error: ...`` to stderr, exit 2), so these tests need
nothing but this module.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psutil
import pytest
from kdf_files import HOSTILE, PASSWORD, SLOW, write_container
from leftovers import outlived

from app.cli import crypt as cli_crypt
from app.cli.command import add_commands
from app.cli.messages import cli_message
from app.core.errors import UserError
from app.core.files import container, container_keys
from app.core.files.container import Argon2Params, read_header
from app.core.files.container_keys import KdfPolicy
from app.core.runtime.scratch import JANITOR_NAME

Capsys = pytest.CaptureFixture[str]
MonkeyPatch = pytest.MonkeyPatch
pytestmark = pytest.mark.usefixtures("cheap_kdf")  # tests/cli/conftest.py: CB_PASSWORD is PASSWORD


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    path = tmp_path / "plain.txt"
    path.write_bytes(b"hello, world\n" * 1000)
    return path


def run(argv: Sequence[str | Path], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="cipherbench")
    add_commands(parser.add_subparsers(dest="command", required=True), cli_crypt.commands())
    args = parser.parse_args([str(a) for a in argv])
    try:
        code = args.handler(args)
    except UserError as exc:
        print(f"cipherbench: error: {cli_message(exc)}", file=sys.stderr)
        code = 2
    out, err = capsys.readouterr()
    assert PASSWORD not in out and PASSWORD not in err
    assert "Traceback" not in err
    return code, out, err


def test_password_from_environment_round_trip(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    enc, out = tmp_path / "plain.cbf", tmp_path / "out.txt"
    code, stdout, err = run(["encrypt", plain, "-o", enc, "--password-env", "CB_PASSWORD"], capsys)
    assert (code, err) == (0, "")
    assert "aes-256-gcm" in stdout and "password" in stdout
    assert read_header(enc).needs_password
    code, stdout, _ = run(["decrypt", enc, "-o", out, "--password-env", "CB_PASSWORD"], capsys)
    assert code == 0 and "authenticated" in stdout
    assert out.read_bytes() == plain.read_bytes()


@pytest.mark.parametrize("ending", ["\n", "\r\n", ""])
def test_password_file_takes_the_first_line(
    tmp_path: Path,
    plain: Path,
    capsys: Capsys,
    ending: str,
) -> None:
    pw = tmp_path / "pw"
    pw.write_text(PASSWORD + ending + ("ignored second line\n" if ending else ""))
    enc = tmp_path / "enc"
    assert run(["encrypt", plain, "-o", enc, "--password-file", pw], capsys)[0] == 0
    code, _, _ = run(
        ["decrypt", enc, "-o", tmp_path / "out", "--password-env", "CB_PASSWORD"], capsys
    )
    assert code == 0


def test_new_key_file_then_key_file(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    key, enc, out = tmp_path / "my.key", tmp_path / "enc", tmp_path / "out"
    code, stdout, _ = run(["encrypt", plain, "-o", enc, "--new-key-file", key], capsys)
    assert code == 0 and "new key file" in stdout
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert json.loads(key.read_text())["key_hex"] not in stdout
    assert run(["decrypt", enc, "-o", out, "--key-file", key], capsys)[0] == 0
    assert out.read_bytes() == plain.read_bytes()
    # a second file with the same key file
    code, _, _ = run(["encrypt", plain, "-o", tmp_path / "enc2", "--key-file", key], capsys)
    assert code == 0
    # --new-key-file never replaces a key file
    code, _, err = run(["encrypt", plain, "-o", tmp_path / "enc3", "--new-key-file", key], capsys)
    assert code == 2 and "--key-file" in err
    assert not (tmp_path / "enc3").exists()


def test_new_key_file_must_not_be_out(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    out = tmp_path / "same"
    code, _, err = run(["encrypt", plain, "-o", out, "--new-key-file", out], capsys)
    assert code == 2 and "given twice" in err and not out.exists()


def test_key_file_missing_on_encrypt(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    code, _, err = run(
        ["encrypt", plain, "-o", tmp_path / "e", "--key-file", tmp_path / "k"], capsys
    )
    assert code == 2 and "--new-key-file" in err and err.startswith("cipherbench: error: ")
    assert not (tmp_path / "e").exists()


def test_new_key_file_removed_when_encryption_fails(
    tmp_path: Path, plain: Path, capsys: Capsys
) -> None:
    (tmp_path / "exists").write_text("x")
    argv: list[str | Path] = [
        "encrypt",
        plain,
        "-o",
        tmp_path / "exists",
        "--new-key-file",
        tmp_path / "k",
    ]
    code, _, err = run(argv, capsys)
    assert code == 2 and "already exists" in err
    assert not (tmp_path / "k").exists()


def test_wrong_password_exit_2_and_no_output(
    tmp_path: Path, plain: Path, capsys: Capsys, monkeypatch: MonkeyPatch
) -> None:
    enc, out = tmp_path / "enc", tmp_path / "out"
    run(["encrypt", plain, "-o", enc, "--password-env", "CB_PASSWORD"], capsys)
    monkeypatch.setenv("WRONG", "not it")
    code, stdout, err = run(["decrypt", enc, "-o", out, "--password-env", "WRONG"], capsys)
    assert code == 2 and stdout == ""
    assert err.strip() == f"cipherbench: error: {container.WRONG_SECRET}"
    assert not out.exists()
    assert "not it" not in err


def test_damaged_file_exit_2_and_no_output(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    enc, out = tmp_path / "enc", tmp_path / "out"
    run(["encrypt", plain, "-o", enc, "--password-env", "CB_PASSWORD"], capsys)
    enc.write_bytes(enc.read_bytes()[:-1])
    code, _, err = run(["decrypt", enc, "-o", out, "--password-env", "CB_PASSWORD"], capsys)
    assert code == 2 and "damaged" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enc", "plain.txt"]


def test_output_equal_to_input_refused(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    before = plain.read_bytes()
    code, _, err = run(
        ["encrypt", plain, "-o", plain, "--password-env", "CB_PASSWORD", "--force"], capsys
    )
    assert code == 2 and "is the input" in err
    assert plain.read_bytes() == before


def test_existing_output_needs_force(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    out = tmp_path / "out"
    out.write_bytes(b"old")
    argv: list[str | Path] = ["encrypt", plain, "-o", out, "--password-env", "CB_PASSWORD"]
    code, _, err = run(argv, capsys)
    assert code == 2 and "--force" in err and out.read_bytes() == b"old"
    assert run([*argv, "--force"], capsys)[0] == 0
    assert read_header(out).cipher_id == "aes-256-gcm"


def test_no_password_and_no_terminal(
    tmp_path: Path, plain: Path, capsys: Capsys, monkeypatch: MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, _, err = run(["encrypt", plain, "-o", tmp_path / "enc"], capsys)
    assert code == 2 and "no terminal" in err and "--password-file" in err
    assert not (tmp_path / "enc").exists()


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_terminal_prompt_twice_on_encrypt_once_on_decrypt(
    tmp_path: Path,
    plain: Path,
    capsys: Capsys,
    monkeypatch: MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", _Tty())
    prompts: list[str] = []

    def fake_getpass(prompt: str = "") -> str:
        prompts.append(prompt)
        return PASSWORD

    monkeypatch.setattr(cli_crypt.getpass, "getpass", fake_getpass)
    enc = tmp_path / "enc"
    assert run(["encrypt", plain, "-o", enc], capsys)[0] == 0
    assert len(prompts) == 2
    assert run(["decrypt", enc, "-o", tmp_path / "out"], capsys)[0] == 0
    assert len(prompts) == 3
    answers = iter(["one", "two"])
    monkeypatch.setattr(cli_crypt.getpass, "getpass", lambda prompt="": next(answers))
    code, _, err = run(["encrypt", plain, "-o", tmp_path / "enc2"], capsys)
    assert code == 2 and "differ" in err and not (tmp_path / "enc2").exists()


def test_progress_bar_only_on_a_terminal(
    tmp_path: Path, plain: Path, capsys: Capsys, monkeypatch: MonkeyPatch
) -> None:
    fake = _Tty()
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(), cli_crypt.commands())
    args = parser.parse_args(
        ["encrypt", str(plain), "-o", str(tmp_path / "e"), "--password-env", "CB_PASSWORD"]
    )
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stderr", fake)
        assert args.handler(args) == 0
    assert "100%" in fake.getvalue() and fake.getvalue().endswith("\n")
    code, _, err = run(
        ["encrypt", plain, "-o", tmp_path / "e2", "--password-env", "CB_PASSWORD"], capsys
    )
    assert code == 0 and err == ""


def test_weak_cipher_warns_on_one_line(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    code, _, err = run(
        [
            "encrypt",
            plain,
            "-o",
            tmp_path / "e",
            "--cipher",
            "des-ecb",
            "--password-env",
            "CB_PASSWORD",
        ],
        capsys,
    )
    assert code == 0 and len(err.splitlines()) == 1
    assert "warning: des-ecb is weak" in err and "56-bit key" in err
    code, _, err = run(
        [
            "encrypt",
            plain,
            "-o",
            tmp_path / "e2",
            "--cipher",
            "chacha20-poly1305",
            "--password-env",
            "CB_PASSWORD",
        ],
        capsys,
    )
    assert code == 0 and err == ""


def test_cipher_library_and_key_bits_options(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    enc = tmp_path / "e"
    argv: list[str | Path] = [
        "encrypt",
        plain,
        "-o",
        enc,
        "--cipher",
        "bf-cbc",
        "--library",
        "pycryptodome",
        "--key-bits",
        "128",
        "--password-env",
        "CB_PASSWORD",
        "--chunk-size",
        "4KiB",
    ]
    code, stdout, _ = run(argv, capsys)
    assert code == 0 and "[pycryptodome]" in stdout
    info = read_header(enc)
    assert (info.cipher_id, info.key_bits, info.chunk_bytes) == ("bf-cbc", 128, 4096)
    assert (
        run(["decrypt", enc, "-o", tmp_path / "o", "--password-env", "CB_PASSWORD"], capsys)[0] == 0
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--cipher", "rot13"], "unknown cipher"),
        (["--cipher", "aes-256-gcm", "--key-bits", "100"], "does not take"),
        (["--chunk-size", "100"], "multiple of 16"),
        (["--chunk-size", "lots"], "cannot read the size"),
        (["--password-env", "UNSET_VARIABLE_FOR_TEST"], "not set"),
        (["--password-file", "/nonexistent/pw"], "cannot read the password file"),
        (["--key-out", "k.json", "--password-env", "CB_PASSWORD"], "goes with --raw"),
        (["--raw"], "needs --key-out"),
        (["--raw", "--key-out", "k.json", "--password-env", "CB_PASSWORD"], "no password"),
    ],
)
def test_bad_encrypt_options(
    tmp_path: Path,
    plain: Path,
    capsys: Capsys,
    monkeypatch: MonkeyPatch,
    extra: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, stdout, err = run(["encrypt", plain, "-o", tmp_path / "e", *extra], capsys)
    assert code == 2 and message in err and stdout == ""
    assert err.startswith("cipherbench: error: ") and len(err.splitlines()) == 1
    assert not (tmp_path / "e").exists() and not (tmp_path / "k.json").exists()


def test_empty_password_sources(
    tmp_path: Path, plain: Path, capsys: Capsys, monkeypatch: MonkeyPatch
) -> None:
    monkeypatch.setenv("EMPTY", "")
    (tmp_path / "pw").write_text("\nsecond line\n")
    for extra in (["--password-env", "EMPTY"], ["--password-file", tmp_path / "pw"]):
        code, _, err = run(["encrypt", plain, "-o", tmp_path / "e", *extra], capsys)
        assert code == 2 and "empty" in err


def test_decrypt_tells_which_secret_the_file_needs(
    tmp_path: Path, plain: Path, capsys: Capsys
) -> None:
    run(["encrypt", plain, "-o", tmp_path / "kf", "--new-key-file", tmp_path / "k"], capsys)
    run(["encrypt", plain, "-o", tmp_path / "pw", "--password-env", "CB_PASSWORD"], capsys)
    code, _, err = run(
        ["decrypt", tmp_path / "kf", "-o", tmp_path / "o", "--password-env", "CB_PASSWORD"], capsys
    )
    assert code == 2 and "--key-file" in err
    code, _, err = run(
        ["decrypt", tmp_path / "pw", "-o", tmp_path / "o", "--key-file", tmp_path / "k"], capsys
    )
    assert code == 2 and "password" in err
    code, _, err = run(
        ["decrypt", plain, "-o", tmp_path / "o", "--password-env", "CB_PASSWORD"], capsys
    )
    assert code == 2 and "not a CipherBench encrypted file" in err
    assert not (tmp_path / "o").exists()


def test_raw_round_trip(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    ct, key, out = tmp_path / "ct", tmp_path / "k.json", tmp_path / "out"
    code, stdout, _ = run(
        ["encrypt", plain, "-o", ct, "--cipher", "aes-256-cbc", "--raw", "--key-out", key], capsys
    )
    assert code == 0 and "keep that file private" in stdout
    assert json.loads(key.read_text())["key_hex"] not in stdout
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert run(["decrypt", ct, "-o", out, "--raw", "--key-in", key], capsys)[0] == 0
    assert out.read_bytes() == plain.read_bytes()
    code, _, err = run(["decrypt", ct, "-o", tmp_path / "o2", "--raw"], capsys)
    assert code == 2 and "--key-in" in err
    code, _, err = run(["decrypt", ct, "-o", tmp_path / "o2", "--key-in", key], capsys)
    assert code == 2 and "--raw" in err
    code, _, err = run(
        ["decrypt", ct, "-o", tmp_path / "o2", "--raw", "--key-in", key, "--key-file", key], capsys
    )
    assert code == 2 and "--key-in" in err


def test_raw_weak_cipher_warns(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    argv: list[str | Path] = [
        "encrypt",
        plain,
        "-o",
        tmp_path / "ct",
        "--cipher",
        "rc4",
        "--raw",
        "--key-out",
        tmp_path / "k",
    ]
    code, _, err = run(argv, capsys)
    assert code == 0 and "RC4 is broken" in err


def test_argparse_rejects_two_secret_options(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as caught:
        run(
            ["encrypt", plain, "-o", tmp_path / "e", "--password-env", "A", "--key-file", "k"],
            capsys,
        )
    assert caught.value.code == 2
    with pytest.raises(SystemExit):
        run(["decrypt", plain], capsys)  # -o is required


MAIN = Path(__file__).resolve().parents[2] / "main.py"


@pytest.mark.skipif(not MAIN.exists(), reason="main.py is not there yet")
def test_through_main_py(tmp_path: Path, plain: Path) -> None:
    """The real entry point: exit codes, one-line errors, no traceback, no output on failure."""

    def main(*argv: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(MAIN), *map(str, argv)],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
        )

    key, enc, out = tmp_path / "k", tmp_path / "enc", tmp_path / "out"
    done = main("encrypt", plain, "-o", enc, "--new-key-file", key)
    assert done.returncode == 0, done.stderr
    done = main("decrypt", enc, "-o", out, "--key-file", key)
    assert done.returncode == 0 and out.read_bytes() == plain.read_bytes()
    main("encrypt", plain, "-o", tmp_path / "other", "--new-key-file", tmp_path / "k2")
    done = main("decrypt", enc, "-o", tmp_path / "out2", "--key-file", tmp_path / "k2")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("cipherbench: error: wrong password or key file")
    assert not (tmp_path / "out2").exists()
    done = main("decrypt", enc, "-o", out, "--key-file", key)
    assert done.returncode == 2 and "--force" in done.stderr


# --- the Argon2id cost policy (issue 7) --------------------------------------------------------

HINT = "; pass --allow-expensive-kdf if you trust it"


def test_expensive_kdf_is_refused_before_the_password_is_asked(
    tmp_path: Path, capsys: Capsys
) -> None:
    enc, out = write_container(tmp_path / "hostile.cbf", HOSTILE), tmp_path / "out"
    started = time.perf_counter()
    code, stdout, err = run(["decrypt", enc, "-o", out], capsys)  # no password option, no tty
    assert time.perf_counter() - started < 1.0
    assert (code, stdout) == (2, "")
    assert err.count("\n") == 1 and err.startswith(
        "cipherbench: error: this file asks for an unusually expensive password derivation: "
        "about 68 s and 1,024 MiB"
    )
    assert err.rstrip("\n").endswith(HINT)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hostile.cbf"]


def test_allow_expensive_kdf_decrypts(
    tmp_path: Path, plain: Path, capsys: Capsys, monkeypatch: MonkeyPatch
) -> None:
    monkeypatch.setattr(container_keys, "READER_POLICY", KdfPolicy(64, 64, 1))
    enc, out = tmp_path / "enc", tmp_path / "out"
    container.encrypt_file(plain, enc, password=PASSWORD, kdf_params=Argon2Params(256, 2, 1))
    argv: list[str | Path] = ["decrypt", enc, "-o", out, "--password-env", "CB_PASSWORD"]
    code, _, err = run(argv, capsys)
    assert code == 2 and err.rstrip("\n").endswith(HINT) and not out.exists()
    code, stdout, err = run([*argv, "--allow-expensive-kdf"], capsys)
    assert code == 0 and "authenticated" in stdout, err
    assert err == "cipherbench: deriving the key will take about 0.0 s and 0 MiB; Ctrl-C stops it\n"
    assert out.read_bytes() == plain.read_bytes()


@pytest.mark.skipif(not MAIN.exists(), reason="main.py is not there yet")
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_during_an_expensive_derivation(tmp_path: Path) -> None:
    """Ctrl-C while the child derives: status 130 at once, no output, no process left."""
    cli = _start_slow_decrypt(
        tmp_path, {**os.environ, "PW": PASSWORD}, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        child = _derivation_child(psutil.Process(cli.pid))
        time.sleep(0.2)  # deriving by now
        assert child.is_running() and cli.poll() is None
        started = time.perf_counter()
        cli.send_signal(signal.SIGINT)
        stdout, err = cli.communicate(timeout=10)
        elapsed = time.perf_counter() - started
    finally:
        cli.kill()
    assert cli.returncode == 130 and elapsed < 1.0, (elapsed, err)
    assert err.endswith("cipherbench: cancelled\n") and "Traceback" not in err and stdout == ""
    assert not outlived([child], 0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["slow.cbf"]


@pytest.mark.skipif(not MAIN.exists(), reason="main.py is not there yet")
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/<pid>/environ")
def test_the_password_variable_reaches_no_child(tmp_path: Path) -> None:
    """``--password-env PW``: neither the derivation child nor multiprocessing's resource
    tracker inherits PW (docs/file-format.md: never the command line or the environment)."""
    cli = _start_slow_decrypt(
        tmp_path,
        {**_without("CB_PASSWORD"), "PW": PASSWORD, "CB_CANARY": "inherited"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _derivation_child(psutil.Process(cli.pid))
        environs = {}
        for proc in psutil.Process(cli.pid).children(recursive=True):
            with contextlib.suppress(psutil.Error, OSError):
                environs[proc.pid] = Path(f"/proc/{proc.pid}/environ").read_bytes()
    finally:
        cli.kill()
        cli.wait()
    assert len(environs) >= 2  # the deriver and the resource tracker
    for raw in environs.values():
        names = [entry.split(b"=")[0] for entry in raw.split(b"\0")]
        assert b"CB_CANARY" in names  # the rest of the environment is inherited
        assert b"PW" not in names and PASSWORD.encode() not in raw


def _start_slow_decrypt(tmp_path: Path, env: dict[str, str], **popen: Any) -> subprocess.Popen[str]:
    """``main.py decrypt --allow-expensive-kdf`` of ``tmp_path/slow.cbf``, a file whose key
    derivation takes seconds, to ``tmp_path/out``, the password read from ``env["PW"]``."""
    enc, out = write_container(tmp_path / "slow.cbf", SLOW), tmp_path / "out"
    argv = [sys.executable, MAIN, "decrypt", enc, "-o", out, "--password-env", "PW"]
    return subprocess.Popen(
        [*map(str, argv), "--allow-expensive-kdf"], cwd=tmp_path, env=env, text=True, **popen
    )


def _without(name: str) -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != name}


def _derivation_child(cli: psutil.Process) -> psutil.Process:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for proc in cli.children():
            with contextlib.suppress(psutil.Error):
                if "spawn_main" in " ".join(proc.cmdline()) and proc.name() != JANITOR_NAME:
                    return proc
        time.sleep(0.02)
    raise AssertionError("no derivation process appeared")


def test_cli_words_the_core_errors(tmp_path: Path, plain: Path, capsys: Capsys) -> None:
    """The core names no option; the command line adds the one that helps."""
    raw_key = tmp_path / "x.key.json"
    raw_key.write_text('{"format": "cipherbench-raw-key", "version": 1}')
    code, _, err = run(["encrypt", plain, "-o", tmp_path / "e", "--key-file", raw_key], capsys)
    assert code == 2 and "is the key of a raw export; decrypt that with --raw --key-in" in err
    code, _, err = run(["encrypt", plain, "-o", tmp_path / "e", "--new-key-file", raw_key], capsys)
    assert code == 2 and f"use --key-file {raw_key} to encrypt with it" in err
    assert not (tmp_path / "e").exists()


def test_a_dash_for_the_output_is_refused_not_made_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`-o -` wrote a file named '-' in the current folder (an attacker's walk)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.bin").write_bytes(os.urandom(100))
    code, _, err = run(["encrypt", "in.bin", "-o", "-", "--raw", "--key-out", "k.json"], capsys)
    assert code == 2 and "would be a file named '-'" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.bin"]


def test_sizes_are_decimal_as_the_window_and_the_rates_say_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI said "195.31 KiB" where the window said "200.00 KB" for the same file, and its
    progress line put MiB beside MB/s."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.bin").write_bytes(os.urandom(200_000))
    argv = ["encrypt", "in.bin", "-o", "x.raw", "--raw", "--key-out", "k.json"]
    code, out, _ = run([*argv, "--cipher", "aes-128-ctr"], capsys)
    assert code == 0 and "(raw aes-128-ctr, 200.00 KB)" in out and "KiB" not in out
