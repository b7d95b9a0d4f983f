"""A transfer session with real tiny transfers (64 KB): several ciphers into one run, failures
that do not stop the others, cancel and Ctrl-C that leave no process behind."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from leftovers import no_workers_outlive, spawned_children

from app.core.bench.inputs import inspect_file
from app.core.bench.jobs import InputSpec
from app.core.errors import UserError
from app.core.runtime.envelope import NamedFailure
from app.core.runtime.events import Finished, Outcome, Progress
from app.core.transfer.results import TransferResult, TransferRun
from app.core.transfer.runner import TransferOptions
from app.core.transfer.session import (
    GENERATING,
    READING_MACHINE,
    TRANSFER,
    TransferProgress,
    run_transfers,
    transfer_input,
    transfer_session,
)

TINY = TransferOptions(chunk_bytes=16 * 1024, repeat=2, warmup=0, timeout_s=3.0)


def _workers() -> set[int]:
    return {p.pid for p in spawned_children()}


@pytest.fixture(autouse=True)
def no_orphans() -> Iterator[None]:
    with no_workers_outlive("a transfer process outlived the session"):
        yield


@pytest.fixture
def source(tmp_path: Path) -> InputSpec:
    p = tmp_path / "payload.bin"
    p.write_bytes(os.urandom(64_000))
    return inspect_file(p)


class Recorder:
    """Follows ``run_transfers``' events, keeping each kind here; ``each(event)`` sees every
    event first (a test's action mid-run)."""

    def __init__(self, each: Callable[[Any], None] = lambda _e: None) -> None:
        self.progress: list[TransferProgress] = []
        self.results: list[TransferResult] = []
        self.failures: list[NamedFailure] = []
        self.each = each

    def run(
        self, source: InputSpec, ciphers: list[str], options: TransferOptions, **kwargs: Any
    ) -> TransferRun:
        for event in run_transfers(source, ciphers, options, **kwargs):
            self.each(event)
            if isinstance(event, Progress):
                assert event.fraction == event.detail.fraction
                self.progress.append(event.detail)
            elif isinstance(event, Outcome):
                kept = self.failures if isinstance(event.value, NamedFailure) else self.results
                kept.append(event.value)
            else:
                assert isinstance(event, Finished)
                return event.result
        raise AssertionError("no Finished event")


def test_two_ciphers_make_one_run_with_options_environment_and_times(
    source: InputSpec,
) -> None:
    rec = Recorder()
    run = rec.run(source, ["aes-256-gcm", "none"], TINY)
    assert isinstance(run, TransferRun) and not run.cancelled and not run.failures
    assert [r.cipher_id for r in run.results] == ["aes-256-gcm", "none"]
    assert all(r.verified and len(r.runs) == 2 and r.chunks == 4 for r in run.results)
    assert rec.results == list(run.results)
    assert run.input_label == "payload.bin" and run.input_bytes == 64_000
    assert run.options == {"chunk_bytes": 16384, "repeat": 2, "warmup": 0, "timeout_s": 3.0}
    assert run.environment.logical_cores and run.environment.get("python")
    assert run.started_at <= run.finished_at and run.started_at.endswith("+00:00")
    assert run.cipherbench_version
    # Each cipher's start (done 0), each of its runs, then reading the machine.
    transfer = [(p.cipher, p.index, p.count, p.done, p.total) for p in rec.progress[:-1]]
    assert transfer == [
        ("aes-256-gcm", 0, 2, 0, 2),
        ("aes-256-gcm", 0, 2, 1, 2),
        ("aes-256-gcm", 0, 2, 2, 2),
        ("none", 1, 2, 0, 2),
        ("none", 1, 2, 1, 2),
        ("none", 1, 2, 2, 2),
    ]
    assert all(p.phase == TRANSFER for p in rec.progress[:-1])
    notes = [p.event().note for p in rec.progress[:3]]
    assert notes == ["run 1 of 2", "run 2 of 2", "run 2 of 2"]  # no warm-up here (TINY)
    assert [p.fraction for p in rec.progress[:3]] == [0.0, 0.25, 0.5]
    assert rec.progress[-1].phase == READING_MACHINE and rec.progress[-1].fraction == 1.0
    # The run reads back from its own document, as the history and the exports need.
    assert TransferRun.from_dict(run.to_dict()).results[1].cipher_id == "none"


def test_an_unknown_cipher_is_a_failure_and_the_others_still_run(source: InputSpec) -> None:
    rec = Recorder()
    run = rec.run(source, ["rot13", "aes-256-cbc", "none"], TINY, environment=False)
    assert [f.label for f in run.failures] == ["rot13", "aes-256-cbc"]
    assert "rot13" in run.failures[0].message and run.failures[1].message
    assert rec.failures == list(run.failures)
    assert [r.cipher_id for r in run.results] == ["none"] and not run.cancelled
    assert run.environment.to_dict() == {}  # environment=False: the machine is not read
    assert READING_MACHINE not in {p.phase for p in rec.progress}


def test_a_file_gone_before_the_next_cipher_fails_that_cipher_only(source: InputSpec) -> None:
    def delete_it(event: Any) -> None:
        if isinstance(event, Outcome) and os.path.exists(source.path):
            os.unlink(source.path)

    run = Recorder(delete_it).run(source, ["none", "aes-256-gcm"], TINY, environment=False)
    assert [r.cipher_id for r in run.results] == ["none"]
    assert run.failures == (
        NamedFailure("aes-256-gcm", "cannot read payload.bin: No such file or directory"),
    )


def test_cancel_mid_run_kills_the_transfer_and_returns_a_cancelled_run(
    source: InputSpec,
) -> None:
    cancel = threading.Event()

    def mid_second(event: Any) -> None:
        p = event.detail if isinstance(event, Progress) else None
        if p is not None and p.index == 1 and p.done == 3:  # the second cipher, mid-transfer
            assert len(_workers()) >= 2  # both of its ends are up
            cancel.set()

    rec = Recorder(mid_second)
    run = rec.run(
        source,
        ["none", "aes-256-gcm", "chacha20-poly1305"],
        TransferOptions(chunk_bytes=16 * 1024, repeat=20, warmup=0, timeout_s=3.0),
        cancel=cancel,
    )
    seen = rec.progress
    assert run.cancelled and not run.failures and not rec.failures
    assert [r.cipher_id for r in run.results] == ["none"] == [r.cipher_id for r in rec.results]
    second = [p.done for p in seen if p.phase == TRANSFER and p.index == 1]
    assert second == [0, 1, 2, 3]  # stopped right there: no further run reported
    assert not [p for p in seen if p.index == 2]  # the third cipher never started
    assert run.environment.logical_cores  # a cancelled run still says on what machine
    # no_orphans: both ends of the cancelled transfer are gone


def test_a_cancel_set_before_the_start_runs_nothing(source: InputSpec) -> None:
    cancel = threading.Event()
    cancel.set()
    rec = Recorder()
    run = rec.run(source, ["none"], TINY, cancel=cancel)
    assert run.cancelled and run.results == () and run.failures == ()
    assert rec.progress == []  # a cancelled run does not say it reads the machine
    assert run.environment.logical_cores  # yet it does: the run says on what machine


def test_ctrl_c_propagates_and_stops_both_ends(source: InputSpec) -> None:
    def interrupt(event: Any) -> None:
        if isinstance(event, Progress) and event.detail.done == 1:
            assert len(_workers()) >= 2
            raise KeyboardInterrupt

    slow = TransferOptions(chunk_bytes=16 * 1024, repeat=1000, warmup=0, timeout_s=3.0)
    with pytest.raises(KeyboardInterrupt):
        Recorder(interrupt).run(source, ["aes-256-gcm"], slow)
    # no_orphans checks that both ends are gone


def test_bad_options_fail_before_any_transfer(source: InputSpec) -> None:
    rec = Recorder()
    with pytest.raises(UserError, match="repetitions"):
        rec.run(source, ["none"], TransferOptions(repeat=0))
    assert not rec.progress and not rec.failures


def test_transfer_input_deletes_generated_data_and_keeps_a_given_file(
    source: InputSpec,
) -> None:
    with (
        pytest.raises(RuntimeError),
        transfer_input(None, size_bytes=5000, label="random 5 KB") as g,
    ):
        assert g.generated and g.label == "random 5 KB" and g.size_bytes == 5000
        assert os.path.getsize(g.path) == 5000
        raise RuntimeError("the run broke")
    assert not os.path.exists(g.path)
    with transfer_input(source.path) as f:
        assert not f.generated and f.label == "payload.bin"
    assert os.path.getsize(source.path) == 64_000
    with pytest.raises(UserError, match="no such file"):
        transfer_input(source.path + ".missing").__enter__()


def test_a_cancel_while_the_input_is_generated_ends_with_nothing_run_and_no_file() -> None:
    from app.core.runtime import scratch

    cancel = threading.Event()
    session = transfer_session(
        ["none"], TINY, size_bytes=50_000_000, label="random 50 MB", cancel=cancel
    )
    first = next(session)
    assert isinstance(first, Progress) and first.detail.phase == GENERATING
    cancel.set()  # the window's Cancel while the data is written
    assert list(session) == [Finished(None)]
    assert not list(scratch.root().glob("input-*.bin"))
