"""Both ends' CPU and memory every 50 ms (app/core/transfer/load_series.py): read from outside
the processes, a busy one near 100 %, an idle one near 0; kept with each run, in its JSON, the
workbook and the .load.csv; drawn by the Transfer window."""

from __future__ import annotations

import csv
import itertools
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import psutil
import pytest

from app.core.kinds.formats import save
from app.core.runtime.events import drained
from app.core.transfer.load_series import LoadPoint, LoadSampler
from app.core.transfer.results import TransferRun
from app.core.transfer.runner import TransferOptions, transfer
from tests.core.history.history_factories import transfer_run

BUSY = "import time\nend = time.monotonic() + 5\nwhile time.monotonic() < end: pass\n"
IDLE = "import time\ntime.sleep(5)\n"


def test_a_busy_process_reads_near_one_core_and_an_idle_one_near_none(spawn) -> None:  # type: ignore[no-untyped-def]
    busy = spawn([sys.executable, "-c", BUSY])
    idle = spawn([sys.executable, "-c", IDLE])
    time.sleep(0.3)  # past the interpreters' start
    watched = psutil.Process(busy.pid)
    before = sum(watched.cpu_times()[:2])
    with LoadSampler({"sender": busy.pid, "receiver": idle.pid}) as load:
        time.sleep(0.6)
    used = sum(watched.cpu_times()[:2]) - before
    points = load.points
    assert 8 <= len(points) <= 14  # every 50 ms
    assert all(b.seconds > a.seconds for a, b in itertools.pairwise(points))
    # What the series says the busy loop used is what the kernel counted for it (a loaded
    # machine lends it less than a core: the amount varies, the agreement does not).
    spans = [b.seconds - a.seconds for a, b in itertools.pairwise(points)]
    seen = sum(p.sender_cpu_percent / 100 * dt for p, dt in zip(points[1:], spans, strict=True))
    assert used > 0.05 and seen == pytest.approx(used, abs=0.05 + 0.3 * used)
    assert max(p.receiver_cpu_percent for p in points) < 10
    assert all(p.sender_rss_bytes > 1_000_000 for p in points)


def test_a_process_that_ends_ends_the_series(spawn) -> None:  # type: ignore[no-untyped-def]
    short = spawn([sys.executable, "-c", "pass"])
    idle = spawn([sys.executable, "-c", IDLE])
    with LoadSampler({"sender": short.pid, "receiver": idle.pid}) as load:
        short.wait()
        time.sleep(0.3)
    assert len(load.points) < 10  # it stopped reading; no exception


def _with_series(run: TransferRun) -> TransferRun:
    points = tuple(LoadPoint(0.05 * (i + 1), 99.5, 40 << 20, 60.25, 30 << 20) for i in range(4))
    results = tuple(
        replace(r, runs=tuple(replace(s, series=points) for s in r.runs)) for r in run.results
    )
    return replace(run, results=results)


def test_the_series_is_kept_in_the_json_the_workbook_and_its_csv(tmp_path: Path) -> None:
    import openpyxl

    run = _with_series(transfer_run())
    again = TransferRun.from_dict(json.loads(json.dumps(run.to_dict())))
    assert again.results[0].runs[0].series == run.results[0].runs[0].series
    with save(run, tmp_path / "t.load.csv").open(encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0][:3] == ["Cipher", "Run", "Time (s)"] and rows[1][3:] == [
        "99.5", "40.0", "60.2", "30.0", "0.0"
    ]  # fmt: skip
    runs = sum(len(r.runs) for r in run.results)
    assert len(rows) == 1 + 4 * runs
    sheet = openpyxl.load_workbook(save(run, tmp_path / "t.xlsx"))["Load every 50 ms"]
    assert sheet.max_row == 1 + 4 * runs


def test_a_real_transfer_samples_both_ends(tmp_path: Path) -> None:
    payload = tmp_path / "p.bin"
    payload.write_bytes(bytes(64 << 20))
    options = TransferOptions(chunk_bytes=16 << 10, repeat=1, warmup=0)  # long enough: 50 ms
    result = drained(transfer(payload, "aes-256-gcm", options))
    (only,) = result.runs
    if only.total_seconds < 0.05:
        pytest.skip("the transfer ended before the first 50 ms point")
    assert only.series and only.series[0].seconds > 0
    assert max(p.sender_cpu_percent for p in only.series) > 0
    assert min(p.receiver_rss_bytes for p in only.series) > 1_000_000


def test_the_window_draws_each_end_of_each_cipher_s_median_run(qtbot) -> None:  # type: ignore[no-untyped-def]
    from app.gui.transfer.load_chart import LoadChart, median_run

    run = _with_series(transfer_run())
    chart = LoadChart()
    qtbot.addWidget(chart)
    chart.set_results(run.results)
    chart.flush()
    curves = chart.plot.listDataItems()
    assert len(curves) == 2 * len(run.results) and chart.showing_data
    assert max(curves[0].getData()[1]) == pytest.approx(99.5)
    chart.choice.setCurrentText("Memory (MiB)")
    chart.flush()
    assert max(chart.plot.listDataItems()[0].getData()[1]) == pytest.approx(40.0)
    middle = median_run(run.results[0])
    assert (
        middle is not None
        and middle.total_seconds == sorted(r.total_seconds for r in run.results[0].runs)[1]
    )


def test_other_programs_taking_a_quarter_core_or_more_make_a_busy_warning() -> None:
    from app.core.transfer.runner import busy_warnings

    def runs(others: float) -> list:  # type: ignore[type-arg]
        run = transfer_run().results[0].runs[0]
        points = tuple(LoadPoint(0.05 * i, 100, 1, 60, 1, others) for i in range(1, 4))
        return [replace(run, series=points)] * 3

    assert busy_warnings(runs(10.0)) == [] and busy_warnings([]) == []
    (said,) = busy_warnings(runs(108.0))
    assert "other programs used 108 % of a CPU core" in said
    # a series written before the machine's share was read has five values a point
    assert LoadPoint.from_list([0.05, 99.0, 10, 50.0, 20]).others_cpu_percent == 0.0
