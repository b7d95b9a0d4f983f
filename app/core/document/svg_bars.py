"""Grouped bars as inline SVG: one group per input, one bar per cipher entry in each, as the
papers draw a comparison of files (seed 001's and 002's figures), with the paper's own values
as black diamonds on the bars they describe.

Shares :mod:`.svg_chart`'s look: Okabe and Ito's colours, escaped texts, a title and a legend.
The value axis is linear from zero, or logarithmic when asked (the caller asks when one bar is
ten times another: on a linear axis the small bars would be a few pixels tall).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.core.document.svg_chart import (
    LEFT,
    LEGEND_ROW,
    OKABE_ITO,
    PLOT_HEIGHT,
    RIGHT,
    TOP,
    WIDTH,
    log_tick,
    log_ticks,
    nice_step,
    no_data,
    svg_open,
    text,
)


@dataclass(frozen=True)
class BarSeries:
    """One cipher entry: its name and its value in each group (None: not measured)."""

    name: str
    values: tuple[float | None, ...]


@dataclass(frozen=True)
class PaperMark:
    """A value the paper published, drawn on bar ``series`` of group ``group``."""

    group: int
    series: int
    value: float
    label: str  # the tooltip: "paper (Table V): 1128.42 MiB/s"


def bar_chart(
    *,
    title: str,
    y_label: str,
    groups: Sequence[str],
    series: Sequence[BarSeries],
    paper: Sequence[PaperMark] = (),
    log_y: bool = False,
) -> str:
    """The SVG element (a string) of grouped bars; values that are not finite (or not above
    zero on a log axis) are left out."""
    values = [v for s in series for v in s.values if v is not None and _shown(v, log_y)]
    values += [m.value for m in paper if _shown(m.value, log_y)]
    group_w = (WIDTH - RIGHT - LEFT) / max(1, len(groups))
    turned = label_drop(groups, group_w)  # the room turned group labels take below the axis
    height = TOP + PLOT_HEIGHT + 56 + turned + LEGEND_ROW * (len(series) + (1 if paper else 0))
    out = svg_open(title, height)
    if not values or not groups:
        return no_data(out)
    sy, ticks = _scale(values, log_y)
    bottom, right = TOP + PLOT_HEIGHT, WIDTH - RIGHT
    out += _grid(sy, ticks)
    bar_w = group_w * 0.8 / max(1, len(series))
    base = sy(ticks[0])
    for g, name in enumerate(groups):
        x0 = LEFT + g * group_w + group_w * 0.1
        out.append(_group_label(name, LEFT + (g + 0.5) * group_w, turned))
        out += _group_bars(g, name, series, x0, bar_w, base, sy, log_y)
    for m in paper:
        if _shown(m.value, log_y) and m.group < len(groups):
            cx = LEFT + m.group * group_w + group_w * 0.1 + (m.series + 0.46) * bar_w
            out.append(_diamond(cx, sy(m.value), text(m.label)))
    out.append(
        f'<path d="M{LEFT},{TOP} V{bottom} H{right}" fill="none" stroke="#333" stroke-width="1"/>'
    )
    out.append(
        f'<text transform="translate(16 {TOP + PLOT_HEIGHT / 2:.0f}) rotate(-90)" '
        f'text-anchor="middle">{text(y_label + (" (log scale)" if log_y else ""))}</text>'
    )
    out += _legend(series, bool(paper), bottom + 40 + turned)
    out.append("</svg>")
    return "\n".join(out)


def _grid(sy: Callable[[float], float], ticks: Sequence[float]) -> list[str]:
    """The value axis: a light line across the plot at each tick, and the tick's label."""
    right = WIDTH - RIGHT
    out = ['<g stroke="#ddd" stroke-width="1">']
    out += [f'<line x1="{LEFT}" y1="{sy(t):.1f}" x2="{right}" y2="{sy(t):.1f}"/>' for t in ticks]
    out.append("</g>")
    for t in ticks:
        out.append(
            f'<text x="{LEFT - 6}" y="{sy(t) + 4:.1f}" text-anchor="end">{text(log_tick(t))}</text>'
        )
    return out


def _group_label(name: str, cx: float, turned: int) -> str:
    """A group's name under the axis, centred on ``cx``; when the names are ``turned`` (too
    long for their groups), turned, shortened to fit, and ending under the group's middle."""
    bottom = TOP + PLOT_HEIGHT
    if turned:
        shown = fitted(name, cx - 4)
        return (
            f'<text transform="translate({cx:.1f} {bottom + 14}) rotate(-{TURN_DEGREES})" '
            f'text-anchor="end"><title>{text(name)}</title>{text(shown)}</text>'
        )
    return f'<text x="{cx:.1f}" y="{bottom + 16}" text-anchor="middle">{text(name)}</text>'


