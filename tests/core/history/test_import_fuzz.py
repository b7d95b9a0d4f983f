"""Imports validated at the door: mutated real exports of every stored kind are either refused
in one line or imported whole, and what is imported shows, trends, compares and merges without
an internal error (the long run, 2,000 documents of every kind, is benchmarks/fuzz_imports.py).
A mutation replaces one value anywhere (a leaf, a list, a table) with a hostile one."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

import fuzz_imports
from hostile import small_job

from app.core.history.typecheck import WrongType, check_types


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    return fuzz_imports._documents(tmp_path_factory.mktemp("docs"))


@pytest.mark.parametrize("kind", ["bench", "study", "transfer", "transfer study", "sweep"])
def test_no_mutated_export_ends_in_an_internal_error(
    kind: str, documents: dict[str, dict], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    errors = fuzz_imports.fuzz(kind, documents[kind], tmp_path, monkeypatch.setenv, each=40, seed=3)
    assert not errors, "\n".join(errors)


def test_the_type_check_names_the_field() -> None:
    check_types(small_job())
    with pytest.raises(WrongType, match=r"cpu_percent is 'x', not"):
        check_types(small_job(cpu_percent="x"))
    with pytest.raises(WrongType, match=r"input_label is 0, not text"):
        check_types(small_job(label=0))  # type: ignore[arg-type]
    assert json.dumps(fuzz_imports.HOSTILE[:3]) == '["", null, {}]'
