"""Whole programs (seed 003's measurement): real interpreters timed spawn to exit, a factor
from the repetitions, set beside the call's in the report and against the paper's figure."""

from __future__ import annotations

import json

import pytest

from app.core.ciphers.registry import lookup
from app.core.errors import UserError
from app.core.runtime.events import result_of
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.export import study_document
from app.core.study.paper import match_published
from app.core.study.published import PublishedFigure
from app.core.study.report_text import whole_programs
from app.core.study.result import StudyResult
from app.core.study.runner import StudyRun
from app.core.study.whole_program import STARTUP, check_entries, measure_programs

# Jobs run in this process (tests/jobs_here.py): these tests are about what is done with results.
pytestmark = pytest.mark.usefixtures("in_process_jobs")


def _drain(gen):
    progress = []
    while True:
        try:
            progress.append(next(gen))
        except StopIteration as done:
            return progress, done.value


def test_each_program_runs_in_a_fresh_interpreter_and_checks_its_round_trip(tmp_path):
    data = tmp_path / "in.bin"
    data.write_bytes(bytes(range(256)) * 40)
    entries = [
        ("aes-128-ctr [pyaes]", lookup("aes-128-ctr", "pyaes")),
        ("aes-256-ctr [cryptography]", lookup("aes-256-ctr", "cryptography")),
        ("aes-128-ctr [pycryptodome]", lookup("aes-128-ctr", "pycryptodome")),
    ]
    progress, timings = _drain(measure_programs(entries, [("10 KB", str(data))], 2, 0, bool))
    assert progress[-1] == (8, 8) and len(progress) == 8  # (3 programs + the start) x 2
    assert [t.label for t in timings] == [STARTUP] + [label for label, _ in entries]
    assert all(len(t.samples_s) == 2 and min(t.samples_s) > 0 for t in timings)
    start = timings[0].median_s
    assert all(t.median_s > start for t in timings[1:])  # a program costs more than the start


def test_a_cancelled_pass_returns_nothing(tmp_path):
    entries = [("aes-128-ctr [pyaes]", lookup("aes-128-ctr", "pyaes"))]
    assert _drain(measure_programs(entries, [("x", str(tmp_path))], 3, 0, lambda: True)) == (
        [],
        (),
    )


def test_only_aes_ctr_of_the_three_libraries_has_a_program():
    check_entries([lookup("aes-128-ctr", "pyaes"), lookup("aes-192-ctr", "pycryptodome")])
    with pytest.raises(UserError, match=r"whole_program times AES-CTR .* aes-128-cbc"):
        check_entries([lookup("aes-128-cbc", "cryptography")])
    with pytest.raises(UserError, match="whole_program times cipher entries"):
        Study(
            "t",
            (CipherChoice("aes-256-gcm"),),
            sizes=(SizeInput("1 KB", 1000),),
            workload="transfer",
            whole_program=True,
        ).validate()


def test_a_study_with_whole_programs_reports_both_factors_and_meets_the_paper():
    study = Study(
        "wp",
        (CipherChoice("aes-128-ctr", "pyaes"), CipherChoice("aes-128-ctr", "cryptography")),
        sizes=(SizeInput("2 KB", 2000),),
        repeat=4,
        rounds=4,
        max_rounds=4,
        whole_program=True,
        published=(
            PublishedFigure("cryptography", "2 KB", "program_s", 98.2, "ms"),
            PublishedFigure("cryptography", "2 KB", "program_speedup", 6.09, "x"),
        ),
    ).validate()
    result = result_of(StudyRun(study).events())
    assert len(result.programs) == 3 and result.startup_s > 0
    # On 2 KB either may be slower: cryptography's import alone can cost more than pyaes's
    # whole work. The slowest program is the baseline; the other's factor lies in its interval.
    by_label = {s.cipher_label: s for s in result.program_speedups}
    slowest = max(result.programs[1:], key=lambda p: p.median_s).label
    assert by_label[slowest].factor == 1.0
    (other,) = [s for label, s in by_label.items() if label != slowest]
    assert other.low <= other.factor <= other.high
    fast = by_label["aes-128-ctr [cryptography]"]
    text = "\n".join(whole_programs(result, 80))
    assert "Whole programs" in text and "the cipher call alone" in text
    assert "Why the two factors differ" in text
    time_match, factor_match = match_published(result)
    assert time_match.measured == pytest.approx(result.programs[2].median_s * 1000)
    assert factor_match.measured == pytest.approx(fast.factor)
    doc = json.loads(json.dumps(study_document(result)))
    again = StudyResult.from_dict(doc)
    assert again.programs == result.programs
    assert again.program_speedups[1].factor == pytest.approx(fast.factor)


