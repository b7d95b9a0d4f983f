"""A paper's claim of where the time goes, checked against the study's profile: its TOML, its
faults in one line, its verdict from the share's interval over rounds, and a study that runs
its profile (profile = true) end to end."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from app.core.errors import UserError
from app.core.study.claim_verdicts import (
    CONFIRMED,
    CONTRADICTED,
    NOT_TESTED,
    UNDECIDED,
    check_claim,
)
from app.core.study.definition import Study
from app.core.study.paper_claims import claim_from_dict
from tests.core.profile.test_profile_kind import made

PYAES = {"says": "the interpreter dominates", "a": "aes-128-ctr [pyaes]", "quantity": "share"}


def claim(**more: object):  # type: ignore[no-untyped-def]
    return claim_from_dict({**PYAES, "share": "interpreted", "size": "50 %", **more})


@pytest.mark.parametrize(
    ("more", "said"),
    [
        ({"share": "the interpreter"}, "use one of interpreted, compiled"),
        ({"b": "aes-128-ctr"}, "and no b"),
        ({"relation": "faster"}, "takes relation more or less"),
        ({"size": "50"}, "like 50 %"),
        ({"size": "150 %"}, "between 0 and 100 %"),
        ({"direction": "decrypt"}, "has direction: a share is of both directions"),
        ({"from": "1 MB"}, "has from"),
    ],
)
def test_a_share_claim_that_cannot_be_tested_is_refused_in_one_line(
    more: dict[str, object], said: str
) -> None:
    with pytest.raises(ValueError, match=said):
        claim(**more)


def test_its_verdict_is_the_shares_interval_against_the_threshold() -> None:
    profiled = SimpleNamespace(profile=made())  # pyaes: interpreted about 91 %, 6 rounds
    verdict = check_claim(claim(), profiled)  # type: ignore[arg-type]
    assert verdict.verdict == CONFIRMED and verdict.counts() == (1, 1, 0, 0)
    assert verdict.summary() == "confirmed by the profile"
    assert (
        "interpreted 92.2 [92.0, 92.4] %" in verdict.deciding()
        and "(more than 50 % claimed)" in verdict.deciding()
    )
    assert check_claim(claim(size="95 %"), profiled).verdict == CONTRADICTED  # type: ignore[arg-type]
    assert check_claim(claim(relation="less", size="95 %"), profiled).verdict == CONFIRMED  # type: ignore[arg-type]
    assert check_claim(claim(share="compiled"), profiled).verdict == CONTRADICTED  # type: ignore[arg-type]
    few = SimpleNamespace(profile=made(rounds=3))  # no interval below 6 rounds
    assert check_claim(claim(), few).verdict == UNDECIDED  # type: ignore[arg-type]
    none = check_claim(claim(), SimpleNamespace(profile=None))  # type: ignore[arg-type]
    assert none.verdict == NOT_TESTED and "ran no profile" in none.summary()
    empty = tuple(
        replace(r, stacks={}, note="no profiler: install py-spy") for r in made().results[0].rounds
    )
    unprofiled = replace(made(), results=(replace(made().results[0], rounds=empty),))
    missing = check_claim(claim(), SimpleNamespace(profile=unprofiled))  # type: ignore[arg-type]
    assert missing.verdict == NOT_TESTED
    assert missing.summary() == "not tested (no profiler: install py-spy)"
    assert verdict.to_dict()["shares"][0]["agrees"] is True


def _study(text: str, folder: Path) -> Study:
    from app.core.study.study_file import load_study

    path = folder / "profiled.toml"
    path.write_text(text, encoding="utf-8")
    return load_study(path)


STUDY = """
name = "profiled"
sizes = ["256 KB"]
rounds = 1
repeat = 3
measure_memory = false
profile = true

[[cipher]]
id = "aes-128-ctr"
library = "cryptography"

[[claim]]
says = "the compiled code does the work"
a = "aes-128-ctr [cryptography]"
quantity = "share"
share = "compiled"
size = "50 %"
"""


def test_a_share_claim_needs_the_profile(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="set profile = true"):
        _study(STUDY.replace("profile = true", "profile = false"), tmp_path)


@pytest.mark.long
@pytest.mark.usefixtures("in_process_jobs")  # the study's jobs here; its profile for real
def test_a_study_runs_its_profile_and_reports_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.profile.definition import DEFINITION as PROFILE
    from app.core.runtime.events import Finished
    from app.core.study.report_text import claims as claim_lines
    from app.core.study.result import StudyResult
    from app.core.study.runner import StudyRun

    # The highest rate a profile takes, 2,000 samples a second, instead of the study's 199:
    # each direction is timed for 0.1 s instead of 0.5 s (app.core.profile.run.options), in
    # the plain run and in the profiled one, and still gets 200 samples.
    highest = PROFILE.values({"rate": "2000"})["rate"]
    monkeypatch.setattr("app.core.study.runner.DEFAULT_RATE", highest)
    study = _study(STUDY, tmp_path)
    *_, finished = StudyRun(study, environment=False).events()
    assert isinstance(finished, Finished)
    result = finished.result
    assert result.profile is not None and result.profile.rate == highest
    (entry,) = result.profile.results
    assert entry.input_label == "256 KB" and len(entry.rounds) == 1
    text = "\n".join(claim_lines(result, 100))
    assert "Where the time goes: interpreted or compiled" in text
    assert "the compiled code does the work" in text
    from app.core.publish.documents import study_document
    from app.core.study.report_html import study_html

    assert "<h2>Where the time goes</h2>" in study_html(result)
    assert "Where the time goes, by class" in [t.caption for t in study_document(result).tables][-3]
    again = StudyResult.from_dict(result.to_dict())
    assert again.profile == result.profile
    assert replace(result, profile=None).to_dict()["profile"] is None
    # Its paper set carries the profile's flame graph and stacks (the pyaes report's figure).
    from app.core.publish.paper_set import paper_set_names, write_paper_set

    kit = tmp_path / "kit"
    kit.mkdir()
    written = {p.name for p in write_paper_set(result, kit)}
    assert written == set(paper_set_names(result))
    stem = study.name
    assert {f"{stem}-flame.svg", f"{stem}-stacks.txt"} <= written
    assert (kit / f"{stem}-flame.svg").read_text().lstrip().startswith("<?xml")
    assert f"{stem}-flame.svg" not in paper_set_names(replace(result, profile=None))
