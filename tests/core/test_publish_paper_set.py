"""The paper set: every paper format of a result's kind (chosen by suffix from the registry)
and methods.txt in one folder, each written atomically; a folder that will not do refused in
one sentence."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import pytest

from app.core.errors import UserError
from app.core.kinds import formats
from app.core.kinds.table import WRITE
from app.core.publish import paper_set
from app.core.publish.methods import study_methods
from app.core.publish.paper_set import paper_set_names, write_paper_set
from tests.core.history.history_factories import bench_run, transfer_run
from tests.core.publish_factories import made_study


def test_a_study_gets_its_tables_figures_and_methods(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = made_study()
    written = write_paper_set(result, tmp_path)
    names = ["made.md", "made.tex", "made.svg", "made.pdf", "methods.txt"]
    assert [p.name for p in written] == names == paper_set_names(result)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)  # nothing staged left
    assert (tmp_path / "methods.txt").read_text() == study_methods(result) + "\n"
    assert (tmp_path / "made.pdf").read_bytes().startswith(b"%PDF")
    assert (tmp_path / "made.tex").read_text() == _saved(result, tmp_path / "again.tex")
    # The same names replaced: written again by stand-in writers of the same formats (the
    # figures were drawn for real above), each file now theirs.
    kind = formats.kind_of(result)
    fakes = tuple(
        dataclasses.replace(f, writer=f"{__name__}:write_fake", how=WRITE) for f in kind.formats
    )
    monkeypatch.setattr(formats, "kind_of", lambda _: dataclasses.replace(kind, formats=fakes))
    again = write_paper_set(result, tmp_path)
    assert [p.name for p in again] == names
    assert all((tmp_path / name).read_text() == "fake\n" for name in names[:-1])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)


def _saved(result: object, path: Path) -> str:
    formats.save(result, path)
    text = path.read_text()
    path.unlink()
    return text


def write_fake(result: object, path: Path) -> None:
    Path(path).write_text("fake\n")


def test_the_formats_are_chosen_by_suffix_from_the_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kind that gains .md gets it in its paper set; .csv is not a paper format."""
    writer = f"{__name__}:write_fake"
    kind = formats.ResultKind(
        "bench",
        "results",
        (formats.Format(".csv", "CSV", writer), formats.Format(".md", "Markdown", writer)),
    )
    monkeypatch.setattr(formats, "kind_of", lambda result: kind)
    written = write_paper_set(bench_run(), tmp_path)
    assert [p.name for p in written] == ["cipherbench-bench.md", "methods.txt"]
    assert (tmp_path / "cipherbench-bench.md").read_text() == "fake\n"


def test_a_kind_with_nothing_for_a_paper_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = formats.ResultKind("bench", "results", (formats.Format(".csv", "CSV", "x:y"),))
    monkeypatch.setattr(formats, "kind_of", lambda result: kind)
    monkeypatch.setattr(paper_set, "METHODS", ())  # and no Methods paragraph
    with pytest.raises(UserError, match="results has no format for a paper yet"):
        write_paper_set(bench_run(), tmp_path)


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("missing", "no such folder"),
        ("file", "not a folder"),
        ("/dev/null", "not a folder"),
    ],
)
def test_a_folder_that_will_not_do_is_refused(tmp_path: Path, where: str, said: str) -> None:
    folder = {"missing": tmp_path / "gone", "file": tmp_path / "f.txt"}.get(where, Path(where))
    if where == "file":
        folder.write_text("x")
    with pytest.raises(UserError, match=said) as caught:
        write_paper_set(made_study(), folder)
    assert str(caught.value).startswith(f"cannot write the paper set to {folder}: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == (["f.txt"] if where == "file" else [])


def test_a_read_only_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.access
    # As root (CI) a mode of 0o500 stops nobody: the folder says it is read-only instead.
    monkeypatch.setattr(os, "access", lambda p, mode: real(p, mode) and Path(p) != tmp_path)
    with pytest.raises(UserError, match="permission denied"):
        write_paper_set(made_study(), tmp_path)
    assert not list(tmp_path.iterdir())


def test_an_input_of_the_run_is_never_replaced(tmp_path: Path) -> None:
    measured = tmp_path / "made.svg"
    measured.write_text("the user's file")
    with pytest.raises(UserError, match=r"made\.svg"):
        write_paper_set(made_study(), tmp_path, inputs=[measured])
    assert measured.read_text() == "the user's file"


@pytest.mark.parametrize("make", [bench_run, transfer_run], ids=["bench", "transfer"])
def test_every_kind_writes_what_the_registry_offers_it(tmp_path: Path, make: Any) -> None:
    result = make()
    offered = [
        f.suffix for f in formats.kind_of(result).formats if f.suffix in paper_set.PAPER_SUFFIXES
    ]
    written = write_paper_set(result, tmp_path)
    assert [p.suffix for p in written if p.name != "methods.txt"] == offered
    assert all(p.stat().st_size > 0 for p in written)


def test_whether_a_result_has_a_paper_set_is_told_without_drawing_it() -> None:
    for result in (made_study(), bench_run(), transfer_run()):
        assert paper_set.has_paper_set(result) == bool(paper_set_names(result))