def test_the_workbook_has_the_whole_programs_and_the_papers_method(tmp_path):
    from dataclasses import replace

    from openpyxl import load_workbook
    from test_paper import _result

    from app.core.study.report_xlsx import write_study_xlsx
    from app.core.study.whole_program import ProgramTiming

    result = _result()
    programs = (
        ProgramTiming(STARTUP, "", (0.01, 0.011, 0.012, 0.01)),
        ProgramTiming("aes-128-cbc [pycryptodome]", "50 MB", (0.2, 0.21, 0.22, 0.2)),
        ProgramTiming("aes-128-ctr [pyaes]", "50 MB", (0.6, 0.62, 0.61, 0.63)),
    )
    study = replace(result.study, paper_method="the paper timed a whole program")
    write_study_xlsx(replace(result, study=study, programs=programs), tmp_path / "w.xlsx")
    wb = load_workbook(tmp_path / "w.xlsx")
    rows = list(wb["Whole programs"].iter_rows(values_only=True))
    assert rows[0][:3] == ("Input", "Program", "Median (s)")
    fast = next(r for r in rows if r[1] == "aes-128-cbc [pycryptodome]")
    assert fast[2] == pytest.approx(0.205) and fast[4] == pytest.approx(3.0, rel=0.1)
    assert wb["Paper's method"]["A2"].value == "the paper timed a whole program"


def test_a_bundle_loads_the_study_and_reports_why_it_cannot_time_programs(monkeypatch):
    import sys

    from app.core.study.presets import find_study

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert find_study("pure-python").whole_program  # loads: a bundle lists and runs it
    entries = [("aes-128-ctr [pyaes]", lookup("aes-128-ctr", "pyaes"))]
    with pytest.raises(UserError, match="whole programs need a Python interpreter"):
        _drain(measure_programs(entries, [("x", "x")], 1, 0, bool))


def test_a_claim_about_programs_rests_on_the_programs_and_their_size():
    """The pyaes report's 6.09x, read as whole programs: a factor of 5 is inside the band of
    sizes (3.54x-11.2x), each program's repetitions the unit of evidence."""
    from dataclasses import replace

    from test_paper import _result

    from app.core.study.claim_verdicts import CONFIRMED, CONTRADICTED, check_claims
    from app.core.study.paper_claims import PaperClaim
    from app.core.study.whole_program import ProgramTiming

    result = _result()
    programs = (
        ProgramTiming("aes-128-cbc [pycryptodome]", "50 MB", (0.2, 0.201, 0.199, 0.2, 0.202)),
        ProgramTiming("aes-128-ctr [pyaes]", "50 MB", (1.0, 1.002, 1.001, 0.999, 1.0)),
    )
    claim = PaperClaim(
        "6.09x", a=("aes-128-cbc",), b=("aes-128-ctr [pyaes]",), direction="program", size="6.09x"
    )
    assert [pc.direction for pc in replace(result, programs=programs).program_comparisons] == [
        "program"
    ]
    (verdict,) = check_claims(replace(result, programs=programs, study=replace(
        result.study, claims=(claim,))))  # fmt: skip
    assert verdict.verdict == CONFIRMED and len(verdict.pairs) == 1
    assert "runs as a whole program 5" in verdict.summary()
    twice = replace(claim, size="50 %")  # 1.5x: a factor of 5 is more than twice its 50 %
    (verdict,) = check_claims(replace(result, programs=programs, study=replace(
        result.study, claims=(twice,))))  # fmt: skip
    assert verdict.verdict == CONTRADICTED and verdict.size_verdict == CONTRADICTED
