"""A small line chart as inline SVG: one line with markers per series, against input size.

No plotting library: the HTML report has to be one self-contained file, printable to PDF, and
a few hundred bytes of SVG per chart do that. The x axis is logarithmic when asked (sizes that
span more than a decade), with ticks at 1, 2 and 5 times a power of ten labelled by the caller
(e.g. "1 MB"); the y axis is linear from zero. Colours are Okabe and Ito's palette, which reads
for the colour-blind; each series also gets its own marker shape, which survives grey print.
Every text is escaped: a cipher or file label may be hostile.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from app.core.text import visible_text

# Okabe & Ito (2008), yellow last: it is faint on white.
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#000000", "#F0E442")
MARKERS = ("circle", "square", "triangle", "diamond", "down")

WIDTH, PLOT_HEIGHT = 640, 300
LEFT, RIGHT, TOP = 78, 24, 34
LEGEND_ROW = 18


@dataclass(frozen=True)
class ChartSeries:
    """One line: its name (shown in the legend) and its ``(x, y)`` points."""

    name: str
    points: tuple[tuple[float, float], ...]


def text(value: str) -> str:
    """``value`` safe inside HTML or SVG text and attributes: control characters written as
    ``\\xNN``, then ``& < > " '`` escaped."""
    return escape(visible_text(value, keep="\n"))


def nice_step(span: float, target: int = 5) -> float:
    """A tick step of 1, 2 or 5 times a power of ten giving about ``target`` ticks."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / target
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * power:
            return m * power
    return 10 * power


def log_ticks(low: float, high: float) -> list[float]:
    """Ticks between ``low`` and ``high`` (> 0): powers of ten, plus 2 and 5 times them when
    the range holds fewer than three decades."""
    multiples = (1, 2, 5) if math.log10(high / low) < 3 else (1,)
    ticks = []
    for k in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        for m in multiples:
            v = m * 10.0**k
            if low * (1 - 1e-9) <= v <= high * (1 + 1e-9):
                ticks.append(v)
    return ticks


def _format_y(step: float) -> Callable[[float], str]:
    decimals = max(0, -math.floor(math.log10(step))) if step > 0 else 0
    return lambda v: f"{v:,.{decimals}f}"


def line_chart(
    *,
    title: str,
    x_label: str,
    y_label: str,
    series: Sequence[ChartSeries],
    x_format: Callable[[float], str],
    log_x: bool,
    paper: Sequence[ChartSeries] = (),
    log_y: bool = False,
) -> str:
    """The SVG element (a string) of a line chart of ``series``, with ``paper``'s points (the
    paper's own values) as black diamonds. Points with a non-finite value, or not above zero
    on a log axis, are left out; no point at all gives a chart saying so."""
    kept = [
        ChartSeries(s.name, tuple(sorted(p for p in s.points if _valid(p, log_x, log_y))))
        for s in series
    ]
    marks = [p for s in paper for p in s.points if _valid(p, log_x, log_y)]
    points = [p for s in kept for p in s.points] + marks
    legend_rows = len(kept) + (1 if marks else 0)
    height = TOP + PLOT_HEIGHT + 56 + LEGEND_ROW * legend_rows
    out = svg_open(title, height)
    if not points:
        return no_data(out)
    sx, x_ticks = _x_scale([x for x, _ in points], log_x)
    sy, y_ticks, y_fmt = _y_scale([y for _, y in points], log_y)
    y_label += " (log scale)" if log_y else ""
    out.extend(_axes(sx, sy, x_ticks, y_ticks, x_format, y_fmt, x_label, y_label))
    for i, s in enumerate(kept):
        colour, marker = OKABE_ITO[i % len(OKABE_ITO)], MARKERS[i % len(MARKERS)]
        xy = [(sx(x), sy(y)) for x, y in s.points]
        if len(xy) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
            out.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}"/>'
            )
        for (px, py), (x, y) in zip(xy, s.points, strict=True):
            tip = f"{s.name}: {x_format(x)}, {y:.4g}"
            out.append(_marker(marker, px, py, colour, text(tip)))
        ly = TOP + PLOT_HEIGHT + 52 + LEGEND_ROW * i
        out.append(_marker(marker, LEFT + 10, ly - 4, colour, text(s.name)))
        out.append(
            f'<line x1="{LEFT}" y1="{ly - 4}" x2="{LEFT + 20}" y2="{ly - 4}" '
            f'stroke="{colour}" stroke-width="2"/>'
            f'<text x="{LEFT + 28}" y="{ly}">{text(s.name)}</text>'
        )
    for s in paper:
        for x, y in s.points:
            if _valid((x, y), log_x, log_y):
                out.append(_marker("diamond", sx(x), sy(y), "#000", text(f"{s.name}: {y:.4g}")))
    if marks:
        ly = TOP + PLOT_HEIGHT + 52 + LEGEND_ROW * len(kept)
        out.append(_marker("diamond", LEFT + 10, ly - 4, "#000", "the paper's value"))
        out.append(f'<text x="{LEFT + 28}" y="{ly}">the paper\'s own value</text>')
    out.append("</svg>")
    return "\n".join(out)


def log_tick(value: float) -> str:
    """A tick of an axis: ``12,345``, ``0.5``, ``0.00001`` (never ``1e-05``)."""
    if value >= 1000:
        return f"{value:,.0f}"
    if 0 < value < 1:
        digits = -math.floor(math.log10(value)) + 2
        return f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return f"{value:g}"


def svg_open(title: str, height: int) -> list[str]:
    """The opening of a chart's SVG element, ``height`` pixels high: the element, its title
    (for screen readers) and the title drawn above the plot."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" font-family="sans-serif" font-size="12">',
        f"<title>{text(title)}</title>",
        f'<text x="{WIDTH / 2:.0f}" y="18" text-anchor="middle" font-size="14" '
        f'font-weight="bold">{text(title)}</text>',
    ]


