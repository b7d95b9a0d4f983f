"""Where the history lives: the platform's data folder, or CIPHERBENCH_HISTORY; and
CIPHERBENCH_NO_HISTORY turns storing off."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from app.core.history.location import history_path, storing_disabled


def test_the_platform_data_folder_by_default(monkeypatch) -> None:
    monkeypatch.delenv("CIPHERBENCH_HISTORY")
    path = history_path()
    assert path.name == "history.sqlite3"
    assert path.parent == Path(platformdirs.user_data_dir("CipherBench", appauthor=False))


def test_the_environment_variable_wins(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CIPHERBENCH_HISTORY", str(tmp_path / "x.db"))
    assert history_path() == tmp_path / "x.db"
    monkeypatch.setenv("CIPHERBENCH_HISTORY", "~/h.db")
    assert history_path() == Path.home() / "h.db"


@pytest.mark.parametrize(
    ("value", "off"), [("1", True), ("yes", True), ("TRUE", True), ("0", False), ("", False)]
)
def test_no_history(monkeypatch, value: str, off: bool) -> None:
    monkeypatch.setenv("CIPHERBENCH_NO_HISTORY", value)
    assert storing_disabled() is off
