"""The publication kit for transfers and studies of them: throughput over the runs (one pair of
processes) or over rounds (fresh pairs) equals the JSON's to the printed digits, each end's CPU
and memory as the JSON has them, names escaped for LaTeX, documents that compile."""

from __future__ import annotations

import dataclasses
import html
import json
import re
from pathlib import Path

import pytest
from paper_files import cell, compiles, md_rows, rate_cell

from app.core.document.numbers import figure
from app.core.kinds import formats
from app.core.runtime.envelope import NamedFailure
from tests.core.history.history_factories import transfer_result, transfer_run, transfer_study

MB, MIB = 10**6, 2**20
SEVEN = (0.010, 0.012, 0.011, 0.013, 0.0105, 0.0115, 0.0125)


def a_transfer():
    """A ``transfer``: every run between one pair of processes (no rounds), one cipher with
    too few runs for an interval, one that failed."""
    one_pair = [
        dataclasses.replace(transfer_result("aes-256-gcm", SEVEN), round_sizes=()),
        dataclasses.replace(transfer_result("none", (0.005, 0.0051, 0.0052)), round_sizes=()),
    ]
    return transfer_run(
        input_label="random 200 KB & 50% of_it",
        results=tuple(one_pair),
        failures=(NamedFailure("chacha20-poly1305", "the receiver hung up"),),
    )


def a_study(units: str = "MB/s"):
    """A study whose cells ran 7 rounds each (a fresh pair each time)."""
    study = transfer_study()
    cells = (transfer_result("aes-256-gcm", SEVEN), transfer_result("none", SEVEN[::-1]))
    return dataclasses.replace(study, results=cells).in_units(units)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("transfer-paper")
    for name, result in (("run", a_transfer()), ("study", a_study()), ("mib", a_study("MiB/s"))):
        for suffix in (".json", ".md", ".tex"):
            formats.save(result, out / f"{name}{suffix}")
    return out


def _ends(r: dict) -> list[str]:
    return [
        figure(v)
        for end in ("sender", "receiver")
        for v in (r[end]["cpu_percent"], r[end]["peak_above_baseline_bytes"] / MIB)
    ]


def test_a_transfer_prints_the_json_figures_over_its_runs(folder) -> None:
    doc = json.loads((folder / "run.json").read_text())
    rows = md_rows((folder / "run.md").read_text())
    assert rows[0] == [
        "Cipher", "Library", "Throughput (MB/s)", "Sender CPU (%)", "Sender memory (MiB)",
        "Receiver CPU (%)", "Receiver memory (MiB)", "Verified", "Runs",
    ]  # fmt: skip
    expected = []
    for r in doc["results"]:
        times = r["total_seconds"]["samples_s"]
        rate = rate_cell(r["input_bytes"] / MB, times)
        assert rate.split(" [")[0] == figure(r["throughput_mb_s"])
        expected.append([r["cipher"], r["library"] or "-", rate, *_ends(r), "yes", str(len(times))])
    assert rows[1:] == expected
    assert "[n/a]" not in expected[0][2] and "[n/a]" in expected[1][2]  # 7 runs; 3: none
    flat = html.unescape(" ".join((folder / "run.md").read_text().split()))
    assert "the runs share one sender and one receiver process" in flat
    assert "fewer than 6 runs" in flat and "run with --repeat 6 or more" in flat
    assert "Not measured: chacha20-poly1305: the receiver hung up" in flat
    assert "Transfer of random 200 KB & 50% of_it over TCP loopback" in flat


@pytest.mark.parametrize("name,units,scale", [("study", "MB/s", MB), ("mib", "MiB/s", MIB)])
def test_a_study_prints_the_json_figures_over_its_rounds(folder, name, units, scale) -> None:
    doc = json.loads((folder / f"{name}.json").read_text())
    rows = md_rows((folder / f"{name}.md").read_text())
    assert rows[0][:4] == ["Cipher", "Library", "Input", f"Throughput ({units})"]
    assert rows[0][-1] == "Rounds"
    expected = []
    for r in doc["results"]:
        times, cuts = r["total_seconds"]["samples_s"], r["round_sizes"]
        assert cuts == [1] * len(times)  # a round per run here: each round's median is its run
        rate = cell([r["input_bytes"] / scale / t for t in times])
        expected.append(
            [r["cipher"], r["library"] or "-", r["input"], rate, *_ends(r), "yes", str(len(times))]
        )
    assert rows[1:] == expected
    flat = " ".join((folder / f"{name}.md").read_text().split())
    assert "a round is a fresh pair of processes" in flat and "fewer than" not in flat


def test_names_are_escaped_and_the_documents_compile(folder, tmp_path) -> None:
    tex = (folder / "run.tex").read_text()
    assert r"random 200 KB \& 50\% of\_it" in tex
    assert re.search(r"\\begin\{tabular\}\{l\S*rrrrrrr\}", tex)  # the names may wrap to fit
    compiles(folder / "run.tex", tmp_path)
    compiles(folder / "mib.tex", tmp_path)
