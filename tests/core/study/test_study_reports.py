"""The study's reports from synthetic results: one self-contained, well-formed HTML file with
tables, an SVG per chart and every label escaped; an XLSX with its sheets and native charts
against size, the size axis logarithmic when the sizes span decades."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from factories import job_result
from openpyxl import load_workbook

from app.core.bench.results import RoundInfo
from app.core.bench.run_info import Environment
from app.core.document.svg_chart import ChartSeries, line_chart, log_ticks
from app.core.errors import UserError
from app.core.kinds.formats import save
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.published import PublishedFigure
from app.core.study.report_data import size_label, spans_decades
from app.core.study.report_html import study_html
from app.core.study.result import StudyFailure, StudyResult

HOSTILE = '<script>alert("x")</script>&.bin'
ENVIRONMENT = Environment(
    {
        "cpu": {"model": "Test CPU", "arch": "x86_64", "physical_cores": 2, "logical_cores": 4},
        "os": {"platform": "Linux-test"},
        "python": {"version": "3.11.7"},
        "packages": {"cryptography": "50.0.2", "pycryptodome": None},
        "openssl_version": "OpenSSL 3.0.0",
    }
)


def _study(sizes: tuple[int, ...]) -> Study:
    return Study(
        "synthetic",
        (CipherChoice("aes-128-cbc", "pycryptodome"), CipherChoice("aes-256-cbc", "pycryptodome")),
        title="AES <b>key</b> sizes",
        seed="000",
        paper="A paper, Table 2",
        sizes=tuple(SizeInput(size_label(s), s) for s in sizes),
        repeat=5,
        rounds=1,
        published=(PublishedFigure("AES-128", "1 MB", "encrypt_s", 0.0414, "s"),),
    )


def _result(sizes=(1_000_000, 10_000_000, 50_000_000), *, hostile=False) -> StudyResult:
    results = []
    for s in sizes:
        label = HOSTILE if hostile and s == sizes[0] else size_label(s)
        for cipher, rate in (("aes-128-cbc", 500e6), ("aes-256-cbc", 400e6)):
            t = 1e-4 + s / rate
            results.append(
                job_result(
                    cipher=cipher,
                    library="pycryptodome",
                    input_label=label,
                    input_bytes=s,
                    enc_s=[t * f for f in (0.98, 1.0, 1.01, 1.02, 0.99)],
                    dec_s=[t * f * 0.9 for f in (0.98, 1.0, 1.01, 1.02, 0.99)],
                    rounds=tuple(RoundInfo(i, 0, 1, 1, 99.0) for i in range(5)),
                )
            )
    return StudyResult(
        study=_study(sizes),
        results=tuple(results),
        failures=(StudyFailure("aes-256-cbc [pycryptodome]", HOSTILE, "vanished <b>"),),
        environment=ENVIRONMENT,
        rounds=1,
        rounds_completed=1,
        repeat_per_round=5,
        started_at="2026-01-01T00:00:00+00:00",
        finished_at="2026-01-01T00:01:00+00:00",
    )


class _Checker(HTMLParser):
    """Well-formedness enough for a report: every opened element closed in order (void
    elements excepted), and which tags and external references occur."""

    VOID = frozenset({"meta", "br", "img", "hr", "input", "link", "col", "area", "base", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: dict[str, int] = {}
        self.errors: list[str] = []
        self.references: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.references += [v for k, v in attrs if k in ("src", "href") and v]
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()


def _check(page: str) -> _Checker:
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert not checker.errors and not checker.stack, (checker.errors, checker.stack)
    return checker


def test_html_is_one_well_formed_file_with_tables_charts_and_method():
    page = study_html(_result())
    checker = _check(page)
    assert checker.tags["svg"] == 5  # enc/dec time, enc/dec throughput, memory
    assert checker.tags["table"] >= 3 + 1 + 1  # a table per input, fits, environment
    assert "script" not in checker.tags and not checker.references  # self-contained
    assert "above the worker's baseline" in page.replace("&#x27;", "'")
    for words in ("warm-up", "interquartile range (IQR)", "Mann-Whitney", "R²", "MB/s", "10^6"):
        assert words in page, words
    assert "Enc. throughput (MB/s)" in page and "The paper" in page and "Test CPU" in page
    assert "OpenSSL 3.0.0" in page and "cryptography version" in page
    assert "faster than" in page  # a significant comparison sentence with its interval
    assert "logarithmic" in page and ">10 MB<" in page  # log size axis, ticks in size units


def test_html_escapes_hostile_labels():
    page = study_html(_result(hostile=True))
    checker = _check(page)
    assert "<script>" not in page and "script" not in checker.tags
    assert "&lt;script&gt;" in page and "vanished &lt;b&gt;" in page
    assert "AES &lt;b&gt;key&lt;/b&gt; sizes" in page
    assert "<b>" not in page


def test_html_without_results_says_so():
    empty = StudyResult(
        study=_study((1000,)),
        results=(),
        failures=(),
        environment=Environment({}),
        rounds=1,
        rounds_completed=0,
        repeat_per_round=5,
        started_at="s",
        finished_at="f",
        cancelled=True,
    )
    page = study_html(empty)
    _check(page)
    assert "No job finished" in page and "cancelled" in page


def test_svg_chart_log_ticks_and_no_data():
    assert log_ticks(0.8e6, 62e6) == [1e6, 2e6, 5e6, 1e7, 2e7, 5e7]
    svg = line_chart(
        title="t <x>",
        x_label="size",
        y_label="s",
        series=[ChartSeries("a<b", ((1e3, 1.0), (1e6, 2.0))), ChartSeries("c", ())],
        x_format=size_label,
        log_x=True,
    )
    assert svg.count("<polyline") == 1 and "a&lt;b" in svg and "t &lt;x&gt;" in svg
    assert ">1 KB<" in svg and ">1 MB<" in svg
    empty = line_chart(title="t", x_label="x", y_label="y", series=[], x_format=str, log_x=False)
    assert "no data" in empty
    assert spans_decades([1000, 20_000]) and not spans_decades([1000, 9000])


@pytest.mark.parametrize(("sizes", "log"), [((1_000_000, 10_000_000, 50_000_000), True),
                                            ((2000, 4000), False)])  # fmt: skip
def test_xlsx_sheets_and_charts_against_size(tmp_path, sizes, log):
    path = save(_result(sizes, hostile=True), tmp_path / "study.xlsx")
    wb = load_workbook(path)
    for name in (
        "Results",
        "Charts",
        "Chart data",
        "Fits",
        "Comparisons",
        "Speed-ups",
        "Published",
        "Failures",
        "Samples",
        "Method",
        "Environment",
    ):
        assert name in wb.sheetnames, name
    charts = wb["Charts"]._charts
    assert len(charts) == 5
    for chart in charts:
        assert len(chart.series) == 2  # one per cipher entry
        assert (chart.x_axis.scaling.logBase == 10) is log
    header = [c.value for c in wb["Results"][1]]
    assert "Enc. throughput (MB/s)" in header and "Memory above baseline (MiB)" in header
    assert wb["Results"].max_row == 1 + 2 * len(sizes)
    assert wb["Results"]["C2"].value == HOSTILE  # stored as text, not markup or formula
    assert wb["Published"]["A2"].value == "AES-128"
    assert any("paper" in str(c.value) for row in wb["Published"].iter_rows() for c in row)
    assert len(list(tmp_path.iterdir())) == 1  # nothing left beside it


def test_html_export_is_atomic_and_refuses_inputs(tmp_path):
    source = tmp_path / "input.html"  # a studied file is never overwritten by a report
    source.write_text("data")
    with pytest.raises(UserError, match="cannot write"):
        save(_result(), source, inputs=[source])
    assert source.read_text() == "data"
    target = save(_result(), tmp_path / "r.html", inputs=[source])
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["input.html", "r.html"]
    with pytest.raises(UserError, match="not supported"):
        save(_result(), tmp_path / "r.docx")
