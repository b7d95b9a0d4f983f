"""A study as a figure for print: throughput per cipher entry, as vector SVG or PDF.

A study of ciphers draws encryption and decryption side by side; a study of transfers one
panel, input over total time. A study of sizes draws one line per entry against input size
(log axis when the sizes span more than a decade); a study of files (or of one input) draws
grouped bars, one group per input. Every point is the table's
:class:`~app.core.publish.table.Estimate`: the median over rounds with its distribution-free
95 % interval as an error bar, so that the figure and the tables show the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from app.core.bench.jobs import LOAD_ALL
from app.core.bench.results import JobResult
from app.core.document.estimate import Estimate, rate_estimate, time_estimate
from app.core.document.svg_bars import wants_log
from app.core.publish import transfer_table
from app.core.publish.figure_data import (
    FigureData,
    InputAxis,
    Panel,
    Point,
    Series,
    all_medians,
    input_axis,
    throughput_label,
)
from app.core.study.figures import UNITS
from app.core.study.memory_figures import memory_bytes
from app.core.study.result import StudyResult, memory_mib
from app.core.study.transfer_result import TransferStudyResult
from app.core.units import MIB

DIRECTIONS = (("encrypt", "Encryption"), ("decrypt", "Decryption"))


def study_figure(result: StudyResult) -> FigureData:
    """What :func:`draw` plots for ``result``: per direction, per entry, the median
    throughput in the study's unit over rounds with its 95 % interval, per input."""
    scale = UNITS[result.units]
    axis = input_axis(result)
    panels = [Panel(t, _series(result, axis, partial(_rate, d, scale))) for d, t in DIRECTIONS]
    return _figure(result.study.title or f"Study {result.study.name}", result.units, axis, panels)


def study_time_figure(result: StudyResult) -> FigureData:
    """Time against the input, per direction (a paper's "Figure 2"): per entry the median
    time over rounds in seconds with its 95 % interval (the table's time)."""
    axis = input_axis(result)
    panels = [Panel(t, _series(result, axis, partial(_time, d))) for d, t in DIRECTIONS]
    title = f"{result.study.title or f'Study {result.study.name}'}: time"
    figure = _figure(title, result.units, axis, panels)
    scale = ", log scale" if figure.log_y else ""
    return replace(figure, y_label=f"Time (s{scale})", what="a study's times")


def study_memory_figure(result: StudyResult) -> FigureData:
    """Memory against the input (a paper's "Figure 3"): per entry the peak resident memory
    above the worker's baseline, in MiB, measured once per job (no interval); for a study that
    ran the paper's load-all program, that program's tracemalloc peak (the paper's quantity).
    One panel per direction (a survey's "memory used for encryption" and "... decryption")
    when the paper's memory figures or claims name a direction and the study measured each."""
    axis = input_axis(result)
    load_all = result.study.memory_workload == LOAD_ALL and any(
        r.workload_memory is not None for r in result.results
    )
    basis = "load-all" if load_all else ""

    def mib(direction: str) -> Callable[[JobResult], Estimate | None]:
        def value(r: JobResult) -> Estimate | None:
            measured = memory_bytes(basis, direction, r)
            return None if measured is None else Estimate(measured / MIB, None, 1)

        return value

    if _memory_directions(result):
        panels = [Panel(t, _series(result, axis, mib(d))) for d, t in DIRECTIONS]
    else:
        panels = [Panel("", _series(result, axis, mib("encrypt" if load_all else "")))]
    title = f"{result.study.title or f'Study {result.study.name}'}: memory"
    figure = _figure(title, result.units, axis, panels)
    scale = ", log scale" if figure.log_y else ""
    program = "load-all program" if load_all else "above the worker's baseline"
    if load_all and len(panels) == 1:
        program += ", encrypting"
    y_label = f"Peak memory (MiB{scale})\n{program}"
    return replace(figure, y_label=y_label, what="a study's memory")


def _memory_directions(result: StudyResult) -> bool:
    """Whether the paper's memory is per direction and the study measured each direction."""
    study = result.study
    named = any(p.direction for p in study.published if p.quantity == "memory") or any(
        c.direction for c in study.claims if c.quantity == "memory"
    )
    return named and any(
        r.workload_memory is not None or r.direction_memory is not None for r in result.results
    )


def paper_figures(result: object) -> dict[str, FigureData]:
    """The figures beyond throughput that the study's paper printed, by name ("time",
    "memory"): what its published figures or its claims are of, where the study measured it;
    and its leak test's, when it ran one ("leak")."""
    if not isinstance(result, StudyResult):
        return {}
    quantities = {p.quantity for p in result.study.published}
    claimed = {c.quantity or "time" for c in result.study.claims}
    out = {}
    if quantities & {"encrypt_s", "decrypt_s"} or "time" in claimed:
        out["time"] = study_time_figure(result)
    memory = "memory" in quantities | claimed
    if memory and any(memory_mib(r) is not None for r in result.results):
        out["memory"] = study_memory_figure(result)
    if result.leak is not None and result.leak.results:  # leak = true: |t| against the calls
        from app.core.publish.kind_figures import leak_figure

        out["leak"] = leak_figure(result.leak)
    return out


def transfer_study_figure(result: TransferStudyResult) -> FigureData:
    """Per entry, the throughput :func:`transfer_table.transfer_study_table` prints (input
    over total time, over rounds when the study ran two or more), per input."""
    axis = input_axis(result)
    series = _series(result, axis, lambda r: transfer_table.throughput(r, result.units))
    study = result.study
    title = study.title or f"Study {study.name}: transfers over TCP loopback"
    return _figure(title, result.units, axis, [Panel("", series)], what="a transfer study")


def _rate(direction: str, unit: int, r: JobResult) -> Estimate:
    return rate_estimate(r.input_bytes, r.round_samples(direction), unit)


def _time(direction: str, r: JobResult) -> Estimate:
    return time_estimate(r.round_samples(direction))


def _series(
    result: StudyResult | TransferStudyResult,
    axis: InputAxis,
    value: Callable[[Any], Estimate | None],
) -> tuple[Series, ...]:
    """Per entry, ``value`` of each of its cells (a finite one) at its input, by size."""
    out = []
    for label in result.cipher_labels():
        points = [
            Point(axis.x(r.input_label, r.input_bytes), e)
            for r in result.results
            if r.label == label and (e := value(r)) is not None and math.isfinite(e.median)
        ]
        out.append(Series(label, tuple(sorted(points, key=lambda p: p.x))))
    return tuple(out)


def _figure(
    title: str, units: str, axis: InputAxis, panels: list[Panel], what: str = "a study"
) -> FigureData:

    log_y = wants_log(all_medians(tuple(panels)))
    return FigureData(
        title=title,
        bars=axis.bars,
        log_x=axis.log_x,
        log_y=log_y,
        x_label=axis.label,
        y_label=throughput_label(units, log_y),
        ticks=axis.ticks,
        panels=tuple(panels),
        what=what,
    )
