"""A study that asks for a timing-leak test (leak = true): its entries tested after its rounds,
the verdicts in its terminal report, document, HTML (with the figure) and JSON."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.leak.job import STUDY_LENGTH

STUDY = """
name = "leaky"
sizes = ["16 KB"]
rounds = 1
repeat = 2
measure_memory = false
leak = true

[[cipher]]
id = "bf-ecb"
library = "pycryptodome"
"""


def _study(text: str, folder: Path):  # type: ignore[no-untyped-def]
    from app.core.study.study_file import load_study

    path = folder / "leaky.toml"
    path.write_text(text, encoding="utf-8")
    return load_study(path)


def test_a_study_of_transfers_cannot_ask_for_a_leak_test(tmp_path: Path) -> None:
    text = STUDY.replace("leak = true", 'leak = true\nworkload = "transfer"')
    with pytest.raises(UserError, match="leak tests cipher entries, not transfers"):
        _study(text.replace('id = "bf-ecb"', 'id = "aes-256-gcm"'), tmp_path)


@pytest.mark.long
@pytest.mark.usefixtures("in_process_jobs")  # the study's jobs here; its leak test for real
def test_a_study_runs_its_leak_test_and_reports_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.leak import job
    from app.core.publish.documents import study_document
    from app.core.runtime.events import Finished
    from app.core.study.report_html import study_html
    from app.core.study.report_text import claims as claim_lines
    from app.core.study.result import StudyResult
    from app.core.study.runner import StudyRun

    # Half a second of the entry's calls instead of 10 s: a batch is a tenth of the budget at
    # most (about 30,000 calls of bf-ecb, 0.05 s of a core), so its worker measures several.
    monkeypatch.setattr("app.core.study.runner.STUDY_BUDGET_S", 0.5)
    study = _study(STUDY, tmp_path)
    *_, finished = StudyRun(study, environment=False).events()
    assert isinstance(finished, Finished)
    result = finished.result
    assert result.leak is not None and result.leak.length == STUDY_LENGTH == job.STUDY_LENGTH
    (entry,) = result.leak.results
    assert entry.cipher == "bf-ecb" and entry.calls > 0
    text = "\n".join(claim_lines(result, 100))
    assert "Does its time depend on its data?" in text and "bf-ecb [pycryptodome]: " in text
    assert "Timing leakage: the largest |t|" in study_html(result)
    captions = [t.caption for t in study_document(result).tables]
    assert "The tests: raw, cropped and second order" in captions
    from app.core.publish.paper_set import write_paper_set

    kit = tmp_path / "kit"
    kit.mkdir()
    names = {p.name for p in write_paper_set(result, kit)}
    assert {"leaky-leak.svg", "leaky-leak.pdf"} <= names  # the |t| figure in the paper kit
    again = StudyResult.from_dict(result.to_dict())
    assert again.leak is not None and again.leak.to_dict() == result.leak.to_dict()
    assert replace(result, leak=None).to_dict()["leak"] is None
