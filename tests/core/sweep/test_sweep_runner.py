"""Rounds in fresh workers: interleaved, cancellable, failures kept apart; the ladder's switch
really switches (a functional check with a wide margin: the factor is about 30x here)."""

from __future__ import annotations

import threading

from app.core.runtime.events import Finished, Progress
from app.core.sweep.jobs import SweepJob, SweepPlan
from app.core.sweep.plan import ladder_jobs
from app.core.sweep.report import ladder_verdicts
from app.core.sweep.results import SweepResult
from app.core.sweep.runner import run_sweep


def swept(jobs, rounds: int, options=None, seen=None, kind="sweep", **kw) -> SweepResult:
    """The result of :func:`run_sweep`, each progress event's ``what`` kept in ``seen``."""
    plan = SweepPlan(kind, tuple(jobs), rounds, options or {}, **kw)
    for event in run_sweep(plan):
        if isinstance(event, Progress) and seen is not None:
            seen.append(event.what)
        elif isinstance(event, Finished):
            return event.result
    raise AssertionError("no Finished event")


def small(cipher: str = "aes-128-ctr", **kw) -> SweepJob:
    fields = {"lengths": (64, 4096), "point_time_s": 0.003, "key_bits": 128}
    fields.update(kw)
    return SweepJob(cipher, "cryptography", **fields)


def test_rounds_run_in_fresh_workers_interleaved_and_merge_into_one_entry_each() -> None:
    seen: list[str] = []
    jobs = [small(), small("aes-128-gcm", forgery=False)]
    result = swept(jobs, 2, {"lengths": [64, 4096]}, seen=seen)
    assert not result.failures and not result.cancelled
    starts = list(dict.fromkeys(seen))
    # round 1 of both entries before round 2 of either, each round in its seeded order
    assert sorted(starts[:2]) == ["round 1/2 aes-128-ctr [cryptography]",
                                  "round 1/2 aes-128-gcm [cryptography]"]  # fmt: skip
    assert sorted(starts[2:]) == ["round 2/2 aes-128-ctr [cryptography]",
                                  "round 2/2 aes-128-gcm [cryptography]"]  # fmt: skip
    for e in result.entries:
        assert e.rounds == 2
        assert all(len(p.rounds_ns) == 2 and len(p.round_medians_ns) == 2 for p in e.points)
    assert result.options["rounds"] == 2 and result.environment.cpu_model is not None


def test_a_failing_entry_is_reported_and_the_others_still_run() -> None:
    bad = small(lengths=(64,), key_bits=100)  # AES has no 100-bit key
    result = swept([bad, small()], 1)
    assert [e.cipher for e in result.entries] == ["aes-128-ctr"] and not result.cancelled
    (failure,) = result.failures
    assert failure.label == "aes-128-ctr [cryptography]" and failure.message


def test_a_cancel_stops_the_worker_and_keeps_the_finished_rounds() -> None:
    cancel = threading.Event()
    events = run_sweep(SweepPlan("sweep", (small(),), 3), cancel)
    for event in events:
        if isinstance(event, Progress) and event.what.startswith("round 2/3"):
            cancel.set()
        if isinstance(event, Finished):
            result = event.result
    assert result.cancelled and not result.failures
    assert [e.rounds for e in result.entries] == [1]


def test_the_ladder_switches_the_aes_instructions_off_in_its_worker_only() -> None:
    jobs, notes = ladder_jobs("aes-128-ctr")
    quick = [SweepJob(**{**j.__dict__, "lengths": (64 * 1024,), "point_time_s": 0.02})
             for j in jobs[:2]]  # fmt: skip
    result = swept(quick, 1, kind="ladder", title="aes-128-ctr", notes=tuple(notes[:2]))
    on, off = (e.curve()[0].ns_per_byte for e in result.entries)
    assert off > 2 * on, (on, off)
    assert result.entries[1].label == "aes-128-ctr [cryptography, AES instructions off]"
    (verdict,) = ladder_verdicts(result)
    assert "slower with the AES instructions off (the switch worked)" in verdict
