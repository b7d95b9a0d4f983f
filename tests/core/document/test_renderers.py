"""The document's renderers know no kind: one document with a figure, a missing figure, a
hostile name and a note prints the same digits in the terminal, Markdown, LaTeX, HTML, CSV and
JSON; each renderer escapes names for its own format."""

from __future__ import annotations

import csv
import io
import json

from app.core.document import csvfile, html, jsonfile, latex, markdown, terminal
from app.core.document.estimate import Estimate, estimate, rate_estimate, time_estimate
from app.core.document.model import Document, Section, Table

HOSTILE = '=HYPERLINK("x")|<b>&_%'
CELL = Estimate(533.14, (512.0, 573.49), 6)


def document() -> Document:
    table = Table(
        "Throughput",
        ("Cipher", "Library", "Encryption (MB/s)"),
        (("aes-128-cbc", "pycryptodome", CELL), (HOSTILE, "lib", Estimate(0.3214, None, 3))),
        ("a note",),
        text_columns=2,
    )
    return Document("A title", (table,), "The method.", (Section("Differs", ("CPU: a; b",)),))


def test_every_renderer_prints_the_cells_digits() -> None:
    doc = document()
    for text in (
        terminal.render(doc, 80),
        markdown.render(doc),
        latex.render(doc),
        html.render(doc),
    ):
        assert "533 [512, 573]" in text and "0.321 [n/a]" in text
    rows = list(csv.reader(io.StringIO(csvfile.render(doc))))
    assert rows[1] == [
        "Cipher", "Library", "Encryption (MB/s)", "Encryption (MB/s) low",
        "Encryption (MB/s) high",
    ]  # fmt: skip
    assert [float(x) for x in rows[2][2:]] == [533.14, 512.0, 573.49]
    data = json.loads(jsonfile.render(doc))
    cell = data["tables"][0]["rows"][0][2]
    assert cell == {
        "median": 533.14, "low": 512.0, "high": 573.49, "values": 6, "approx": False,
        "text": "533 [512, 573]",
    }  # fmt: skip
    assert data["tables"][0]["rows"][1][2]["low"] is None


def test_each_renderer_escapes_names_for_its_format() -> None:
    doc = document()
    rows = list(csv.reader(io.StringIO(csvfile.render(doc))))
    assert rows[3][0] == "'" + HOSTILE  # a spreadsheet shows it as text, never runs it
    assert "<b>" not in html.render(doc) and "&lt;b&gt;" in html.render(doc)
    assert r"\|" in markdown.render(doc)  # the pipe does not split the cell
    assert r"\&\_\%" in latex.render(doc)


def test_the_terminal_splits_a_wide_table_to_fit_without_wrapping() -> None:
    wide = Table(
        "Many figures",
        ("Cipher", *(f"Size {n} (MB/s)" for n in range(6))),
        (("aes-128-cbc", *(CELL for _ in range(6))),),
        ("a note that is long enough to be wrapped on a narrow terminal, never cut",),
        text_columns=1,
    )
    text = terminal.render(Document("", (wide,), "The method, also wrapped to the width."), 60)
    assert all(len(line) <= 60 for line in text.splitlines())
    assert text.count("aes-128-cbc") > 1  # the name repeated in each part
    assert text.count("533 [512, 573]") == 6


def test_a_cells_time_and_rate_are_one_value() -> None:
    rounds = [[1.0, 1.1], [2.0, 2.2], [1.5], [1.4, 1.6], [1.2], [1.3]]
    t = time_estimate(rounds)
    medians = sorted([1.05, 2.1, 1.5, 1.5, 1.2, 1.3])
    assert t.median == (medians[2] + medians[3]) / 2 and t.rounds == 6
    r = rate_estimate(1000, rounds, 1)
    assert r.median == 1000 / t.median
    assert r.interval == (1000 / t.interval[1], 1000 / t.interval[0])  # type: ignore[index]
    one = time_estimate([[3.0, 1.0, 2.0]])  # one round: its repetitions
    assert one.median == 2.0 and one.rounds == 3
    assert estimate([]).interval is None


def test_a_missing_figure_and_a_number_stay_as_they_are_in_csv() -> None:
    assert csvfile.name_cell("-") == "-" and csvfile.name_cell("-12.5") == "-12.5"
    assert csvfile.name_cell("+cmd") == "'+cmd" and csvfile.name_cell("@SUM(A1)") == "'@SUM(A1)"


def test_the_workbook_has_a_sheet_per_table_with_the_printed_cell_and_its_numbers() -> None:
    from openpyxl import load_workbook

    from app.core.document import xlsxfile

    book = load_workbook(io.BytesIO(xlsxfile.render(document())))
    assert book.sheetnames == ["1 Throughput", "Method"]
    rows = [[c.value for c in row] for row in book["1 Throughput"].iter_rows()]
    assert rows[0] == ["Throughput", *[None] * 5]
    assert rows[1][2:] == [
        "Encryption (MB/s)", "Encryption (MB/s) median", "Encryption (MB/s) low",
        "Encryption (MB/s) high",
    ]  # fmt: skip
    assert rows[2][2:] == ["533 [512, 573]", 533.14, 512.0, 573.49]
    assert rows[3][0] == HOSTILE and rows[3][3:] == [0.3214, None, None]  # text, not a formula
    assert book["1 Throughput"].cell(4, 1).data_type == "s"
    assert rows[4][0] == "a note"
    method = [c.value for c in book["Method"]["A"]]
    assert method[0] == "A title" and method[-1] == "Method: The method."


