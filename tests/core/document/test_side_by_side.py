"""Documents of several runs side by side: a row per name, a column per run for each figure,
cells copied as each run's document has them."""

from __future__ import annotations

import pytest

from app.core.document.estimate import Estimate
from app.core.document.model import Document, Section, Table
from app.core.document.side_by_side import ABSENT, ABSENT_NOTE, side_by_side

HEADERS = ("Cipher", "Library", "Time (µs)", "Rounds")


def _doc(rows: dict[tuple[str, str], float], notes: tuple[str, ...] = (), method: str = "m"):
    table = Table(
        "Key setup",
        HEADERS,
        tuple((c, lib, Estimate(v, (v - 1, v + 1), 6), "6") for (c, lib), v in rows.items()),
        notes,
        text_columns=2,
    )
    return Document("Key setup", (table,), method, (Section("Sources", ("a file",)),))


def test_each_run_gets_a_column_per_figure_and_a_row_per_name() -> None:
    a = _doc({("aes", "cryptography"): 10.0, ("aes", "pycryptodome"): 20.0})
    b = _doc({("aes", "cryptography"): 11.0, ("des", "cryptography"): 30.0})
    merged = side_by_side(["A", "B"], [a, b], "Two runs")
    (table,) = merged.tables
    assert merged.title == "Two runs" and table.caption == "Key setup"
    assert table.headers == (
        "Cipher", "Library", "A: Time (µs)", "B: Time (µs)", "A: Rounds", "B: Rounds",
    )  # fmt: skip
    assert table.text_columns == 2
    assert table.text_rows() == [
        ["aes", "cryptography", "10.0 [9.00, 11.0]", "11.0 [10.0, 12.0]", "6", "6"],
        ["aes", "pycryptodome", "20.0 [19.0, 21.0]", ABSENT, "6", ABSENT],
        ["des", "cryptography", ABSENT, "30.0 [29.0, 31.0]", ABSENT, "6"],
    ]
    # the cell is the run's own estimate, not a copy of its text
    assert table.rows[0][2] is a.tables[0].rows[0][2]
    assert table.notes == (ABSENT_NOTE,)


def test_what_every_run_says_is_said_once_and_the_rest_under_its_run() -> None:
    a = _doc({("aes", "x"): 1.0}, notes=("shared", "only A"), method="same")
    b = _doc({("aes", "x"): 2.0}, notes=("shared",), method="same")
    merged = side_by_side(["A", "B"], [a, b], "t")
    assert merged.tables[0].notes == ("shared", "A: only A")
    assert merged.method == "same"
    assert merged.sections == (Section("Sources", ("a file",)),)
    c = _doc({("aes", "x"): 3.0}, method="other")
    other = side_by_side(["A", "C"], [a, c], "t")
    assert other.method.startswith("As A ran (") and other.method.endswith(": same")
    assert ABSENT_NOTE not in merged.tables[0].notes  # every row in both


def test_a_table_only_one_run_has_is_kept_and_said_so() -> None:
    a = _doc({("aes", "x"): 1.0})
    extra = Table("Failures", ("Cipher", "Why"), (("des", "refused"),), text_columns=1)
    b = Document("Key setup", (*_doc({("aes", "x"): 2.0}).tables, extra))
    merged = side_by_side(["A", "B"], [a, b], "t")
    assert [t.caption for t in merged.tables] == ["Key setup", "B: Failures"]
    failures = merged.tables[1]
    assert failures.caption == "B: Failures" and failures.headers == ("Cipher", "Why")
    assert failures.notes == ("Not in the runs of A.",)


def test_a_name_met_again_stays_a_row_of_its_own() -> None:
    three = (("n", "1"), ("n", "2"), ("n", "3"))
    a = Document("t", (Table("c", ("Name", "x"), three, text_columns=1),))
    b = Document("t", (Table("c", ("Name", "x"), (("n", "4"), ("n", "5")), text_columns=1),))
    (table,) = side_by_side(["A", "B"], [a, b], "t").tables
    assert table.text_rows() == [["n", "1", "4"], ["n #2", "2", "5"], ["n #3", "3", ABSENT]]


