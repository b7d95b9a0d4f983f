"""Study definitions: TOML in and out, the shipped presets, size labels and bad studies."""

import os
import tomllib

import pytest

from app.core.errors import UserError
from app.core.study.definition import (
    CipherChoice,
    SizeInput,
    Study,
    parse_sizes,
    size_input,
    study_with,
)
from app.core.study.presets import find_study, preset_files, presets, save_study
from app.core.study.published import PublishedFigure
from app.core.study.study_file import load_study, to_toml

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
    assert {(p.table, p.basis) for p in key_sizes.published if p.quantity == "memory"} == {
        ("Figure 3 (read in section 3.2)", "load-all")
    }
    assert key_sizes.memory_workload == "load-all"
    assert len(key_sizes.published) == 18 + 3  # Table 2's times, Figure 3's memory
    blowfish = find_study("aes-vs-blowfish")
    assert {s.key_bits for s in blowfish.specs()} == {256} and blowfish.file_slots
    # The paper's "MB" are MiB: .txt 14.35 KiB, .pdf 1.5043 MiB, .zip 85.706 MiB, in bytes.
    assert [s.size_bytes for s in blowfish.sizes] == [14_694, 1_577_372, 89_869_298]
    assert blowfish.units == "MiB/s"
    chacha = find_study("gcm-vs-chacha")
    assert chacha.data_mode == "stream" and chacha.chunk_bytes == 2**20
    assert [s.label for s in chacha.sizes] == ["10485 B", "1 MiB", "50 MiB", "200 MiB", "500 MiB"]
    assert chacha.sizes[0].size_bytes == int(0.01 * 1024 * 1024)  # the paper's own "0.01 MB"
    assert chacha.units == "MiB/s"
    pure = find_study("pure-python")
    assert pure.whole_program  # the paper's figures are whole programs, timed as such
    assert any(p.quantity == "program_speedup" and p.value == 6.09 for p in pure.published)
    assert {(p.value, p.unit) for p in pure.published if p.quantity == "program_s"} == {
        (598.0, "ms"),
        (98.2, "ms"),
    }


# Seeds 002 and 004 write "MB" and mean MiB: every figure in a binary unit, or s, %, x.
_BINARY_OR_UNITLESS = {"MiB", "MiB/s", "KiB", "KiB/s", "s", "ms", "%", "x"}


def _figures(name):
    return find_study(name).published


def test_seed_002_carries_all_of_tables_iii_to_viii_in_binary_units():
    figures = _figures("aes-vs-blowfish")
    assert len(figures) == 72  # 6 tables x 4 rows (AES/Blowfish x ECB/CTR) x 3 columns
    assert {p.unit for p in figures} <= _BINARY_OR_UNITLESS
    tables = ("Table III", "Table IV", "Table V", "Table VI", "Table VII", "Table VIII")
    for table in tables:
        in_table = [p for p in figures if p.table == table]
        assert len(in_table) == 12, table
        direction = "encrypt" if table in tables[:3] else "decrypt"
        assert {p.quantity for p in in_table} == {f"{direction}_s", f"{direction}_rate", "memory"}
        assert {p.entry for p in in_table} == {
            ("aes-256-ecb",),
            ("aes-256-ctr",),
            ("bf-ecb",),
            ("bf-ctr",),
        }
    assert all(p.basis == "" for p in figures)  # the paper's memory method is unspecified
    assert {p.unit for p in figures if p.quantity == "memory"} == {"MiB"}

    def value(table, cipher, quantity):
        (figure,) = (
            p for p in figures if (p.table, p.cipher, p.quantity) == (table, cipher, quantity)
        )
        return figure

    assert value("Table V", "AES ECB", "encrypt_rate").value == 1128.42
    assert value("Table V", "AES ECB", "memory").value == 85.707031
    assert value("Table VIII", "Blowfish CTR", "decrypt_rate").value == 81.59
    # The paper's own inconsistencies, noted where they stand.
    assert "69.95" in value("Table III", "Blowfish ECB", "encrypt_rate").note
    assert "0.000230" in value("Table III", "Blowfish ECB", "encrypt_s").note
    assert "0.928097" in value("Table V", "Blowfish ECB", "encrypt_s").note
    assert "0.0006 s" in value("Table VI", "AES CTR", "decrypt_s").note
    assert "0.0029 s" in value("Table VII", "Blowfish CTR", "decrypt_s").note
    assert "Tables IV-VI" in value("Table VIII", "AES ECB", "decrypt_s").note
    # time x throughput is the input's size in MiB, row by row (to the table's 3-4 digits)
    sizes = {
        ".txt (14694 B)": 14_694,
        ".pdf (1577372 B)": 1_577_372,
        ".zip (89869298 B)": 89_869_298,
    }
    for time in (p for p in figures if p.quantity.endswith("_s")):
        rate = value(time.table, time.cipher, time.quantity.replace("_s", "_rate"))
        assert time.value * rate.value * 2**20 == pytest.approx(sizes[time.input], rel=1e-2)


