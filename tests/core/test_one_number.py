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

    book = load_workbook(tmp_path / "s.xlsx", read_only=True)
    try:  # a read-only workbook holds its file open until closed
        xlsx = [[c.value for c in row] for row in book["Results"].iter_rows()]
    finally:
        book.close()
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


# --- every kind: its figure reads the same in every output ----------------------------------


def _bench_run():
    from factories import job_result

    from app.core.bench.results import RoundInfo
    from tests.core.history.history_factories import bench_run

    info = tuple(RoundInfo(i, 0, 2, 2, 99.0) for i in range(6))
    slow_round = [0.0021, 0.0020] * 3 + [0.0031, 0.0030] + [0.0020, 0.0022] * 2  # round 4 slow
    return bench_run(
        [
            job_result(cipher="aes-128-cbc", enc_s=slow_round, dec_s=slow_round[::-1], rounds=info),
            job_result(cipher="aes-256-cbc", enc_s=[t * 1.3 for t in slow_round], rounds=info),
        ]
    )


def _holds(name: str, text: str, want: str) -> bool:
    """Whether ``text`` (an output called ``name``) holds the figure ``want``: as printed, or
    (CSV and JSON keep full precision) as a number that prints so."""
    if want in text:
        return True
    if name in (".csv", ".json"):
        numbers = re.findall(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", text)
        return want in {figure(float(n)) for n in numbers}
    return False


def _workbook_text(result: object, path: Path) -> str:
    """Every cell of the workbook the document renderer writes of ``result``, as text."""
    from openpyxl import load_workbook

    formats.save(result, path)
    book = load_workbook(path, read_only=True)
    return "\n".join(
        str(v)
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
        for v in row
    )


def _texts(result: object, tmp_path: Path, terminal: str) -> dict[str, str]:
    """Every text output of ``result``: the terminal's, and each text format it offers."""
    from app.core.kinds import table

    out = {"terminal": terminal}
    for suffix in table.kind_of(result).files.suffixes:
        if suffix in (".md", ".tex", ".html", ".csv", ".json", ".adoc"):
            path = tmp_path / f"r{suffix}"
            formats.save(result, path)
            out[suffix] = path.read_text(encoding="utf-8")
        elif suffix == ".xlsx" and table.kind_of(result).files.writers[suffix].how == table.RENDER:
            out[suffix] = _workbook_text(result, tmp_path / "r.xlsx")
    return out


def test_a_bench_prints_one_number_per_cell_everywhere(tmp_path: Path) -> None:
    from app.cli.report import format_results
    from app.core.export.schema import field
    from app.gui.results.result_columns import COLUMN_INDEX, COLUMNS

    run = _bench_run()
    outputs = _texts(run, tmp_path, format_results(run))
    for job in run.results:
        medians = [statistics.median(r) for r in job.round_samples("encrypt")]
        want = figure(job.input_bytes / statistics.median(medians) / 1e6)
        assert rate_text(field("enc_throughput_mb_s").get(job)) == want  # csv, xlsx, json
        column = COLUMNS[COLUMN_INDEX["Enc. throughput (MB/s)"]]
        assert column.text(job) == want  # the window's table
        for name, text in outputs.items():
            assert _holds(name, text, want), f"{job.cipher} {want} not in {name}"


def test_a_transfer_prints_one_number_per_cell_everywhere(tmp_path: Path) -> None:
    from app.cli.transfer import format_transfers
    from tests.core.history.history_factories import transfer_run

    run = transfer_run()
    outputs = _texts(run, tmp_path, format_transfers(run.results, run.input_label))
    for r in run.results:
        want = figure(r.input_bytes / statistics.median(r.timing.samples_s) / 1e6)
        for name, text in outputs.items():
            assert _holds(name, text, want), f"{r.label} {want} not in {name}"


def test_a_kind_made_from_its_definition_prints_one_number_everywhere(tmp_path: Path) -> None:
    from app.core.document.terminal import render
    from app.core.keysetup.result import KeySetupResult, key_setup_document
    from tests.core.keysetup.test_keysetup import made

    result = made()
    outputs = _texts(result, tmp_path, render(key_setup_document(result)))
    # Its JSON holds the raw samples (in ns), not the figure: read back, it prints the same.
    again = KeySetupResult.from_dict(json.loads(outputs.pop(".json")))
    outputs["json read back"] = render(key_setup_document(again))
    for entry in result.results:
        medians = [statistics.median(r) for r in entry.rounds_ns]
        want = figure(statistics.median(medians) / 1e3)
        for name, text in outputs.items():
            assert _holds(name, text, want), f"{entry.library} {want} not in {name}"


def test_a_study_written_before_rounds_were_kept_reads_its_rounds_median(study) -> None:
    """An old file (no round shares) whose rounds can be told: its median is its rounds'
    median once read, as a new study's is."""
    data = study.to_dict()
    for r in data["results"]:
        r.pop("rounds")
    old = StudyResult.from_dict(data)
    for r, again in zip(study.results, old.results, strict=True):
        assert again.rounds and again.encrypt.median_s == r.encrypt.median_s


def test_a_profile_prints_one_share_everywhere(tmp_path: Path) -> None:
    from app.core.document.terminal import render
    from app.core.profile.document import profile_document, share_estimate
    from app.core.profile.result import ProfileResult
    from app.core.profile.rules import share_names
    from tests.core.profile.test_profile_kind import made

    result = made()
    outputs = _texts(result, tmp_path, render(profile_document(result)))
    again = ProfileResult.from_dict(json.loads(outputs.pop(".json")))
    outputs["json read back"] = render(profile_document(again))
    (entry,) = result.results
    want = share_estimate(entry, share_names("interpreted")).text()
    assert ".xlsx" in outputs
    for name, text in outputs.items():
        assert want in text or name == ".csv", f"{want} not in {name}"


def test_runs_merged_side_by_side_print_each_runs_number_everywhere(tmp_path: Path) -> None:
    """Two key setup runs merged table by table: each run's cell reads as in its own
    document, in the terminal and in every format the merge offers."""
    from dataclasses import replace

    from app.core.document.terminal import render
    from app.core.keysetup.result import key_setup_document
    from app.core.publish.merge import MergeSource
    from app.core.publish.merged_documents import merge_documents
    from tests.core.keysetup.test_keysetup import made

    first = made()
    slower = tuple(
        replace(e, rounds_ns=tuple(tuple(3 * x for x in r) for r in e.rounds_ns))
        for e in first.results
    )
    second = replace(first, results=slower)
    merged = merge_documents(
        [MergeSource("laptop", "a.json", first), MergeSource("server", "b", second)]
    )
    outputs = _texts(merged, tmp_path, render(merged.document))
    assert set(outputs) == {"terminal", ".md", ".tex", ".html", ".csv", ".json", ".adoc", ".xlsx"}
    for result in (first, second):
        for row in key_setup_document(result).tables[0].rows:
            want = row[3].text()  # type: ignore[union-attr]
            for name, text in outputs.items():
                assert _holds(name, text, want.split(" [")[0]), f"{want} not in {name}"
                assert name in (".csv", ".json") or want in text, f"{want} not in {name}"


def _side_by_side():
    from app.core.publish.merge import MergeSource
    from app.core.publish.merged_documents import merge_documents
    from tests.core.keysetup.test_keysetup import made

    return merge_documents([MergeSource("a", "a", made()), MergeSource("b", "b", made(7))])


def _sweeps_side_by_side():
    from trend_factories import sweep

    from app.core.publish.merge import MergeSource
    from app.core.publish.merged_documents import merge_documents

    return merge_documents([MergeSource("a", "a", sweep()), MergeSource("b", "b", sweep())])


def _merged_rows():
    from app.core.publish.merge import MergeSource, merge_results

    a, b = made_study(rounds=6, seed=1), made_study(rounds=6, seed=2)
    return merge_results([MergeSource("a", "a", a), MergeSource("b", "b", b)])


def _made(name: str) -> object:
    from importlib import import_module

    from trend_factories import sweep

    from tests.core.history.history_factories import transfer_run, transfer_study

    own = {
        "bench": _bench_run,
        "study": lambda: made_study(rounds=6, seed=3),
        "transfer": transfer_run,
        "transfer study": transfer_study,
        "sweep": sweep,
        "merged": _merged_rows,
        "side by side": _side_by_side,
        "sweeps side by side": _sweeps_side_by_side,
    }
    if name in own:
        return own[name]()
    return import_module(f"tests.core.{name}.test_{name}{'_kind' * (name == 'profile')}").made()


EVERY_KIND = (
    "bench", "study", "transfer", "transfer study", "sweep", "keysetup", "profile", "leak",
    "merged", "side by side", "sweeps side by side",
)  # fmt: skip


def _tex_plain(text: str) -> str:
    """A LaTeX table's text with the renderer's escapes undone (to find a cell's text)."""
    for escaped, plain in ((r"$\sim$", "~"), (r"$\mu$", "µ"), (r"\textasciitilde{}", "~")):
        text = text.replace(escaped, plain)
    return text


@pytest.mark.parametrize("name", EVERY_KIND)
def test_every_cell_of_every_kind_reads_the_same_in_every_output(name: str, tmp_path: Path) -> None:
    """Each kind's document (what every renderer prints) against every output its kind offers:
    each estimate's text, interval and all, in the terminal and every renderer's format; its
    median as printed (with its unit, for a time) in the kind's own reports; its median at full
    precision in every CSV and workbook; the JSON read back prints the same document."""
    from app.core.document.estimate import SECONDS, Estimate
    from app.core.document.terminal import render
    from app.core.kinds import table

    result = _made(name)
    kind = table.kind_of(result)
    document = kind.document_of(result)
    outputs = _texts(result, tmp_path, render(document, None))
    if ".xlsx" in kind.files.suffixes:
        outputs[".xlsx"] = _workbook_text(result, tmp_path / "w.xlsx")
    json_text = outputs.pop(".json", None)
    if json_text is not None and kind.stored:
        again = kind.result_of(json.loads(json_text))
        assert render(kind.document_of(again), None) == render(document, None)
    rendered = {"terminal"} | {f.suffix for f in kind.files.formats if f.how == table.RENDER}
    cells = [c for t in document.tables for row in t.rows for c in row if isinstance(c, Estimate)]
    assert cells, f"{name}: no figure in its document"
    missing = []
    for cell in cells:
        for where, text in outputs.items():
            # a renderer writes a time in seconds (its header says so); a kind's own file in
            # the unit of its own header (a sweep's CSV: ns)
            own = cell.unit == SECONDS and where not in rendered
            scales = (1, 1e3, 1e6, 1e9) if own else (1,)
            if where in (".csv", ".xlsx"):
                found = any(_holds(".csv", text, figure(cell.median * k)) for k in scales)
            elif where in rendered:
                found = cell.text() in (
                    _tex_plain(text) if where == ".tex" else html.unescape(text)
                )
            else:  # a kind's own report: the median as printed, its interval its own way
                found = cell.text().split(" [")[0].lstrip("~") in html.unescape(text)
            if not found:
                missing.append(f"{cell.text()} in {where}")
    assert not missing, f"{name}: {len(missing)} not found: {', '.join(missing[:8])}"


def test_the_key_length_studys_aes_128_cbc_1_mb_cell_reads_the_same_everywhere(
    tmp_path: Path,
) -> None:
    """The issue's cell: AES-128-CBC on 1 MB in the key-length study, encryption. Computed here
    from the raw rounds (the median of each round's median), it is the one figure of the
    terminal, the window's column, every file the study offers (its own HTML, workbook, CSV and
    JSON, and every renderer's; the paper set's .md and .tex are these, written by the same
    formats)."""
    from publish_factories import key_length_study

    result = key_length_study()
    (job,) = [r for r in result.results if r.cipher == "aes-128-cbc" and r.input_label == "1 MB"]
    medians = [statistics.median(x) for x in job.round_samples("encrypt")]
    want = figure(job.input_bytes / statistics.median(medians) / 1e6)
    assert rate_text(rate(job, "encrypt", "MB/s")) == want
    column = {c.key: c for c in STUDY_COLUMNS}["encrypt_throughput"]
    assert column.text(column.get(job, "MB/s")) == want  # the window's table
    outputs = _texts(result, tmp_path, format_study(result, width=200))
    outputs[".xlsx"] = _workbook_text(result, tmp_path / "k.xlsx")
    assert {".html", ".csv", ".json", ".md", ".tex", ".adoc", ".xlsx"} <= set(outputs)
    for name, text in outputs.items():
        found = _holds(".csv" if name in (".xlsx", ".json") else name, text, want)
        assert found, f"{want} not in {name}"
        if name.endswith((".md", ".tex")):  # in its own row, not another's
            rows = _rows(text.splitlines(), "aes-128-cbc", "1 MB")
            (row,) = [r for r in rows if r.lstrip("| ").startswith("aes-128-cbc ")]
            assert f"{want} [" in row, f"{want} not in {name}'s row {row}"
    again = StudyResult.from_dict(json.loads(outputs[".json"]))
    (back,) = [r for r in again.results if r.label == job.label and r.input_label == "1 MB"]
    assert rate_text(rate(back, "encrypt", "MB/s")) == want  # the JSON read back