def _group_bars(
    g: int,
    name: str,
    series: Sequence[BarSeries],
    x0: float,
    bar_w: float,
    base: float,
    sy: Callable[[float], float],
    log_y: bool,
) -> list[str]:
    """The bars of group ``g`` (named ``name``), from ``x0``, each ``bar_w`` wide and rising
    from ``base``; a series without a value shown there has no bar."""
    out = []
    for i, s in enumerate(series):
        v = s.values[g] if g < len(s.values) else None
        if v is None or not _shown(v, log_y):
            continue
        top = sy(v)
        colour = OKABE_ITO[i % len(OKABE_ITO)]
        out.append(
            f'<rect x="{x0 + i * bar_w:.1f}" y="{top:.1f}" width="{bar_w * 0.92:.1f}" '
            f'height="{max(0.5, base - top):.1f}" fill="{colour}">'
            f"<title>{text(f'{s.name}, {name}: {v:.4g}')}</title></rect>"
        )
    return out


def _legend(series: Sequence[BarSeries], paper: bool, first_y: int) -> list[str]:
    """A row per series from ``first_y`` down, its colour and its name; then, with ``paper``
    marks, the diamond's row."""
    out = []
    for i, s in enumerate(series):
        ly = first_y + LEGEND_ROW * i
        out.append(
            f'<rect x="{LEFT}" y="{ly - 9}" width="20" height="10" '
            f'fill="{OKABE_ITO[i % len(OKABE_ITO)]}"/><text x="{LEFT + 28}" y="{ly}">'
            f"{text(s.name)}</text>"
        )
    if paper:
        ly = first_y + LEGEND_ROW * len(series)
        out.append(_diamond(LEFT + 10, ly - 4, "the paper's value"))
        out.append(f'<text x="{LEFT + 28}" y="{ly}">the paper\'s own value</text>')
    return out


CHAR_PX = 7.0  # the width of a character at the charts' 12 px sans-serif, about (wide side)
TURN_DEGREES = 35


def fitted(label: str, room_px: float) -> str:
    """``label`` shortened with an ellipsis so that, turned, it reaches no further left than
    ``room_px`` (a label under the first groups would run off the chart)."""
    most = int(room_px / (CHAR_PX * math.cos(math.radians(TURN_DEGREES))))
    return label if len(label) <= most else label[: max(1, most - 1)] + "…"


def label_drop(groups: Sequence[str], group_w: float) -> int:
    """0 when every group's label fits its group's width on one line; else the extra height
    the labels take turned by :data:`TURN_DEGREES` (the longest's drop, at most 160 px), so
    neighbours never overlap and the legend moves down below them."""
    longest = max((len(g) for g in groups), default=0) * CHAR_PX
    if longest <= group_w - 4:
        return 0
    return int(min(160, longest * math.sin(math.radians(TURN_DEGREES))))


def wants_log(values: Sequence[float | None]) -> bool:
    """Whether a value axis should be logarithmic: every value above zero and the largest at
    least ten times the smallest."""
    shown = [v for v in values if v is not None and math.isfinite(v)]
    return bool(shown) and min(shown) > 0 and max(shown) >= 10 * min(shown)


def _shown(value: float | None, log_y: bool) -> bool:
    return value is not None and math.isfinite(value) and (value > 0 or not log_y)


def _scale(values: list[float], log_y: bool) -> tuple[Callable[[float], float], list[float]]:
    bottom = TOP + PLOT_HEIGHT
    if log_y:
        low = 10 ** math.floor(math.log10(min(values)))
        high = 10 ** math.ceil(math.log10(max(values)))
        if high <= low:
            high = low * 10
        span = math.log10(high / low)
        ticks = log_ticks(low, high)
        return (lambda y: bottom - PLOT_HEIGHT * math.log10(y / low) / span), ticks
    high = max(max(values), 0.0) or 1.0
    step = nice_step(high)
    high = math.ceil(high / step) * step
    ticks = [i * step for i in range(round(high / step) + 1)]
    return (lambda y: bottom - PLOT_HEIGHT * y / high), ticks


def _diamond(x: float, y: float, tip: str) -> str:
    r = 5.5
    points = f"{x:.1f},{y - r:.1f} {x + r:.1f},{y:.1f} {x:.1f},{y + r:.1f} {x - r:.1f},{y:.1f}"
    return (
        f'<polygon points="{points}" fill="#000" stroke="#fff" stroke-width="1">'
        f"<title>{tip}</title></polygon>"
    )
