"""The window's save dialogs never write over the file being benchmarked, nor into a device or a
pipe: the refusal is a message, and the file stays as it was."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Dialogs
from gui_factories import KeepingRun, answer_save_dialog
from pytestqt.qtbot import QtBot

from app.gui.main.window import MainWindow
from app.gui.selection import make_selection
from app.gui.settings import AppSettings

TIMEOUT_MS = 30_000


@pytest.fixture
def window(qtbot: QtBot, settings: AppSettings, dialogs: Dialogs) -> Iterator[MainWindow]:
    w = MainWindow(settings=settings, run_factory=KeepingRun)
    qtbot.addWidget(w)
    yield w
    w.close()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.csv"
    path.write_bytes(b"a,b\n1,2\n" * 300)
    return path


def _finish_a_job(qtbot: QtBot, w: MainWindow, path: Path) -> None:
    assert w.controller.set_input_file(str(path))
    w.selection_panel.set_selection(make_selection({"AES": ((256,), ("CTR",))}, ("cryptography",)))
    w.run_action.trigger()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=TIMEOUT_MS)
    assert w.controller.model.rowCount() == 1, w.controller.failures
    w.table.selectRow(0)


def test_export_refuses_the_benchmarked_file(
    qtbot: QtBot, window: MainWindow, dialogs: Dialogs, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _finish_a_job(qtbot, window, data)
    before = data.read_bytes()
    answer_save_dialog(monkeypatch, data)
    window.export_action.trigger()
    assert data.read_bytes() == before
    assert dialogs.warnings and "is the input file" in dialogs.warnings[-1][1]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_export_refuses_a_pipe(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _finish_a_job(qtbot, window, data)
    pipe = tmp_path / "results.csv"
    os.mkfifo(pipe)
    answer_save_dialog(monkeypatch, pipe)
    window.export_action.trigger()
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert "named pipe" in dialogs.warnings[-1][1] and "--force" not in dialogs.warnings[-1][1]


def test_save_plaintext_refuses_the_benchmarked_file(
    qtbot: QtBot, window: MainWindow, dialogs: Dialogs, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _finish_a_job(qtbot, window, data)
    inode = os.stat(data).st_ino  # the plaintext equals the input: only the identity tells
    answer_save_dialog(monkeypatch, data)
    window.save_plaintext_action.trigger()
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=TIMEOUT_MS)
    assert os.stat(data).st_ino == inode
    assert dialogs.warnings and "is the input file" in dialogs.warnings[-1][1]


def test_save_chart_refuses_the_benchmarked_file(
    qtbot: QtBot,
    window: MainWindow,
    dialogs: Dialogs,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    picture = tmp_path / "photo.png"
    picture.write_bytes(b"\x89PNG not really" * 100)
    _finish_a_job(qtbot, window, picture)
    before = picture.read_bytes()
    answer_save_dialog(monkeypatch, picture, "PNG image (*.png)")
    window.save_chart_action.trigger()
    assert picture.read_bytes() == before
    assert dialogs.warnings and "is the input file" in dialogs.warnings[-1][1]


def test_a_chosen_filter_gives_a_name_its_whole_extension() -> None:
    from app.gui.file_filters import with_suffix

    filters = {"JSON (*.json)": ".json", "speedscope (*.speedscope.json)": ".speedscope.json"}
    chosen = "speedscope (*.speedscope.json)"
    assert with_suffix("/t/p.json", chosen, filters) == "/t/p.speedscope.json"
    assert with_suffix("/t/p", chosen, filters) == "/t/p.speedscope.json"
    assert with_suffix("/t/p.speedscope.json", "JSON (*.json)", filters) == "/t/p.speedscope.json"
    assert with_suffix("/t/p.json", "JSON (*.json)", filters) == "/t/p.json"