def test_seed_004_carries_all_of_tables_i_and_ii_in_binary_units():
    figures = _figures("gcm-vs-chacha")
    assert {p.unit for p in figures} <= _BINARY_OR_UNITLESS
    tables = {"Table I (MacOS, M4 Pro)": [], "Table II (Android, Snapdragon 675)": []}
    for p in figures:
        tables[p.table].append(p)
    for table, in_table in tables.items():
        assert len(in_table) == 40, table  # 2 ciphers x 5 payloads x 4 columns
        quantities = {p.quantity for p in in_table}
        assert quantities == {"transfer_s", "transfer_rate", "cpu_percent", "memory"}
        for p in in_table:
            assert p.entry in {("aes-256-gcm",), ("chacha20-poly1305",)}
            if p.quantity in ("cpu_percent", "memory"):
                assert p.end == "sender"  # the paper samples its client process
            if p.quantity == "memory":
                assert (p.unit, p.basis) == ("MiB", "process")
            if p.quantity == "transfer_s":
                assert "sending side" in p.note
    (fast,) = (
        p
        for p in tables["Table I (MacOS, M4 Pro)"]
        if (p.cipher, p.input, p.quantity) == ("AES-256-GCM", "50 MiB", "transfer_rate")
    )
    assert (fast.value, fast.unit) == (1521.84, "MiB/s")
    (odd,) = (
        p
        for p in tables["Table II (Android, Snapdragon 675)"]
        if (p.cipher, p.input, p.quantity) == ("AES-256-GCM", "10485 B", "transfer_s")
    )
    assert odd.value == 0.0001 and "9.62" in odd.note


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


def test_other_inputs_drop_the_presets_description_and_reports_say_what_ran():
    from app.core.study.report_text import what_ran

    preset = find_study("aes-key-sizes")
    assert "1, 10 and 50 MB" in preset.description
    assert study_with(preset, repeat=4).description == preset.description
    shrunk = study_with(preset, sizes=parse_sizes("1MB,10MB"))
    assert shrunk.description == ""
    assert study_with(preset, files=["a.txt"]).description == ""
    from test_paper import _result  # a finished study on one 50 MB input, three entries

    assert what_ran(_result()) == (
        "What ran: aes-128-cbc [pycryptodome], aes-256-cbc [pycryptodome] and aes-128-ctr "
        "[pyaes] on 50 MB (50,000,000 bytes)."
    )


def test_each_preset_says_how_its_paper_measured_and_carries_its_claims():
    for study in presets():
        assert study.paper_method.strip(), study.name
        assert len(study.claims) >= 2, study.name
        entries = set()
        for choice in study.ciphers:
            entries.add(choice.cipher_id)
            if choice.library:
                entries.add(f"{choice.cipher_id} [{choice.library}]")
        for claim in study.claims:
            assert claim.says and claim.where, (study.name, claim)
            assert set(claim.a) | set(claim.b) <= entries, (study.name, claim.says)
            # entries against each other, or each against itself in the other direction
            assert claim.against or not set(claim.a) & set(claim.b), (study.name, claim.says)
            assert not claim.against or claim.a == claim.b, (study.name, claim.says)
