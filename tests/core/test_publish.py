"""The publication kit: medians with distribution-free intervals, Markdown and LaTeX tables whose
figures are the JSON's to the printed digits, a Methods paragraph, LaTeX that compiles."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path

import pytest
from paper_files import compiles

from app.core.document.intervals import median_interval, minimum_values
from app.core.document.latex import text as latex_text
from app.core.document.numbers import figure
from app.core.kinds import formats
from app.core.publish.table import study_table
from app.core.study.result import StudyResult


def test_the_median_interval_needs_six_values_for_95_percent_and_covers_as_promised() -> None:
    assert minimum_values() == 6
    assert median_interval([1, 2, 3, 4, 5]) is None
    assert median_interval([5, 1, 4, 2, 6, 3]) == (1, 6)  # 96.9 % with the extremes
    assert median_interval(list(range(1, 21))) == (6, 15)  # binomial(20): k = 6 covers 95.9 %
    rng = random.Random(1)
    hits = 0
    for _ in range(2000):  # the true median of an exponential(1) is ln 2
        lo, hi = median_interval([rng.expovariate(1.0) for _ in range(15)])  # type: ignore[misc]
        hits += lo <= math.log(2) <= hi
    assert 0.94 <= hits / 2000 <= 0.995


def test_figures_keep_three_significant_digits_never_e_notation() -> None:
    assert [figure(x) for x in (10351.2, 912.4, 3.714, 0.04213, 0.0)] == [
        "10,351", "912", "3.71", "0.0421", "0",
    ]  # fmt: skip


def test_latex_text_escapes_every_special_character() -> None:
    assert latex_text("a_b & 50 % $x$ #1 {y} ~^\\") == (
        r"a\_b \& 50 \% \$x\$ \#1 \{y\} \textasciitilde{}\textasciicircum{}\textbackslash{}"
    )
    assert latex_text("é±µ") == r"?$\pm$$\mu$"


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> tuple[StudyResult, Path]:
    from tests.core.history.history_factories import study_result

    folder = tmp_path_factory.mktemp("paper")
    result = study_result()
    for suffix in (".json", ".md", ".tex"):
        formats.save(result, folder / f"t{suffix}")
    return result, folder


def test_markdown_figures_equal_the_json_to_the_printed_digits(study) -> None:
    result, folder = study
    doc = json.loads((folder / "t.json").read_text())
    back = StudyResult.from_dict(doc)
    expected = study_table(back).text_rows()
    assert expected == study_table(result).text_rows()
    md = (folder / "t.md").read_text()
    rows = [line.strip("|").split(" | ") for line in md.splitlines() if line.startswith("| ")]
    assert [c.strip() for c in rows[0]][:4] == ["Cipher", "Library", "Input", "Encryption (MB/s)"]
    assert [[c.strip() for c in r] for r in rows[1:]] == expected
    assert "**Methods.**" in md and "95 %" in md
    assert "[n/a]" in md and "fewer than 6 rounds" in md  # 2 rounds: no interval pretended


def test_the_latex_table_uses_booktabs_and_compiles(study, tmp_path) -> None:
    _, folder = study
    tex = (folder / "t.tex").read_text()
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex
    assert re.search(r"\\paragraph\{Methods\.\}", tex)
    compiles(folder / "t.tex", tmp_path, fits=False)
