"""Running studies at tiny sizes: interleaved rounds, seeded inputs, vanished files, cancel."""

import hashlib
import os
from pathlib import Path

import pytest
from leftovers import leftovers
from vocabulary import records
from vocabulary import result as run_result

from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.grid_run import seeded_bytes, seeded_input
from app.core.study.runner import StudyRun, merge_rounds
from app.core.study.steps import CellFailed, CellFinished, StepStarted, StudyStarted

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs")

FAST = (CipherChoice("aes-128-ctr", "cryptography"), CipherChoice("rc4", "cryptography"))


def _study(**changes):
    values = dict(
        name="tiny",
        ciphers=FAST,
        sizes=(SizeInput("2 KB", 2000), SizeInput("4 KiB", 4096)),
        repeat=2,
        rounds=1,
        warmup=0,
        measure_memory=False,
        min_time_s=0.0,
        time_budget_s=0.0,  # no rounds beyond ``rounds`` unless a test asks
    )
    values.update(changes)
    return Study(**values)


def _run(run, on_event=None, vocabulary=None):
    """The records of ``run``'s events (each handed to ``on_event`` as it comes) and its
    result; the events themselves appended to ``vocabulary``."""
    events = [] if vocabulary is None else vocabulary
    for ev in run.events():
        events.append(ev)
        if on_event:
            for record in records([ev]):
                on_event(record)
    return records(events), run_result(events)


def test_interleaved_rounds_merge_samples(scratch_tmp):
    study = _study(repeat=6, rounds=3)
    vocabulary: list = []
    events, result = _run(StudyRun(study, environment=False), vocabulary=vocabulary)
    fractions = [e.fraction for e in vocabulary[:-1] if hasattr(e, "fraction")]
    assert fractions == sorted(fractions) and fractions[-1] >= 11 / 12  # of the whole study
    whats = {e.what for e in vocabulary[:-1] if isinstance(getattr(e, "detail", None), StepStarted)}
    assert len(whats) == 12 and any(w.startswith("[5/12] round 2/3 ") for w in whats)
    started = events[0]
    assert isinstance(started, StudyStarted) and started.total_steps == 4 * 3
    steps = [ev for ev in events if isinstance(ev, StepStarted)]
    # The whole grid per round, each round in a seeded random order of its own.
    order = [(ev.round, ev.cell.index) for ev in steps]
    assert [r for r, _ in order] == [r for r in range(3) for _ in range(4)]
    per_round = [[i for r, i in order if r == k] for k in range(3)]
    assert all(sorted(p) == [0, 1, 2, 3] for p in per_round)
    again, _ = _run(StudyRun(study, environment=False))
    assert [(ev.round, ev.cell.index) for ev in again if isinstance(ev, StepStarted)] == order
    assert len(result.results) == 4 and not result.failures and not result.cancelled
    for r in result.results:
        assert len(r.encrypt.samples_s) == len(r.decrypt.samples_s) == 3 * 2
        assert [x.round for x in r.rounds] == [0, 1, 2]
        assert [len(s) for s in r.round_samples("decrypt")] == [2, 2, 2]
        assert r.verified_round_trips >= 3  # each round's samples end in a check (a slice)
        assert r.encrypt.median_s > 0
    assert result.interleaved and result.rounds_completed == 3
    assert "interleaved" in result.how_run()
    finished = [ev.result for ev in events if isinstance(ev, CellFinished)]
    assert len(finished) == 4
    # the final result keeps the cells' merged results, not merged again
    assert all(a is b for a, b in zip(finished, result.results, strict=True))
    # per input, each pair, both directions
    assert len(result.comparisons) == 2 * 1 * 2
    assert {c.direction for c in result.comparisons} == {"encrypt", "decrypt"}
    assert all(f.fit is not None for f in result.fits)
    assert {s.input_label for s in result.speedups} == {"2 KB", "4 KiB"}
    assert not [name for name in leftovers(scratch_tmp) if "/" in name]


def test_merge_recomputes_statistics(scratch_tmp):
    _, done = _run(StudyRun(_study(sizes=(SizeInput("2 KB", 2000),)), environment=False))
    one = done.results[0]
    merged = merge_rounds([one, one])
    assert len(merged.encrypt.samples_s) == 2 * len(one.encrypt.samples_s)
    assert merged.encrypt.median_s == one.encrypt.median_s
    assert merged.verified_round_trips == 2 * one.verified_round_trips


def test_seeded_inputs_are_reproducible(tmp_path):
    a = b"".join(seeded_bytes(7, 10_000, chunk=3000))
    assert a == b"".join(seeded_bytes(7, 10_000))
    assert a != b"".join(seeded_bytes(8, 10_000)) and len(a) == 10_000
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    first = seeded_input(SizeInput("10 KB", 10_000), 7, str(tmp_path / "x"))
    second = seeded_input(SizeInput("10 KB", 10_000), 7, str(tmp_path / "y"))
    digest = [hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in (first.path, second.path)]
    assert digest[0] == digest[1] and first.label == "10 KB" and first.generated


def test_generated_inputs_are_deleted(scratch_tmp):
    _run(StudyRun(_study(ciphers=FAST[:1]), environment=False))
    assert not [name for name in leftovers(scratch_tmp) if "/" in name]


