"""Study definitions: TOML in and out, the shipped presets, size labels and bad studies."""

import os
import tomllib

import pytest

from app.core.errors import UserError
from app.core.study.definition import (
    CipherChoice,
    PublishedFigure,
    SizeInput,
    Study,
    load_study,
    parse_sizes,
    size_input,
    study_with,
    to_toml,
)
from app.core.study.presets import find_study, preset_files, presets, save_study

SEEDS = {"000", "001", "002", "003", "004"}


def _study(**changes):
    values = dict(
        name="tiny",
        ciphers=(CipherChoice("aes-128-ctr", "cryptography"), CipherChoice("rc4")),
        sizes=(SizeInput("2 KB", 2000),),
    )
    values.update(changes)
    return Study(**values)


def test_toml_round_trip(tmp_path):
    study = _study(
        title='quotes " and \\ and ünïcode',
        seed="007",
        files=(str(tmp_path / "a.txt"),),
        file_slots=("txt",),
        key_bits=128,
        data_mode="stream",
        chunk_bytes=64 * 1024,
        repeat=6,
        rounds=3,
        units="KB/s",
        min_time_s=0.0,
        data_seed=42,
        published=(PublishedFigure("AES", "2 KB", "encrypt_s", 1.5e-05, "s"),),
    ).validate()
    text = to_toml(study)
    assert tomllib.loads(text)["cipher"][1] == {"id": "rc4"}
    path = save_study(study, tmp_path / "mine.toml")
    assert load_study(path) == study


@pytest.mark.parametrize("name", ["mine.txt", "mine", "mine.toml.bak"])
def test_a_study_saves_only_as_toml(tmp_path, name):
    with pytest.raises(
        UserError, match=r"cannot save the study to .*: .* not supported; use \.toml"
    ):
        save_study(_study(), tmp_path / name)
    assert os.listdir(tmp_path) == []


def test_checked_specs_are_the_specs_of_a_valid_study():
    study = _study()
    assert study.checked_specs() == study.specs()
    with pytest.raises(UserError, match="no input"):
        _study(sizes=()).checked_specs()


def test_each_preset_loads_validates_and_round_trips(tmp_path):
    studies = presets()
    assert {s.seed for s in studies} == SEEDS
    assert len(preset_files()) == len(studies)
    for study in studies:
        assert study.validate() is study and study.specs()
        copy = load_study(save_study(study, tmp_path / f"{study.name}.toml"))
        assert copy == study


def test_presets_carry_the_papers_grids():
    key_sizes = find_study("aes-key-sizes")
    assert [s.label for s in key_sizes.sizes] == ["1 MB", "10 MB", "50 MB"]
    assert [(s.id, s.library) for s in key_sizes.specs()] == [
        (f"aes-{bits}-cbc", "pycryptodome") for bits in (128, 192, 256)
    ]
    classic = find_study("classic-ciphers")
    assert classic.units == "KB/s" and len(classic.sizes) == 7
    assert classic.sizes[0].size_bytes == 108_000 and classic.sizes[-1].size_bytes == 2_618_000
    assert "pyaes" not in {s.library for s in classic.specs()}
    blowfish = find_study("aes-vs-blowfish")
    assert {s.key_bits for s in blowfish.specs()} == {256} and blowfish.file_slots
    chacha = find_study("gcm-vs-chacha")
    assert chacha.data_mode == "stream" and chacha.chunk_bytes == 2**20
    assert chacha.sizes[0].label == "10 KB" and chacha.sizes[-1].label == "500 MB"
    pure = find_study("pure-python")
    assert any(p.quantity == "speedup" and p.value == 6.09 for p in pure.published)


@pytest.mark.parametrize(
    ("text", "label", "size"),
    [
        ("1MiB", "1 MiB", 2**20),
        ("1 MiB", "1 MiB", 2**20),
        ("10mb", "10 MB", 10**7),
        ("1.5 KB", "1.5 KB", 1500),
        ("4096", "4096 B", 4096),
    ],
)
def test_sizes_keep_the_label_as_written(text, label, size):
    assert size_input(text) == SizeInput(label, size)


def test_parse_sizes_list():
    assert [s.label for s in parse_sizes("2KB, 4KB,1MiB")] == ["2 KB", "4 KB", "1 MiB"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ciphers": ()}, "chooses no cipher"),
        ({"sizes": ()}, "has no input"),
        ({"ciphers": (CipherChoice("nope"),)}, "unknown cipher"),
        ({"ciphers": (CipherChoice("aes-128-ctr", "pyaes"),), "key_bits": 256}, "no 256-bit"),
        ({"units": "GB/h"}, "unknown unit"),
        ({"rounds": 5, "max_rounds": 3}, "max_rounds must be at least rounds"),
        ({"precision_percent": 0.0}, "precision_percent must be above 0"),
        ({"margin_percent": -1.0}, "margin_percent must be between 0 and 100"),
        ({"time_budget_s": float("nan")}, "time_budget_s must be a number of seconds"),
        ({"data_mode": "disk"}, "unknown data mode"),
    ],
)
def test_bad_studies_are_one_sentence(changes, message):
    with pytest.raises(UserError, match=message):
        _study(**changes).validate()


def test_bad_size_and_bad_file(tmp_path):
    with pytest.raises(UserError, match="unknown unit"):
        parse_sizes("10XB")
    with pytest.raises(UserError, match="at least 1 byte"):
        size_input("0KB")
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nsizes = ["1 parsec"]\n[[cipher]]\nid = "rc4"\n')
    with pytest.raises(UserError, match=r"bad\.toml: .*unknown unit"):
        load_study(bad)
    bad.write_text('name = "x"\nsizes = ["1KB"]\ncolour = "blue"\n[[cipher]]\nid = "rc4"\n')
    with pytest.raises(UserError, match="unknown key 'colour'"):
        load_study(bad)
    bad.write_text("name = ")
    with pytest.raises(UserError, match="not valid TOML"):
        load_study(bad)
    with pytest.raises(UserError, match="unknown study"):
        find_study("nope")


def test_overrides_files_replace_sizes(tmp_path):
    study = study_with(find_study("aes-vs-blowfish"), files=["a.txt"], repeat=4, rounds=2)
    assert study.sizes == () and study.files == ("a.txt",) and study.repeat_per_round == 2
    shrunk = study_with(find_study("gcm-vs-chacha"), sizes=parse_sizes("2KB"), units="MiB/s")
    assert [s.label for s in shrunk.sizes] == ["2 KB"] and shrunk.units == "MiB/s"
