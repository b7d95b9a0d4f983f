"""A figure for print drawn by matplotlib, as vector SVG or PDF.

Print quality: sized for one column of a paper (3.5 in wide), texts kept as text (SVG) or as
embedded TrueType (PDF), Okabe and Ito's colours and a marker shape per entry (both survive
grey print), and the same bytes every time for the same result (no date, fixed ids). Lines
against size, or grouped bars per input; every point's interval as an error bar (no interval,
too few rounds: no bar).

:func:`draw` imports matplotlib only when a figure is written (it costs a few tenths of a
second), and never pyplot: a figure and its backend's canvas, no global figure state, safe in
a worker thread.
"""

from __future__ import annotations

import itertools
import math
import threading
from pathlib import Path
from typing import Any

from app.core.document.estimate import Estimate
from app.core.document.svg_chart import OKABE_ITO, log_tick
from app.core.errors import UserError
from app.core.publish.figure_data import FigureData, Panel, Series
from app.core.text import visible_text

WIDTH_IN = 3.5  # one column of a two-column paper
PLOT_HEIGHT_IN = 2.0  # the axes' part; the legend's rows come on top
LEGEND_ROW_IN = 0.14
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")
HATCHES = ("", "///", "\\\\\\", "...", "xxx", "---", "+++", "ooo")
LABEL_CHARS = 18  # an input's name under a bar, longer ones cut with an ellipsis
DODGE_DECADES = 0.025  # lines' markers and error bars moved apart at one size, per entry
_STYLE: dict[Any, Any] = {  # matplotlib's rc keys (a Literal type), for this figure only
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],  # matplotlib ships it: the same glyphs everywhere
    "font.size": 7,
    "axes.titlesize": 7,
    "axes.labelsize": 7,
    "xtick.labelsize": 6,
    "ytick.labelsize": 6,
    "legend.fontsize": 6,
    "axes.linewidth": 0.6,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "xtick.minor.width": 0.4,
    "lines.linewidth": 1.0,
    "lines.markersize": 3.5,
    "hatch.linewidth": 0.4,
    "svg.fonttype": "none",  # texts stay text: searchable, editable, any font the reader has
    "svg.hashsalt": "cipherbench",  # fixed clip-path ids: the same bytes every time
    "pdf.fonttype": 42,  # TrueType embedded (subset), not Type 3 bitmaps of outlines
}
_DRAWING = threading.Lock()  # matplotlib's settings are global: one figure at a time


def error_bar(estimate: Estimate) -> tuple[float, float] | None:
    """``(below, above)`` the median to the interval's ends; None without an interval."""
    if estimate.interval is None:
        return None
    low, high = estimate.interval
    return max(0.0, estimate.median - low), max(0.0, high - estimate.median)


def draw(data: FigureData, path: Path, fmt: str) -> None:
    """Write ``data`` to ``path`` as ``fmt`` ("svg" or "pdf"); ``UserError`` when there is
    nothing to draw or matplotlib is missing."""
    if not any(s.points for p in data.panels for s in p.series):
        raise UserError(f"{data.what} without results has no figure")
    try:
        import matplotlib
        from matplotlib.figure import Figure
        from matplotlib.ticker import FuncFormatter, NullFormatter
    except ImportError as exc:
        from app.core.dependencies import missing_dependency

        said = missing_dependency(exc) or str(exc)
        raise UserError(f"cannot draw a figure: {said}") from None
    rows = math.ceil(len(data.labels) / _legend_columns(data.labels)) if data.legend else 0
    with _DRAWING, matplotlib.rc_context(_STYLE):
        height = PLOT_HEIGHT_IN + 0.2 + LEGEND_ROW_IN * rows
        fig = Figure(figsize=(WIDTH_IN, height), layout="constrained")
        axes = fig.subplots(1, len(data.panels), sharey=True, squeeze=False)[0]
        handles: list[Any] = []
        for ax, panel in zip(axes, data.panels, strict=True):
            handles = _draw_panel(ax, panel, data)
        if not data.log_y:
            axes[0].set_ylim(0, _top(data) * 1.06)  # shared: the higher panel sets it
        else:
            axes[0].set_ylim(*_decades(data))
            axes[0].yaxis.set_minor_formatter(NullFormatter())
        axes[0].yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: log_tick(v)))
        axes[0].set_ylabel(plain(data.y_label))
        fig.supxlabel(plain(data.x_label), fontsize=_STYLE["axes.labelsize"])
        if data.legend:
            _legend(fig, handles, data)
        metadata = {"Title": _clean(data.title), "Creator": "CipherBench"}
        dates = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}[fmt]
        # Our own file, closed whatever happens: matplotlib's PDF writer, failing on a full
        # disk, left the file it opened to the garbage collector.
        with open(path, "wb") as out:
            fig.savefig(out, format=fmt, metadata={**metadata, **dates})


