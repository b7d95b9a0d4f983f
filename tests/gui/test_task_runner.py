"""TaskRunner: keeps workers referenced until they finish and says when it is busy."""

from __future__ import annotations

import threading

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
