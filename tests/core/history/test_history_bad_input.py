"""Bad input is one sentence (issue 17), never an OverflowError or a ValueError from deep
inside: run ids beyond SQLite's integers name no run, and an import holding values no export
holds (NaN, Infinity, integers SQLite cannot store, negative sizes, megabytes of name, nesting
hundreds of levels deep) is refused naming the field, storing nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from history_factories import bench_run, study_result, transfer_run, transfer_study

from app.core.errors import UserError
from app.core.history import documents, limits
from app.core.history.redact import redacted
from app.core.history.store import History


@pytest.fixture
def history(tmp_path: Path):
    with History.open(tmp_path / "history.sqlite3") as h:
        yield h


BEYOND = [2**63, -(2**63) - 1, 10**40]


@pytest.mark.parametrize("run_id", BEYOND)
def test_ids_beyond_sqlites_integers_name_no_run(
    history: History, tmp_path: Path, run_id: int
) -> None:
    history.record(bench_run())
    said = f"there is no run {run_id} in the history"
    calls: list[Callable[[], Any]] = [
        lambda: history.summary(run_id),
        lambda: history.load(run_id),
        lambda: history.get(run_id),
        lambda: history.delete(run_id),
        lambda: history.export(run_id, tmp_path / "out.json"),
    ]
    for call in calls:
        with pytest.raises(UserError) as caught:
            call()
        assert str(caught.value) == said
    assert history.count() == 1 and not (tmp_path / "out.json").exists()


def test_the_largest_id_sqlite_stores_is_looked_up(history: History) -> None:
    with pytest.raises(UserError, match=f"there is no run {2**63 - 1} in the history"):
        history.load(2**63 - 1)


def export_text(**changes: Any) -> str:
    """A bench export as its command writes it, with ``changes`` in its first job."""
    doc = redacted(documents.document_of(bench_run()))
    doc["results"][0].update(changes)
    return json.dumps(doc)


def first_sample(literal: str) -> str:
    text = export_text()
    assert '"samples_s": [' in text
    return text.replace('"samples_s": [', f'"samples_s": [{literal}, ', 1)


def deep() -> str:
    doc = json.loads(export_text())
    doc["tool"]["extra"] = "@"
    return json.dumps(doc).replace('"@"', "[" * 200 + "]" * 200)


BAD_EXPORTS = [
    (export_text(key_bits=10**400), "results[0].key_bits is a number of 401 digits, too large"),
    (
        export_text(input_bytes=2**70),
        "results[0].input_bytes is 1180591620717411303424, too large for a size in bytes",
    ),
    (export_text(output_bytes=2**63), "results[0].output_bytes is 9223372036854775808, too"),
    (export_text(key_bits=2**17), "results[0].key_bits is 131072, too large for a key size"),
    (export_text(input_bytes=-5), "results[0].input_bytes is -5: a size in bytes cannot be neg"),
    (export_text(verified_round_trips=-1), "verified_round_trips is -1: a count cannot be neg"),
    (first_sample("NaN"), "results[0].encrypt.samples_s[0] is NaN; an export holds only finite"),
    (first_sample("Infinity"), "results[0].encrypt.samples_s[0] is Infinity"),
    (first_sample("-Infinity"), "results[0].encrypt.samples_s[0] is -Infinity"),
    (first_sample("1e400"), "samples_s[0] is a number too large to store (it reads as infin"),
    (first_sample("9" * 5000), "samples_s[0] is a number of 5,000 digits, too large to store"),
    (export_text(cipher="A" * 10_000_000), "results[0].cipher is 10,000,000 characters long"),
    (export_text(input_label="x" * 1025), "input_label is 1,025 characters long (at most 1,024)"),
    (export_text(notes=["n" * 70_000]), "results[0].notes[0] is 70,000 characters long"),
    (export_text(**{"k" * 2000: 1}), "results[0] has a key of 2,000 characters"),
    (deep(), "tool.extra[0][0][0]"),
]


@pytest.mark.parametrize(("text", "said"), BAD_EXPORTS, ids=[s for _, s in BAD_EXPORTS])
def test_values_no_export_holds_are_refused_naming_the_field(
    history: History, tmp_path: Path, text: str, said: str
) -> None:
    path = tmp_path / "run.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as caught:
        history.import_file(path)
    message = str(caught.value)
    assert message.startswith(f"cannot import {path}: ") and said in message
    assert len(message) < 300 and "\n" not in message
    assert history.count() == 0


def test_values_at_the_limits_import(history: History, tmp_path: Path) -> None:
    """Names of 1,024 characters (a 255-byte file name escaped), sizes up to 8 PiB, negative
    differences of sizes: all things a real export may hold."""
    text = export_text(
        input_label="\\xff" * 256,
        memory_above_baseline_bytes=-4096,
        expansion_bytes=-16,
        notes=["n" * limits.TEXT_CHARS],
    )
    path = tmp_path / "run.json"
    path.write_text(text, encoding="utf-8")
    run_id = history.import_file(path)
    assert history.summary(run_id).inputs == ("\\xff" * 256,)


@pytest.mark.parametrize("make", [bench_run, study_result, transfer_run, transfer_study])
def test_every_kind_of_export_passes_the_checks(make: Callable[[], Any]) -> None:
    doc = json.loads(json.dumps(redacted(documents.document_of(make()))))
    limits.check_values(doc)


def test_a_profile_with_a_deep_stack_exports_and_comes_back(
    history: History, tmp_path: Path
) -> None:
    """A folded call stack is data, not a name: a deep one (60 frames, 1,800 characters) is
    as long as the profiler saw it, and its export imports and merges."""
    from dataclasses import replace

    from app.core.kinds import formats
    from tests.core.profile.test_profile_kind import made

    result = made()
    deep = ";".join(f"frame_{i} (module_{i}.py)" for i in range(60))
    rounds = tuple(replace(r, stacks={**r.stacks, deep: 3}) for r in result.results[0].rounds)
    result = replace(result, results=(replace(result.results[0], rounds=rounds),))
    path = formats.save(result, tmp_path / "deep.json")
    run_id = history.import_file(path)
    assert deep in history.load(run_id).result.results[0].rounds[0].stacks
