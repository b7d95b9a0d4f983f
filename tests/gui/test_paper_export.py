"""Export for a paper…: next to Export in every window with results, enabled only with a result
that has a paper set, a folder dialog (replaced here: never a real one), the files written off
the GUI thread, success in the status bar, failures in a message box."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Dialogs
from gui_factories import set_study
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox
from pytestqt.qtbot import QtBot
from test_study_window import FakeStudyRun, _run

from app.core.kinds import formats
from app.gui import paper_export
from app.gui.main.window import MainWindow
from app.gui.settings import AppSettings
from app.gui.study.study_window import StudyWindow
from app.gui.sweep.sweep_window import SweepWindow
from app.gui.transfer.transfer_window import TransferWindow
from tests.core.history.history_factories import bench_run, transfer_run

TIMEOUT_MS = 60_000  # the first figure of a process imports matplotlib
NAMES = ["aes-key-sizes.md", "aes-key-sizes.tex", "aes-key-sizes.svg", "aes-key-sizes.pdf"]


def _choose(monkeypatch: pytest.MonkeyPatch, folder: Path | str) -> list[str]:
    """The folder dialog answers ``folder``; returns the folders it was opened in."""
    opened: list[str] = []

    def choose(_parent: object, _caption: str, start: str = "", *args: object) -> str:
        opened.append(start)
        return str(folder)

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(choose))
    return opened


def _menu_after_export(window: QMainWindow, action: QAction) -> bool:
    """Whether ``action`` comes right after the window's Export action in its menu."""
    for menu_action in window.menuBar().actions():
        actions = menu_action.menu().actions()
        if window.export_action in actions:  # type: ignore[attr-defined]
            return actions[actions.index(window.export_action) + 1] is action  # type: ignore[attr-defined]
    return False


