"""check_target: the one check before any export or saved study, by extension and by place."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.export import writers as exporters
from app.core.kinds import formats


def test_check_target_returns_the_entry_for_the_extension(tmp_path: Path) -> None:
    writers = {".txt": "text writer", ".md": "markdown writer"}
    assert exporters.check_target(tmp_path / "a.MD", writers) == "markdown writer"
    with pytest.raises(
        UserError, match=r"cannot save notes to .*: .* not supported; use \.txt, \.md"
    ):
        exporters.check_target(tmp_path / "a.pdf", writers, what="notes")
    data = tmp_path / "data.txt"
    data.write_text("input")
    with pytest.raises(UserError, match=r"cannot write .*data\.txt: "):
        exporters.check_target(data, writers, [data])


def test_check_target_refuses_a_read_only_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exporters.os, "access", lambda path, mode: False)
    with pytest.raises(UserError, match=r"cannot write .*r\.csv: permission denied"):
        exporters.check_target(tmp_path / "r.csv", formats.BENCH.writers)