@pytest.mark.parametrize("rounds", [1, 2])
def test_a_vanished_file_fails_only_its_jobs(tmp_path, rounds):
    keep, gone = tmp_path / "keep.bin", tmp_path / "gone.bin"
    keep.write_bytes(os.urandom(3000))
    gone.write_bytes(os.urandom(3000))
    study = _study(sizes=(), files=(str(keep), str(gone)), rounds=rounds)

    def delete(ev):
        # rounds=1: while keep.bin runs (the worker finds gone.bin missing);
        # rounds=2: at the end of round 1 (the check before round 2 finds it missing)
        started = isinstance(ev, StepStarted) and ev.round == 0
        if started and gone.exists() and (rounds == 1 or ev.cell.index == 3):
            gone.unlink()

    events, result = _run(StudyRun(study, environment=False), delete)
    assert {r.input_label for r in result.results} == {"keep.bin"} and len(result.results) == 2
    assert [f.input_label for f in result.failures] == ["gone.bin", "gone.bin"]
    assert all("vanished" in f.message for f in result.failures)
    assert len([ev for ev in events if isinstance(ev, CellFailed)]) == 2


def test_cancel_keeps_partial_results(scratch_tmp):
    run = StudyRun(_study(repeat=4, rounds=2), environment=False)

    def cancel_in_round_two(ev):
        if isinstance(ev, StepStarted) and ev.round == 1:
            run.cancel()

    _, result = _run(run, cancel_in_round_two)
    assert result.cancelled and result.rounds_completed == 1
    assert len(result.results) == 4  # the first round's samples, kept
    assert all(len(r.encrypt.samples_s) >= 2 for r in result.results)


def test_no_input_is_refused():
    from app.core.errors import UserError

    with pytest.raises(UserError, match=r"needs input files \(txt\)"):
        StudyRun(_study(sizes=(), file_slots=("txt",)))
    with pytest.raises(UserError, match="no such file"):
        StudyRun(_study(), files=["/nonexistent/file.bin"])


def test_claims_not_yet_precise_get_more_rounds_until_the_limit(scratch_tmp):
    """Tiny inputs vary far more than ±0.1 %: every claim stays unsettled, so the study runs
    up to max_rounds, announces each extra round, and keeps each round's share."""
    from app.core.study.steps import RoundsAdded

    study = _study(
        sizes=(SizeInput("2 KB", 2000),),
        rounds=2,
        max_rounds=4,
        time_budget_s=600.0,
        precision_percent=0.1,
        margin_percent=0.0,
    )
    events, result = _run(StudyRun(study, environment=False))
    added = [ev for ev in events if isinstance(ev, RoundsAdded)]
    assert [ev.round for ev in added] == [2, 3]
    assert all(len(ev.cells) == 2 for ev in added)
    assert result.rounds == 2 and result.rounds_completed == 4
    for r in result.results:
        assert [x.round for x in r.rounds] == [0, 1, 2, 3]
    for p in result.comparisons:
        assert p.comparison.rounds == 4
    assert "up to 4 interleaved rounds (2, then more for 2 cells)" in result.how_run()
    finished = [ev for ev in events if isinstance(ev, CellFinished)]
    assert len(finished) == 2 and events.index(finished[0]) > events.index(added[-1])


def test_a_budget_of_zero_stops_at_the_study_rounds(scratch_tmp):
    study = _study(sizes=(SizeInput("2 KB", 2000),), rounds=2, max_rounds=6, time_budget_s=0.0)
    _, result = _run(StudyRun(study, environment=False))
    assert result.rounds_completed == 2


def test_the_same_entry_twice_is_an_a_a_control_labelled_2(scratch_tmp):
    ctr = CipherChoice("aes-128-ctr", "cryptography")
    study = _study(ciphers=(ctr, ctr), sizes=(SizeInput("2 KB", 2000),), rounds=3)
    _, result = _run(StudyRun(study, environment=False))
    labels = [r.label for r in result.results]
    assert labels == ["aes-128-ctr [cryptography]", "aes-128-ctr [cryptography] #2"]
    pair = [p for p in result.comparisons if p.direction == "encrypt"]
    assert len(pair) == 1
    assert pair[0].comparison.label_b == "aes-128-ctr [cryptography] #2"
    from app.core.bench.results import JobResult

    back = JobResult.from_dict(result.results[1].to_dict())
    assert back.label.endswith(" #2") and back.rounds == result.results[1].rounds


def test_a_round_added_says_the_steps_done_so_far_not_the_last_one_started() -> None:
    """After 2 rounds of 3 cells, a third round of all 3: 6 of 9 steps done (it read 5 of 9,
    the index of the last step started, and the bar stepped back at every round added)."""
    from app.core.study.steps import Cell, RoundsAdded, StepStarted, StudyStarted, StudySteps

    steps = StudySteps()
    cells = tuple(Cell(i, f"c{i} [lib]", "1 KB", 1000) for i in range(3))
    steps.started(StudyStarted(cells=cells, rounds=2, total_steps=6))
    for step in range(6):
        steps.step_started(StepStarted(step=step, round=step // 3, cell=cells[step % 3]))
    added = steps.added(RoundsAdded(round=2, cells=cells, total_steps=9))
    assert added.fraction == pytest.approx(6 / 9) and added.keep
