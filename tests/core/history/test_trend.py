"""The trend of a run's series: the series found in a real (temporary) history, a planted 10 %
step found once, at its run, with its size inside its interval and labelled with the library
version changed there; noise alone, and a version change without a change in speed, mark
nothing; A/A false marks are rare; excursions, the newest run, too few runs, missing jobs."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
from trend_factories import environment, series_results, stored

from app.core.bench.run_info import Environment
from app.core.errors import UserError
from app.core.history.records import StoredRun
from app.core.history.steps import MIN_RUNS_FOR_STEPS, THRESHOLD, find_steps
from app.core.history.store import History
from app.core.history.trend import definition_of, series_of, trend, trend_of

STEP_AT = 5  # 0-based: the sixth run of ten is the first after the step


def record(history: History, results) -> list[int]:
    return [history.record(r) for r in results]


@pytest.fixture
def history(tmp_path: Path):
    with History.open(tmp_path / "history.sqlite3") as h:
        yield h


def test_a_planted_step_is_marked_once_at_its_run_with_the_library_change(history) -> None:
    ids = record(history, series_results(7, step_at=STEP_AT, version_at=STEP_AT))
    t = trend_of(history, ids[-1])
    assert [r.id for r in t.runs] == ids and t.kind == "bench" and t.run_id == ids[-1]
    assert t.entry_names() == ["aes-256-ctr [cryptography] on input.bin"]
    assert [e.direction for e in t.entries] == ["encrypt", "decrypt"]
    for e in t.entries:
        assert all(p is not None and p.rounds == 6 and p.has_interval for p in e.points)
        (step,) = e.steps
        assert step.position == STEP_AT
        assert (step.run_before, step.run_after) == (ids[STEP_AT - 1], ids[STEP_AT])
        assert step.change < 0 and not step.faster
        assert step.low <= -0.10 <= step.high  # the planted size inside its interval
        assert step.high < -THRESHOLD  # the whole interval beyond the threshold
        assert step.change == pytest.approx(-0.10, abs=0.02)
        assert step.changes == ("cryptography 50.0.2 -> 51.0.0",)
        assert step.label().startswith("cryptography 50.0.2 -> 51.0.0: -")
        assert step.runs_before == step.runs_after == 5
        assert step.rounds_before == step.rounds_after == 30
        # the figures: about 1,000 MB/s (decryption 1.1 times slower) then 10 % less
        before, after = e.points[0], e.points[-1]
        assert before is not None and after is not None
        base = 1000 if e.direction == "encrypt" else 1000 / 1.1
        assert before.throughput_mb_s == pytest.approx(base, rel=0.05)
        assert after.throughput_mb_s == pytest.approx(base * 0.9, rel=0.05)
        assert before.low_mb_s < before.throughput_mb_s < before.high_mb_s
    (change,) = t.changes
    assert (change.run_before, change.run_after) == (ids[STEP_AT - 1], ids[STEP_AT])
    assert change.changes == ("cryptography 50.0.2 -> 51.0.0",)
    doc = t.to_dict()
    assert doc["entries"][0]["steps"][0]["label"] == t.entries[0].steps[0].label()


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_noise_alone_marks_nothing_even_when_a_library_changed(history, seed: int) -> None:
    ids = record(history, series_results(seed, version_at=STEP_AT))
    t = trend_of(history, ids[0])
    assert len(t.runs) == 10
    assert t.steps == ()
    for e in t.entries:
        assert 0 < e.noise < 0.05  # the spread between runs was measured, and not exceeded
    # the change is still listed for the series, with no step to pin on it
    assert [c.changes for c in t.changes] == [("cryptography 50.0.2 -> 51.0.0",)]


def test_a_a_false_marks_are_rare() -> None:
    """20 series of 10 runs of noise alone, each entry in two directions: at most one series in
    twenty with a step."""
    marked = series = 0
    for seed in range(100, 120):
        t = trend(stored(series_results(seed)), 1)
        series += len(t.entries)
        marked += sum(bool(e.steps) for e in t.entries)
    assert series == 40
    assert marked <= series / 20


def test_a_step_with_nothing_changed_says_so() -> None:
    t = trend(stored(series_results(11, step_at=STEP_AT, step=0.15)), 1)
    for e in t.entries:
        (step,) = e.steps
        assert step.faster and step.changes == ()
        assert step.label().startswith("nothing changed in the environment: +")
        assert step.low <= 0.15 <= step.high


def test_the_newest_run_slower_by_a_fifth_is_marked() -> None:
    t = trend(stored(series_results(3, step_at=9, step=-0.20)), 10)
    for e in t.entries:
        (step,) = e.steps
        assert step.position == 9 and step.runs_after == 1 and step.runs_before == 9
        assert step.low <= -0.20 <= step.high < -THRESHOLD


def test_an_excursion_gives_two_steps_down_and_back() -> None:
    """Runs 5-7 slower by 15 %, then back: bottom-up segmentation keeps both boundaries, where
    a single split of the series in two would find neither."""
    results = series_results(5, step_at=4, step=-0.15)
    back = series_results(5, step_at=None)
    mixed = results[:7] + back[7:]
    mixed = [dataclasses.replace(r, started_at=f"2026-10-{i + 1:02d}") for i, r in enumerate(mixed)]
    t = trend(stored(mixed), 1)
    for e in t.entries:
        assert [(s.position, s.faster) for s in e.steps] == [(4, False), (7, True)]


def test_a_bench_in_one_worker_has_no_interval_per_run_but_its_steps_are_found() -> None:
    t = trend(stored(series_results(2, step_at=STEP_AT, step=-0.25, rounds=1)), 1)
    for e in t.entries:
        assert all(p is not None and p.rounds == 1 and not p.has_interval for p in e.points)
        assert "[n/a]" in e.points[0].text()  # type: ignore[union-attr]
        (step,) = e.steps
        assert step.position == STEP_AT and step.low <= -0.25 <= step.high


def test_too_few_runs_give_no_step() -> None:
    results = series_results(1, runs=MIN_RUNS_FOR_STEPS - 1, step_at=1, step=-0.5)
    t = trend(stored(results), 1)
    for e in t.entries:
        assert e.steps == () and math.isnan(e.noise)
        assert all(p is not None for p in e.points)


def test_a_job_missing_from_a_run_is_a_gap() -> None:
    two = (("aes-256-ctr", "cryptography", 256), ("aes-128-gcm", "cryptography", 128))
    results = series_results(4, entries=two)
    results[3] = dataclasses.replace(results[3], results=results[3].results[:1])
    t = trend(stored(results), 1)
    assert t.entry_names() == [
        "aes-256-ctr [cryptography] on input.bin",
        "aes-128-gcm [cryptography] on input.bin",
    ]
    (gcm, _) = t.of_entry("aes-128-gcm [cryptography] on input.bin")
    assert gcm.points[3] is None and sum(p is not None for p in gcm.points) == 9


def test_the_series_is_the_same_definition_on_the_same_machine(history) -> None:
    results = series_results(6, runs=4)
    # recorded newest first: the series is ordered by time, not by id
    ids = record(history, results[::-1])
    other_cipher = series_results(6, runs=1, entries=(("aes-128-gcm", "cryptography", 128),))
    other_cpu = dataclasses.replace(
        series_results(8, runs=1)[0],
        environment=Environment(environment().to_dict() | {"cpu": {"model": "Other CPU"}}),
    )
    other_input = dataclasses.replace(
        series_results(9, runs=1)[0],
        options=dataclasses.replace(results[0].options, data_mode="stream", chunk_bytes=65536),
    )
    others = record(history, [other_cipher[0], other_cpu, other_input])
    series = series_of(history, ids[0])
    assert [s.id for s in series] == ids[::-1]
    for run_id in others:
        assert [s.id for s in series_of(history, run_id)] == [run_id]
    lone = trend_of(history, others[0])
    assert len(lone.runs) == 1 and lone.steps == ()


def test_what_cannot_be_trended_says_so_in_one_sentence(history) -> None:
    with pytest.raises(UserError, match="there is no run 42 in the history"):
        trend_of(history, 42)
    (run,) = stored(series_results(1, runs=1))
    sweep = StoredRun(dataclasses.replace(run.summary, kind="sweep"), run.result)
    with pytest.raises(UserError, match="sweeps and ladders have no trend"):
        definition_of(sweep)


def test_find_steps_on_plain_values() -> None:
    flat = [[0.0, 0.001, -0.001]] * 6
    assert find_steps(flat) == []
    stepped = flat[:3] + [[0.2, 0.201, 0.199]] * 3  # times up by 22 %: throughput -18 %
    (b,) = find_steps(stepped)
    assert b.at == 3 and b.step and b.low <= 0.2 <= b.high


def test_studies_and_transfers_have_series_too(history) -> None:
    from history_factories import study_result, transfer_run, transfer_study

    days = ("2026-11-02T10:00:00+00:00", "2026-11-03T10:00:00+00:00")
    studies = [history.record(study_result(day)) for day in days]
    transfers = [history.record(transfer_run(day)) for day in days]
    loops = [history.record(transfer_study(day)) for day in days]
    t = trend_of(history, studies[1])
    assert [r.id for r in t.runs] == studies and t.kind == "study"
    assert t.entry_names() == [
        "aes-128-cbc [pycryptodome] on 2 KB",
        "aes-256-cbc [pycryptodome] on 2 KB",
        "aes-128-cbc [pycryptodome] on 4 KB",
        "aes-256-cbc [pycryptodome] on 4 KB",
    ]
    assert all(e.steps == () and math.isnan(e.noise) for e in t.entries)  # two runs: too few
    point = t.entries[0].points[0]
    assert point is not None and point.rounds == 2 and not point.has_interval
    t = trend_of(history, transfers[0])
    assert [r.id for r in t.runs] == transfers
    assert [(e.entry, e.direction) for e in t.entries] == [
        ("aes-256-gcm (cryptography) on random 200 KB", "transfer"),
        ("none on random 200 KB", "transfer"),
    ]
    assert t.entries[0].points[0].throughput_mb_s == pytest.approx(200_000 / 0.011 / 1e6)  # type: ignore[union-attr]
    # a study of transfers is a study of its own definition, not a cipher study's
    assert [r.id for r in trend_of(history, loops[0]).runs] == loops


def test_a_file_that_grew_between_runs_is_no_step() -> None:
    """A study of a file the user appended to: the time per run doubles with the bytes, the
    throughput (what the points show) does not; no step may be marked on the time alone."""
    results = series_results(21)
    grown = []
    for i, r in enumerate(results):
        factor = 2 if i >= STEP_AT else 1
        jobs = tuple(
            dataclasses.replace(
                j,
                input_bytes=j.input_bytes * factor,
                encrypt=dataclasses.replace(
                    j.encrypt, samples_s=tuple(x * factor for x in j.encrypt.samples_s)
                ),
                decrypt=dataclasses.replace(
                    j.decrypt, samples_s=tuple(x * factor for x in j.decrypt.samples_s)
                ),
            )
            for j in r.results
        )
        grown.append(dataclasses.replace(r, results=jobs))
    t = trend(stored(grown), 1)
    assert t.steps == ()
