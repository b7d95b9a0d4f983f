"""The leak test's window: its form, the live |t| curve while a real worker measures, the
verdicts in the tables at the end, and the curve drawn from a stored result."""

from __future__ import annotations

import pytest
from gui_factories import shown_window
from pytestqt.qtbot import QtBot

from app.core.kinds import table
from app.gui.kind_window import KindWindow
from app.gui.leak.t_curve_view import TCurveView

TIMEOUT_MS = 60_000


@pytest.fixture
def window(qtbot: QtBot) -> KindWindow:
    return shown_window(qtbot, KindWindow(table.named("leak")), size=None)


def test_the_curve_grows_live_and_the_verdicts_follow(qtbot: QtBot, window: KindWindow) -> None:
    view = window.extra[1] if window.extra else None
    assert isinstance(view, TCurveView) and window.fields["cipher"].text() == "aes-128-ecb"
    window.fields["cipher"].setText("tag-compare-eq")
    window.fields["budget"].setText("3")
    window.run_button.click()
    assert window.tabs.currentWidget() is view  # the curve, while there are no tables yet
    qtbot.waitUntil(lambda: bool(view.data), timeout=TIMEOUT_MS)
    assert "|t| = " in window.status.text()
    qtbot.waitUntil(lambda: window.result is not None and not window.running, timeout=TIMEOUT_MS)
    assert window.tabs.currentWidget() is window.view
    shown = window.view.tables[0]
    assert shown.item(0, 0).text() == "tag-compare-eq"
    assert shown.item(0, shown.columnCount() - 1).text() == "leak"
    view.flush()
    (curve,) = view.curves.values()
    xs, ys = curve.getData()
    assert len(xs) >= 1 and max(ys) >= 10 and view.showing_data


def test_a_stored_result_draws_every_entry_and_a_new_run_clears_it(qtbot: QtBot) -> None:
    from tests.core.leak.test_leak import made

    view = TCurveView()
    qtbot.addWidget(view)
    view.set_result(made())
    view.flush()
    assert len(view.curves) == 3 and view.showing_data
    view.set_result(None)
    view.flush()
    assert not view.curves and not view.showing_data
