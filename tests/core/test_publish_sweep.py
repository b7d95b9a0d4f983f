"""The publication kit for sweeps and ladders: time per call, MB/s and cycles per byte over the
rounds' medians equal the JSON's to the printed digits, "~" where cycles are estimated, the
ladder's factors, names escaped for LaTeX, documents that compile."""

from __future__ import annotations

import dataclasses
import itertools
import json
import statistics
from pathlib import Path

import pytest
from paper_files import cell, compiles, md_rows, time_cell

from app.core.document.numbers import figure
from app.core.kinds import formats
from app.core.runtime.envelope import NamedFailure
from app.core.sweep.report import length_label
from app.core.sweep.results import SweepEntry, SweepPoint
from tests.core.sweep.factories import sweep_result

LENGTHS = (64, 1350, 16384)


def _rounds(ns: float, n: int) -> tuple[tuple[float, ...], ...]:
    return tuple(
        tuple(ns * (1 + (r * 5 % n) / 40) * f for f in (0.99, 1.0, 1.02)) for r in range(n)
    )


def _entry(
    library: str, rounds: int, *, counted: bool = False, whole: bool = False, **changes
) -> SweepEntry:
    points = []
    for n in LENGTHS:
        ns = 500 + 0.3 * n
        times = _rounds(ns, rounds)
        cycles = tuple(tuple(t * 3.1 for t in r) for r in times) if counted else ()
        points.append(SweepPoint("encrypt", n, 0, times, cycles, (10,) * rounds))
        if whole:  # a whole message with an object of its own: 1.4x the call, 3 calls a sample
            message = tuple(tuple(t * 1.4 for t in r) for r in times)
            points.append(SweepPoint("message", n, 0, message, (), (3,) * rounds))
    values = dict(
        cipher="aes-128-gcm", library=library, key_bits=128, aes_instructions=True,
        library_version="1.0", points=tuple(points), counter=counted, clock_mhz=2600.0,
        rounds=rounds,
    )  # fmt: skip
    return SweepEntry(**(values | changes))


def a_sweep():
    result = sweep_result(
        _entry("cryptography", 7, whole=True), _entry("pycryptodome", 3, counted=True)
    )
    return dataclasses.replace(result, failures=(NamedFailure("x_y", "gone"),))


def a_ladder():
    steps = (
        _entry("cryptography", 6),
        _entry("cryptography", 6, aes_instructions=False, note="AES instructions off"),
        _entry("pyaes", 6, cipher="aes-128-ctr", note="pure Python has no GCM: aes-128-ctr"),
    )
    return sweep_result(*steps, kind="ladder", title="aes-128-gcm")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sweep-paper")
    for name, result in (("sweep", a_sweep()), ("ladder", a_ladder())):
        for suffix in (".json", ".md", ".tex"):
            formats.save(result, out / f"{name}{suffix}")
    return out


def _medians(point: dict) -> list[float]:
    return [statistics.median(r) for r in point["rounds_ns"]]


def test_a_sweep_prints_the_json_figures_over_its_rounds(folder) -> None:
    doc = json.loads((folder / "sweep.json").read_text())
    rows = md_rows((folder / "sweep.md").read_text())
    assert rows[0] == [
        "Cipher", "Library", "Message", "Time per call", "Throughput (MB/s)",
        "Cycles per byte", "Whole message", "Rounds",
    ]  # fmt: skip
    expected = []
    for e in doc["results"]:
        whole = {p["message_bytes"]: p for p in e["points"] if p["operation"] == "message"}
        for p in e["points"]:
            if p["operation"] != "encrypt":
                continue
            n, medians = p["message_bytes"], _medians(p)
            if e["counter"]:
                cycles = cell([statistics.median(r) / n for r in p["rounds_cycles"]])
            else:
                cycles = cell(medians, e["clock_mhz"] / 1e3 / n, approx=True)
            rate = cell([n * 1e3 / m for m in medians])
            expected.append(
                [e["cipher"], e["library"], length_label(n), time_cell(medians), rate, cycles,
                 time_cell(_medians(whole[n])) if n in whole else "-", str(len(medians))]
            )  # fmt: skip
    assert rows[1:] == expected
    assert expected[0][6] != "-" and expected[-1][6] == "-"  # timed in the first entry only
    assert expected[0][5].startswith("~") and not expected[-1][5].startswith("~")
    assert "[n/a]" not in expected[0][3] and "[n/a]" in expected[-1][3]  # 7 rounds; 3: none
    flat = " ".join((folder / "sweep.md").read_text().split())
    assert "~: cycles estimated as time x the clock frequency" in flat
    assert "fewer than 6 rounds" in flat and "Not measured: x_y: gone" in flat


def test_a_ladder_prints_its_steps_and_factors(folder) -> None:
    doc = json.loads((folder / "ladder.json").read_text())
    rows = md_rows((folder / "ladder.md").read_text())
    assert rows[0][0] == "Step" and rows[0][5:7] == [
        "Slower than above (x)",
        "Slower than first (x)",
    ]
    per_byte = []
    for e in doc["results"]:
        (p,) = [p for p in e["points"] if p["message_bytes"] == max(LENGTHS)]
        per_byte.append(statistics.median(_medians(p)) / p["message_bytes"])
    assert [r[0] for r in rows[1:]] == [
        "1. cryptography", "2. cryptography, AES instructions off", "3. pure Python",
    ]  # fmt: skip
    assert [r[5] for r in rows[1:]] == ["-"] + [
        figure(b / a) for a, b in itertools.pairwise(per_byte)
    ]
    assert [r[6] for r in rows[1:]] == ["-"] + [figure(b / per_byte[0]) for b in per_byte[1:]]
    md = (folder / "ladder.md").read_text()
    assert "pure Python has no GCM" in md and "switched off in the worker" in md


def test_names_are_escaped_and_the_documents_compile(folder, tmp_path) -> None:
    tex = (folder / "sweep.tex").read_text()
    assert r"Not measured: x\_y: gone" in tex and r"$\sim$" in tex
    compiles(folder / "sweep.tex", tmp_path)
    compiles(folder / "ladder.tex", tmp_path)
