"""Which libraries a cipher runs in when none is named (the compiled ones: pure-Python pyaes only
when asked), and the nearest names for a mistyped cipher, library, preset or study (issue 20)."""

from __future__ import annotations

import dataclasses

import pytest

from app.cli import bench as cli_bench
from app.cli import main as cli
from app.core.bench.presets import preset
from app.core.ciphers import registry
from app.core.ciphers.libraries import COMPILED
from app.core.ciphers.registry import REGISTRY, default_libraries_for, select
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.presets import find_study
from app.core.text import close_matches

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs")


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _libraries(*argv: str) -> list[str]:
    args = cli.build_parser().parse_args(["bench", "--size", "1KB", *argv])
    return [s.library for s in cli_bench._resolve_specs(args)]


# --- the compiled libraries by default ----------------------------------------------------------


def test_a_cipher_runs_in_the_compiled_libraries_unless_pyaes_is_asked_for() -> None:
    """`bench FILE --cipher aes-256-cbc` started an 11-minute pyaes job on a 19 MB file."""
    assert COMPILED == ("cryptography", "pycryptodome")
    assert _libraries("--cipher", "aes-256-cbc") == ["cryptography", "pycryptodome"]
    assert _libraries("--cipher", "aes-256-cbc", "--library", "pyaes") == ["pyaes"]
    assert _libraries("--cipher", "aes-256-cbc", "--library", "all") == [
        "cryptography",
        "pycryptodome",
        "pyaes",
    ]
    assert "pyaes" not in _libraries("--cipher", "all")
    assert set(_libraries("--cipher", "all", "--library", "all")) == {*COMPILED, "pyaes"}


def test_bench_without_library_runs_no_pyaes_job(capsys) -> None:
    code, out, err = run(
        capsys, "bench", "--size", "2KB", "--cipher", "aes-128-ctr", "--repeat", "1",
        "--warmup", "0", "--no-memory", "--no-history",
    )  # fmt: skip
    assert code == 0, err
    assert "[cryptography]" in err and "[pycryptodome]" in err and "pyaes" not in err + out


def test_a_cipher_only_pure_python_offers_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """None exists today (pyaes offers AES, which the compiled libraries offer too); one that
    did must not become unknown for want of a compiled library."""
    pyaes_ctr = next(s for s in REGISTRY if s.library == "pyaes" and s.id == "aes-128-ctr")
    only = dataclasses.replace(pyaes_ctr, id="aes-128-pyonly")
    monkeypatch.setattr(registry, "REGISTRY", (*REGISTRY, only))
    assert default_libraries_for("aes-128-pyonly") == ["pyaes"]
    assert [s.library for s in select(["aes-128-pyonly"])] == ["pyaes"]
    assert [s.library for s in select(["aes-128-pyonly"], "pyaes")] == ["pyaes"]


def test_presets_and_studies_keep_pyaes_where_they_name_it() -> None:
    """Seed 003 compares pyaes with cryptography: its preset and its study keep all three."""
    assert {s.library for s in preset("pure-python").specs()} == {*COMPILED, "pyaes"}
    assert {s.library for s in find_study("pure-python").specs()} == {*COMPILED, "pyaes"}
    # An entry naming no library takes the compiled ones, as bench does.
    study = Study(
        name="mine",
        ciphers=(CipherChoice("aes-128-ctr"), CipherChoice("aes-128-ctr", "pyaes")),
        sizes=(SizeInput("1 KB", 1000),),
    )
    assert [s.library for s in study.specs()] == [*COMPILED, "pyaes"]
    assert "pyaes" not in {s.library for s in preset("des-3des-aes-rc4").specs()}


def test_the_help_says_pyaes_runs_only_when_asked(capsys) -> None:
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["bench", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default: the compiled libraries offering the cipher" in text
    assert "pyaes, thousands of times slower, runs only when named or with all" in text


# --- the nearest names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["bench", "--size", "1KB", "--cipher", "aes256"],
            "unknown cipher 'aes256' (did you mean aes-256-ecb, aes-256-cbc, aes-256-cfb, "
            "aes-256-ofb, aes-256-ctr, ...?); `python main.py list` shows them all",
        ),
        (
            ["bench", "--size", "1KB", "--cipher", "chacha20poly1305"],
            "(did you mean chacha20-poly1305,",
        ),
        (["bench", "--size", "1KB", "--cipher", "blowfish"], "(did you mean bf-ecb, bf-cbc,"),
        (
            ["bench", "--size", "1KB", "--cipher", "rc4", "--library", "pycryptodom"],
            "unknown library 'pycryptodom' (did you mean pycryptodome?); choose cryptography, "
            "pycryptodome, pyaes or all",
        ),
        (
            ["bench", "--size", "1KB", "--preset", "aes-key-size"],
            "unknown preset 'aes-key-size' (did you mean aes-key-sizes?); choose from ",
        ),
        (
            ["study", "aes-key-size"],
            "unknown study 'aes-key-size' (did you mean aes-key-sizes?); choose from ",
        ),
        (["transfer", "--size", "1KB", "--cipher", "aes-256-gmc"], "did you mean aes-256-gcm"),
        (["encrypt", "a", "-o", "b", "--library", "cryptograpy"], "did you mean cryptography?"),
    ],
)
def test_a_mistyped_name_is_answered_with_the_nearest(capsys, argv, said) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("cipherbench: error: ") and err.count("\n") == 1, err
    assert said in err


def test_nothing_near_is_said_as_before(capsys) -> None:
    code, _, err = run(capsys, "bench", "--size", "1KB", "--cipher", "nope")
    assert code == 2
    assert err == (
        "cipherbench: error: unknown cipher 'nope'; `python main.py list` shows them all\n"
    )


def test_close_matches_ranks_and_limits() -> None:
    ids = registry.cipher_ids()
    matches, more = close_matches("aes-256-gmc", ids)
    assert matches[0] == "aes-256-gcm" and len(matches) == 5 and more
    assert close_matches("AES_256_CBC", ids)[0][0] == "aes-256-cbc"  # dashes and case ignored
    # equal scores: the longer shared start first, not the registry's order (ecb before cbc)
    assert close_matches("aes-128-cbx", ids)[0][:2] == ["aes-128-cbc", "aes-128-cfb"]
    assert close_matches("3des", ids, {s.id: s.algorithm for s in REGISTRY})[0][0] == (
        "des-ede3-ecb"
    )
    assert close_matches("rot13", ids) == ([], False)
    assert close_matches("", ids) == ([], False)


def test_a_preset_has_its_studys_name_and_its_old_name_still_works() -> None:
    from app.core.bench.presets import PRESETS
    from app.core.study.presets import find_study, presets

    assert {p.name for p in PRESETS} <= {s.name for s in presets()}
    assert preset("des-3des-aes-rc4") is preset("classic-ciphers")
    assert find_study("des-3des-aes-rc4").name == "classic-ciphers"
