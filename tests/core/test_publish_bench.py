"""The publication kit for a benchmark run: the table's figures are the JSON's (recomputed from
its raw samples) to the printed digits, the interval's unit is said honestly (one worker's
repetitions, or rounds), names are escaped for LaTeX and the document compiles."""

from __future__ import annotations

import dataclasses
import json
import re
import statistics
from pathlib import Path

import pytest
from factories import job_result
from paper_files import cell, compiles, md_rows, rate_cell

from app.core.bench.results import RoundInfo
from app.core.document.numbers import figure
from app.core.kinds import formats
from app.core.runtime.envelope import EntryFailure
from tests.core.history.history_factories import bench_run

MB, MIB = 10**6, 2**20
NAME = "data_1 & 50% {x}.bin"  # every LaTeX special a file name is likely to hold


def _times(n: int, base: float) -> list[float]:
    return [base * (1 + (i * 7 % n) / 50) for i in range(n)]


def one_round_run():
    jobs = [
        job_result(cipher="aes-128-cbc", mode="CBC", input_label=NAME, input_bytes=2_000_000,
                   enc_s=_times(11, 0.002), dec_s=_times(8, 0.001)),
        job_result(cipher="aes-256-cbc", mode="CBC", input_label=NAME, input_bytes=2_000_000,
                   enc_s=_times(3, 0.003), dec_s=_times(3, 0.0015), peak_rss=None),
    ]  # fmt: skip
    return bench_run(jobs, failures=[EntryFailure("bf-cbc", "pyaes", "not offered\nat all")])


def rounds_run():
    enc = _times(12, 0.002)
    info = tuple(RoundInfo(i, 0, 2, 2, 99.0) for i in range(6))
    return bench_run([job_result(enc_s=enc, dec_s=enc[::-1], rounds=info)])


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bench-paper")
    for name, run in (("one", one_round_run()), ("rounds", rounds_run())):
        for suffix in (".json", ".md", ".tex"):
            formats.save(run, folder / f"{name}{suffix}")
    return {"folder": folder}


def test_one_round_prints_the_json_figures_over_the_repetitions(written) -> None:
    folder = written["folder"]
    doc = json.loads((folder / "one.json").read_text())
    rows = md_rows((folder / "one.md").read_text())
    assert rows[0] == [
        "Cipher", "Library", "Mode", "Input", "Encryption (MB/s)", "Decryption (MB/s)",
        "Memory (MiB)", "Repetitions",
    ]  # fmt: skip
    expected = []
    for r in doc["results"]:
        enc, dec = r["encrypt"]["samples_s"], r["decrypt"]["samples_s"]
        size = r["input_bytes"] / MB
        above = r["memory_above_baseline_bytes"]
        reps = f"{len(enc)}" if len(enc) == len(dec) else f"{len(enc)} / {len(dec)}"
        expected.append(
            [r["cipher"], r["library"], r["mode"], NAME, rate_cell(size, enc),
             rate_cell(size, dec), "-" if above is None else figure(above / MIB), reps]
        )  # fmt: skip
        # The median is the JSON's own throughput, to the printed digits.
        assert rate_cell(size, enc).split(" [")[0] == figure(r["encrypt"]["throughput_mb_s"])
    assert rows[1:] == expected
    assert expected[0][4].count(",") >= 1 and "[n/a]" in expected[1][4]  # 11 values; 3: none


def test_one_round_says_its_interval_covers_one_worker_only(written) -> None:
    md = (written["folder"] / "one.md").read_text()
    flat = " ".join(md.split())
    assert "The repetitions of a job all ran in one worker process" in flat
    assert "repetitions within one worker process" in flat  # the Methods
    assert (
        "fewer than 6 repetitions" in flat and "Repetitions: of encryption / of decryption" in flat
    )
    assert "Not measured: bf-cbc [pyaes]: not offered" in flat and "at all" not in flat
    assert "**Methods.** Measurements were taken on Test CPU 3000" in md


def test_rounds_are_the_unit_when_the_run_kept_them(written) -> None:
    folder = written["folder"]
    doc = json.loads((folder / "rounds.json").read_text())
    (r,) = doc["results"]
    samples, rounds = r["encrypt"]["samples_s"], []
    for info in r["rounds"]:
        rounds.append(samples[: info["encrypt_n"]])
        samples = samples[info["encrypt_n"] :]
    per_round = [r["input_bytes"] / MB / statistics.median(x) for x in rounds]
    md = (folder / "rounds.md").read_text()
    rows = md_rows(md)
    assert rows[0][-1] == "Rounds" and rows[1][-1] == "6"
    assert rows[1][4] == cell(per_round) and "[n/a]" not in rows[1][4]
    assert "a round is one worker process at one moment" in " ".join(md.split())


