"""The paper's figures beside ours: matched by entry and input, in the paper's unit, shown in
every report, and unmatched figures kept with no value of ours."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from factories import job_result

from app.core.bench.results import JobResult
from app.core.bench.run_info import Environment
from app.core.bench.stats import summarize
from app.core.errors import UserError
from app.core.study.definition import CipherChoice, SizeInput, Study
from app.core.study.export import study_document
from app.core.study.paper import match_published
from app.core.study.paper_report import published_rows
from app.core.study.presets import find_study, presets
from app.core.study.published import PublishedFigure
from app.core.study.report_html import study_html
from app.core.study.report_text import claims
from app.core.study.result import StudyResult
from app.core.study.study_file import to_toml
from app.core.units import MIB


def _result(
    *figures: PublishedFigure, input_label: str = "50 MB", input_bytes: int = 50_000_000
) -> StudyResult:
    results = [
        job_result(
            cipher=cipher,
            library=library,
            input_label=input_label,
            input_bytes=input_bytes,
            enc_s=[seconds] * 5,
            dec_s=[seconds * 2] * 5,
            peak_rss=100 * MIB,
            baseline_rss=40 * MIB,
            python_peak=50_000_000,
        )
        for cipher, library, seconds in (
            ("aes-128-cbc", "pycryptodome", 0.1),
            ("aes-256-cbc", "pycryptodome", 0.125),
            ("aes-128-ctr", "pyaes", 25.0),
        )
    ]
    study = Study(
        "t",
        tuple(CipherChoice(r.cipher, r.library) for r in results),
        sizes=(SizeInput("50 MB", 50_000_000),),
        repeat=5,
        published=figures,
    )
    return _one_round(study, results, repeat_per_round=5)


def _one_round(study: Study, results: list[JobResult], repeat_per_round: int) -> StudyResult:
    """``study`` run in one round that gave ``results`` and no failures."""
    return StudyResult(
        study,
        tuple(results),
        (),
        Environment({}),
        "a",
        "b",
        rounds=1,
        rounds_completed=1,
        repeat_per_round=repeat_per_round,
    )


def test_a_figure_is_matched_by_entry_and_input_and_converted_to_its_unit():
    figures = (
        PublishedFigure("AES-128", "50 MB", "encrypt_s", 0.2, "s", ("aes-128-cbc",)),
        PublishedFigure("AES-256", "50 MB", "decrypt_s", 125.0, "ms", ("aes-256-cbc",)),
        PublishedFigure("AES-128", "50 MB", "encrypt_rate", 250.0, "MB/s", ("aes-128-cbc",)),
        PublishedFigure("AES-128", "50 MB", "encrypt_rate", 1.0, "KB/s", ("aes-128-cbc",)),
    )
    m = match_published(_result(*figures))
    assert [x.cipher_label for x in m] == ["aes-128-cbc [pycryptodome]"] + [
        "aes-256-cbc [pycryptodome]"
    ] + ["aes-128-cbc [pycryptodome]"] * 2
    assert m[0].measured == pytest.approx(0.1) and m[0].ratio == pytest.approx(0.5)
    assert m[1].measured == pytest.approx(250.0)  # 2 x 0.125 s, in ms
    assert m[2].measured == pytest.approx(500.0)  # 50 MB / 0.1 s
    assert m[3].measured == pytest.approx(500_000.0)


def test_memory_follows_the_figures_basis():
    rss = PublishedFigure("AES", "50 MB", "memory", 1, "MiB", ("aes-128-cbc",))
    python = PublishedFigure("AES", "50 MB", "memory", 1, "MB", ("aes-128-cbc",), "python")
    process = PublishedFigure("AES", "50 MB", "memory", 1, "MiB", ("aes-128-cbc",), "process")
    above, peak, whole = match_published(_result(rss, python, process))
    assert above.measured == pytest.approx(60.0)  # 100 MiB peak - 40 MiB baseline
    assert peak.measured == pytest.approx(50.0)  # tracemalloc: 50,000,000 bytes
    assert whole.measured == pytest.approx(100.0)  # the process's whole peak RSS


def test_a_list_of_entries_gives_one_row_each_and_the_paper_value_once_per_row():
    figure = PublishedFigure(
        "AES (any)", "50 MB", "encrypt_s", 0.1, "s", ("aes-128-cbc", "aes-256-cbc [pycryptodome]")
    )
    rows = published_rows(_result(figure))
    assert [r[5] for r in rows] == ["aes-128-cbc [pycryptodome]", "aes-256-cbc [pycryptodome]"]
    assert [r[3] for r in rows] == [0.1, 0.1]


def test_without_an_entry_the_paper_name_may_be_our_id_or_library():
    by_library = PublishedFigure("pyaes", "50 MB", "encrypt_s", 0.5, "s")
    by_id = PublishedFigure("AES-256-CBC", "50 MB", "encrypt_s", 0.5, "s")
    speedup = PublishedFigure("aes-128-cbc", "50 MB", "speedup", 200, "x")
    a, b, c = match_published(_result(by_library, by_id, speedup))
    assert a.cipher_label == "aes-128-ctr [pyaes]" and a.measured == pytest.approx(25.0)
    assert b.cipher_label == "aes-256-cbc [pycryptodome]"
    assert c.measured == pytest.approx(250.0)  # 25 s (pyaes, the slowest) / 0.1 s


ZIP = 89_869_298  # the AES-vs-Blowfish study's .zip


@pytest.mark.parametrize(
    ("paper", "ours", "size", "quantity", "same"),
    [
        (".zip (85.706 MiB)", "85.706 MiB", ZIP, "encrypt_s", True),  # the generated stand-in
        (".zip (89869298 B)", "89869298 B", ZIP, "encrypt_s", True),  # labelled in bytes
        (".zip (89869298 B)", "backup.zip", ZIP, "encrypt_s", True),  # a .zip of its size
        # a user's .zip of another size: its time is not the paper's time, its throughput is
        (".zip (89869298 B)", "backup.zip", 21_500_000, "encrypt_s", False),
        (".zip (89869298 B)", "backup.zip", 21_500_000, "encrypt_rate", True),
        (".pdf", "thesis.PDF", 1000, "encrypt_s", True),  # no size said: the kind decides
        (".pdf", "thesis.zip", 1000, "encrypt_s", False),
        ("50 MB", "10 MB", 10**7, "encrypt_s", False),
    ],
)
def test_inputs_match_by_label_size_or_file_kind(paper, ours, size, quantity, same):
    unit = "MB/s" if quantity.endswith("_rate") else "s"
    figure = PublishedFigure("AES-128", paper, quantity, 0.1, unit, ("aes-128-cbc",))
    (m,) = match_published(_result(figure, input_label=ours, input_bytes=size))
    assert (m.measured is not None) is same


def test_an_unmatched_figure_is_still_shown_without_a_value_of_ours():
    figure = PublishedFigure("Twofish", "50 MB", "encrypt_s", 0.1, "s")
    (row,) = published_rows(_result(figure))
    assert row[:5] == ["Twofish", "50 MB", "encryption time", 0.1, "s"]
    assert row[5:9] == [None, None, None, None]
    html = study_html(_result(figure))
    assert "Twofish" in html and "not run here" in html


def test_every_report_sets_our_value_beside_the_papers():
    figure = PublishedFigure("AES-128", "50 MB", "encrypt_s", 0.2, "s", ("aes-128-cbc",))
    result = _result(figure)
    text = "\n".join(claims(result, None))
    ours = "here aes-128-cbc [pycryptodome]: 0.100 s (0.500x)"  # the one formatter's digits
    assert f"AES-128, 50 MB: encryption time = 0.2 s; {ours}" in text
    zero = replace(figure, value=0.0)  # the paper's 0: ours is still said, with no ratio
    assert "0 s; here aes-128-cbc [pycryptodome]: 0.100 s" in "\n".join(claims(_result(zero), None))
    doc = json.loads(json.dumps(study_document(result)))
    (published,) = doc["published"]
    assert published["value"] == 0.2 and published["entry"] == ["aes-128-cbc"]
    assert published["ours"]["value"] == pytest.approx(0.1)
    assert published["ours"]["ratio_to_paper"] == pytest.approx(0.5)
    assert "0.1" in study_html(result)


def test_entry_and_basis_survive_the_study_file(tmp_path):
    figure = PublishedFigure(
        "AES", "1 MB", "memory", 150, "MB", ("aes-128-cbc", "aes-256-cbc"), "python"
    )
    study = Study("t", (CipherChoice("aes-128-cbc"),), sizes=(SizeInput("1 MB", 10**6),))
    study = replace(study, published=(figure,))
    path = tmp_path / "s.toml"
    path.write_text(to_toml(study))
    assert find_study(str(path)).published == (figure,)


def test_an_unknown_memory_basis_is_refused():
    figure = PublishedFigure("AES", "1 MB", "memory", 150, "MB", (), "heap")
    with pytest.raises(UserError, match="memory basis"):
        sizes = (SizeInput("1 MB", 10**6),)
        Study("t", (CipherChoice("aes-128-cbc"),), sizes=sizes, published=(figure,)).validate()


def test_every_shipped_figure_names_entries_the_study_runs():
    """A preset's figure must match one of its own entries, or the comparison is silently lost."""
    for study in presets():
        if not study.published:
            continue
        specs = study.specs()
        labels = {f"{s.id} [{s.library}]" for s in specs}
        for figure in study.published:
            results = [
                job_result(
                    cipher=s.id, library=s.library, input_label=i.label, input_bytes=i.size_bytes
                )
                for s in specs
                for i in study.sizes
            ]
            fake = _one_round(
                Study(study.name, study.ciphers, published=(figure,)), results, repeat_per_round=1
            )
            matched = {m.cipher_label for m in match_published(fake)}
            assert matched - {None}, f"{study.name}: {figure} matches none of {sorted(labels)}"


