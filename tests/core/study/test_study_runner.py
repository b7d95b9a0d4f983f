"""Running studies at tiny sizes: interleaved rounds, seeded inputs, vanished files, cancel."""

import hashlib
import os
from pathlib import Path

import pytest
from leftovers import leftovers

from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.runner import (
    CellFailed,
    CellFinished,
    StepStarted,
    StudyFinished,
    StudyRun,
    StudyStarted,
    merge_rounds,
    seeded_bytes,
    seeded_input,
)

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
    )
    values.update(changes)
    return Study(**values)


def _run(run, on_event=None):
    events = []
    for ev in run.events():
        events.append(ev)
        if on_event:
            on_event(ev)
    assert isinstance(events[-1], StudyFinished)
    return events, events[-1].result


def test_interleaved_rounds_merge_samples(scratch_tmp):
    study = _study(repeat=6, rounds=3)
    events, result = _run(StudyRun(study, environment=False))
    started = events[0]
    assert isinstance(started, StudyStarted) and started.total_steps == 4 * 3
    steps = [ev for ev in events if isinstance(ev, StepStarted)]
    # A, B, C, D, A, B, C, D, ...: the whole grid per round
    order = [(ev.round, ev.cell.index) for ev in steps]
    assert order == [(r, i) for r in range(3) for i in range(4)]
    assert len(result.results) == 4 and not result.failures and not result.cancelled
    for r in result.results:
        assert len(r.encrypt.samples_s) == len(r.decrypt.samples_s) == 3 * 2
        assert r.verified_round_trips >= 6
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
    _, result = _run(StudyRun(_study(sizes=(SizeInput("2 KB", 2000),)), environment=False))
    one = result.results[0]
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
