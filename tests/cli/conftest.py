"""Fixtures shared by the command-line tests that write files (tests/cli/test_hostile_*.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from kdf_files import PASSWORD

from app.core.files import container
from app.core.files.container import Argon2Params


@pytest.fixture
def cheap_kdf(monkeypatch: pytest.MonkeyPatch) -> None:
    """Argon2id at its cheapest for the files a test encrypts, and ``CB_PASSWORD`` set to
    kdf_files.PASSWORD (for ``--password-env CB_PASSWORD``)."""
    monkeypatch.setattr(container, "DEFAULT_ARGON2", Argon2Params(64, 1, 1))
    monkeypatch.setenv("CB_PASSWORD", PASSWORD)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A small CSV file to benchmark or encrypt (a test module may define its own ``data``)."""
    path = tmp_path / "data.csv"
    path.write_bytes(b"a,b\n1,2\n" * 500)
    return path
