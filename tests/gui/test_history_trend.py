"""The History window's Trend: the series is read in a worker (never in the window's thread),
then a window shows each entry over time, the interval as error bars and the planted step as
one labelled line between its two runs; noise alone draws no line; a run alone in its series
says so in the status bar; a sweep has no Trend; everything fits 1366x768."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from trend_factories import series_results, sweep

from app.core.history.store import History
from app.gui.history import history_tasks
from app.gui.history.history_window import HistoryWindow
from app.gui.history.trend_view import TrendWindow
from app.gui.settings import AppSettings

TIMEOUT_MS = 30_000
TWO = (("aes-256-ctr", "cryptography", 256), ("aes-128-gcm", "cryptography", 128))
CTR, GCM = "aes-256-ctr [cryptography] on input.bin", "aes-128-gcm [cryptography] on input.bin"


def record(db: Path, results) -> list[int]:
    with History.open(db) as history:
        return [history.record(r) for r in results]


def open_trend(qtbot: QtBot, settings: AppSettings, run_id: int) -> tuple[HistoryWindow, list]:
    """The History window with ``run_id`` selected and Trend clicked; the threads the series
    was read in."""
    threads: list[threading.Thread] = []
    read = history_tasks.trend

    def reading(path: Path, run: int):
        threads.append(threading.current_thread())
        return read(path, run)

    hw = HistoryWindow(settings=settings)
    qtbot.addWidget(hw)
    hw.show()
    hw.select_ids([run_id])
    assert hw.trend_button.isEnabled()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(history_tasks, "trend", reading)
        hw.trend_button.click()
        qtbot.waitUntil(lambda: bool(threads) and not hw.runner.busy, timeout=TIMEOUT_MS)
    return hw, threads


def test_a_planted_step_is_drawn_and_labelled(
    qtbot: QtBot, settings: AppSettings, history_db: Path
) -> None:
    ids = record(history_db, series_results(7, step_at=5, version_at=5, entries=TWO))
    hw, threads = open_trend(qtbot, settings, ids[-1])
    assert threads[0] is not threading.main_thread()  # read in a worker
    assert hw.trend_button.isEnabled()  # back once the worker is done
    w: TrendWindow = hw.trend_window
    qtbot.addWidget(w)
    assert w.isVisible() and w.windowTitle().startswith(f"Trend of run {ids[-1]}")
    assert [w.entry_box.itemData(i) for i in range(w.entry_box.count())] == [CTR, GCM]
    assert w.entry_box.itemText(0) == f"{CTR}  (2 steps)"
    for entry in (CTR, GCM):
        w.choose(entry)
        w.chart.flush()
        assert w.chart.entry == entry
        for direction in ("encrypt", "decrypt"):
            xs, ys = w.chart.curves[direction].getData()
            assert list(xs) == list(range(10)) and all(y > 700 for y in ys)
            assert w.chart.error_bars[direction].isVisible()
        (line,) = w.chart.visible_step_lines()
        assert line.value() == pytest.approx(4.5)  # between the fifth and the sixth run
        label = line.label.toPlainText()
        assert label.startswith("cryptography 50.0.2 -> 51.0.0\nencrypt -")
        assert "\ndecrypt -" in label
        text = w.details.text()
        assert f"Step at run {ids[5]}, encrypt: cryptography 50.0.2 -> 51.0.0: -" in text
        assert f"run {ids[4]} -> {ids[5]}: cryptography 50.0.2 -> 51.0.0" in text
    assert w.width() <= 1366 and w.height() <= 768
    hint = w.minimumSizeHint()
    assert hint.width() <= 1366 and hint.height() <= 700


def test_noise_alone_draws_no_step(qtbot: QtBot, settings: AppSettings, history_db: Path) -> None:
    ids = record(history_db, series_results(3))
    hw, _ = open_trend(qtbot, settings, ids[0])
    w: TrendWindow = hw.trend_window
    qtbot.addWidget(w)
    w.chart.flush()
    assert w.chart.visible_step_lines() == []
    assert w.entry_box.itemText(0) == CTR  # no step count
    assert "No step beyond the noise (spread between runs: encrypt" in w.details.text()
    assert "Nothing changed in the environment along the series" in w.details.text()


def test_a_run_alone_and_a_sweep(qtbot: QtBot, settings: AppSettings, history_db: Path) -> None:
    (alone,) = record(history_db, series_results(1, runs=1))
    hw, _ = open_trend(qtbot, settings, alone)
    assert getattr(hw, "trend_window", None) is None
    assert f"Run {alone} has no series" in hw.statusBar().currentMessage()
    (sweep_id,) = record(history_db, [sweep()])
    hw.refresh()
    hw.select_ids([sweep_id])
    assert not hw.trend_button.isEnabled()


def test_runs_spaced_by_date_sit_at_their_days_and_the_step_between_its_two_runs(
    qtbot: QtBot, settings: AppSettings, history_db: Path
) -> None:
    import dataclasses

    from app.gui.history.trend_chart import tick_labels

    results = series_results(7, step_at=5, version_at=5, entries=TWO)
    days = [0, 1, 2, 3, 4, 20, 21, 22, 40, 41]  # two long gaps: the step falls in the first
    results = [
        dataclasses.replace(r, started_at=_later(d)) for r, d in zip(results, days, strict=True)
    ]
    ids = record(history_db, results)
    hw, _ = open_trend(qtbot, settings, ids[-1])
    w: TrendWindow = hw.trend_window
    qtbot.addWidget(w)
    w.choose(CTR)
    w.chart.flush()
    assert list(w.chart.curves["encrypt"].getData()[0]) == list(range(10))  # evenly, in order
    w.by_date.setChecked(True)
    w.chart.flush()
    assert list(w.chart.curves["encrypt"].getData()[0]) == pytest.approx(days)
    (line,) = w.chart.visible_step_lines()
    assert line.value() == pytest.approx(12.0)  # between day 4 and day 20
    major, minor = tick_labels(w.chart.trend, [float(d) for d in days])
    labelled = [x for x, _ in major]
    assert labelled[0] == 0 and labelled[-1] == 41  # the last run's label always
    assert all(b - a >= 41 / 12 * 0.999 for a, b in itertools.pairwise(labelled))
    assert sorted(labelled + [x for x, _ in minor]) == [float(d) for d in days]
    w.by_date.setChecked(False)
    w.chart.flush()
    assert w.chart.visible_step_lines()[0].value() == pytest.approx(4.5)


def _later(days: int) -> str:
    from datetime import UTC, datetime, timedelta

    return (datetime(2026, 10, 1, 10, tzinfo=UTC) + timedelta(days=days)).isoformat()
