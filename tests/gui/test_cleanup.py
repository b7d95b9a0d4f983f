"""The window's Cancel, close and a SIGTERM leave none of CipherBench's temporary files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import Dialogs
from pytestqt.qtbot import QtBot

from app.core.runtime import scratch
from app.gui.app import READY_FILE_VARIABLE
from app.gui.main.window import MainWindow
from app.gui.selection import make_selection
from app.gui.settings import AppSettings

ROOT = Path(__file__).resolve().parents[2]


def _scratch_entries() -> list[str]:
    return sorted(p.name for p in scratch.root().rglob("*"))


def _stream_files() -> list[Path]:
    return list(scratch.root().glob("job-*/*.bin"))


def test_cancel_and_close_remove_stream_files_generated_input_and_kept_ciphertexts(
    qtbot: QtBot, settings: AppSettings, dialogs: Dialogs
) -> None:
    w = MainWindow(settings=settings)
    w.show()
    w.input_panel.size_combo.setCurrentText("4 MiB")
    w.input_panel.generate_button.click()
    qtbot.waitUntil(
        lambda: w.controller.input is not None and not w.controller.busy, timeout=60_000
    )
    generated = w.controller.input.path
    assert Path(generated).parent == scratch.root()
    w.selection_panel.set_selection(make_selection({"AES": ((128,), ("CTR",))}, ("pyaes",)))
    stream = w.options_panel.mode_combo.findData("stream")
    w.options_panel.mode_combo.setCurrentIndex(stream)
    w.options_panel.memory_check.setChecked(False)
    w.run_action.trigger()
    qtbot.waitUntil(lambda: bool(_stream_files()), timeout=20_000)  # pure Python: seconds
    w.cancel_action.trigger()
    qtbot.waitUntil(lambda: not w.controller.running, timeout=60_000)
    assert _stream_files() == [] and not list(scratch.root().glob("job-*"))
    assert os.path.exists(generated)  # still the input until the window closes
    w.close()
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=60_000)
    assert _scratch_entries() == []
    w.deleteLater()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_closes_the_window_with_the_usual_exit_code(tmp_path: Path, spawn) -> None:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "TMPDIR": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        READY_FILE_VARIABLE: str(tmp_path / "ready"),
    }
    proc = spawn(
        [sys.executable, str(ROOT / "main.py")],
        env=env,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    ready = tmp_path / "ready"
    deadline = time.monotonic() + 60  # a deadline for the condition, not a guess of seconds
    while not ready.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ready.exists(), "the window never came up"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)  # prompt on a quiet machine; a deadline under load
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    assert not list(tmp_path.glob("cipherbench-*"))