def test_tables_whose_caption_names_the_run_line_up_by_their_columns() -> None:
    a = Document("t", (Table("Transfer of 1 MB", ("Cipher", "MB/s"), (("aes", "9"),), (), 1),))
    b = Document("t", (Table("Transfer of 2 MB", ("Cipher", "MB/s"), (("aes", "8"),), (), 1),))
    (table,) = side_by_side(["A", "B"], [a, b], "t").tables
    assert table.text_rows() == [["aes", "9", "8"]]
    assert table.notes == ("Captions: A: Transfer of 1 MB; B: Transfer of 2 MB",)


def test_a_documents_own_dash_is_not_a_missing_row() -> None:
    a = Document("t", (Table("c", ("Name", "x"), (("n", "-"),), text_columns=1),))
    (table,) = side_by_side(["A", "B"], [a, a], "t").tables
    assert table.text_rows() == [["n", "-", "-"]] and table.notes == ()


def test_in_the_terminal_a_figure_of_every_run_stays_together() -> None:
    from app.core.document.terminal import render

    wide = {("aes-128-gcm", "cryptography"): 1000.0, ("aes-256-gcm", "pycryptodome"): 2000.0}
    merged = side_by_side(["run 1", "run 2"], [_doc(wide), _doc(wide)], "t")
    assert merged.tables[0].group == 2
    text = render(merged, 72)
    assert max(len(line) for line in text.splitlines()) <= 72
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "Time (µs)" in line)
    assert lines[at].count("Time (µs)") == 1  # once over its runs' columns, as benchstat
    assert lines[at + 1].split()[:4] == ["run", "1", "run", "2"]
    first_row = lines[at + 2].split()
    assert first_row[2:8] == ["1,000", "[999,", "1,001]", "1,000", "[999,", "1,001]"]
    # too narrow for a figure's runs together: its header over each column again
    narrow = render(merged, 40).splitlines()
    assert sum("Time (µs)" in line for line in narrow) == 2


def test_one_label_per_document() -> None:
    with pytest.raises(ValueError):
        side_by_side(["A"], [], "t")


def _one(caption: str, headers: tuple[str, ...], *rows: tuple[str, ...]) -> Table:
    return Table(caption, headers, rows, (), 1)


def test_tables_of_the_same_columns_but_no_clear_twin_stay_apart() -> None:
    """A profile's hottest frames, a table per entry: run B profiled only chacha, on another
    input. Its table is not put under aes's caption (two candidates: neither is taken)."""
    frames = ("Frame", "Share (%)")
    a = Document("t", (_one("aes on 1 MB", frames, ("f", "1")), _one("chacha on 1 MB", frames)))
    b = Document("t", (_one("chacha on 10 MB", frames, ("g", "2")),))
    tables = side_by_side(["A", "B"], [a, b], "t").tables
    assert [t.caption for t in tables] == [
        "A: aes on 1 MB",
        "A: chacha on 1 MB",
        "B: chacha on 10 MB",
    ]
    # and a table of other figures under the same names is never a twin
    c = Document("t", (_one("Memory", ("Cipher", "MiB"), ("aes", "3")),))
    d = Document("t", (_one("Throughput", ("Cipher", "MB/s"), ("aes", "9")),))
    assert len(side_by_side(["C", "D"], [c, d], "t").tables) == 2


def test_a_column_one_run_lacks_is_said_so() -> None:
    a = Document("t", (_one("c", ("Name", "x", "y"), ("n", "1", "2")),))
    b = Document("t", (_one("c", ("Name", "x"), ("n", "3")),))
    (table,) = side_by_side(["A", "B"], [a, b], "t").tables
    assert table.text_rows() == [["n", "1", "3", "2", ABSENT]]
    assert table.notes == (f"{ABSENT}: that run's table has no such column (B: y).",)


def test_a_row_named_like_a_counted_name_keeps_its_place() -> None:
    rows = (("x", "1"), ("x #2", "2"), ("x", "3"))
    a = Document("t", (_one("c", ("Name", "v"), *rows),))
    (table,) = side_by_side(["A", "B"], [a, a], "t").tables
    assert [r[0] for r in table.text_rows()] == ["x", "x #2", "x #3"]
    assert [r[1] for r in table.text_rows()] == ["1", "2", "3"]
