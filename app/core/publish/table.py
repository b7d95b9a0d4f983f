"""A result as one publication table: rows of cells, each a median with its interval, the
unit in every header. The Markdown and LaTeX writers format this; numbers are rounded once,
here (:func:`figure`), so every format prints the same digits."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
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
    magnitude = math.floor(math.log10(abs(value)))
    places = max(0, digits - 1 - magnitude)
    rounded = round(value, places)
    if places and math.floor(math.log10(abs(rounded))) > magnitude:  # 99.96 -> 100, not 100.0
        places -= 1
    if places == 0:
        return f"{rounded:,.0f}"
    return f"{rounded:,.{places}f}"


@dataclass(frozen=True)
class Estimate:
    """A median and its 95 % interval (None: too few values for one). ``rounds`` counts the
    values (a study's rounds; a bench's repetitions when it ran in one worker); ``approx``
    marks an estimate (cycles from the clock figure), printed with a leading ``~``."""

    median: float
    interval: tuple[float, float] | None
    rounds: int
    approx: bool = False

    def text(self) -> str:
        """``10,400 [10,200, 10,500]``, ``10,400 [n/a]`` or ``~3.71 [3.60, 3.80]``."""
        mark = "~" if self.approx else ""
        if self.interval is None:
            return f"{mark}{figure(self.median)} [n/a]"
        lo, hi = self.interval
        return f"{mark}{figure(self.median)} [{figure(lo)}, {figure(hi)}]"

    def reciprocal(self, numerator: float) -> Estimate:
        """``numerator / value``: a rate from a time. The median and the interval's ends map
        exactly (order statistics keep their order, reversed), so the interval still holds."""

        def inv(x: float) -> float:
            return numerator / x if x > 0 else math.nan

        ends = None if self.interval is None else (inv(self.interval[1]), inv(self.interval[0]))
        return Estimate(inv(self.median), ends, self.rounds, self.approx)

    def scaled(self, factor: float, *, approx: bool | None = None) -> Estimate:
        """``value x factor`` (a positive factor: a unit, a clock); ``approx`` to mark it."""
        ends = (
            None
            if self.interval is None
            else (self.interval[0] * factor, self.interval[1] * factor)
        )
        return Estimate(
            self.median * factor, ends, self.rounds, self.approx if approx is None else approx
        )


def estimate(values: Sequence[float]) -> Estimate:
    """The median of ``values`` and its interval (nan and none without values)."""
    if not values:
        return Estimate(math.nan, None, 0)
    return Estimate(median(values), median_interval(values), len(values))


@dataclass(frozen=True)
class PublicationTable:
    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str | Estimate, ...], ...]
    notes: tuple[str, ...]
    text_columns: int = 3  # the leading columns of names (left-aligned); figures follow

    def text_rows(self) -> list[list[str]]:
        return [[c.text() if isinstance(c, Estimate) else c for c in row] for row in self.rows]


def rate_estimate(input_bytes: int, rounds: tuple[tuple[float, ...], ...], unit: int) -> Estimate:
    """Throughput in ``unit`` bytes per second: the median over rounds of each round's
    throughput (its input over its median time), with the interval over those rounds."""
    per_round = [input_bytes / median(r) / unit for r in rounds if r and median(r) > 0]
    if not per_round:
        return Estimate(float("nan"), None, 0)
    return Estimate(median(per_round), median_interval(per_round), len(per_round))


def power_text(n: int) -> str:
    """``10^6``, ``2^20``: a unit's size as a paper writes it."""
    for base in (10, 2):
        k = round(math.log(n, base)) if n > 0 else 0
        if base**k == n:
            return f"{base}^{k}"
    return f"{n:,}"


def rate_unit(units: str) -> str:
    """``"MB/s (10^6 bytes per second)"`` for a key of ``UNITS``."""
    return f"{units} ({power_text(UNITS[units])} bytes per second)"


def too_few_note(counts: Iterable[int], what: str, advice: str) -> list[str]:
    """The note that explains ``[n/a]`` when any of ``counts`` (values behind an estimate) is
    below the 95 % interval's minimum: ``what`` they are ("rounds"), how to get more."""
    least = min(counts, default=None)
    if least is None or least >= minimum_values():  # no values at all: nothing to explain
        return []
    return [
        f"[n/a]: fewer than {minimum_values()} {what}, too few for a 95 % interval of a "
        f"median; {advice}."
    ]


def study_table(result: StudyResult) -> PublicationTable:
    """One row per cipher entry and input: encryption and decryption throughput."""
    units = result.units
    scale = UNITS[units]
    rows = []
    for r in result.results:
        enc = rate_estimate(r.input_bytes, r.round_samples("encrypt"), scale)
        dec = rate_estimate(r.input_bytes, r.round_samples("decrypt"), scale)
        rows.append((r.cipher, r.library, r.input_label, enc, dec, str(enc.rounds)))
    notes = [
        f"Throughput in {rate_unit(units)}: the median over rounds of each round's "
        "throughput, with its distribution-free 95 % interval over those rounds in brackets.",
        *too_few_note(
            (int(str(row[-1])) for row in rows),
            "rounds",
            "run the study with more rounds (--rounds)",
        ),
    ]
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


def failure_notes(failures: Iterable[tuple[str, str]], cancelled: bool = False) -> list[str]:
    """A note per ``(what, why)`` that failed, and one if the run was cancelled: a table shows
    what it leaves out."""
    notes = [f"Not measured: {what}: {(why.splitlines() or [''])[0]}" for what, why in failures]
    if cancelled:
        notes.append("The run was cancelled: the table holds what finished before it stopped.")
    return notes
