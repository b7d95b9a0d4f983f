"""Test-wide settings: Qt renders offscreen, so the GUI tests need no display; each test gets
its own temporary folder, so a test can check that nothing CipherBench made is left in it."""

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def scratch_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch) -> Iterator[Path]:
    """The temporary folder CipherBench uses during this test (its scratch root goes there)."""
    from app.core import scratch

    folder = tmp_path_factory.mktemp("systmp")
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setattr(scratch, "_root", None)
    yield folder
    scratch.remove_root()


def leftovers(folder: Path) -> list[str]:
    """Every CipherBench file or folder under ``folder`` and its scratch root's contents."""
    found = []
    for entry in folder.iterdir():
        if entry.name.startswith("cipherbench-"):
            found.append(entry.name)
            if entry.is_dir():
                found.extend(f"{entry.name}/{p.name}" for p in entry.iterdir())
    return found
