"""Every command's text fits an 80-column terminal (issue 20: every row of `list` and
`selftest` wrapped, words split): tables split into stacked tables, long lines wrapped; `--json`
is never reshaped. COLUMNS stands for the terminal, as for a pipe (`COLUMNS=80 ... | less`)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from app.cli import main as cli
from app.cli.report import terminal_width
from app.core.document.terminal import fitted_table

if TYPE_CHECKING:
    from app.core.ciphers.selftest_report import SelfTestReport

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs")

QUICK = ["--repeat", "2", "--warmup", "0"]


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _longest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


@pytest.fixture(scope="module")
def selftest_once() -> Callable[[], SelfTestReport]:
    """The self-test, run for real the first time it is called in this module and then
    remembered: its tests here are about the report's layout (a run takes 0.4 s;
    tests/cli/test_cli.py runs it for its verdict)."""
    from app.core.ciphers.selftest import run_selftest

    return functools.cache(run_selftest)


@pytest.fixture
def one_selftest(selftest_once, monkeypatch: pytest.MonkeyPatch) -> None:
    """``selftest`` prints the module's one report (:func:`selftest_once`)."""
    from app.core.ciphers import selftest

    monkeypatch.setattr(selftest, "run_selftest", selftest_once)


@pytest.fixture
def columns(monkeypatch: pytest.MonkeyPatch):
    """Set the terminal's width for the commands run after it."""

    def set_width(width: int) -> None:
        monkeypatch.setenv("COLUMNS", str(width))

    return set_width


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("command", ["list", "selftest", "sysinfo"])
@pytest.mark.usefixtures("one_selftest")
def test_the_reports_fit_the_terminal(capsys, columns, command: str, width: int) -> None:
    columns(width)
    code, out, err = run(capsys, command)
    assert code == 0, err
    assert _longest(out) <= width, max(out.splitlines(), key=len)
    assert out.count("\n") > 10


def test_list_keeps_every_id_and_library_at_80(capsys, columns) -> None:
    columns(80)
    _, out, _ = run(capsys, "list")
    assert out.splitlines()[0].split() == ["ID", "MODE", "KEY", "BITS", "LIBRARIES"]
    row = next(line for line in out.splitlines() if line.startswith("aes-128-ecb "))
    assert row.split()[-3:] == ["cryptography,", "pycryptodome,", "pyaes"]
    assert "rc4                 Stream   128 (40-2048)  cryptography, pycryptodome" in out
    notes = " ".join(out.split())
    assert "pyaes: pure Python" in notes and "Blowfish 32 to 448 bits in steps of 8" in notes


@pytest.mark.usefixtures("one_selftest")
def test_selftest_numbers_its_sources_at_80(capsys, columns) -> None:
    columns(80)
    _, out, _ = run(capsys, "selftest")
    assert "  [1] NIST CAVP AESAVS: " in out
    tables = out.split("\n\n")
    assert tables[0].splitlines()[0].split() == [
        "cipher", "library", "key", "sizes", "checked", "vectors", "derived",
    ]  # fmt: skip
    assert tables[1].splitlines()[0].split() == ["cipher", "library", "agreement", "sources"]
    assert "ok  aes-128-cbc         cryptography  agree           1, 2" in tables[1]


def test_json_is_not_reshaped(capsys, columns, monkeypatch: pytest.MonkeyPatch) -> None:
    for command in ("list", "sysinfo"):
        monkeypatch.delenv("COLUMNS", raising=False)
        _, wide, _ = run(capsys, command, "--json")
        columns(40)
        _, narrow, _ = run(capsys, command, "--json")
        if command == "sysinfo":  # captured at another moment
            wide, narrow = (json.loads(t) for t in (wide, narrow))
            wide.pop("captured_at"), narrow.pop("captured_at")
            for doc in (wide, narrow):
                doc["cpu"].pop("freq_current_mhz", None)
        assert wide == narrow


def test_a_pipe_without_columns_is_not_fitted(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    assert terminal_width() is None  # capsys: not a terminal
    _, out, _ = run(capsys, "list")
    assert out.splitlines()[0].split()[:3] == ["ID", "ALGORITHM", "MODE"]


def test_runs_and_their_history_fit_80_columns(capsys, columns, tmp_path) -> None:
    """bench, study, transfer (stdout and stderr) and history list, in an 80-column terminal."""
    columns(80)
    commands = [
        ["bench", "--size", "100KB", "--cipher", "aes-128-gcm", *QUICK],
        ["bench", "--size", "2KB", "--cipher", "aes-128-ctr", "--library", "all", *QUICK],
        ["study", "aes-key-sizes", "--sizes", "2KB", "--repeat", "2", "--rounds", "2",
         "--max-rounds", "2"],
        ["transfer", "--size", "100KB", "--cipher", "aes-256-gcm", *QUICK],
        ["history", "list"],
        ["history", "show", "1"],
        ["history", "compare", "1", "2"],
    ]  # fmt: skip
    for argv in commands:
        code, out, err = run(capsys, *argv)
        assert code == 0, (argv, err)
        assert _longest(out) <= 80, (argv, max(out.splitlines(), key=len))
        assert _longest(err) <= 80, (argv, max(err.splitlines(), key=len))


def test_fitted_table_stacks_what_does_not_fit() -> None:
    rows = [("ID", "A", "B"), ("x" * 10, "a" * 30, "b" * 30)]
    assert fitted_table(rows, None) == fitted_table(rows, 100)  # one table when it fits
    stacked = fitted_table(rows, 50, keep=1)
    assert _longest(stacked) <= 50 and stacked.count("ID") == 2


def _commands() -> list[str]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sorted(sub.choices)  # type: ignore[arg-type]


@pytest.mark.parametrize("command", _commands())
def test_every_commands_help_fits_80_columns(capsys, columns, command: str) -> None:
    """argparse keeps a group of options of which one may be given on one line (encrypt's
    usage was 104 characters): it is broken after a ``|``, every option still in it."""
    columns(80)
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    assert _longest(out) <= 80, max(out.splitlines(), key=len)
    if command == "encrypt":
        usage = " ".join(out.split("\n\n")[0].split())
        assert "[--password-file F | --password-env VAR | --key-file K | --new-key-file K]" in usage


@pytest.mark.parametrize("width", [80, 60])
def test_the_study_list_fits_with_its_names_in_a_column(capsys, columns, width: int) -> None:
    from app.core.study.presets import presets

    columns(width)
    _, out, _ = run(capsys, "study", "--list")
    assert _longest(out) <= width, max(out.splitlines(), key=len)
    starts = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    assert starts == [s.name for s in presets()]


def test_an_error_wraps_at_spaces_in_a_terminal_and_stays_one_line_in_a_pipe(
    capsys, columns, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["bench", "--cipher", "aes-128-cbx", "--size", "1MB"]
    monkeypatch.delenv("COLUMNS", raising=False)
    code, _, line = run(capsys, *argv)
    assert code == 2 and line.count("\n") == 1 and len(line) > 80
    columns(80)
    err = run(capsys, *argv)[2]
    assert _longest(err) <= 80 and err.count("\n") > 1
    assert " ".join(err.split()) == " ".join(line.split())  # the same words, none split