def _legend(fig: Any, handles: list[Any], data: FigureData) -> None:
    fig.legend(
        handles=handles,
        loc="outside upper center",
        ncols=_legend_columns(data.labels),
        frameon=False,
        handlelength=1.8,
        columnspacing=1.0,
        borderaxespad=0.2,
    )


def _top(data: FigureData) -> float:
    """The highest median or interval end drawn."""
    return max(
        p.estimate.interval[1] if p.estimate.interval else p.estimate.median
        for panel in data.panels
        for s in panel.series
        for p in s.points
    )


def _decades(data: FigureData) -> tuple[float, float]:
    """A log axis's limits: out to whole decades, so that at least two ticks are labelled
    (and bars start from a decade, not from an arbitrary clip)."""
    lows = [
        p.estimate.interval[0] if p.estimate.interval else p.estimate.median
        for panel in data.panels
        for s in panel.series
        for p in s.points
    ]
    low = min((v for v in lows if v > 0), default=1.0)
    top = max(_top(data), low)
    return 10 ** math.floor(math.log10(low)), 10 ** math.ceil(math.log10(top) + 1e-9)


def plain(value: str) -> str:
    """``value`` drawn as it is: a file name's undecodable bytes and control characters as
    ``\\xNN`` (XML cannot hold them), ``$`` escaped (matplotlib would read mathematics)."""
    return _clean(value).replace("$", r"\$")


def _clean(value: str) -> str:
    return visible_text(value, keep="\n")


def tick_label(label: str) -> str:
    """``label`` under the axis, each of its lines cut to ``LABEL_CHARS`` with an ellipsis."""
    lines = (x if len(x) <= LABEL_CHARS else x[: LABEL_CHARS - 1] + "…" for x in label.split("\n"))
    return "\n".join(plain(x) for x in lines)


def _crowded(data: FigureData) -> bool:
    """Whether two neighbouring labels under a panel would touch: about 3.4 pt per character
    at 6 pt, against their distance on the axis (sizes on a log axis can sit close: 210 MB
    beside 524 MB)."""
    panel_pt = WIDTH_IN * 72 * 0.8 / max(1, len(data.panels))
    places = _tick_places(data)
    widths = [
        max(len(line) for line in tick_label(label).split("\n")) * 3.4 for _, label in data.ticks
    ]
    pairs = sorted(zip(places, widths, strict=True))
    return any(
        (b - a) * panel_pt * 0.85 < (wa + wb) / 2 + 3
        for (a, wa), (b, wb) in itertools.pairwise(pairs)
    )


def _tick_places(data: FigureData) -> list[float]:
    """Each tick's place along the axis, 0 to 1 (bars: the middle of its group)."""
    if data.bars:
        n = len(data.ticks)
        return [(i + 0.5) / n for i in range(n)]
    xs = [math.log10(x) if data.log_x else x for x, _ in data.ticks]
    low, high = min(xs, default=0.0), max(xs, default=0.0)
    span = (high - low) * 1.16 or 1.0  # the margins either side (ax.margins(x=0.08))
    return [(x - low) / span + 0.08 for x in xs]


