"""The study's claims in words, shared by the terminal and the window: wrapped to a width or
left whole, throughputs in the unit asked for, speed-ups only where they say something."""

from __future__ import annotations

from dataclasses import replace

from factories import job_result

from app.core.bench.run_info import Environment
from app.core.study import report_text
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.published import PublishedFigure
from app.core.study.result import StudyFailure, StudyResult, memory_mib, rate


def _result(factor: float = 1.25, *, published: tuple[PublishedFigure, ...] = ()) -> StudyResult:
    sizes = (1_000_000, 2_000_000)
    results = [
        job_result(
            cipher=cipher,
            library="pycryptodome",
            input_label=f"{size // 10**6} MB",
            input_bytes=size,
            enc_s=[(1e-4 + size / speed) * f for f in (0.99, 1.0, 1.01, 1.0, 1.0)],
            dec_s=[(1e-4 + size / speed) * f for f in (0.99, 1.0, 1.01, 1.0, 1.0)],
        )
        for size in sizes
        for cipher, speed in (("aes-128-cbc", 500e6 * factor), ("aes-256-cbc", 500e6))
    ]
    study = Study(
        "synthetic",
        (CipherChoice("aes-128-cbc", "pycryptodome"), CipherChoice("aes-256-cbc", "pycryptodome")),
        seed="000",
        sizes=tuple(SizeInput(f"{s // 10**6} MB", s) for s in sizes),
        repeat=5,
        rounds=1,
        published=published,
    )
    return StudyResult(
        study=study,
        results=tuple(results),
        failures=(StudyFailure("aes-256-cbc [pycryptodome]", "3 MB", "vanished"),),
        environment=Environment({}),
        rounds=1,
        rounds_completed=1,
        repeat_per_round=5,
        started_at="2026-01-01T00:00:00+00:00",
        finished_at="2026-01-01T00:01:00+00:00",
    )


def test_width_wraps_and_none_keeps_each_statement_on_one_line():
    result = _result()
    wrapped = report_text.claims(result, 40) + report_text.notes(result, 40)
    statements = [line for line in wrapped if line.startswith("  ")]  # headings stay whole
    assert statements and max(map(len, statements)) <= 40
    whole = report_text.claims(result, None) + report_text.notes(result, None)
    assert len(whole) < len(wrapped)
    assert "  aes-256-cbc [pycryptodome] on 3 MB: vanished" in whole
    assert any(line.startswith("  aes-128-cbc [pycryptodome] encrypts: time = ") for line in whole)


def test_units_are_a_parameter_not_the_result_s():
    result = _result()
    mbs = "\n".join(report_text.preamble(result, None) + report_text.claims(result, None))
    kbs = "\n".join(
        report_text.preamble(result, None, "KB/s") + report_text.claims(result, None, "KB/s")
    )
    assert "size / 625 MB/s" in mbs and "MB/s = 1,000,000 bytes/s" in mbs
    assert "size / 625,000 KB/s" in kbs and "KB/s = 1,000 bytes/s" in kbs
    r = result.results[0]
    assert rate(r, "encrypt", "KB/s") == rate(r, "encrypt", "MB/s") * 1000
    assert memory_mib(r) == 40.0


def test_speedups_only_when_large_or_published():
    def shown(result: StudyResult) -> bool:
        return any("speed-up" in line for line in report_text.claims(result, None))

    assert not shown(_result(1.25))
    assert shown(_result(2.5))
    assert shown(_result(1.25, published=(PublishedFigure("AES", "1 MB", "speedup", 2, "x"),)))


def test_in_units_keeps_the_analysis():
    result = _result()
    comparisons = result.comparisons
    other = result.in_units("KB/s")
    assert other.units == "KB/s" and result.units == "MB/s"
    assert other.comparisons is comparisons and "fits" not in other.__dict__
    assert result.in_units("MB/s") is result
    assert replace(result).results == other.results