def test_names_are_escaped_and_the_document_compiles(written, tmp_path) -> None:
    tex = (written["folder"] / "one.tex").read_text()
    assert r"data\_1 \& 50\% \{x\}.bin" in tex
    assert r"($10^{6}$ bytes per second)" in tex and "-{}-rounds" in tex
    assert re.search(r"\\begin\{tabular\}\{l\S*rrrr\}", tex) and r"\toprule" in tex
    compiles(written["folder"] / "one.tex", tmp_path)


def test_a_run_without_memory_has_no_memory_column() -> None:
    from app.core.publish.bench_table import bench_methods, bench_table

    run = dataclasses.replace(rounds_run(), results=(job_result(peak_rss=None),))
    assert "Memory (MiB)" not in bench_table(run).headers
    assert "Memory, where given" not in bench_methods(run)


def two_entries_in_rounds(rounds: int):
    """AES-128 and AES-256 on one input, the second 20 % slower, in ``rounds`` rounds."""
    info = tuple(RoundInfo(i, 0, 2, 2, 99.0) for i in range(rounds))
    jobs = [
        job_result(cipher=c, key_bits=bits, enc_s=_times(2 * rounds, base),
                   dec_s=_times(2 * rounds, base), rounds=info if rounds > 1 else ())
        for c, bits, base in (("aes-128-cbc", 128, 0.002), ("aes-256-cbc", 256, 0.0024))
    ]  # fmt: skip
    return bench_run(jobs)


def test_the_document_states_the_windows_comparisons_under_a_title(tmp_path) -> None:
    """The HTML export of a run was one bare table: no title, none of the Comparisons tab."""
    from app.core.publish.documents import bench_document
    from app.core.study.cell_pairs import pair_comparisons
    from app.core.study.claims import DEFAULT_MARGIN, DEFAULT_TARGET

    run = two_entries_in_rounds(6)
    doc = bench_document(run)
    assert doc.title == "CipherBench: 2 cipher entries on 1 input"
    claims = pair_comparisons(run.results, margin=DEFAULT_MARGIN, target=DEFAULT_TARGET)
    (section,) = doc.sections
    assert section.heading == f"Comparisons on {run.results[0].input_label}"
    assert section.lines == tuple(c.sentence() for c in claims) and len(claims) == 2
    assert any("faster" in line for line in section.lines)
    formats.save(run, tmp_path / "r.html")
    html = (tmp_path / "r.html").read_text()
    assert "<h1>CipherBench: 2 cipher entries on 1 input</h1>" in html
    assert "<h2>Comparisons on " in html


@pytest.mark.parametrize("rounds", [1, 3])
def test_too_few_rounds_say_why_there_is_no_comparison(rounds: int) -> None:
    from app.core.publish.documents import bench_document

    (section,) = bench_document(two_entries_in_rounds(rounds)).sections
    ran = "one worker" if rounds == 1 else "3 rounds"
    assert section.lines == (
        f"None: each job ran in {ran}, and a comparison needs 4 rounds or more a side "
        "(bench --rounds 6, or Rounds in the window's Options).",
    )


def test_each_input_is_judged_on_its_own_jobs() -> None:
    """A window's runs accumulate: one input run once, another in 6 rounds; an input with one
    entry has nothing to compare; too many pairs are not listed."""
    import dataclasses as dc

    from app.core.publish.bench_claims import MAX_PAIRS
    from app.core.publish.documents import bench_document

    once = [dc.replace(j, input_label="a.txt") for j in two_entries_in_rounds(1).results]
    six = [dc.replace(j, input_label="b.txt") for j in two_entries_in_rounds(6).results]
    alone = [dc.replace(six[0], input_label="c.txt")]
    many = [dc.replace(six[i % 2], cipher=f"x{i}", input_label="d.txt") for i in range(11)]
    sections = bench_document(bench_run([*once, *six, *alone, *many])).sections
    assert [s.heading for s in sections] == [
        "Comparisons on a.txt", "Comparisons on b.txt", "Comparisons on d.txt",
    ]  # fmt: skip
    assert sections[0].lines[0].startswith("None: each job ran in one worker")
    assert len(sections[1].lines) == 2 and "faster" in sections[1].lines[0]
    assert MAX_PAIRS < 55 and sections[2].lines == (
        "55 pairs of entries, too many to state here; the window's Comparisons tab states each.",
    )
    assert bench_document(bench_run([])).title == "CipherBench: no results"