def _legend_columns(labels: tuple[str, ...]) -> int:
    longest = max((len(label) for label in labels), default=0)
    return 1 if longest > 30 or len(labels) < 2 else 2


def _draw_panel(ax: Any, panel: Panel, data: FigureData) -> list[Any]:
    """One direction's lines or bars in ``ax``; returns the legend's handles."""
    ax.set_title(plain(panel.title), pad=3)
    ax.grid(axis="y", linewidth=0.3, color="#cccccc")
    ax.set_axisbelow(True)
    ax.spines[["top", "right"]].set_visible(False)
    n = max(1, len(panel.series))
    handles = [_draw_series(ax, s, i, n, data) for i, s in enumerate(panel.series)]
    _x_axis(ax, data)
    if data.log_y:
        ax.set_yscale("log")
    return handles


def _draw_series(ax: Any, s: Series, i: int, n: int, data: FigureData) -> Any:
    """Series ``i`` of ``n`` in ``ax``: a line, or a bar in each group, with its error bars;
    returns its legend handle."""
    colour = OKABE_ITO[i % len(OKABE_ITO)]
    xs = [_dodged(p.x, i, n, data) for p in s.points]
    ys = [p.estimate.median for p in s.points]
    if data.bars:
        width = 0.8 / n
        xs = [x - 0.4 + width * (i + 0.5) for x in xs]  # side by side in the group
        handle = ax.bar(
            xs,
            ys,
            width=width,
            color=colour,
            edgecolor="black",
            linewidth=0.3,
            hatch=HATCHES[i % len(HATCHES)],
            label=plain(s.label),
        )
    else:
        (handle,) = ax.plot(
            xs, ys, color=colour, marker=MARKERS[i % len(MARKERS)], label=plain(s.label)
        )
    bars = [
        (x, p.estimate.median, error_bar(p.estimate)) for x, p in zip(xs, s.points, strict=True)
    ]
    with_bars = [(x, y, e) for x, y, e in bars if e is not None]
    if with_bars:
        ax.errorbar(
            [x for x, _, _ in with_bars],
            [y for _, y, _ in with_bars],
            yerr=[[e[0] for *_, e in with_bars], [e[1] for *_, e in with_bars]],
            fmt="none",
            ecolor="black" if data.bars else colour,
            elinewidth=0.6,
            capsize=1.5,
            capthick=0.6,
        )
    return handle


def _x_axis(ax: Any, data: FigureData) -> None:
    """The x axis of a panel: its scale, the ticks and their labels (turned when crowded),
    and its limits (bars: the groups; lines: a margin either side)."""
    if data.log_x:
        ax.set_xscale("log")
    ax.set_xticks([x for x, _ in data.ticks], [tick_label(label) for _, label in data.ticks])
    ax.minorticks_off()
    if _crowded(data):
        ax.tick_params(axis="x", labelrotation=40)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
            label.set_rotation_mode("anchor")
    if data.bars:
        ax.set_xlim(-0.5, len(data.ticks) - 0.5)
        ax.tick_params(axis="x", length=0)
    else:
        ax.margins(x=0.08)  # the end sizes' labels clear of the panel's edges


def _dodged(x: float, i: int, n: int, data: FigureData) -> float:
    """Line ``i`` of ``n``'s point at ``x`` moved a little sideways, so that markers and
    error bars at one size do not hide each other (bars are placed in their group)."""
    if data.bars or n < 2:
        return x
    step = (i - (n - 1) / 2) * DODGE_DECADES
    if data.log_x:
        return x * 10**step
    xs = [t for t, _ in data.ticks]
    return x + step * (max(xs) - min(xs) if len(xs) > 1 else x)