def test_a_sheets_name_shows_control_characters_and_never_ends_in_an_apostrophe() -> None:
    from app.core.document.xlsxfile import _sheet_name

    named = _sheet_name("Transfer of \x1b]0;owned\x07", 1, set())
    assert not any(ord(c) < 32 for c in named) and named.startswith("1 Transfer of")
    assert (
        _sheet_name("abcdefghijklmnopqrstuvw runs' x", 1, set()) == "1 abcdefghijklmnopqrstuvw runs"
    )
    assert _sheet_name("'quoted'", 0, set()) == "quoted"


def test_a_time_carries_its_unit_in_its_text_and_its_header_elsewhere() -> None:
    from app.core.document.estimate import SECONDS, Estimate
    from app.core.document.model import Table

    time = Estimate(1.33e-6, (1.30e-6, 1.41e-6), 6, unit=SECONDS)
    assert time.text() == "1.33 µs [1.30, 1.41]"
    assert Estimate(0.00721, None, 2, unit=SECONDS).text() == "7.21 ms [n/a]"
    assert Estimate(0.0, (0.0, 0.0), 6, unit=SECONDS).text() == "0 s [0, 0]"
    assert Estimate(-2e-6, None, 1, unit=SECONDS).text() == "-2.00 µs [n/a]"
    table = Table("t", ("Name", "Time per call"), (("aes", time),), text_columns=1)
    header, row = csvfile.table_rows(table)
    assert header[1:] == ["Time per call (s)", "Time per call (s) low", "Time per call (s) high"]
    assert float(row[1]) == 1.33e-6
    from openpyxl import load_workbook

    from app.core.document import xlsxfile
    from app.core.document.model import Document

    book = load_workbook(io.BytesIO(xlsxfile.render(Document("", (table,)))))
    names = [c.value for c in next(book.worksheets[0].iter_rows(min_row=2, max_row=2))]
    assert names[1:] == [
        "Time per call", "Time per call (s) median", "Time per call (s) low",
        "Time per call (s) high",
    ]  # fmt: skip


def test_latex_fits_a_wide_and_long_table_on_its_pages(tmp_path) -> None:
    """A paper's table with long names and more rows than a page holds: its text columns wrap
    (paragraph columns), it breaks across pages (longtable), and pdflatex finds no line too
    wide and no float too tall; a small table stays a plain tabular."""
    import shutil
    import subprocess

    import pytest

    long_name = "chacha20-poly1305 (cryptography), the receiving end of the loopback"
    rows = tuple(
        (f"{long_name} {i}", "memory (the paper's load-all program, encryption)", *[CELL] * 5)
        for i in range(40)
    )
    headers = ("Entry", "Quantity", *(f"Transfer throughput, sender {i} (MiB/s)" for i in range(5)))
    wide = Table("Wide", headers, rows, ("a note",), text_columns=2)
    tex = latex.render(Document("", (wide, document().tables[0])))
    assert r"\begin{longtable}" in tex and r"p{" in tex and r"\endhead" in tex
    assert r"\begin{tabular}{llr}" in tex  # the small one keeps its natural widths
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (scripts/setup.sh --dev installs it)")
    (tmp_path / "t.tex").write_text(tex, encoding="utf-8")
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:]
    log = (tmp_path / "t.log").read_text(errors="replace")
    assert "Overfull \\hbox" not in log and "Float too large" not in log


def test_wrapping_keeps_a_figure_with_its_unit() -> None:
    """`history show` split "±4.6" from its "%" at a line's end."""
    text = "AES-128 is 4.6 % faster (95 % CI 1.2 % to 8.3 %), 12.3 MB/s, 5 ms, 1.78 x in 3 rounds"
    for width in range(18, 60):
        lines = terminal.wrapped(text, width)
        assert " ".join(lines) == text and all(len(line) < width for line in lines)
        assert not any(line.startswith(("%", "MB/s", "ms", "x ")) for line in lines), lines
    # a no-break space of the text's own stays one (a file name's, say)
    assert terminal.wrapped("a /tmp/a\u00a0b.bin 5 %", 40) == ["a /tmp/a\u00a0b.bin 5 %"]


def test_latex_sets_a_bar_and_a_backtick_as_themselves() -> None:
    """'|' typeset as an em dash and '`' as an opening quote in the default font."""
    from app.core.document import latex

    assert latex.text("a|b `c`") == r"a\textbar{}b \textasciigrave{}c\textasciigrave{}"
