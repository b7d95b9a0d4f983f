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
        published=(
            PublishedFigure("AES", "2 KB", "encrypt_s", 1.5e-05, "s", ("aes-128-ctr",)),
            PublishedFigure("RC4", ".txt (2 KiB)", "cpu_percent", 99.5, "%", table="Table 1"),
        ),
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


_HEAD = 'name = "x"\nsizes = ["1 KB"]\n[[cipher]]\nid = "aes-128-ctr"\nlibrary = "cryptography"\n'
_FIGURE = '[[published]]\ncipher = "AES"\ninput = "1 KB"\nquantity = "encrypt_s"\nvalue = 1.0\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'name = "x"\nsizes = ["1 KB"]\n[[cipher]]\nid = "aes-128-cbc"\nkey_bits = 256\n',
            r"unknown key 'key_bits' in \[\[cipher\]\] number 1; a \[\[cipher\]\] takes id, "
            "library",
        ),
        (
            _HEAD + _FIGURE + 'unit = "s"\nentry = "aes-128-ctr"\ncolour = 1\n',
            "unknown key 'colour'",
        ),
        (
            _HEAD + _FIGURE + 'unit = "MB/s"\nentry = "aes-128-ctr"\n',
            r"\(AES, 1 KB, encryption time\) has the unit 'MB/s'; a encryption time takes s, ms",
        ),
        (
            _HEAD + _FIGURE + 'unit = "s"\n',
            r"names no cipher of the study \('AES'\); give its entry",
        ),
        (
            _HEAD
            + _FIGURE.replace('"1 KB"\nquantity', '"50 MB"\nquantity')
            + 'unit = "s"\nentry = "aes-128-ctr"\n',
            "names no input of the study; use one of 1 KB",
        ),
        (
            _HEAD + _FIGURE + 'unit = "s"\nentry = "aes-128-ctr"\nend = "middle"\n',
            "unknown transfer end",
        ),
        (
            'name = "x"\nsizes = ["1 KB"]\ncipher = "aes"\n',
            r"cipher must be a list of \[\[cipher\]\]",
        ),
    ],
)
def test_a_study_file_is_strict(tmp_path, text, message):
    path = tmp_path / "strict.toml"
    path.write_text(text)
    with pytest.raises(UserError, match=message):
        load_study(path)


def test_a_figure_names_a_file_slot_or_a_file_by_its_extension(tmp_path):
    path = tmp_path / "slots.toml"
    figure = _FIGURE.replace('"1 KB"\nquantity', '".pdf (1.5 MiB)"\nquantity')
    path.write_text(
        _HEAD.replace('sizes = ["1 KB"]', 'file_slots = ["pdf"]')
        + figure
        + 'unit = "ms"\nentry = "aes-128-ctr"\n'
    )
    assert load_study(path).published[0].input == ".pdf (1.5 MiB)"


def test_a_saved_study_keeps_its_files_relative_and_only_the_figures_it_can_show(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.txt").write_text("x")
    study = study_with(find_study("aes-key-sizes"), files=[str(data / "a.txt")])
    assert study.published  # the paper's 1, 10 and 50 MB figures: none names a.txt
    (tmp_path / "defs").mkdir()
    saved = save_study(study, tmp_path / "defs" / "mine.toml")
    text = saved.read_text()
    assert 'files = ["../data/a.txt"]' in text and "[[published]]" not in text
    again = load_study(saved)
    assert again.files == (str(tmp_path / "defs" / "../data/a.txt"),)
    assert os.path.samefile(again.files[0], data / "a.txt")
