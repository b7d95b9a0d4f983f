"""A result as one publication table: rows of cells, each a median with its interval, the
unit in every header. The Markdown and LaTeX writers format this; numbers are rounded once,
here (:func:`figure`), so every format prints the same digits."""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.core.publish.intervals import median, median_interval, minimum_values
from app.core.study.figures import UNITS
from app.core.study.result import StudyResult

DIGITS = 3  # significant digits of every printed figure


def figure(value: float, digits: int = DIGITS) -> str:
    """``value`` to ``digits`` significant digits, thousands separated by commas, never in
    e-notation: 10,351 / 912 / 3.71 / 0.0421."""
    if not math.isfinite(value):
        return "-"
    if value == 0:
        return "0"
    places = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    rounded = round(value, places)
    if places == 0:
        return f"{rounded:,.0f}"
    return f"{rounded:,.{places}f}"


@dataclass(frozen=True)
class Estimate:
    """A median and its 95 % interval (None: too few rounds for one)."""

    median: float
    interval: tuple[float, float] | None
    rounds: int

    def text(self) -> str:
        """``10,400 [10,200, 10,500]`` or ``10,400 [n/a]``."""
        if self.interval is None:
            return f"{figure(self.median)} [n/a]"
        lo, hi = self.interval
        return f"{figure(self.median)} [{figure(lo)}, {figure(hi)}]"


@dataclass(frozen=True)
class PublicationTable:
    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str | Estimate, ...], ...]
    notes: tuple[str, ...]

    def text_rows(self) -> list[list[str]]:
        return [[c.text() if isinstance(c, Estimate) else c for c in row] for row in self.rows]


def rate_estimate(input_bytes: int, rounds: tuple[tuple[float, ...], ...], unit: int) -> Estimate:
    """Throughput in ``unit`` bytes per second: the median over rounds of each round's
    throughput (its input over its median time), with the interval over those rounds."""
    per_round = [input_bytes / median(r) / unit for r in rounds if r and median(r) > 0]
    if not per_round:
        return Estimate(float("nan"), None, 0)
    return Estimate(median(per_round), median_interval(per_round), len(per_round))


def study_table(result: StudyResult) -> PublicationTable:
    """One row per cipher entry and input: encryption and decryption throughput."""
    units = result.units
    scale = UNITS[units]
    rows = []
    for r in result.results:
        enc = rate_estimate(r.input_bytes, r.round_samples("encrypt"), scale)
        dec = rate_estimate(r.input_bytes, r.round_samples("decrypt"), scale)
        rows.append((r.cipher, r.library, r.input_label, enc, dec, str(enc.rounds)))
    least = min((int(str(row[-1])) for row in rows), default=0)
    notes = [
        f"Throughput in {units} (1 {units[:-2]} = {scale:,} bytes per second): the median over "
        "rounds of each round's throughput, with its distribution-free 95 % interval over "
        "those rounds in brackets.",
    ]
    if least < minimum_values():
        notes.append(
            f"[n/a]: fewer than {minimum_values()} rounds, too few for a 95 % interval of a "
            "median; run the study with more rounds (--rounds)."
        )
    study = result.study
    caption = study.title or f"Study {study.name}"
    return PublicationTable(
        caption=caption,
        headers=(
            "Cipher",
            "Library",
            "Input",
            f"Encryption ({units})",
            f"Decryption ({units})",
            "Rounds",
        ),
        rows=tuple(rows),
        notes=tuple(notes),
    )
