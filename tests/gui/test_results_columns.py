"""Choosing the results table's columns; compact defaults; the table back at the left."""

from __future__ import annotations

from gui_factories import job_result, shown_window
from pytestqt.qtbot import QtBot

from app.gui.main.window import MainWindow
from app.gui.results.result_columns import AGGREGATE_HEADER
from app.gui.results.results_table import (
    COLUMN_INDEX,
    COLUMNS,
    DEFAULT_HIDDEN,
    ResultsSortProxyModel,
    ResultsTableModel,
    ResultsTableView,
)
from app.gui.settings import AppSettings

RIGHT_SIDE_AT_1920_PX = 1920 - 480  # the screen less the left panel and the frame


def _view(qtbot: QtBot, rows: int = 3) -> tuple[ResultsTableView, ResultsTableModel]:
    model = ResultsTableModel()
    for i in range(rows):
        model.add_result(job_result(f"aes-{i}", warnings=("a warning the engine attached",)))
    proxy = ResultsSortProxyModel()
    proxy.setSourceModel(model)
    view = ResultsTableView()
    qtbot.addWidget(view)
    view.setModel(proxy)
    return view, model


def _shown(view: ResultsTableView) -> list[str]:
    return [c.header for i, c in enumerate(COLUMNS) if not view.isColumnHidden(i)]


def test_default_columns_fit_the_right_side_of_a_1920_px_screen(qtbot: QtBot) -> None:
    view, _model = _view(qtbot)
    view.fit_columns()
    shown = _shown(view)
    # the aggregate column only shows when a result has one (several processes)
    assert set(shown) == {c.header for c in COLUMNS} - DEFAULT_HIDDEN - {AGGREGATE_HEADER}
    for needed in ("Input", "Encrypted size (bytes)", "Ciphertext preview (hex)"):
        assert needed in shown
    header = view.horizontalHeader()
    before_warnings = sum(header.sectionSize(COLUMN_INDEX[h]) for h in shown[:-1])
    assert before_warnings <= RIGHT_SIDE_AT_1920_PX - 100  # all but the last (stretching) one


def test_header_menu_shows_and_hides_columns(qtbot: QtBot) -> None:
    view, _model = _view(qtbot)
    menu = view.column_menu()
    actions = {a.text(): a for a in menu.actions() if a.isCheckable()}
    assert [a.isChecked() for a in actions.values()] == [
        c.header not in DEFAULT_HIDDEN for c in COLUMNS
    ]
    with qtbot.waitSignal(view.columns_changed) as changed:
        actions["CPU (%)"].setChecked(True)
    assert not view.isColumnHidden(COLUMN_INDEX["CPU (%)"])
    assert "CPU (%)" not in changed.args[0]
    actions["Library"].setChecked(False)
    assert view.isColumnHidden(COLUMN_INDEX["Library"])
    default = next(a for a in menu.actions() if a.text() == "Default columns")
    default.trigger()
    assert set(view.hidden_columns()) == DEFAULT_HIDDEN


def test_the_last_visible_column_cannot_be_hidden(qtbot: QtBot) -> None:
    view, _model = _view(qtbot)
    view.set_hidden_columns([c.header for c in COLUMNS])
    assert _shown(view) == [COLUMNS[0].header]
    menu = view.column_menu()
    only = next(a for a in menu.actions() if a.text() == COLUMNS[0].header)
    assert only.isChecked() and not only.isEnabled()
    view.set_hidden_columns(["no such column", "Mode"])
    assert view.hidden_columns() == ["Mode"]


def test_chosen_columns_are_remembered(qtbot: QtBot, settings: AppSettings) -> None:
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    menu = w.table.column_menu()
    next(a for a in menu.actions() if a.text() == "Mode").setChecked(False)
    assert "Mode" in (settings.hidden_columns or [])
    again = MainWindow(settings=settings)
    qtbot.addWidget(again)
    assert again.table.isColumnHidden(COLUMN_INDEX["Mode"])


def test_reset_and_a_new_run_show_the_table_from_its_left_edge(
    qtbot: QtBot, settings: AppSettings
) -> None:
    w = shown_window(qtbot, MainWindow(settings=settings), (1000, 700))
    c = w.controller
    w.table.set_hidden_columns([])  # every column: wider than the window
    for i in range(3):
        c.model.add_result(job_result(f"aes-{i}"))
        c.results_changed.emit(c.model.results())
    bar = w.table.horizontalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    w._on_reset_action_triggered()
    assert bar.value() == 0
    bar.setValue(bar.maximum())
    c.model.add_result(job_result("next run"))
    c.results_changed.emit(c.model.results())
    assert bar.value() == 0
