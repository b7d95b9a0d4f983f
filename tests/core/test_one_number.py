"""One cell, one number: a study's throughput of a cipher on an input is estimated once (the
median over rounds of each round's median time) and printed by one formatter, so the terminal,
the window's table, HTML, Markdown, LaTeX, CSV, JSON and XLSX all read the same digits."""

from __future__ import annotations

import csv
import html
import json
import re
import statistics
from pathlib import Path

import pytest
from publish_factories import made_study

from app.cli.study import format_study
from app.core.document.numbers import figure, mib_text, rate_text, seconds_text
from app.core.kinds import formats
from app.core.study.columns import STUDY_COLUMNS
from app.core.study.definition import UNITS
from app.core.study.result import StudyResult, rate

DIRECTIONS = ("encrypt", "decrypt")


@pytest.fixture(scope="module")
def study() -> StudyResult:
    # Rounds that differ (the fourth is slow): pooled samples and the rounds' medians disagree.
    return made_study(sizes=(("1 KB", 1000), ("1 MB", 10**6)), rounds=6, per_round=3, seed=7)


def _expected(study: StudyResult) -> dict[tuple[str, str, str], str]:
    """Each cell's throughput, computed here from the raw rounds: the median of the rounds'
    medians, the input over it."""
    out = {}
    for r in study.results:
        for d in DIRECTIONS:
            medians = [statistics.median(x) for x in r.round_samples(d)]
            value = r.input_bytes / statistics.median(medians) / UNITS[study.units]
            out[r.cipher, r.input_label, d] = figure(value)
    return out


def test_the_cell_is_the_median_over_rounds_not_of_pooled_samples(study: StudyResult) -> None:
    expected = _expected(study)
    for r in study.results:
        for d in DIRECTIONS:
            assert rate_text(rate(r, d, study.units)) == expected[r.cipher, r.input_label, d]
    pooled = [
        figure(r.input_bytes / statistics.median(getattr(r, d).samples_s) / 1e6)
        for r in study.results
        for d in DIRECTIONS
    ]
    assert pooled != list(expected.values())  # the fixture tells the two apart


def _rows(lines: list[str], cipher: str, label: str) -> list[str]:
    return [line for line in lines if cipher in line and label in line]


def test_every_output_prints_the_same_digits_for_every_cell(
    study: StudyResult, tmp_path: Path
) -> None:
    expected = _expected(study)
    for suffix in (".md", ".tex", ".csv", ".json", ".html", ".xlsx"):
        formats.save(study, tmp_path / f"s{suffix}")
    md = (tmp_path / "s.md").read_text().splitlines()
    tex = (tmp_path / "s.tex").read_text().splitlines()
    page = html.unescape((tmp_path / "s.html").read_text())
    html_rows = [
        [c.strip() for c in re.sub(r"<[^>]+>", "|", row).split("|") if c.strip()]
        for row in page.split("<tr>")
    ]
    with (tmp_path / "s.csv").open(newline="") as f:
        table = list(csv.reader(f))
    header = table[0]
    terminal = format_study(study, width=200).splitlines()
    window = {c.key: c for c in STUDY_COLUMNS}
    loaded = StudyResult.from_dict(json.loads((tmp_path / "s.json").read_text()))

    from openpyxl import load_workbook

    sheet = load_workbook(tmp_path / "s.xlsx", read_only=True)["Results"]
    xlsx = [[c.value for c in row] for row in sheet.iter_rows()]
    xlsx_header = xlsx[0]

    for r in study.results:
        enc, dec = (expected[r.cipher, r.input_label, d] for d in DIRECTIONS)
        cells = f"{enc} [", f"{dec} ["
        (md_row,) = _rows(md, r.cipher, r.input_label)
        assert all(c in md_row for c in cells), md_row
        (tex_row,) = _rows(tex, r.cipher, r.input_label)
        assert all(c in tex_row for c in cells), tex_row
        (term_row,) = [line for line in terminal if line.startswith(r.cipher + " ")][
            list(study.by_input()).index(r.input_label) : list(study.by_input()).index(
                r.input_label
            )
            + 1
        ]
        assert term_row.split()[-3:-1] == [enc, dec], term_row
        (html_row,) = [row for row in html_rows if row[:3] == [r.cipher, r.library, r.input_label]]
        assert enc in html_row and dec in html_row, html_row
        (csv_row,) = [row for row in table[1:] if row[:3] == [r.cipher, r.library, r.input_label]]
        for d, want in zip(DIRECTIONS, (enc, dec), strict=True):
            key = f"{d}_throughput"
            assert window[key].text(window[key].get(r, study.units)) == want
            column = window[key].title(study.units)
            assert figure(float(csv_row[header.index(column)])) == want
            (x_row,) = [row for row in xlsx[1:] if row[:3] == [r.cipher, r.library, r.input_label]]
            assert figure(x_row[xlsx_header.index(column)]) == want
            again = loaded.result_for(r.label, r.input_label)
            assert again is not None and rate_text(rate(again, d, study.units)) == want


def test_one_formatter_per_quantity() -> None:
    assert [rate_text(x) for x in (0.3214, 533.1, 10_351.2, None)] == [
        "0.321", "533", "10,351", "-",
    ]  # fmt: skip
    assert [seconds_text(x) for x in (0.00188, 0.000209, 12.34, 9.996e-4, 4.2e-9)] == [
        "1.88 ms", "209 µs", "12.3 s", "1.00 ms", "4.20 ns",
    ]  # fmt: skip
    assert mib_text(1.1289) == "1.13"
