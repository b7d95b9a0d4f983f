"""TaskRunner: keeps workers referenced until they finish and says when it is busy."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from pytestqt.qtbot import QtBot

from app.core.errors import Cancelled
from app.gui.worker import TaskRunner, TaskWorker


def test_runner_is_busy_until_its_busy_workers_finish(qtbot: QtBot) -> None:
    runner = TaskRunner()
    changes: list[bool] = []
    runner.busy_changed.connect(changes.append)
    gate = threading.Event()
    quiet = runner.start(TaskWorker(lambda: 1))
    assert not runner.busy
    qtbot.waitUntil(lambda: quiet.done)
    slow = TaskWorker(gate.wait, 5)
    other = TaskWorker(lambda: 2)
    with qtbot.waitSignal(other.signals.finished, timeout=60_000):
        runner.start(slow, busy=True)
        runner.start(other, busy=True)
    assert runner.busy and changes == [True]
    with qtbot.waitSignal(runner.busy_changed, timeout=60_000) as blocker:
        gate.set()
    assert blocker.args == [False] and changes == [True, False]
    assert runner.wait_for_done(5000)


def test_runner_cancels_what_runs(qtbot: QtBot) -> None:
    runner = TaskRunner()
    seen = threading.Event()

    def work(*, on_progress: object, cancel: threading.Event) -> None:
        seen.set()
        cancel.wait(5)
        raise Cancelled()

    worker = TaskWorker(work, progress=True)
    runner.start(worker)
    assert seen.wait(5)
    with qtbot.waitSignal(worker.signals.cancelled, timeout=60_000):
        runner.cancel_all()
    qtbot.waitUntil(lambda: worker.done)
    assert runner.wait_for_done(5000)


def test_a_finished_worker_and_what_it_holds_are_freed(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A QRunnable that is not auto-deleted stays alive in PySide6 with all it holds (a
    window kept every run's worker and results, about 0.1 MB a run): the runner lets go."""
    monkeypatch.setattr(TaskRunner, "RELEASE_AFTER_MS", 50)
    runner = TaskRunner()
    held = []
    for _ in range(3):
        worker = TaskWorker(lambda: bytearray(10**6))
        held.append(weakref.ref(worker))
        runner.start(worker)
        qtbot.waitUntil(lambda w=worker: w.done)  # type: ignore[misc]
        del worker
    qtbot.waitUntil(lambda: runner.held == 0, timeout=10_000)
    gc.collect()
    assert [ref() for ref in held] == [None, None, None]
