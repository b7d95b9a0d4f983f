"""Fixtures for the window tests: offscreen Qt, isolated settings, no blocking dialogs."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths, QThreadPool
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.gui.settings import AppSettings

if TYPE_CHECKING:
    from app.gui.main.window import MainWindow


@pytest.fixture(autouse=True)
def _isolated_qt_settings(tmp_path: Path) -> Iterator[None]:
    """Nothing a test does reaches the user's real settings."""
    QStandardPaths.setTestModeEnabled(True)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    QCoreApplication.setOrganizationName("CipherBenchTests")
    QCoreApplication.setApplicationName("CipherBenchTests")
    yield
    from app.gui.recorder import wait_for_stores

    wait_for_stores()  # a run the test finished is stored in its test, not in the next one
    QThreadPool.globalInstance().waitForDone(10_000)


@pytest.fixture(autouse=True)
def _collect_in_gui_thread(qapp: QCoreApplication) -> Iterator[None]:
    """As the app does (app.gui.gui_gc): cyclic garbage is collected in the GUI thread only."""
    from app.gui.gui_gc import collect_in_gui_thread

    collector = collect_in_gui_thread(qapp)
    yield
    collector.stop()
    collector.deleteLater()


@pytest.fixture
def settings(tmp_path: Path) -> AppSettings:
    return AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def main_window(qtbot: QtBot, settings: AppSettings) -> MainWindow:
    """The main window on this test's settings, not shown; closed with the test."""
    from app.gui.main.window import MainWindow

    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    return w


@dataclass
class Dialogs:
    """Message boxes the code under test opened, instead of blocking on them."""

    warnings: list[tuple[str, str]] = field(default_factory=list)
    notices: list[tuple[str, str]] = field(default_factory=list)
    questions: list[tuple[str, str]] = field(default_factory=list)
    answer: QMessageBox.StandardButton = QMessageBox.StandardButton.Yes  # to every question


@pytest.fixture
def dialogs(monkeypatch: pytest.MonkeyPatch) -> Dialogs:
    seen = Dialogs()

    def warning(_parent: object, title: str, text: str, *args: object) -> int:
        seen.warnings.append((title, text))
        return 0

    def information(_parent: object, title: str, text: str, *args: object) -> int:
        seen.notices.append((title, text))
        return 0

    def question(_parent: object, title: str, text: str, *args: object) -> object:
        seen.questions.append((title, text))
        return seen.answer

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(warning))
    monkeypatch.setattr(QMessageBox, "information", staticmethod(information))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return seen


QUICK_MIN_TIME_S = 0.005


@pytest.fixture
def quick_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's jobs timed for 5 ms a direction instead of 100 ms (still in real workers):
    for the tests of what the window does with results, not of the timing."""
    from dataclasses import replace

    from app.gui.panels.options_panel import OptionsPanel

    chosen = OptionsPanel.options
    monkeypatch.setattr(
        OptionsPanel,
        "options",
        lambda self: replace(chosen(self), min_time_s=QUICK_MIN_TIME_S),
    )