@pytest.fixture
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder chosen for the paper set: an empty one (tmp_path holds the settings file)."""
    return tmp_path_factory.mktemp("paper")


def _export_for_paper(
    qtbot: QtBot, w: Any, monkeypatch: pytest.MonkeyPatch, folder: Path
) -> list[str]:
    """Export for a paper… into ``folder``, once the window's result enables it: the names
    found there when the writing is done."""
    w._update_actions()
    assert w.paper_action.isEnabled()
    _choose(monkeypatch, folder)
    w.paper_action.trigger()
    qtbot.waitUntil(lambda: not w.paper_exporter.busy, timeout=TIMEOUT_MS)
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def study_window(qtbot: QtBot, settings: AppSettings, dialogs: Dialogs) -> Iterator[StudyWindow]:
    w = StudyWindow(run_factory=FakeStudyRun, settings=settings)
    qtbot.addWidget(w)
    set_study(w, "aes-key-sizes", "2KB, 4KB, 400KB")
    yield w
    qtbot.waitUntil(lambda: not w.paper_exporter.busy, timeout=TIMEOUT_MS)
    w.controller.exported = True  # no question at teardown
    w.close()


@pytest.fixture
def finished_window(qtbot: QtBot, study_window: StudyWindow) -> StudyWindow:
    """The study window once its (fake) study has run: Export for a paper… is enabled."""
    _run(qtbot, study_window)
    return study_window


def test_the_study_window_writes_the_paper_set_off_the_gui_thread(
    qtbot: QtBot,
    study_window: StudyWindow,
    settings: AppSettings,
    folder: Path,
    dialogs: Dialogs,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = study_window
    assert not w.paper_action.isEnabled() and not w.paper_button.isEnabled()
    assert _menu_after_export(w, w.paper_action)
    _run(qtbot, w)
    assert w.paper_action.isEnabled() and w.paper_button.isEnabled()
    (folder / "start").mkdir()
    settings.last_folder = str(folder / "start")
    opened = _choose(monkeypatch, folder)
    threads: list[threading.Thread] = []
    real = paper_export.write_paper_set

    def spy(*args: Any, **kwargs: Any) -> list[Path]:
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(paper_export, "write_paper_set", spy)
    w.paper_button.click()
    assert w.paper_exporter.busy and not w.paper_action.isEnabled()  # one set at a time
    qtbot.waitUntil(lambda: not w.paper_exporter.busy, timeout=TIMEOUT_MS)
    assert opened == [str(folder / "start")]
    assert threads and threads[0] is not threading.main_thread()
    # the key-length study's paper printed times and memory: those figures too
    more = [f"aes-key-sizes-{q}{s}" for q in ("time", "memory") for s in (".svg", ".pdf")]
    wanted = sorted([*NAMES, *more, "methods.txt", "start"])
    assert sorted(p.name for p in folder.iterdir()) == wanted
    said = w.statusBar().currentMessage()
    assert said.startswith(f"Wrote 9 files for a paper to {folder}: aes-key-sizes.md")
    assert settings.last_folder == str(folder)
    assert w.paper_action.isEnabled() and not dialogs.warnings


def test_files_there_are_replaced_only_when_the_user_agrees(
    finished_window: StudyWindow, folder: Path, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch
) -> None:
    (folder / "aes-key-sizes.md").write_text("my edited table")
    _choose(monkeypatch, folder)
    dialogs.answer = QMessageBox.StandardButton.No
    finished_window.paper_action.trigger()
    assert len(dialogs.questions) == 1 and "aes-key-sizes.md" in dialogs.questions[0][1]
    assert not finished_window.paper_exporter.busy
    assert (folder / "aes-key-sizes.md").read_text() == "my edited table"
    _choose(monkeypatch, "")  # the dialog cancelled: nothing asked, nothing written
    finished_window.paper_action.trigger()
    assert len(dialogs.questions) == 1 and not finished_window.paper_exporter.busy


def test_a_failure_is_a_message_box(
    qtbot: QtBot,
    finished_window: StudyWindow,
    folder: Path,
    dialogs: Dialogs,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (folder / "aes-key-sizes.svg").mkdir()  # a folder where the figure goes
    _choose(monkeypatch, folder)
    finished_window.paper_action.trigger()  # "Replace them?" Yes
    qtbot.waitUntil(lambda: bool(dialogs.warnings), timeout=TIMEOUT_MS)
    title, text = dialogs.warnings[0]
    assert title == "Cannot export for a paper"
    assert str(folder / "aes-key-sizes.svg") in text and "\n" not in text
    assert "for a paper" not in finished_window.statusBar().currentMessage()


def write_fake(result: object, path: Path) -> None:
    Path(path).write_text("fake\n")


@pytest.fixture
def markdown_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kind has a .md format (others are adding theirs): the paper set picks it up."""
    real = formats.kind_of

    def kind_of(result: object) -> formats.ResultKind:
        kind = real(result)
        fake = formats.Format(".md", "Markdown", f"{__name__}:write_fake")
        return formats.ResultKind(kind.name, kind.what, (*kind.formats[:1], fake))

    monkeypatch.setattr(formats, "kind_of", kind_of)


@pytest.mark.usefixtures("dialogs", "markdown_everywhere")
def test_the_main_window_exports_its_run_for_a_paper(
    qtbot: QtBot, main_window: MainWindow, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = main_window
    assert _menu_after_export(w, w.paper_action) and not w.paper_action.isEnabled()
    w.controller._last_run = bench_run()  # as a finished run leaves it
    written = _export_for_paper(qtbot, w, monkeypatch, folder)
    assert written == ["cipherbench-bench.md", "methods.txt"]
    assert w.status_label.text().startswith("Wrote 2 files for a paper to ")
    w.close()


@pytest.mark.parametrize("window_type", [TransferWindow, SweepWindow])
def test_the_transfer_and_sweep_windows_have_it_next_to_export(
    qtbot: QtBot, settings: AppSettings, dialogs: Dialogs, window_type: type
) -> None:
    w = window_type(settings=settings)
    qtbot.addWidget(w)
    assert _menu_after_export(w, w.paper_action)
    assert not w.paper_action.isEnabled()  # no result yet
    w.close()


@pytest.mark.usefixtures("dialogs", "markdown_everywhere")
def test_the_transfer_window_exports_its_run_for_a_paper(
    qtbot: QtBot, settings: AppSettings, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = TransferWindow(settings=settings)
    qtbot.addWidget(w)
    w.controller.last_run = transfer_run()
    written = _export_for_paper(qtbot, w, monkeypatch, folder)
    assert written == ["cipherbench-transfer.md", "methods.txt"]
    w.close()
