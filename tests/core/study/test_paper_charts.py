"""Charts in the papers' forms: grouped bars per input for files or one size, lines against
size for several sizes, the paper's values drawn on them, a log axis where one value is ten
times another; hostile labels stay text."""

from __future__ import annotations

from dataclasses import replace

from test_paper import _result

from app.core.document.svg_bars import BarSeries, PaperMark, bar_chart, wants_log
from app.core.study.definition import SizeInput
from app.core.study.published import PublishedFigure
from app.core.study.report_html import study_html


def test_one_input_gives_grouped_bars_with_the_papers_value_and_a_log_axis():
    figure = PublishedFigure("AES-128", "50 MB", "encrypt_s", 0.2, "s", ("aes-128-cbc",))
    html = study_html(_result(figure))  # 0.1 s, 0.125 s and pyaes's 25 s: 250x apart
    assert "<h2>Charts by input</h2>" in html and "Encryption time by input" in html
    assert "Median time (s) (log scale)" in html  # 25 s against 0.1 s
    assert "<title>paper: 0.2 s</title>" in html  # the diamond on aes-128-cbc's bar
    assert "Black diamonds: the paper&#x27;s own values." in html


def test_several_sizes_give_lines_with_the_papers_points():
    result = _result(PublishedFigure("AES-128", "50 MB", "encrypt_s", 0.2, "s", ("aes-128-cbc",)))
    small = [replace(r, input_label="1 MB", input_bytes=10**6) for r in result.results]
    study = replace(result.study, sizes=(SizeInput("1 MB", 10**6), SizeInput("50 MB", 50_000_000)))
    html = study_html(replace(result, study=study, results=(*small, *result.results)))
    assert "<h2>Charts against size</h2>" in html and "Encryption time against input size" in html
    assert "paper: aes-128-cbc [pycryptodome]: 0.2" in html


def test_bars_escape_labels_and_say_when_there_is_nothing():
    svg = bar_chart(
        title="<t>",
        y_label="y",
        groups=["<zip>"],
        series=[BarSeries("<b>", (1.0,))],
        paper=[PaperMark(0, 0, 2.0, "<p>")],
    )
    assert "<zip>" not in svg and "&lt;zip&gt;" in svg and "&lt;p&gt;" in svg
    assert "no data to draw" in bar_chart(title="t", y_label="y", groups=[], series=[])
    assert wants_log([1.0, 10.0]) and not wants_log([1.0, 9.9]) and not wants_log([0.0, 50.0])


def test_the_workbook_has_bars_by_input_and_a_log_axis_where_values_differ_tenfold(tmp_path):
    from openpyxl import load_workbook

    from app.core.study.report_xlsx import write_study_xlsx

    write_study_xlsx(_result(), tmp_path / "r.xlsx")  # one input, pyaes 250x slower
    wb = load_workbook(tmp_path / "r.xlsx")
    assert "Charts by input" in wb.sheetnames
    (bars, *_) = wb["Charts by input"]._charts
    assert bars.tagname == "barChart" and bars.grouping == "clustered"
    assert bars.y_axis.scaling.logBase == 10
    (time_chart, *_) = wb["Charts"]._charts
    assert time_chart.y_axis.scaling.logBase == 10


def test_group_labels_too_long_for_their_group_are_turned_and_the_legend_moves_down() -> None:
    from app.core.document.svg_bars import BarSeries, bar_chart, label_drop

    short = bar_chart(
        title="t", y_label="MB/s", groups=["1 KB", "1 MB"], series=[BarSeries("a", (1.0, 2.0))]
    )
    assert "rotate(-35)" not in short and 'text-anchor="middle">1 KB</text>' in short
    files = [f"a long file name number {i}.pdf" for i in range(6)]
    long = bar_chart(
        title="t", y_label="MB/s", groups=files, series=[BarSeries("a", tuple(range(1, 7)))]
    )
    assert long.count("rotate(-35)") == 6
    drop = label_drop(files, (640 - 78 - 24) / 6)
    assert 0 < drop <= 160
    height = int(long.split('height="', 1)[1].split('"', 1)[0])
    assert height == int(short.split('height="', 1)[1].split('"', 1)[0]) + drop
