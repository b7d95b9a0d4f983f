"""Charts: data reach the plot items, redraws are throttled, charts save as PNG and SVG."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gui_factories import job_result
from PySide6.QtGui import QPalette
from pytestqt.qtbot import QtBot

from app.core.bench.results import MonitorSample
from app.core.errors import UserError
from app.gui.results.chart_style import DECRYPT_COLOR, ENCRYPT_COLOR, OKABE_ITO
from app.gui.results.charts import ThroughputChart, TimingChart
from app.gui.results.monitor_chart import MONITOR_EMPTY, MonitorChart
from app.gui.results.throttled_chart import REDRAW_INTERVAL_MS


def test_palette_is_okabe_ito() -> None:
    assert ENCRYPT_COLOR in OKABE_ITO.values() and DECRYPT_COLOR in OKABE_ITO.values()
    assert ENCRYPT_COLOR != DECRYPT_COLOR


def test_throughput_bars_follow_results(qtbot: QtBot) -> None:
    chart = ThroughputChart()
    qtbot.addWidget(chart)
    assert not chart.showing_data
    results = [job_result("a", enc_s=(0.001,), dec_s=(0.002,)), job_result("b", enc_s=(0.01,))]
    chart.set_results(results)
    chart.flush()
    assert chart.showing_data
    enc_widths = chart.encrypt_bars.opts["width"]
    dec_widths = chart.decrypt_bars.opts["width"]
    assert np.allclose(enc_widths, [1000.0, 100.0])
    assert np.allclose(dec_widths[0], 500.0)
    assert chart.plot.getAxis("bottom").labelText.startswith("Throughput (MB/s")
    ticks = chart.plot.getAxis("left")._tickLevels[0]
    assert [t[1] for t in ticks] == ["a [cryptography]", "b [cryptography]"]
    assert chart.legend is not None and len(chart.legend.items) == 2

    chart.set_log_scale(True)
    chart.flush()
    assert np.allclose(chart.encrypt_bars.opts["x0"] + chart.encrypt_bars.opts["width"], [3, 2])

    chart.clear()
    chart.flush()
    assert not chart.showing_data


def test_timing_chart_shows_median_and_spread(qtbot: QtBot) -> None:
    chart = TimingChart()
    qtbot.addWidget(chart)
    chart.set_results([job_result(enc_s=(0.001, 0.002, 0.004))])
    chart.flush()
    x, _y = chart.encrypt_points.getData()
    assert np.allclose(x, [2.0])  # median in ms
    # whiskers over the interquartile range: inclusive quartiles of 1, 2, 4 ms are 1.5 and 3
    assert np.allclose(chart.encrypt_spread.opts["left"], [0.5])
    assert np.allclose(chart.encrypt_spread.opts["right"], [1.0])
    assert "(ms)" in chart.plot.getAxis("bottom").labelText


def test_monitor_chart_grows_with_samples(qtbot: QtBot) -> None:
    chart = MonitorChart()
    qtbot.addWidget(chart)
    chart.start_job("aes-256-gcm [cryptography], 256-bit")
    chart.add_samples([MonitorSample(0.05, 90.0, 50 * 2**20)])
    chart.add_samples([MonitorSample(0.10, 100.0, 60 * 2**20)])
    chart.flush()
    t, rss = chart.memory_curve.getData()
    assert np.allclose(t, [0.05, 0.10]) and np.allclose(rss, [50.0, 60.0])
    assert np.allclose(chart.cpu_curve.getData()[1], [90.0, 95.0])  # a 400 ms mean
    assert chart.label.startswith("aes-256-gcm")
    chart.start_job("next")  # the next job of the run: empty curves, the plot stays up
    chart.flush()
    emptied, _ = chart.memory_curve.getData()
    assert chart.showing_data and (emptied is None or len(emptied) == 0)
    chart.clear()  # no job: empty axes, titled with what will appear
    chart.flush()
    assert chart.showing_data and chart.memory_plot.titleLabel.text == MONITOR_EMPTY
    assert not chart._save.isEnabled()


def test_the_monitor_chart_opens_on_empty_axes_a_first_job_fits_in(qtbot: QtBot) -> None:
    """Its plot is laid out and painted when the window opens, in ranges a worker's start
    fits in: the first samples of the first run change no axis (17 ms in that turn before)."""
    chart = MonitorChart()
    qtbot.addWidget(chart)
    assert chart.showing_data and chart.memory_plot.titleLabel.text == MONITOR_EMPTY
    assert not chart._save.isEnabled()
    before = chart.memory_plot.viewRange(), chart.cpu_plot.viewRange()
    assert before == ([[0, 1], [0, 100]], [[0, 1], [0, 100]])
    chart.start_job("first")
    chart.add_samples([MonitorSample(0.05, 99.0, 45 * 2**20)])
    chart.flush()
    assert (chart.memory_plot.viewRange(), chart.cpu_plot.viewRange()) == before


def test_the_next_job_of_a_run_shows_nothing_of_the_job_chosen_before(qtbot: QtBot) -> None:
    """A finished job chosen in the table during a run (its dashed baseline, Save enabled),
    then the next job starts: an empty plot, no baseline, nothing to save."""
    chart = MonitorChart()
    qtbot.addWidget(chart)
    chart.start_job("first")
    chart.set_samples("chosen", [MonitorSample(0.05, 90.0, 50 * 2**20)], 40 * 2**20)
    chart.flush()
    assert chart.baseline_line.isVisible() and chart._save.isEnabled()
    chart.start_job("next")
    chart.flush()
    assert not chart.baseline_line.isVisible() and not chart._save.isEnabled()


def test_redraws_are_throttled(qtbot: QtBot) -> None:
    chart = ThroughputChart()
    qtbot.addWidget(chart)
    chart.show()
    qtbot.waitExposed(chart)
    for i in range(200):  # far faster than the eye: one redraw per interval at most
        chart.set_results([job_result(str(j)) for j in range(i % 5 + 1)])
    assert chart.redraw_count == 0
    qtbot.waitUntil(lambda: chart.redraw_count == 1, timeout=2000)
    qtbot.wait(REDRAW_INTERVAL_MS * 2)
    assert chart.redraw_count == 1
    assert len(chart.encrypt_bars.opts["width"]) == 5  # the last data given


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_charts_save_as_png_and_svg(qtbot: QtBot, tmp_path: Path, suffix: str) -> None:
    chart = ThroughputChart()
    qtbot.addWidget(chart)
    chart.resize(800, 500)
    chart.set_results([job_result()])
    path = chart.save(tmp_path / f"chart{suffix}")
    data = path.read_bytes()
    assert len(data) > 1000
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data
    assert [p.name for p in tmp_path.iterdir()] == [f"chart{suffix}"]
    if suffix == ".svg":  # the axes' ticks as text, not the screen's cached pixmaps
        assert b"<image" not in data and data.count(b"<text") > 5


def test_a_hidden_chart_redraws_when_shown_not_on_every_update(qtbot: QtBot) -> None:
    """The window's charts on hidden tabs redrawing at each job's end were one of its longest
    stalls: a hidden chart keeps the update for when it is shown (and a flush, before a save,
    draws it anyway)."""
    chart = ThroughputChart()
    qtbot.addWidget(chart)
    chart.set_results([job_result("a")])
    qtbot.wait(REDRAW_INTERVAL_MS * 3)
    assert chart.redraw_count == 0
    chart.show()
    qtbot.waitExposed(chart)
    assert chart.redraw_count == 1 and len(chart.encrypt_bars.opts["width"]) == 1
    chart.hide()
    chart.set_results([job_result("a"), job_result("b")])
    chart.flush()
    assert chart.redraw_count == 2 and len(chart.encrypt_bars.opts["width"]) == 2
    chart.show()
    assert chart.redraw_count == 2  # nothing new to draw


def test_the_axes_are_cached_on_screen() -> None:
    """A live curve repaints its view many times a second: each axis is painted once into a
    pixmap, not replayed (its text was the GUI thread's largest cost during a run)."""
    from PySide6.QtWidgets import QGraphicsItem

    chart = ThroughputChart()
    axis = chart.plot.getAxis("left")
    assert axis.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache


def test_a_chart_is_written_whole_or_not_at_all(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rendered into an unnamed file linked in at the end: a failed (or killed) save leaves
    nothing, and a message that names the file."""
    chart = ThroughputChart()
    qtbot.addWidget(chart)
    chart.set_results([job_result()])

    def fail(self: object, path: Path, *, svg: bool) -> None:
        path.write_bytes(b"half a chart")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ThroughputChart, "_render", fail)
    with pytest.raises(UserError, match=r"^cannot write .*chart.png: no space left on device"):
        chart.save(tmp_path / "chart.png")
    assert list(tmp_path.iterdir()) == []


def test_nice_ceiling_rounds_up_to_readable_limits() -> None:
    from app.gui.results.chart_math import nice_ceiling

    assert [nice_ceiling(v) for v in (0, 1, 1.1, 2.2, 3, 7, 48, 101, 260)] == [
        1,
        1,
        2,
        2.5,
        5,
        10,
        50,
        200,
        500,
    ]
    assert nice_ceiling(1.1) == 2 and nice_ceiling(2.2) == 2.5 and nice_ceiling(48) == 50
    assert nice_ceiling(101) == 200 and nice_ceiling(0.3) == 0.5 and nice_ceiling(-1) == 1


def test_cpu_axis_stops_at_one_core_or_the_next_quarter_above() -> None:
    """A single-threaded job's CPU jitters just over 100 %: a quarter of a core more, not 200."""
    from app.gui.results.chart_math import cpu_ceiling

    assert [cpu_ceiling(p) for p in (0, 95, 100, 101, 125, 126, 390)] == [
        100, 100, 100, 125, 125, 150, 400,
    ]  # fmt: skip
    assert cpu_ceiling(float("nan")) == 100


def test_monitor_memory_axis_opens_on_what_the_job_is_expected_to_hold(qtbot: QtBot) -> None:
    """A memory-mode job on a large input opens the memory axis on the worker's expected peak,
    so the axis does not move (and repaint) at every doubling while the job runs; the run's
    next job keeps it, and so does the next run unless it expects far less."""
    chart = MonitorChart()
    qtbot.addWidget(chart)
    chart.start_job("1 GiB in memory", expected_bytes=2 * 2**30 + 96 * 2**20)
    assert chart.memory_plot.viewRange()[1] == [0, 2500]
    moves: list[object] = []
    chart.memory_plot.getViewBox().sigYRangeChanged.connect(lambda *a: moves.append(a))
    for i, mib in enumerate((60, 600, 1200, 2100)):  # the worker fills its buffers
        chart.add_samples([MonitorSample(0.05 * (i + 1), 100.0, mib * 2**20)])
        chart.flush()
    assert moves == [] and chart.memory_plot.viewRange()[1] == [0, 2500]
    chart.start_job("next, in stream mode", expected_bytes=98 * 2**20)
    assert chart.memory_plot.viewRange()[1] == [0, 2500]  # the run's next job keeps it
    chart.run_ended()
    chart.start_job("a run of 512 MiB in memory", expected_bytes=(1024 + 96) * 2**20)
    assert chart.memory_plot.viewRange()[1] == [0, 2500]  # the next run too
    chart.run_ended()
    chart.start_job("a run in stream mode", expected_bytes=98 * 2**20)
    assert chart.memory_plot.viewRange()[1] == [0, 200]  # but not 8 times what it needs


def test_a_job_refused_for_want_of_memory_does_not_size_the_axis() -> None:
    """The engine refuses a memory-mode job that cannot fit in free RAM at once; the chart is
    not told it will hold that much, so the run's next jobs keep a useful memory axis."""
    from app.core.bench.jobs import BenchOptions, InputSpec, Job
    from app.gui.main.run_controller import _expected_bytes

    def job(size: int, mode: str = "memory") -> Job:
        return Job(
            "aes-256-ctr", "cryptography", 256, InputSpec("/x", "x", size, 0),
            BenchOptions(data_mode=mode),
        )  # fmt: skip

    assert _expected_bytes(job(2**20)) == 2 * 2**20 + 96 * 2**20
    assert _expected_bytes(job(2**50)) is None  # a PiB: refused
    assert _expected_bytes(job(2**50, "stream")) == 2 * 2**20 + 96 * 2**20


def test_monitor_axes_change_only_when_outgrown(qtbot: QtBot) -> None:
    """Each new range repaints the axes: while jobs run, the time and memory axes jump to
    twice what they need, so they move about once per doubling; the next job and the next
    run start on the ranges shown, and a run's end changes none; a chosen job is fitted."""
    chart = MonitorChart()
    qtbot.addWidget(chart)
    chart.start_job("job")
    chart.add_samples([MonitorSample(0.05, 90.0, 40 * 2**20)])
    chart.flush()
    first = chart.memory_plot.viewRange()
    assert first == [[0, 1], [0, 100]]  # the ranges it opened with: a worker's start fits
    chart.add_samples([MonitorSample(0.9, 95.0, 90 * 2**20)])
    chart.flush()
    assert chart.memory_plot.viewRange() == first  # still inside: no re-layout
    chart.add_samples([MonitorSample(1.5, 95.0, 300 * 2**20)])
    chart.flush()
    assert chart.memory_plot.viewRange() == [[0, 5], [0, 1000]]  # twice what they need
    assert chart.cpu_plot.viewRange()[1] == [0, 100]  # CPU keeps its 100 %
    chart.add_samples([MonitorSample(1.6 + i / 10, 103.0, 300 * 2**20) for i in range(8)])
    chart.flush()
    assert chart.cpu_plot.viewRange()[1] == [0, 125]  # jitter over one core: not 200
    chart.start_job("next job")  # the run's next job keeps the ranges while it fits
    chart.add_samples([MonitorSample(0.05, 95.0, 20 * 2**20)])
    chart.flush()
    assert chart.memory_plot.viewRange() == [[0, 5], [0, 1000]]
    chart.add_samples([MonitorSample(1.5, 95.0, 300 * 2**20)])
    chart.run_ended()  # its last samples drawn after the end: still on the run's ranges
    chart.flush()
    assert chart.memory_plot.viewRange() == [[0, 5], [0, 1000]]
    assert chart.cpu_plot.viewRange()[1] == [0, 125]
    chart.memory_plot.setXRange(1.0, 1.5, padding=0)  # the user zooms in
    chart.start_job("next run")  # the ranges shown, the zoom undone
    assert chart.memory_plot.viewRange() == [[0, 5], [0, 1000]]
    assert chart.cpu_plot.viewRange()[1] == [0, 125]
    chart.add_samples([MonitorSample(6.0, 95.0, 300 * 2**20)])
    chart.flush()
    assert chart.memory_plot.viewRange() == [[0, 20], [0, 1000]]  # and grow from there
    chart.run_ended()
    chart.set_samples("chosen", [MonitorSample(0.2, 50.0, 30 * 2**20)])
    chart.flush()
    assert chart.memory_plot.viewRange() == [[0, 0.2], [0, 50]]  # a chosen job, fitted
    assert chart.cpu_plot.viewRange()[1] == [0, 100]
    chart.start_job("a run after it")  # never less than the opening ranges
    assert chart.memory_plot.viewRange() == [[0, 1], [0, 100]]
    chart.add_samples([MonitorSample(1.5, 95.0, 300 * 2**20)])
    chart.run_ended()
    chart.clear()  # Reset, straight after a run: empty, on the opening ranges again
    chart.flush()
    assert chart.memory_plot.viewRange() == [[0, 1], [0, 100]] and not chart.has_data
    chart.start_job("a run after Reset")
    assert chart.memory_plot.viewRange() == [[0, 1], [0, 100]]


def test_grid_lines_are_opaque_and_between_the_text_and_the_background(qtbot: QtBot) -> None:
    """Blending a translucent grid line across a plot cost 2-2.6 ms an axis each time a live
    axis moved; the grid is drawn in an opaque colour mixed in advance instead."""
    chart = MonitorChart()
    qtbot.addWidget(chart)
    palette = chart.palette()
    text, base = (
        palette.color(QPalette.ColorRole.WindowText),
        palette.color(QPalette.ColorRole.Base),
    )
    for plot in (chart.memory_plot, chart.cpu_plot):
        for side in ("left", "bottom"):
            axis = plot.getAxis(side)
            line = axis.tickPen().color()
            assert axis.grid == 255 and axis.style["tickAlpha"] == 255 and line.alpha() == 255
            low, high = sorted((text.lightness(), base.lightness()))
            assert low < line.lightness() < high
    bars = ThroughputChart()  # no grid across the bars: the ticks keep the text's colour
    qtbot.addWidget(bars)
    assert bars.plot.getAxis("left").grid is False
    assert bars.plot.getAxis("left").tickPen().color() == text


def test_each_direction_has_its_name_colour_and_symbol(qtbot: QtBot) -> None:
    bars, timing = ThroughputChart(), TimingChart()
    qtbot.addWidget(bars)
    qtbot.addWidget(timing)
    for item, name, color in (
        (bars.encrypt_bars, "Encryption", ENCRYPT_COLOR),
        (bars.decrypt_bars, "Decryption", DECRYPT_COLOR),
    ):
        assert item.opts["name"] == name and item.opts["brush"] == color
    assert timing.encrypt_points.opts["name"] == "Encryption"
    assert timing.decrypt_points.opts["name"] == "Decryption"
    # Told apart without colour too: circles and squares.
    assert (timing.encrypt_points.opts["symbol"], timing.decrypt_points.opts["symbol"]) == (
        "o",
        "s",
    )
    assert timing.encrypt_points.opts["brush"].color().name().upper() == ENCRYPT_COLOR
    assert timing.decrypt_points.opts["brush"].color().name().upper() == DECRYPT_COLOR


def test_log_axis_toggled_on_a_shown_chart_warns_of_nothing(qtbot: QtBot) -> None:
    """Results spanning decades (pyaes beside OpenSSL): no numpy overflow when the axis turns
    logarithmic, and only powers of ten are labelled (2..9 x 10^n overlapped)."""
    chart = ThroughputChart()
    qtbot.addWidget(chart)
    chart.resize(800, 400)
    chart.show()
    fast = job_result("a", enc_s=(0.0001,), dec_s=(0.0001,))
    slow = job_result("b", library="pyaes", enc_s=(10.0,), dec_s=(12.0,))
    chart.set_results([fast, slow])
    chart.flush()
    qtbot.wait(30)  # painted with the linear range
    chart.set_log_scale(True)
    qtbot.wait(30)  # painted again before any redraw tick
    major, minor = chart.plot.getAxis("bottom")._tickLevels
    labels = [text for _value, text in major]
    assert labels == ["0.01", "0.1", "1", "10", "100", "1000", "10⁴", "10⁵"]
    assert all(text == "" for _value, text in minor)
    chart.set_log_scale(False)
    qtbot.wait(30)
    assert chart.plot.getAxis("bottom")._tickLevels is None


def test_log_ticks_thin_out_over_many_decades() -> None:
    from app.gui.results.chart_math import log_ticks

    major, minor = log_ticks(-9.5, 9.2)
    assert [v for v, _ in major] == [-10, -5, 0, 5, 10]
    assert [t for _, t in major][1:4] == ["10⁻⁵", "1", "10⁵"] and minor == []


def test_cpu_curve_is_smoothed_over_clock_tick_noise(qtbot: QtBot) -> None:
    """50 ms samples quantised by a 10 ms tick read 120 %, 80 %, ... for one busy core."""
    chart = MonitorChart()
    qtbot.addWidget(chart)
    samples = [MonitorSample(0.05 * (i + 1), 120.0 if i % 2 else 80.0, 2**20) for i in range(20)]
    chart.set_samples("job", samples, baseline_bytes=2**19)
    chart.flush()
    cpu = chart.cpu_curve.getData()[1]
    assert cpu.max() <= 105.0 and np.all(np.abs(cpu[3:] - 100.0) < 5.0)
    assert "% of one core" in chart.cpu_plot.getAxis("left").labelText
    assert "total" in chart.memory_plot.getAxis("left").labelText
    assert chart.baseline_line.isVisible() and chart.baseline_line.value() == 0.5
    chart.start_job("live")  # a running job's baseline is not known yet
    chart.add_samples(samples[:2])
    chart.flush()
    assert not chart.baseline_line.isVisible()


def test_bars_20x_apart_switch_to_a_log_axis_until_the_user_chooses(qtbot: QtBot) -> None:
    from app.gui.results.charts import TimingChart

    for chart in (ThroughputChart(), TimingChart()):
        qtbot.addWidget(chart)
        close = [job_result("a", enc_s=(0.001,), dec_s=(0.001,)), job_result("b", enc_s=(0.01,))]
        chart.set_results(close)
        chart.flush()
        assert not chart.log_scale  # 10x apart: linear
        blowfish = job_result("bf", enc_s=(0.05,), dec_s=(0.05,))  # 50x the fastest
        chart.set_results([*close, blowfish])
        chart.flush()
        assert chart.log_scale and "log axis: values 50x apart" in chart._title.text()
        chart._log.click()  # the user wants it linear: it stays so
        chart.set_results([*close, blowfish])
        chart.flush()
        assert not chart.log_scale and "log axis" not in chart._title.text()
        chart.clear()  # Reset: automatic again
        chart.set_results([*close, blowfish])
        chart.flush()
        assert chart.log_scale
