"""The progress bars repaint with the next frame: ``QProgressBar.setValue`` repaints at once,
flushing the whole window's pending repaints inside the caller's event (a stall)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QProgressBar
from pytestqt.qtbot import QtBot

from app.gui.panels.progress_panel import LazyProgressBar


def _counting(cls: type[QProgressBar]) -> Any:
    class Counting(cls):  # type: ignore[misc, valid-type]
        paints = 0

        def paintEvent(self, event: Any) -> None:
            type(self).paints += 1
            super().paintEvent(event)

    return Counting


def _paints_at_once(qtbot: QtBot, cls: type[QProgressBar]) -> tuple[int, int]:
    bar = _counting(cls)()
    qtbot.addWidget(bar)
    bar.setRange(0, 1000)
    bar.show()
    qtbot.waitExposed(bar)
    qtbot.wait(50)
    before = bar.paints
    bar.setValue(500)
    at_once = bar.paints - before
    qtbot.waitUntil(lambda: bar.paints > before, timeout=2000)
    assert bar.value() == 500
    return at_once, bar.paints - before


def test_qt_progress_bar_paints_inside_set_value(qtbot: QtBot) -> None:
    """What the lazy bar avoids (if Qt changes this, the lazy bar is no longer needed)."""
    at_once, _later = _paints_at_once(qtbot, QProgressBar)
    assert at_once == 1


def test_the_lazy_bar_paints_with_the_next_frame(qtbot: QtBot) -> None:
    at_once, later = _paints_at_once(qtbot, LazyProgressBar)
    assert at_once == 0 and later >= 1
