"""Hand-built engine values for GUI tests that do not need the real engine, windows set up the
way the tests use them, and the checks several windows share."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import factories
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QFileDialog, QWidget
from pytestqt.qtbot import QtBot

from app.core.bench.events import JobFinished, JobSecret
from app.core.bench.jobs import Job
from app.core.bench.measure import random_key_iv
from app.core.bench.results import JobResult, MonitorSample, RunResult
from app.core.ciphers.adapters import get_adapter
from app.core.ciphers.message import encrypt_bytes
from app.core.ciphers.registry import lookup
from app.core.runtime.events import Finished, Outcome

if TYPE_CHECKING:
    from app.gui.study.study_window import StudyWindow

W = TypeVar("W", bound=QWidget)
LAPTOP = (1366, 768)  # the smallest screen every window must fit


def shown_window(qtbot: QtBot, window: W, size: tuple[int, int] | None = LAPTOP) -> W:
    """``window`` closed with the test (qtbot), resized to ``size`` (a laptop's screen unless
    told; None: its own size) and shown."""
    qtbot.addWidget(window)
    if size is not None:
        window.resize(*size)
    window.show()
    return window


def stop_any_run(qtbot: QtBot, window: Any) -> None:
    """Cancels the run ``window`` still has going, if any, and waits for its end (a teardown)."""
    if window.controller.running:
        window.controller.cancel_and_wait()
    qtbot.waitUntil(lambda: not window.controller.running, timeout=60_000)


def set_study(
    window: StudyWindow, study: str, sizes: str, repeat: int = 2, rounds: int = 1
) -> None:
    """The study window's form set to run the preset ``study`` on ``sizes`` ("2KB, 4KB"),
    ``repeat`` times a round in ``rounds`` rounds."""
    window.form.choose(study)
    window.form.sizes_edit.setText(sizes)
    window.form.repeat_spin.setValue(repeat)
    window.form.rounds_spin.setValue(rounds)


def answer_save_dialog(monkeypatch: pytest.MonkeyPatch, path: Path | str, chosen: str = "") -> None:
    """Every save dialog answers ``path`` (as typed) with the filter ``chosen``."""
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(path), chosen))
    )


def assert_chart_saves(
    window: Any, chart: Any, monkeypatch: pytest.MonkeyPatch, folder: Path
) -> None:
    """The chart's Save chart… button writes a PNG where the user typed no extension and chose
    PNG, and the window's ``save_chart_to`` an SVG by its name (both in ``folder``)."""
    answer_save_dialog(monkeypatch, folder / "chart", "PNG image (*.png)")
    chart.save_requested.emit()  # its Save chart… button
    assert (folder / "chart.png").read_bytes().startswith(b"\x89PNG")
    assert window.save_chart_to(str(folder / "chart.svg")) is not None
    assert "<svg" in (folder / "chart.svg").read_text(encoding="utf-8")


def assert_opens_one_window(qtbot: QtBot, main: Any, name: str) -> Any:
    """The main window's ``<name>_action`` opens its ``<name>_window``, shown, and again the same
    one: that window, closed with the test."""
    action = getattr(main, f"{name}_action")
    action.trigger()
    first = getattr(main, f"{name}_window")
    qtbot.addWidget(first)
    assert first.isVisible()
    action.trigger()
    assert getattr(main, f"{name}_window") is first
    return first


def drop_files(window: QWidget, paths: list[Path]) -> None:
    """``paths`` dragged from a file manager and dropped on ``window``."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(
        QPointF(50, 50),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)


def job_result(
    cipher: str = "aes-256-ctr", library: str = "cryptography", **fields: Any
) -> JobResult:
    """tests/factories.job_result (``fields`` as there: ``enc_s``, ``peak_rss``, ``warnings``...)
    with a live monitor trace, as a finished worker sends it."""
    monitor = (MonitorSample(0.05, 50.0, 30 * 2**20), MonitorSample(0.1, 100.0, 60 * 2**20))
    return factories.job_result(cipher=cipher, library=library, monitor=monitor, **fields)


class KeepingRun:
    """A stand-in for the engine that finishes every job at once, with a real kept ciphertext
    (one message, as memory mode keeps it): what "Save encrypted…" needs, in milliseconds.
    ``data_mode`` overrides what the results say (the kept file stays one message)."""

    def __init__(
        self, jobs: list[Job], cancel: threading.Event | None = None, data_mode: str | None = None
    ) -> None:
        self.jobs = jobs
        self.data_mode = data_mode
        self.cancelled = cancel or threading.Event()

    def __iter__(self) -> Iterator[Any]:
        """A run factory's value: its events (``run_factory=KeepingRun``)."""
        return self.events()

    def events(self) -> Iterator[Any]:
        results = []
        for i, job in enumerate(self.jobs):
            spec = lookup(job.cipher_id, job.library, job.key_bits)
            data = Path(job.input.path).read_bytes()
            key, iv = random_key_iv(spec)
            secret = None
            if job.keep_ciphertext_path:
                ct = encrypt_bytes(spec, get_adapter(spec.library), key, iv, data)
                Path(job.keep_ciphertext_path).write_bytes(ct)
                secret = JobSecret(job.keep_ciphertext_path, key, iv)
            result = dataclasses.replace(
                job_result(
                    spec.id,
                    spec.library,
                    algorithm=spec.algorithm,
                    mode=spec.mode,
                    key_bits=spec.key_bits,
                    input_bytes=len(data),
                ),
                input_label=job.input.label,
                data_mode=self.data_mode or job.options.data_mode,
                chunk_bytes=job.options.chunk_bytes if self.data_mode == "stream" else None,
            )
            results.append(result)
            yield Outcome(JobFinished(i, result, secret))
        yield Finished(RunResult(tuple(results), (), {}, {}, "t0", "t1"))
