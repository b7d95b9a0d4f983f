"""A run of pure Python ciphers on a large input: asked first, and an honest time left."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Dialogs
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.core.bench.jobs import Job
from app.gui.main.window import MainWindow
from app.gui.panels.progress_panel import ProgressInfo
from app.gui.selection import make_selection
from app.gui.settings import AppSettings


class _StalledRun:
    """A run that starts and then waits until cancelled (nothing is measured)."""

    def __init__(self, jobs: list[Job], cancel: threading.Event) -> None:
        self.jobs = jobs
        self._stop = cancel

    def __iter__(self) -> Iterator[Any]:
        return self.events()

    def events(self) -> Iterator[Any]:
        yield from ()
        self._stop.wait(10)


@pytest.fixture
def big_file(tmp_path: Path) -> Path:
    path = tmp_path / "large.bin"
    path.write_bytes(b"\0" * 3_000_000)  # pyaes: 14 passes at 0.4 MB/s, about 105 s
    return path


def _window(qtbot: QtBot, settings: AppSettings, path: Path, library: str) -> MainWindow:
    w = MainWindow(settings=settings, run_factory=_StalledRun)
    qtbot.addWidget(w)
    assert w.controller.set_input_file(str(path))
    w.selection_panel.set_selection(make_selection({"AES": ((128,), ("CTR",))}, (library,)))
    return w


def test_a_long_run_is_confirmed_first(
    qtbot: QtBot, settings: AppSettings, dialogs: Dialogs, big_file: Path
) -> None:
    w = _window(qtbot, settings, big_file, "pyaes")
    dialogs.answer = QMessageBox.StandardButton.No
    w.run_action.trigger()
    assert not w.controller.running
    (title, text), *_ = dialogs.questions
    assert title == "A long run" and "pyaes (pure Python)" in text and "about 2 min" in text
    assert "Not started" in w.status_label.text()


def test_the_time_left_starts_from_the_planned_work(
    qtbot: QtBot, settings: AppSettings, dialogs: Dialogs, big_file: Path
) -> None:
    w = _window(qtbot, settings, big_file, "pyaes")
    seen: list[ProgressInfo] = []
    w.controller.progress_changed.connect(seen.append)
    w.run_action.trigger()
    assert w.controller.running and len(dialogs.questions) == 1
    remaining = seen[-1].remaining_s
    assert remaining is not None and 90 <= remaining <= 120  # not "7 s"
    w.controller.cancel()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=60_000)


def test_fast_libraries_start_without_a_question(
    qtbot: QtBot, settings: AppSettings, dialogs: Dialogs, big_file: Path
) -> None:
    w = _window(qtbot, settings, big_file, "cryptography")
    w.run_action.trigger()
    assert w.controller.running and dialogs.questions == []
    w.controller.cancel()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=60_000)
