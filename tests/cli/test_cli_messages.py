"""The core's errors name no command-line option; the command line adds its hints in one place
(:func:`app.cli.messages.cli_message`), and prints them exactly as before."""

from __future__ import annotations

import ast
import importlib
import os
import pkgutil
import re
from pathlib import Path

import pytest
from hostile import output_that_appeared_meanwhile, run

import app.core
from app.cli.messages import cli_message
from app.core.ciphers.registry import UnknownCipher
from app.core.errors import UserError
from app.core.files import container
from app.core.files.container import Argon2Params, new_key, write_key_file
from app.core.files.container_keys import ExpensiveKdf, kdf_cost
from app.core.files.path_errors import PathError
from app.core.files.protect import (
    KeyFileExists,
    KeyFileMissing,
    NeedsKeyFile,
    NeedsPassword,
    RawKeyGiven,
    WrongSecret,
)
from app.core.files.rawexport import ContainerKeyGiven
from app.core.runtime.output_checks import OutputExists, OutputRefused

CORE = Path(app.core.__file__).parent
CLI_WORDS = re.compile(r"--[a-z]|main\.py")

# One instance of every structured error the core defines (an error with its own __init__ or
# its own MESSAGE, the template of a PathError).
SAMPLES: dict[type[UserError], UserError] = {
    OutputExists: OutputExists("/x"),
    OutputRefused: OutputRefused("the output /x is a folder; give a file name", "it is a folder"),
    UnknownCipher: UnknownCipher("nope"),
    ContainerKeyGiven: ContainerKeyGiven("/k"),
    RawKeyGiven: RawKeyGiven("/k"),
    NeedsPassword: NeedsPassword(),
    NeedsKeyFile: NeedsKeyFile("/f"),
    WrongSecret: WrongSecret("/f"),
    KeyFileMissing: KeyFileMissing("/k"),
    KeyFileExists: KeyFileExists("/k"),
    ExpensiveKdf: ExpensiveKdf(kdf_cost(Argon2Params(1024 * 1024, 64, 4))),
    PathError: PathError("/x"),
}


def _core_user_errors() -> set[type[UserError]]:
    for info in pkgutil.walk_packages([str(CORE)], "app.core."):
        importlib.import_module(info.name)
    found: set[type[UserError]] = set()
    todo = list(UserError.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        own = vars(cls)
        if cls.__module__.startswith("app.core.") and ("__init__" in own or "MESSAGE" in own):
            found.add(cls)
    return found


def test_every_structured_error_is_sampled() -> None:
    assert _core_user_errors() == set(SAMPLES)


@pytest.mark.parametrize("error", SAMPLES.values(), ids=lambda e: type(e).__name__)
def test_no_structured_error_names_an_option(error: UserError) -> None:
    assert str(error) and not CLI_WORDS.search(str(error)), str(error)
    assert "--" not in str(error) and "main.py" not in str(error)


def _raised_texts(path: Path) -> list[tuple[int, str]]:
    """Every string written inside a ``raise``, a ``super().__init__(...)`` call or a ``MESSAGE``
    template of ``path``."""
    texts = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        is_init = (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__init__"
        )
        if isinstance(node, ast.Raise) or is_init or _is_message(node):
            texts.extend(
                (sub.lineno, sub.value)
                for sub in ast.walk(node)
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str)
            )
    return texts


def _is_message(node: ast.AST) -> bool:
    """Whether ``node`` sets ``MESSAGE`` (a :class:`PathError`'s template)."""
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == "MESSAGE" for t in node.targets)
    return isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "MESSAGE"


# Written while this test was (issue 8, another part): its option hints move to app/cli next.
NOT_YET: set[str] = set()


def test_no_core_error_message_names_an_option() -> None:
    found = [
        f"{path.relative_to(CORE)}:{line}: {text!r}"
        for path in sorted(CORE.rglob("*.py"))
        if path.relative_to(CORE).as_posix() not in NOT_YET
        for line, text in _raised_texts(path)
        if CLI_WORDS.search(text)
    ]
    assert found == []


def test_cli_message_adds_the_options() -> None:
    assert cli_message(OutputExists("/x")) == "/x already exists; overwrite it with --force"
    assert cli_message(UnknownCipher("nope")) == (
        "unknown cipher 'nope'; `python main.py list` shows them all"
    )
    assert cli_message(ContainerKeyGiven("/k")) == (
        "/k is a CipherBench key file, not a raw-export key; decrypt without --raw"
    )
    assert cli_message(RawKeyGiven("/k")) == (
        "/k is the key of a raw export; decrypt that with --raw --key-in"
    )
    assert cli_message(KeyFileExists("/k")) == (
        "/k already exists; use --key-file /k to encrypt with it"
    )
    assert cli_message(UserError("as it is")) == "as it is"


# --- the same text as before, at the command line ----------------------------------------------


@pytest.fixture
def plain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(container, "DEFAULT_ARGON2", Argon2Params(64, 1, 1))
    monkeypatch.setenv("CB_PASSWORD", "s3cret-password")
    path = tmp_path / "plain.txt"
    path.write_bytes(b"hello\n" * 100)
    return path


def test_an_existing_output_asks_for_force(
    tmp_path: Path, plain: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    there = tmp_path / "there"
    there.write_bytes(b"old")
    code, _, err = run(capsys, "encrypt", plain, "-o", there, "--password-env", "CB_PASSWORD")
    assert code == 2
    assert err == f"cipherbench: error: {there} already exists; overwrite it with --force\n"
    assert there.read_bytes() == b"old"


def test_an_output_that_appeared_meanwhile_asks_for_force(tmp_path: Path) -> None:
    error = output_that_appeared_meanwhile(tmp_path / "out")
    assert re.search(r"out already exists; overwrite it with --force", cli_message(error))
    assert os.listdir(tmp_path) == ["out"]


def test_a_container_key_for_a_raw_export_says_without_raw(
    tmp_path: Path, plain: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = tmp_path / "k"
    write_key_file(key, new_key())
    argv = ("decrypt", plain, "-o", tmp_path / "o", "--raw", "--key-in", key)
    code, _, err = run(capsys, *argv)
    assert code == 2 and "without --raw" in err
    assert err == (
        f"cipherbench: error: {key} is a CipherBench key file, not a raw-export key; "
        "decrypt without --raw\n"
    )


def test_an_unknown_cipher_points_at_the_list(
    tmp_path: Path, plain: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "encrypt", plain, "-o", tmp_path / "o", "--cipher", "nope")
    assert (code, err) == (
        2,
        "cipherbench: error: unknown cipher 'nope'; `python main.py list` shows them all\n",
    )
    code, _, err = run(capsys, "bench", "--cipher", "nope", "--size", "1KB")
    assert (code, err) == (
        2,
        "cipherbench: error: unknown cipher 'nope'; `python main.py list` shows them all\n",
    )
