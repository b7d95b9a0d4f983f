"""A benchmark run, a transfer, a sweep and a ladder as figures for print, drawn as a study's
are (:mod:`app.core.publish.study_figures`: one column wide, vector SVG or PDF, the same bytes every
time).

- ``bench``: grouped bars per job, encryption beside decryption, in MB/s (10^6 bytes/s);
- ``transfer``: a bar per cipher in the transfer's unit (MB/s);
- ``sweep``: cycles per byte against message length per entry, both axes logarithmic (ns per
  byte when a cycle figure is missing; "~ estimated" on an entry whose cycles come from the
  clock figure rather than the CPU's counter);
- ``ladder``: a bar of MB/s per step on a logarithmic axis;
- ``leak``: the largest |t| against the calls measured, a line per entry, dudect's 4.5 and 10
  drawn across (calls on a logarithmic axis).

Every plotted value is the one the kind's publication table prints (its :class:`Estimate`:
the median with its 95 % interval, drawn as an error bar where there is one).
"""

from __future__ import annotations

import math

from app.core.bench.results import RunResult
from app.core.document.estimate import Estimate
from app.core.document.numbers import count_text
from app.core.document.svg_bars import wants_log
from app.core.leak.result import LeakResult
from app.core.leak.ttests import LEAK_T, POSSIBLE_T
from app.core.publish import bench_table, sweep_table, transfer_table
from app.core.publish.figure_data import (
    FigureData,
    Panel,
    Point,
    Series,
    all_medians,
    throughput_label,
)
from app.core.sweep.report import ladder_steps, length_label
from app.core.sweep.results import LADDER, SweepResult
from app.core.transfer.results import TransferRun


def _bar_figure(
    title: str, what: str, units: str, ticks: list[str], series: list[Series], *, log_y: bool
) -> FigureData:
    """One panel of bars, a group per tick; ``log_y`` also when the medians span decades."""
    panels = (Panel("", tuple(series)),)
    log = log_y or wants_log(all_medians(panels))
    return FigureData(
        title=title,
        bars=True,
        log_x=False,
        log_y=log,
        x_label="",
        y_label=throughput_label(units, log),
        ticks=tuple((float(i), label) for i, label in enumerate(ticks)),
        panels=panels,
        what=what,
        legend=len(series) > 1,
    )


def _finite(points: list[Point]) -> tuple[Point, ...]:
    return tuple(p for p in points if math.isfinite(p.estimate.median))


def bench_figure(run: RunResult) -> FigureData:
    """Per job, encryption and decryption in MB/s as :func:`bench_table` prints them."""
    inputs = len({j.input_label for j in run.results}) > 1
    ticks = [_two_lines(j.label) + (f"\n{j.input_label}" if inputs else "") for j in run.results]
    series = [
        Series(
            title,
            _finite(
                [
                    Point(float(i), bench_table.throughput(j, direction))
                    for i, j in enumerate(run.results)
                ]
            ),
        )
        for direction, title in (("encrypt", "Encryption"), ("decrypt", "Decryption"))
    ]
    mode = run.options.data_mode
    title = "Encryption and decryption throughput" + (f" ({mode} mode)" if mode else "")
    return _bar_figure(title, "a run", bench_table.UNITS, ticks, series, log_y=False)


def transfer_figure(run: TransferRun) -> FigureData:
    """Per cipher, the throughput :func:`transfer_table` prints, in its unit."""
    units = transfer_table.RUN_UNITS
    points = [
        Point(float(i), transfer_table.throughput(r, units)) for i, r in enumerate(run.results)
    ]
    ticks = [_two_lines(r.label) for r in run.results]
    title = f"Transfer of {run.input_label} over TCP loopback"
    series = [Series("Throughput", _finite(points))]
    return _bar_figure(title, "a transfer", units, ticks, series, log_y=False)


