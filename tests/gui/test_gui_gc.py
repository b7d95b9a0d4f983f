"""Cyclic garbage is collected in the GUI thread only (app/gui/gui_gc.py)."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot

from app.gui import gui_gc
from app.gui.gui_gc import collect_in_gui_thread


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_a_cycle_made_in_a_pool_thread_is_freed_by_the_gui_threads_timer(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gui_gc, "INTERVAL_MS", 50)  # the timer's tick, not its length, is tested
    owner = QObject()
    collector = collect_in_gui_thread(owner)  # the conftest's collector is already running too
    try:
        assert not gc.isenabled()
        refs: list[weakref.ref[_Cycle]] = []

        def make_garbage() -> None:
            for _ in range(5_000):  # far over the first generation's threshold
                refs.append(weakref.ref(_Cycle()))

        thread = threading.Thread(target=make_garbage)
        thread.start()
        thread.join()
        assert all(r() is not None for r in refs)  # no collection ran in that thread
        qtbot.waitUntil(lambda: all(r() is None for r in refs), timeout=5_000)
    finally:
        collector.stop()
    assert gc.isenabled()
