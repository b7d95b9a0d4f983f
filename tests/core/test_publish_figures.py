"""The publication kit's figures: what is plotted equals the JSON's medians and intervals,
lines against size or bars per input, SVG that parses and names the entries and the unit, PDF
with its fonts embedded, the same bytes every time, hostile names drawn as text."""

from __future__ import annotations

import dataclasses
import json
import statistics
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from app.core.document.estimate import Estimate
from app.core.document.intervals import median_interval
from app.core.errors import UserError
from app.core.kinds import formats
from app.core.publish.bench_table import bench_table
from app.core.publish.figure_drawing import error_bar, plain, tick_label
from app.core.publish.kind_figures import bench_figure, sweep_figure, transfer_figure
from app.core.publish.study_figures import study_figure, transfer_study_figure
from app.core.publish.sweep_table import sweep_table
from app.core.publish.table import study_table
from app.core.publish.transfer_table import transfer_study_table, transfer_table
from app.core.study.definition import SizeInput
from app.core.study.result import StudyResult
from app.core.sweep.report import length_label
from tests.core.publish_factories import ENTRIES, made_study

SVG = "{http://www.w3.org/2000/svg}"


def _svg_texts(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def _json_rates(doc: dict, direction: str) -> dict[tuple[str, str], list[float]]:
    """Each job's per-round throughput in MB/s, from the JSON's raw samples alone."""
    out = {}
    for job in doc["results"]:
        samples = job[direction]["samples_s"]
        rates, start = [], 0
        for info in job["rounds"]:
            n = info[f"{direction}_n"]
            rates.append(job["input_bytes"] / statistics.median(samples[start : start + n]) / 1e6)
            start += n
        out[(f"{job['cipher']} [{job['library']}]", job["input_label"])] = rates
    return out


def test_the_plotted_medians_and_intervals_are_the_jsons(tmp_path: Path) -> None:
    formats.save(made_study(rounds=7), tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text())
    data = study_figure(StudyResult.from_dict(doc))
    sizes = {job["input_label"]: job["input_bytes"] for job in doc["results"]}
    assert [p.title for p in data.panels] == ["Encryption", "Decryption"]
    for panel, direction in zip(data.panels, ("encrypt", "decrypt"), strict=True):
        rates = _json_rates(doc, direction)
        assert [s.label for s in panel.series] == list(dict.fromkeys(k[0] for k in rates))
        plotted = {(s.label, p.x): p.estimate for s in panel.series for p in s.points}
        assert len(plotted) == len(rates)
        for (label, size_label), values in rates.items():
            got = plotted[(label, float(sizes[size_label]))]
            assert got.median == pytest.approx(statistics.median(values), rel=1e-12)
            lo, hi = median_interval(values) or (0, 0)
            assert got.interval == pytest.approx((lo, hi), rel=1e-12)
            assert error_bar(got) == pytest.approx((got.median - lo, hi - got.median))


def test_the_figure_shows_the_tables_numbers() -> None:
    result = made_study()
    data = study_figure(result)
    table = {(row[0], row[2]): row[3:5] for row in study_table(result).rows}
    label_of = {r.input_bytes: r.input_label for r in result.results}
    for i, panel in enumerate(data.panels):
        for s in panel.series:
            for p in s.points:
                assert table[(s.label.split(" [")[0], label_of[int(p.x)])][i] == p.estimate


def test_sizes_are_lines_on_a_log_axis_and_files_are_bars_per_input() -> None:
    lines = study_figure(made_study())
    assert not lines.bars and lines.log_x
    assert [label for _, label in lines.ticks] == ["1 KB", "1 MB", "100 MB"]
    assert lines.x_label.startswith("Input size (log scale")
    assert lines.y_label.startswith("Throughput (MB/s") and "10⁶ bytes" in lines.y_label
    files = study_figure(made_study(files=[("b.pdf", 10**6), ("a.zip", 3 * 10**6)]))
    assert files.bars and not files.log_x
    assert files.ticks == ((0.0, "b.pdf"), (1.0, "a.zip"))
    assert {p.x for s in files.panels[0].series for p in s.points} == {0.0, 1.0}
    slow = study_figure(made_study(entries=ENTRIES))  # pyaes at 0.4 MB/s beside 4 GB/s
    assert slow.log_y and "log scale" in slow.y_label
    mib = study_figure(made_study(units="MiB/s"))
    assert "(MiB/s" in mib.y_label and "2²⁰ bytes" in mib.y_label


def test_too_few_rounds_give_no_error_bar() -> None:
    data = study_figure(made_study(rounds=5))
    points = [p for panel in data.panels for s in panel.series for p in s.points]
    assert points and all(error_bar(p.estimate) is None for p in points)


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("figures")
    result = made_study()
    for name in ("a", "b"):
        for suffix in (".svg", ".pdf"):
            formats.save(result, folder / f"{name}{suffix}")
    return folder


def test_the_svg_is_xml_with_the_entries_and_the_axis_unit(drawn: Path) -> None:
    root = ET.parse(drawn / "a.svg").getroot()
    assert root.tag == f"{SVG}svg" and root.get("width") == "252pt"  # 3.5 in
    texts = _svg_texts(drawn / "a.svg")
    for cipher, library, *_ in ENTRIES[:3]:
        assert f"{cipher} [{library}]" in texts
    assert "Throughput (MB/s, log scale)" in texts and "1 MB = 10⁶ bytes" in texts
    assert {"Encryption", "Decryption", "1 KB", "100 MB"} <= set(texts)
    assert root.find(f"{SVG}title") is not None  # the study's title, not drawn
    assert "Made-up study" not in texts


def test_the_pdf_is_a_pdf_with_its_fonts_embedded(drawn: Path) -> None:
    pdf = (drawn / "a.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    assert b"/FontFile2" in pdf and b"/Type3" not in pdf  # TrueType, not Type 3 outlines
    assert b"/CreationDate" not in pdf


def test_the_same_result_gives_the_same_bytes(drawn: Path) -> None:
    for suffix in (".svg", ".pdf"):
        assert (drawn / f"a{suffix}").read_bytes() == (drawn / f"b{suffix}").read_bytes()


def test_hostile_names_are_drawn_as_text(tmp_path: Path) -> None:
    name = "$x^2$ \x01 \udcff <&>.bin"
    result = made_study(files=[(name, 10**6), ("b.txt", 2 * 10**6)])
    assert plain("$5 and $6") == r"\$5 and \$6"
    assert tick_label("a" * 40) == "a" * 17 + "…"
    formats.save(result, tmp_path / "f.svg")
    formats.save(result, tmp_path / "f.pdf")
    texts = _svg_texts(tmp_path / "f.svg")
    assert r"$x^2$ \x01 \xff <&>.bin" in texts


def test_a_study_without_results_has_no_figure(tmp_path: Path) -> None:
    empty = dataclasses.replace(made_study(), results=())
    with pytest.raises(UserError, match="without results has no figure"):
        formats.save(empty, tmp_path / "f.svg")
    assert not list(tmp_path.iterdir())


def test_without_matplotlib_the_figure_is_refused_in_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    with pytest.raises(UserError) as caught:
        formats.save(made_study(), tmp_path / "f.pdf")
    assert "lacks the package matplotlib" in str(caught.value)
    assert "\n" not in str(caught.value)


# The other kinds: a bench run, a transfer, a sweep and a ladder, drawn from their tables.


def _kinds() -> dict[str, object]:
    from test_publish_bench import rounds_run
    from test_publish_sweep import a_ladder, a_sweep
    from test_publish_transfer import a_study, a_transfer

    return {
        "bench": rounds_run(),
        "transfer": a_transfer(),
        "transfer-study": a_study(),
        "sweep": a_sweep(),
        "ladder": a_ladder(),
    }


def _plotted(data) -> list[Estimate]:
    return [p.estimate for panel in data.panels for s in panel.series for p in s.points]


def test_each_kinds_figure_plots_its_tables_medians() -> None:
    kinds = _kinds()
    bench = bench_figure(kinds["bench"])
    rows = bench_table(kinds["bench"]).rows
    assert [s.label for s in bench.panels[0].series] == ["Encryption", "Decryption"]
    assert [[p.estimate for p in s.points] for s in bench.panels[0].series] == [
        [row[4] for row in rows],
        [row[5] for row in rows],
    ]
    assert bench.bars and "(MB/s" in bench.y_label and "10⁶ bytes" in bench.y_label
    assert any(error_bar(e) for e in _plotted(bench))  # six rounds: intervals
    transfer = transfer_figure(kinds["transfer"])
    assert _plotted(transfer) == [row[2] for row in transfer_table(kinds["transfer"]).rows]
    assert next(label for _, label in transfer.ticks) == "aes-256-gcm\n(cryptography)"
    study = transfer_study_figure(kinds["transfer-study"])
    rows = transfer_study_table(kinds["transfer-study"]).rows
    assert [(s.label, [p.estimate for p in s.points]) for s in study.panels[0].series] == [
        (label, [row[3]])
        for label, row in zip(kinds["transfer-study"].cipher_labels(), rows, strict=True)
    ]
    assert study.bars and study.legend and any(error_bar(e) for e in _plotted(study))
    sweep = sweep_figure(kinds["sweep"])
    table = {(row[0], row[1], row[2]): row[5] for row in sweep_table(kinds["sweep"]).rows}
    for e, s in zip(kinds["sweep"].entries, sweep.panels[0].series, strict=True):
        assert s.label.startswith(e.label)
        assert s.label.endswith("~ estimated") == (not e.counter)
        for p in s.points:
            assert table[(e.cipher, e.library, length_label(int(p.x)))] == p.estimate
    assert sweep.log_x and sweep.log_y and sweep.y_label.startswith("Cycles per byte")
    ladder = sweep_figure(kinds["ladder"])
    assert _plotted(ladder) == [row[3] for row in sweep_table(kinds["ladder"]).rows]
    assert ladder.bars and ladder.log_y and not ladder.legend


def test_a_sweep_without_cycle_figures_plots_ns_per_byte() -> None:
    result = _kinds()["sweep"]
    no_clock = [dataclasses.replace(e, counter=False, clock_mhz=None) for e in result.entries]
    data = sweep_figure(dataclasses.replace(result, entries=tuple(no_clock)))
    assert data.y_label == "Time per byte (ns, log scale)"
    entry, series = no_clock[0], data.panels[0].series[0]
    expected = [p.median_ns / p.message_bytes for p in entry.curve()]
    assert [p.estimate.median for p in series.points] == pytest.approx(expected)


@pytest.fixture(scope="module")
def kinds_drawn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("kind-figures")
    for kind, result in _kinds().items():
        for name in ("a", "b") if kind in DRAWN_TWICE else ("a",):
            for suffix in (".svg", ".pdf"):
                formats.save(result, folder / f"{kind}-{name}{suffix}")
    return folder


# Drawn a second time to compare bytes: lines on log axes and bars (a study's lines are drawn
# twice above); each drawing costs a few tenths of a second.
DRAWN_TWICE = ("sweep", "ladder")


@pytest.mark.parametrize(
    ("kind", "names", "axis"),
    [
        (
            "bench",
            ["Encryption", "Decryption", "aes-256-ctr", "[cryptography]"],
            "Throughput (MB/s)",
        ),
        ("transfer", ["aes-256-gcm", "(cryptography)", "none"], "Throughput (MB/s)"),
        ("transfer-study", ["aes-256-gcm (cryptography)", "none"], "Throughput (MB/s)"),
        ("sweep", ["aes-128-gcm [pycryptodome]", "1350 B"], "Cycles per byte (log scale)"),
        ("ladder", ["1. cryptography", "3. pure Python"], "Throughput (MB/s, log scale)"),
    ],
)
def test_each_kind_draws_svg_and_pdf_and_the_same_every_time(
    kinds_drawn: Path, kind: str, names: list[str], axis: str
) -> None:
    root = ET.parse(kinds_drawn / f"{kind}-a.svg").getroot()
    assert root.tag == f"{SVG}svg" and root.get("width") == "252pt"
    texts = _svg_texts(kinds_drawn / f"{kind}-a.svg")
    lines = {line for t in texts for line in t.split("\n")}
    assert set(names) <= lines and axis in lines
    assert (kinds_drawn / f"{kind}-a.pdf").read_bytes().startswith(b"%PDF-")
    for suffix in (".svg", ".pdf") if kind in DRAWN_TWICE else ():
        a = (kinds_drawn / f"{kind}-a{suffix}").read_bytes()
        assert a == (kinds_drawn / f"{kind}-b{suffix}").read_bytes()


def test_a_run_without_results_has_no_figure(tmp_path: Path) -> None:
    empty = dataclasses.replace(_kinds()["bench"], results=())
    with pytest.raises(UserError, match="a run without results has no figure"):
        formats.save(empty, tmp_path / "f.pdf")


def test_a_transfer_study_of_sizes_draws_lines_against_size() -> None:
    from test_publish_transfer import a_study

    from tests.core.history.history_factories import transfer_result

    study = a_study()
    cells = []
    for size in (10_000, 1_000_000, 100_000_000):
        for cipher in ("aes-256-gcm", "none"):
            cell = transfer_result(cipher, (0.01, 0.011, 0.012, 0.0105, 0.0115, 0.0125))
            cells.append(dataclasses.replace(cell, input_bytes=size,
                                             input_label=f"random {size} B"))  # fmt: skip
    sizes = tuple(SizeInput(c.input_label, c.input_bytes) for c in cells[::2])
    study = dataclasses.replace(study, study=dataclasses.replace(study.study, sizes=sizes),
                                results=tuple(cells))  # fmt: skip
    data = transfer_study_figure(study)
    assert not data.bars and data.log_x and data.x_label.startswith("Input size (log scale")
    assert [p.x for p in data.panels[0].series[0].points] == [1e4, 1e6, 1e8]


def test_labels_of_sizes_close_on_a_log_axis_are_turned_and_spread_ones_are_not() -> None:
    from app.core.publish.figure_data import FigureData
    from app.core.publish.figure_drawing import _crowded

    def axis(ticks, log_x=True, bars=False):
        return FigureData("t", bars, log_x, False, "", "", tuple(ticks), ())

    seed_004 = [(10_486, "10.5 KB"), (1.05e6, "1.05 MB"), (52.4e6, "52.4 MB"),
                (210e6, "210 MB"), (524e6, "524 MB")]  # fmt: skip
    assert _crowded(axis(seed_004))  # 210 MB beside 524 MB
    assert not _crowded(axis([(1e4, "10 KB"), (1e6, "1 MB"), (1e8, "100 MB")]))
    assert not _crowded(axis([(0, "a.txt"), (1, "b.txt")], log_x=False, bars=True))
    long_names = [(i, f"file-number-{i}.bin") for i in range(5)]
    assert _crowded(axis(long_names, log_x=False, bars=True))


def test_sizes_written_in_mib_are_labelled_in_mib_on_the_figure() -> None:
    """The loopback study's 50 MiB read "52.4 MB" under an axis of 1 MB = 10^6 bytes."""
    from publish_factories import made_study

    from app.core.publish.figure_data import input_axis

    axis = input_axis(made_study(sizes=(("1 MiB", 2**20), ("50 MiB", 50 * 2**20))))
    assert [label for _, label in axis.ticks] == ["1 MiB", "50 MiB"]
    assert "1 MiB = 2²⁰ bytes" in axis.label and "10⁶" not in axis.label
    mixed = input_axis(made_study(sizes=(("10485 B", 10485), ("1 MB", 10**6), ("1 MiB", 2**20))))
    assert [label for _, label in mixed.ticks] == ["10485 B", "1 MB", "1 MiB"]
    assert "1 MB = 10⁶ bytes, 1 MiB = 2²⁰ bytes" in mixed.label


def test_the_paper_table_names_each_file_with_its_size() -> None:
    """A paper kit named the inputs by file name only; a size stays as the study wrote it."""
    from publish_factories import made_study

    from app.core.publish.table import study_table

    files = study_table(made_study(files=(("notes.txt", 14_694), ("data.zip", 89_869_298))))
    assert {row[2] for row in files.text_rows()} == {"notes.txt (14.69 KB)", "data.zip (89.87 MB)"}
    sizes = study_table(made_study(sizes=(("50 MiB", 50 * 2**20),), units="MiB/s"))
    assert {row[2] for row in sizes.text_rows()} == {"50 MiB"}