def _two_lines(label: str) -> str:
    """``aes-128-gcm [cryptography]`` as the cipher over its library, to fit under a bar."""
    for mark in (" [", " ("):
        if mark in label:
            cipher, _, library = label.partition(mark)
            return f"{cipher}\n{mark.strip()}{library}"
    return label


def sweep_figure(result: SweepResult) -> FigureData:
    """A ladder's bars, or a sweep's curves (see the module docstring)."""
    return _ladder_figure(result) if result.kind == LADDER else _sweep_figure(result)


def _ladder_figure(result: SweepResult) -> FigureData:
    steps = ladder_steps(result)
    points = [
        Point(float(i), sweep_table.throughput_estimate(s.point)) for i, s in enumerate(steps)
    ]
    ticks = [
        sweep_table.step_name(i, s.entry).replace(", AES instructions", "\nAES instr.")
        for i, s in enumerate(steps, 1)
    ]
    title = f"Hardware ladder of {result.title or 'AES'}: encryption"
    series = [Series("Throughput", _finite(points))]
    return _bar_figure(title, "a ladder", sweep_table.UNITS, ticks, series, log_y=True)


def _sweep_figure(result: SweepResult) -> FigureData:
    cycles = {id(e): [sweep_table.cycles_estimate(e, p) for p in e.curve()] for e in result.entries}
    by_cycles = all(isinstance(c, Estimate) for cs in cycles.values() for c in cs)
    series = []
    for e in result.entries:
        values: list[Estimate | str] = (
            list(cycles[id(e)])
            if by_cycles
            else [sweep_table.time_estimate(p).scaled(1 / p.message_bytes) for p in e.curve()]
        )
        points = [
            Point(float(p.message_bytes), v)
            for p, v in zip(e.curve(), values, strict=True)
            if isinstance(v, Estimate)
        ]
        approx = any(p.estimate.approx for p in points)
        series.append(Series(e.label + (" ~ estimated" if approx else ""), _finite(points)))
    lengths = sorted({p.message_bytes for e in result.entries for p in e.curve()})
    estimated = any(s.label.endswith("~ estimated") for s in series)
    y_label = "Cycles per byte (log scale)" if by_cycles else "Time per byte (ns, log scale)"
    if estimated:
        y_label += "\n~ estimated: time x clock frequency"
    return FigureData(
        title=result.title or "Encryption time against message length",
        bars=False,
        log_x=True,
        log_y=True,
        x_label="Message length (bytes, log scale)",
        y_label=y_label,
        ticks=tuple((float(n), length_label(n)) for n in lengths),
        panels=(Panel("", tuple(series)),),
        what="a sweep",
    )


def leak_figure(result: LeakResult) -> FigureData:
    """Each entry's curve of the largest |t| (a point a batch) and the two thresholds."""
    series = [
        Series(e.label, tuple(Point(float(n), Estimate(t, None, 1)) for n, t in e.curve))
        for e in result.results
    ]
    calls = [n for e in result.results for n, _ in e.curve]
    ticks: list[tuple[float, str]] = []
    if calls:
        low, high = min(calls), max(calls)
        low, high = (low, high) if high > low else (low // 2, high * 2)
        for level, name in ((POSSIBLE_T, "possible leak"), (LEAK_T, "leak")):
            ends = (Point(float(low), Estimate(level, None, 1)),
                    Point(float(high), Estimate(level, None, 1)))  # fmt: skip
            series.append(Series(f"|t| = {level:g}: {name}", ends))
        decade = 10 ** math.floor(math.log10(max(low, 1)))
        while decade <= high:
            ticks += [(float(m * decade), count_text(m * decade)) for m in (1, 2, 5)
                      if low <= m * decade <= high]  # fmt: skip
            decade *= 10
    return FigureData(
        title="Timing leakage: the largest |t| as calls accumulate",
        bars=False,
        log_x=True,
        log_y=False,
        x_label="Calls measured (log scale)",
        y_label="Largest |t|",
        ticks=tuple(ticks),
        panels=(Panel("", tuple(series)),),
        what="a leak test",
    )
