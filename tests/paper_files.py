"""What the publication kit wrote, read back for the tests: a Markdown table's cells, the
figures a table should print (recomputed here from raw values, not by the kit's code), a LaTeX
file compiled with pdflatex when it is installed."""

from __future__ import annotations

import html
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from app.core.document.intervals import median, median_interval
from app.core.document.numbers import figure


def md_rows(md: str) -> list[list[str]]:
    """The first table's rows, its header first (the ``|---|`` line left out), each cell as a
    reader sees it (``&amp;`` is ``&``)."""
    lines = [line for line in md.splitlines() if line.startswith("| ")]
    return [[html.unescape(c.strip()) for c in line.strip("|").split(" | ")] for line in lines]


def cell(values: Sequence[float], scale: float = 1.0, approx: bool = False) -> str:
    """``median [low, high]`` of ``values`` times ``scale``, as a table prints it."""
    mark = "~" if approx else ""
    interval = median_interval(values)
    if interval is None:
        return f"{mark}{figure(median(values) * scale)} [n/a]"
    lo, hi = interval
    return f"{mark}{figure(median(values) * scale)} [{figure(lo * scale)}, {figure(hi * scale)}]"


def time_cell(values_ns: Sequence[float]) -> str:
    """``median unit [low, high]`` of times in ns, in the unit of the median (812 ns, 1.33
    µs, 7.21 ms), as a table prints a time."""
    m = median(values_ns)
    scale, unit = next(
        (s, u) for s, u in ((1e9, "s"), (1e6, "ms"), (1e3, "µs"), (1.0, "ns")) if m >= s * 0.9995
    )
    text = cell(values_ns, 1 / scale)
    return text.replace(" [", f" {unit} [", 1)


def rate_cell(size: float, times: Sequence[float]) -> str:
    """``size / time`` over ``times`` (a rate from times: the ends swap)."""
    interval = median_interval(times)
    mid = figure(size / median(times))
    if interval is None:
        return f"{mid} [n/a]"
    return f"{mid} [{figure(size / interval[1])}, {figure(size / interval[0])}]"


def compiles(tex: Path, folder: Path, fits: bool = True) -> None:
    """``tex`` compiles on its own with pdflatex (skipped where pdflatex is not installed),
    and, with ``fits``, no line runs wider than its page nor a table taller."""
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (scripts/setup.sh --dev installs it)")
    shutil.copy(tex, folder / "t.tex")
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=folder, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:]
    assert (folder / "t.pdf").read_bytes().startswith(b"%PDF")
    log = (folder / "t.log").read_text(errors="replace")
    assert not fits or ("Overfull \\hbox" not in log and "Float too large" not in log), log[-2000:]