def test_a_mean_of_the_paper_is_set_beside_our_mean_and_its_method_is_shown():
    from dataclasses import replace as with_

    from app.core.study.report_text import published

    figure = PublishedFigure(
        "AES-128", "50 MB", "encrypt_s", 0.2, "s", ("aes-128-cbc",), statistic="mean"
    )
    result = _result(figure)
    job = with_(result.results[0], encrypt=summarize([0.1, 0.1, 0.1, 0.1, 0.6], 50_000_000, ()))
    result = with_(result, results=(job, *result.results[1:]))
    (m, *_) = match_published(result)
    assert m.measured == pytest.approx(0.2)  # the mean of ours, not the median (0.1)
    assert "encryption time (mean) = 0.2 s" in m.sentence()
    study = with_(result.study, paper_method="time.time() around one call, averaged over 10 runs")
    lines = "\n".join(published(with_(result, study=study), 100))
    assert "The paper's method: time.time() around one call" in lines
    assert "The paper's method" in study_html(with_(result, study=study))


def test_the_paper_kit_carries_the_papers_figures_in_its_quantities_and_its_claims() -> None:
    """A researcher pastes the paper's own table (seconds, ms, a speed-up) from the .md/.tex,
    ours beside it in the same unit, and the claims with their verdicts."""
    from dataclasses import replace

    from app.core.document import latex, markdown
    from app.core.publish.documents import study_document
    from app.core.study.paper_claims import PaperClaim

    claim = PaperClaim("AES-128 is faster", a=("aes-128-cbc",), b=("aes-256-cbc",), where="1")
    result = _result(
        PublishedFigure("AES-128", "50 MB", "encrypt_s", 0.2, "s", ("aes-128-cbc",)),
        PublishedFigure("AES-256", "50 MB", "decrypt_s", 125.0, "ms", ("aes-256-cbc",)),
    )
    result = replace(result, study=replace(result.study, claims=(claim,)))
    doc = study_document(result)
    table = doc.tables[-1]
    assert table.caption.startswith("The paper's figures beside ours")
    rows = table.text_rows()
    assert rows[0][1:] == ["aes-128-cbc [pycryptodome]", "50 MB", "encryption time", "s",
                           "0.200", "0.100", "0.500x"]  # fmt: skip
    assert rows[1][4:] == ["ms", "125", "250", "2.00x"]
    assert doc.sections[0].heading == "The paper's claims, checked"
    assert doc.sections[0].lines[0].startswith('"AES-128 is faster" (1): ')
    md, tex = markdown.render(doc), latex.render(doc)
    assert "The paper's figures beside ours" in md and "0.500x" in md
    assert "The paper's claims, checked" in tex and "0.500x" in tex
    no_paper = replace(result, study=replace(result.study, published=(), claims=()))
    assert len(study_document(no_paper).tables) == 1 and not study_document(no_paper).sections


