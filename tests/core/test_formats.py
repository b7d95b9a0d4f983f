"""The one table of file formats (app.core.kinds.formats): what every --out, Export dialog and
history export reads."""

from __future__ import annotations

import dataclasses
from importlib import import_module
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.kinds import formats
from tests.hostile import small_run

WRITTEN: list[str] = []


def write_txt(run: object, path: Path) -> None:
    WRITTEN.append(path.name)
    path.write_text("cipher\n", encoding="utf-8")


def test_every_kind_lists_distinct_suffixes_with_words_for_a_dialog() -> None:
    for kind in (*formats.BY_NAME.values(), formats.TRANSFER_STUDY):
        assert len(set(kind.suffixes)) == len(kind.suffixes)
        for fmt in kind.formats:
            assert fmt.suffix == fmt.suffix.lower() and fmt.suffix.startswith(".")
            module, _, name = fmt.writer.partition(":")
            assert fmt.description and callable(getattr(import_module(module), name))
        assert list(kind.file_filters().values()) == list(kind.suffixes)
    # A study's definition may run either workload; `study` checks --out against the
    # workload's own kind before the run; both save every format.
    assert set(formats.TRANSFER_STUDY.suffixes) == set(formats.STUDY.suffixes)


def test_kind_of_tells_the_result_types_apart() -> None:
    assert formats.kind_of(small_run()) is formats.BENCH
    with pytest.raises(TypeError, match="not a result CipherBench makes: str"):
        formats.kind_of("results")


def test_every_kind_offers_every_renderer_of_its_document() -> None:
    """A renderer module and its line in RENDERERS give the format to every kind."""
    from app.core.kinds import table

    renderers = {f.suffix for f in formats.RENDERERS}
    assert ".adoc" in renderers
    for kind in table.KINDS:
        assert renderers <= set(kind.files.suffixes), kind.noun


def test_a_format_added_to_the_table_is_checked_and_written_atomically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adding a format is one line: --out accepts it, save writes it through the unnamed file."""
    extra = formats.Format(".txt", "Plain text", f"{__name__}:write_txt")
    bench = dataclasses.replace(formats.BENCH, formats=(*formats.BENCH.formats, extra))
    monkeypatch.setattr(formats, "BENCH", bench)  # the kinds' table reads it by name
    formats.check_outputs(bench, [tmp_path / "r.TXT"])
    target = formats.save(small_run(), tmp_path / "r.txt")
    assert target.read_text(encoding="utf-8") == "cipher\n"
    assert WRITTEN and WRITTEN[-1] != "r.txt"  # written under another name, linked in whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.txt"]
    refused = (
        r"'\.rtf' is not supported; use \.xlsx, \.csv, \.json, \.md, \.tex, \.svg, \.pdf, "
        r"\.html, \.adoc, \.txt"
    )
    with pytest.raises(UserError, match=refused):
        formats.check_output(bench, tmp_path / "r.rtf")
