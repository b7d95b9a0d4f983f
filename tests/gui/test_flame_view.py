"""The profile's flame graph in its window: a tab beside the tables, an entry chooser, a click
zooms in and out, the search highlights and counts, hovering names samples and share."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.core.kinds import table
from app.core.runtime.events import Finished
from app.gui.kind_window import KindWindow
from app.gui.profile.flame_view import HIGHLIGHT, FlameView
from tests.core.profile.test_profile_kind import made


def test_the_profile_window_has_a_flame_graph_tab(qtbot: QtBot) -> None:
    window = KindWindow(table.named("profile"))
    qtbot.addWidget(window)
    window.show()
    assert window.extra is not None and window.extra[0] == "Flame graph"
    window._on_worker_finished_run(Finished(made()))
    view = window.extra[1]
    assert isinstance(view, FlameView) and view.entry_box.count() == 1
    assert window.view.tables  # the tables are there too


def test_a_click_zooms_and_the_search_counts(qtbot: QtBot) -> None:
    view = FlameView()
    qtbot.addWidget(view)
    view.resize(900, 500)
    view.show()
    view.set_result(made())
    names = [name for _, name in view.items]
    assert names[:2] == ["aes-128-ctr [pyaes]", "decrypt"]  # the root, then A to Z
    rect = next(r for r, name in view.items if name == "encrypt")
    assert "samples" in rect.toolTip() and "%" in rect.toolTip()
    # a click on "encrypt" zooms into it: it spans the whole width, decrypt's frames are gone
    view.zoom(rect.data(0))
    encrypt = next(r for r, name in view.items if name == "encrypt")
    assert encrypt.rect().width() >= view.canvas.viewport().width() - 10
    assert "decrypt" not in [name for _, name in view.items]
    view.reset.click()
    assert "decrypt" in [name for _, name in view.items]
    view.search.setText(r"aes\.ENCRYPT")  # any case; drawn once typing pauses
    qtbot.waitUntil(lambda: view.found.text().startswith("matched: "), timeout=2000)
    hits = [r for r, name in view.items if r.brush().color() == HIGHLIGHT]
    assert len(hits) == 1
    view.search.setText("pyaes")  # the entry's own label is not a frame: not 100 %
    view.redraw()
    assert view.found.text() == "matched: 91.2 % of samples"
    view.search.setText("(")
    view.redraw()
    assert view.found.text() == "not a regular expression"
    assert not [r for r, _ in view.items if r.brush().color() == HIGHLIGHT]


def test_nothing_to_draw_says_so(qtbot: QtBot) -> None:
    view = FlameView()
    qtbot.addWidget(view)
    view.set_result(None)
    texts = [i.text() for i in view.canvas.scene().items() if hasattr(i, "text")]
    assert texts == ["No samples of timed calls to draw."]


def test_a_stored_profile_shows_its_flame_graph_in_the_history(qtbot: QtBot) -> None:
    from app.core.history.store import History
    from app.gui.history.run_view import StoredRunWindow

    with History.open() as history:
        stored = history.load(history.record(made()))
    window = StoredRunWindow(stored)
    qtbot.addWidget(window)
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert titles == ["Tables", "Flame graph"]
    flame = window.tabs.widget(1)
    assert isinstance(flame, FlameView) and flame.entry_box.count() == 1
