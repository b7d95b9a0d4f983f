"""The transfer's worker: the session's events relayed as signals through the one throttle."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.core.runtime.envelope import NamedFailure
from app.core.runtime.events import Finished, Outcome
from app.core.transfer.runner import TransferOptions
from app.core.transfer.session import READING_MACHINE, TRANSFER, TransferProgress
from app.gui.transfer import transfer_worker
from app.gui.transfer.transfer_worker import TransferRequest, TransferWorker

RUNS = 1000


def _session(ciphers: Any, _options: Any, **_kwargs: Any) -> Iterator[Any]:
    """Thousands of runs at once, a failure, then reading the machine, as the engine says."""
    yield TransferProgress("aes", 0, 1, 0, RUNS, TRANSFER).event()
    for done in range(1, RUNS + 1):
        yield TransferProgress("aes", 0, 1, done, RUNS, TRANSFER).event()
    yield Outcome(NamedFailure("aes", "boom"))
    yield TransferProgress("", 1, 1, 1, 1, READING_MACHINE).event()
    yield Finished("the run")


def test_progress_is_throttled_a_phase_goes_out_at_once_and_order_is_kept(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transfer_worker, "transfer_session", _session)
    worker = TransferWorker(
        TransferRequest(("aes",), TransferOptions(), path="in.bin"), min_interval_s=3600
    )
    got: list[tuple[str, Any]] = []
    for name in ("progressed", "outcome", "finished_run", "finished"):
        getattr(worker.signals, name).connect(
            lambda *a, n=name: got.append((n, a[0] if a else None))
        )
    with qtbot.waitSignal(worker.signals.finished, timeout=60_000):
        worker.run()
    shown = [(n, v.detail.done if n == "progressed" else v) for n, v in got]
    assert shown[0] == ("progressed", 0)  # a cipher's start: at once
    assert shown[1] == ("progressed", RUNS)  # the newest only, flushed before the failure
    assert shown[2] == ("outcome", Outcome(NamedFailure("aes", "boom")))
    assert got[3][1].detail.phase == READING_MACHINE  # another phase: at once
    assert got[3][1].what == "Reading the machine…"
    assert shown[4:] == [("finished_run", Finished("the run")), ("finished", None)]


def test_a_cancel_before_the_start_still_ends_with_the_runs_result(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    cancelled_at_start: list[bool] = []

    def session(_ciphers: Any, _options: Any, *, cancel: Any, **_kwargs: Any) -> Iterator[Any]:
        cancelled_at_start.append(cancel.is_set())
        yield Finished("a cancelled run")  # as the engine ends a run cancelled before it began

    monkeypatch.setattr(transfer_worker, "transfer_session", session)
    worker = TransferWorker(TransferRequest(("aes",), TransferOptions(), path="in.bin"))
    got: list[Any] = []
    worker.signals.finished_run.connect(got.append)
    worker.cancel()  # before the pool thread started it
    with qtbot.waitSignal(worker.signals.finished, timeout=60_000):
        worker.run()
    assert cancelled_at_start == [True] and got == [Finished("a cancelled run")]
