"""What a figure for print shows, before any drawing: panels of series of points, each point
a table's :class:`~app.core.publish.table.Estimate` (the median with its 95 % interval), and
the axes' texts. The kinds' figures (:mod:`app.core.publish.study_figures`,
:mod:`app.core.publish.kind_figures`) make these; :mod:`app.core.publish.figure_drawing` draws
them with matplotlib.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.document.estimate import Estimate
from app.core.study.report_data import by_input_charts, spans_decades
from app.core.study.result import StudyRecord
from app.core.units import prefixes_note

# What a unit is, for the axis label: the bytes of the unit's prefix.
UNIT_MEANING = {
    "MB/s": "1 MB = 10⁶ bytes",
    "MiB/s": "1 MiB = 2²⁰ bytes",
    "KB/s": "1 KB = 10³ bytes",
}


@dataclass(frozen=True)
class Point:
    """One plotted value: its place on the x axis (bytes; or the group's index for bars)."""

    x: float
    estimate: Estimate


@dataclass(frozen=True)
class Series:
    label: str  # the entry, as every table names it: "aes-128-cbc [pycryptodome]"
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Panel:
    title: str  # "Encryption"
    series: tuple[Series, ...]


@dataclass(frozen=True)
class FigureData:
    """What a figure shows, before any drawing."""

    title: str  # the study's title: the file's metadata, not drawn (a paper captions it)
    bars: bool  # grouped bars per input; else lines against input size
    log_x: bool
    log_y: bool  # one median ten times another: a linear axis would hide the small
    x_label: str
    y_label: str
    ticks: tuple[tuple[float, str], ...]  # (x, label) under the axis: sizes or inputs
    panels: tuple[Panel, ...]
    what: str = "a study"  # for the message when there is nothing to draw
    legend: bool = True  # False: one unnamed series (a transfer's, a ladder's bars)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(s.label for s in self.panels[0].series) if self.panels else ()


@dataclass(frozen=True)
class InputAxis:
    """A study's x axis: grouped bars per input (files, or one input), or its input sizes
    (a log axis when they span more than a decade)."""

    bars: bool
    log_x: bool
    label: str
    ticks: tuple[tuple[float, str], ...]
    inputs: tuple[str, ...]

    def x(self, input_label: str, input_bytes: int) -> float:
        return float(self.inputs.index(input_label)) if self.bars else float(input_bytes)


def input_axis(result: StudyRecord[Any]) -> InputAxis:
    inputs = tuple(result.by_input())
    bars = by_input_charts(result)
    sizes: Sequence[int] = [r.input_bytes for r in result.results]
    log_x = not bars and spans_decades(list(sizes))
    if bars:
        return InputAxis(True, False, "Input", tuple(enumerate_ticks(inputs)), inputs)
    # Each size as the study wrote it (50 MiB stays 50 MiB), its prefix said once.
    written = {float(r.input_bytes): r.input_label for r in reversed(result.results)}
    ticks = tuple(sorted(written.items()))
    scale_word = "log scale, " if log_x else ""
    label = f"Input size ({scale_word}{prefixes_note(written.values())})"
    return InputAxis(False, log_x, label, ticks, inputs)


def enumerate_ticks(labels: Sequence[str]) -> list[tuple[float, str]]:
    return [(float(i), label) for i, label in enumerate(labels)]


def throughput_label(units: str, log_y: bool) -> str:
    """``Throughput (MB/s, log scale)`` over what the unit's prefix means."""
    meaning = UNIT_MEANING.get(units, units)
    return f"Throughput ({units}{', log scale' if log_y else ''})\n{meaning}"


def all_medians(panels: tuple[Panel, ...]) -> list[float]:
    return [p.estimate.median for panel in panels for s in panel.series for p in s.points]