def no_data(out: list[str]) -> str:
    """The chart ``out`` (opened by :func:`svg_open`) closed with "no data to draw"."""
    out.append(
        f'<text x="{WIDTH / 2:.0f}" y="{TOP + PLOT_HEIGHT / 2:.0f}" '
        'text-anchor="middle">no data to draw</text></svg>'
    )
    return "\n".join(out)


def _valid(p: tuple[float, float], log_x: bool, log_y: bool = False) -> bool:
    x, y = p
    return math.isfinite(x) and math.isfinite(y) and (x > 0 or not log_x) and (y > 0 or not log_y)


def _x_scale(xs: list[float], log_x: bool) -> tuple[Callable[[float], float], list[float]]:
    right = WIDTH - RIGHT
    if log_x:
        low, high = min(xs) / 1.25, max(xs) * 1.25
        span = math.log10(high / low)
        ticks = log_ticks(low, high)
        return (lambda x: LEFT + (right - LEFT) * math.log10(x / low) / span), ticks
    high = max(xs) * 1.05 or 1.0
    step = nice_step(high)
    high = math.ceil(high / step) * step
    ticks = [i * step for i in range(round(high / step) + 1)]
    return (lambda x: LEFT + (right - LEFT) * x / high), ticks


def _y_scale(
    ys: list[float], log_y: bool = False
) -> tuple[Callable[[float], float], list[float], Callable[[float], str]]:
    bottom = TOP + PLOT_HEIGHT
    if log_y:
        lo = 10 ** math.floor(math.log10(min(ys)))
        hi = max(10 ** math.ceil(math.log10(max(ys))), lo * 10)
        span = math.log10(hi / lo)
        return (
            (lambda y: bottom - PLOT_HEIGHT * math.log10(y / lo) / span),
            log_ticks(lo, hi),
            log_tick,
        )
    low = min(0.0, min(ys))
    high = max(ys)
    if high <= low:
        high = low + 1.0
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    ticks = [low + i * step for i in range(round((high - low) / step) + 1)]
    bottom = TOP + PLOT_HEIGHT
    return (lambda y: bottom - PLOT_HEIGHT * (y - low) / (high - low)), ticks, _format_y(step)


def _axes(
    sx: Callable[[float], float],
    sy: Callable[[float], float],
    x_ticks: list[float],
    y_ticks: list[float],
    x_format: Callable[[float], str],
    y_format: Callable[[float], str],
    x_label: str,
    y_label: str,
) -> list[str]:
    bottom, right = TOP + PLOT_HEIGHT, WIDTH - RIGHT
    out = ['<g stroke="#ddd" stroke-width="1">']
    out += [f'<line x1="{LEFT}" y1="{sy(t):.1f}" x2="{right}" y2="{sy(t):.1f}"/>' for t in y_ticks]
    out += [f'<line x1="{sx(t):.1f}" y1="{TOP}" x2="{sx(t):.1f}" y2="{bottom}"/>' for t in x_ticks]
    out.append("</g>")
    out.append(
        f'<path d="M{LEFT},{TOP} V{bottom} H{right}" fill="none" stroke="#333" stroke-width="1"/>'
    )
    for t in y_ticks:
        out.append(
            f'<text x="{LEFT - 6}" y="{sy(t) + 4:.1f}" text-anchor="end">{text(y_format(t))}</text>'
        )
    for t in x_ticks:
        label = text(x_format(t))
        out.append(f'<text x="{sx(t):.1f}" y="{bottom + 16}" text-anchor="middle">{label}</text>')
    out.append(
        f'<text x="{(LEFT + right) / 2:.0f}" y="{bottom + 34}" text-anchor="middle">'
        f"{text(x_label)}</text>"
    )
    out.append(
        f'<text transform="translate(16 {TOP + PLOT_HEIGHT / 2:.0f}) rotate(-90)" '
        f'text-anchor="middle">{text(y_label)}</text>'
    )
    return out


def _marker(kind: str, x: float, y: float, colour: str, tip: str) -> str:
    r = 4.5
    title = f"<title>{tip}</title>"
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}">{title}</circle>'
    shapes = {
        "square": [(-r, -r), (r, -r), (r, r), (-r, r)],
        "triangle": [(0, -r * 1.2), (r * 1.1, r * 0.8), (-r * 1.1, r * 0.8)],
        "diamond": [(0, -r * 1.3), (r * 1.3, 0), (0, r * 1.3), (-r * 1.3, 0)],
        "down": [(0, r * 1.2), (r * 1.1, -r * 0.8), (-r * 1.1, -r * 0.8)],
    }
    pts = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in shapes[kind])
    return f'<polygon points="{pts}" fill="{colour}">{title}</polygon>'