def test_a_paper_that_printed_times_and_memory_gets_those_figures_too(tmp_path) -> None:
    """The key-length study's Figure 2 (time against size) and Figure 3 (memory): beside the
    throughput figure, in the paper set, when the paper published such figures."""
    from app.core.publish.paper_set import paper_set_names, write_paper_set
    from app.core.publish.study_figures import paper_figures

    assert paper_figures(_result()) == {}  # nothing published: throughput only
    result = _result(
        PublishedFigure("AES-128", "50 MB", "encrypt_s", 0.2, "s", ("aes-128-cbc",)),
        PublishedFigure("AES-128", "50 MB", "memory", 150.0, "MB", ("aes-128-cbc",)),
    )
    figures = paper_figures(result)
    assert list(figures) == ["time", "memory"]
    time_points = [p.estimate.median for p in figures["time"].panels[0].series[0].points]
    assert time_points == [pytest.approx(0.1)]  # the table's median time, in seconds
    assert figures["time"].y_label.startswith("Time (s")
    memory = figures["memory"].panels[0].series[0].points[0].estimate
    assert memory.median == pytest.approx(60.0) and memory.interval is None  # 100 - 40 MiB
    names = paper_set_names(result)
    assert {"t-time.svg", "t-time.pdf", "t-memory.svg", "t-memory.pdf"} <= set(names)
    written = write_paper_set(result, tmp_path)
    assert sorted(p.name for p in written) == sorted(names)
    assert (tmp_path / "t-memory.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_the_html_says_each_rows_warnings_in_one_line() -> None:
    """A busy machine gave every row several sentences, pages of them in an HTML report: one
    line per row now, in the terminal's short words, the sentences kept in the exports."""
    result = _result()
    said = (
        "encryption: unstable samples, standard deviation is 31 % of the mean",
        "decryption: the maximum is 251 % away from the mean",
        "the worker got only 40-62 % of a CPU core while timed",
    )
    noisy = replace(result, results=tuple(replace(r, warnings=said) for r in result.results))
    page = study_html(noisy)
    section = page.split("<h2>Warnings and failures</h2>")[1].split("</ul>")[0]
    assert section.count("<li>") == len(result.results)
    assert "encryption spread 31 %; decryption outlier 251 %; busy: 40-62 % of a core" in section
    assert "each warning in full" in page


def test_each_table_of_the_paper_is_printed_in_its_shape_with_ours_under_each_row() -> None:
    """The key-length study's Table 2: one row per cipher and size, its two times as columns
    in seconds; ours under each of the paper's rows; a row the study did not run gets a row of
    ours with nothing in it. A second table of the paper is a table of its own."""
    from app.core.document import latex, markdown
    from app.core.publish.documents import study_document as document
    from app.core.publish.paper_table import paper_shaped_tables

    table2 = (
        PublishedFigure("AES-128", "50 MB", "encrypt_s", 0.2, "s", ("aes-128-cbc",), table="T2"),
        PublishedFigure("AES-128", "50 MB", "decrypt_s", 0.3, "s", ("aes-128-cbc",), table="T2"),
        PublishedFigure("AES-256", "50 MB", "encrypt_s", 0.4, "s", ("aes-256-cbc",), table="T2"),
        PublishedFigure("AES-128", "1 MB", "encrypt_s", 0.01, "s", ("aes-128-cbc",), table="T2"),
    )
    figure3 = PublishedFigure("AES", "50 MB", "memory", 150.0, "MiB", ("aes-128-cbc",), table="F3")
    result = _result(*table2, figure3)
    first, second = paper_shaped_tables(result)
    assert first.caption.startswith("T2 as the paper printed it")
    assert first.headers[3:] == ("Encryption time (s)", "Decryption time (s)")
    assert [r[:3] for r in first.rows] == [
        ("Paper", "AES-128", "50 MB"),
        ("Ours", "aes-128-cbc [pycryptodome]", "50 MB"),
        ("Paper", "AES-256", "50 MB"),
        ("Ours", "aes-256-cbc [pycryptodome]", "50 MB"),
        ("Paper", "AES-128", "1 MB"),
        ("Ours", "AES-128", "1 MB"),  # not run here: the paper's name, no figures
    ]
    assert first.rows[0][3:] == ("0.200", "0.300") and first.rows[1][3:] == ("0.100", "0.200")
    assert first.rows[2][3:] == ("0.400", "-") and first.rows[3][3:] == ("0.125", "-")
    assert first.rows[5][3:] == ("-", "-")
    assert second.caption.startswith("F3 as") and second.rows[1][3] == "60.0"  # 100 - 40 MiB
    doc = document(result)
    assert doc.tables[1:3] == (first, second)  # after our table, before the long one
    assert "| Paper | AES-256 | 50 MB | 0.400 | - |" in markdown.render(doc)
    assert r"T2 as the paper printed it" in latex.render(doc)


def test_the_memory_figure_has_a_panel_per_direction_when_the_paper_has_one() -> None:
    """The survey's "memory used for encryption" and "... for decryption": two panels, each
    direction's own peak above the baseline; one panel where the paper names no direction."""
    from app.core.bench.results import DirectionMemory
    from app.core.publish.study_figures import paper_figures

    by_direction = DirectionMemory(50 * MIB, 70 * MIB, 0, 0)
    memory = PublishedFigure("AES", "50 MB", "memory", 1, "MiB", ("aes-128-cbc",))
    plain = _result(memory)
    result = replace(
        plain,
        study=replace(plain.study, published=(replace(memory, direction="decrypt"),)),
        results=tuple(replace(r, direction_memory=by_direction) for r in plain.results),
    )
    (one,) = paper_figures(plain)["memory"].panels
    encrypt, decrypt = paper_figures(result)["memory"].panels
    assert (encrypt.title, decrypt.title) == ("Encryption", "Decryption")
    assert encrypt.series[0].points[0].estimate.median == pytest.approx(10.0)  # 50 - 40 MiB
    assert decrypt.series[0].points[0].estimate.median == pytest.approx(30.0)
    assert one.series[0].points[0].estimate.median == pytest.approx(60.0)
