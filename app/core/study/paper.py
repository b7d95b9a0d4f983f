"""The paper's published figures set beside ours: for each figure, the entries and the input of
this study it describes, and our value of the same quantity in the paper's unit.

A figure names its cipher and input the paper's way ("AES-128", ".zip (85.7 MB)"). It is matched
to our results so:

- **entries**: those its ``entry`` lists (registry ids, or ``"id [library]"`` labels); without
  one, the entry whose id or library is the paper's name (``"aes-256-gcm"``, ``"pyaes"``);
- **input**: our input of the same label (``"50 MB"``); for ``".zip (85.7 MB)"`` our generated
  ``"85.7 MB"`` or a ``.zip`` file of the user's; for ``".pdf"`` a ``.pdf`` file.

A figure that matches nothing (the study ran other inputs, or the figure is about something we
do not measure) is still shown, with no value of ours. Our value is what the study measured:
the median time, the throughput from it, the memory the figure's ``basis`` names, the speed-up
against the slowest entry on the input; in a transfer study the total time, the transfer's
throughput and the larger of the two ends' memory (above its baseline, or its whole peak RSS
for ``basis = "process"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.core.bench.results import JobResult
from app.core.study.definition import QUANTITY_NAMES, UNITS, PublishedFigure
from app.core.study.result import StudyResult
from app.core.study.transfer_result import TransferStudyResult
from app.core.transfer.results import TransferResult
from app.core.units import MIB

_SECONDS = {"s": 1.0, "ms": 1e3, "us": 1e6, "µs": 1e6}
_BYTES = {"MB": 10**6, "MiB": MIB, "KB": 10**3, "KiB": 1024, "GB": 10**9, "GiB": 2**30}
_RATES = {**UNITS, "GB/s": 10**9, "GiB/s": 2**30}
_PAREN = re.compile(r"\(([^)]*)\)\s*$")


@dataclass(frozen=True)
class PaperMatch:
    """One published figure and, when the study ran it, our value in the paper's unit."""

    figure: PublishedFigure
    cipher_label: str | None = None  # our entry, "aes-128-cbc [pycryptodome]"
    input_label: str | None = None  # our input
    measured: float | None = None  # in ``figure.unit``

    def sentence(self) -> str:
        """``"AES-128, 50 MB: encryption time = 0.1084 s; here aes-128-cbc [pycryptodome]:
        0.0921 s (0.85x)"``: the paper's figure, then ours when the study ran it."""
        p = self.figure
        name = QUANTITY_NAMES.get(p.quantity, p.quantity)
        line = f"{p.cipher}, {p.input}: {name} = {p.value:g} {p.unit}"
        if self.measured is not None and self.ratio is not None:
            ours = f"{self.measured:,.0f}" if abs(self.measured) >= 1000 else f"{self.measured:.3g}"
            line += f"; here {self.cipher_label}: {ours} {p.unit} ({self.ratio:.2f}x)"
        return line

    @property
    def ratio(self) -> float | None:
        """Ours / the paper's (2.0: our figure is twice the paper's)."""
        if self.measured is None or self.figure.value == 0:
            return None
        return self.measured / self.figure.value


def match_published(result: StudyResult | TransferStudyResult) -> tuple[PaperMatch, ...]:
    """Every published figure, once per entry of ours it matches (once, empty, for none).
    In a transfer study a throughput is the transfer's, memory the larger end's."""
    out: list[PaperMatch] = []
    speedups = {(s.input_label, s.cipher_label): s.factor for s in getattr(result, "speedups", ())}
    for figure in result.study.published:
        rows = [
            PaperMatch(figure, r.label, r.input_label, _measured(figure, r, speedups))
            for r in result.results
            if _same_entry(figure, r) and _same_input(figure.input, r.input_label)
        ]
        out.extend(rows or [PaperMatch(figure)])
    return tuple(out)


def _same_entry(figure: PublishedFigure, r: JobResult | TransferResult) -> bool:
    names = figure.entry or (figure.cipher,)
    wanted = {n.strip().lower() for n in names}
    cipher = r.cipher if isinstance(r, JobResult) else r.cipher_id
    return bool(wanted & {cipher, r.label.lower()}) or (
        not figure.entry and figure.cipher.strip().lower() == r.library
    )


def _same_input(paper: str, ours: str) -> bool:
    """``"50 MB"`` is ours ``"50 MB"``; ``".zip (85.7 MB)"`` is ours ``"85.7 MB"`` or a .zip
    file; ``".pdf"`` is a .pdf file."""
    paper = paper.strip()
    if paper.lower() == ours.strip().lower():
        return True
    size = _PAREN.search(paper)
    if size and size.group(1).strip().lower() == ours.strip().lower():
        return True
    extension = _PAREN.sub("", paper).strip().lower()
    return extension.startswith(".") and ours.lower().endswith(extension)


def _measured(
    figure: PublishedFigure, r: JobResult | TransferResult, speedups: dict[tuple[str, str], float]
) -> float | None:
    quantity, unit = figure.quantity, figure.unit
    if isinstance(r, TransferResult):
        return _transfer_measured(figure, r)
    if quantity in ("encrypt_s", "decrypt_s") and unit in _SECONDS:
        median = getattr(r, quantity.removesuffix("_s")).median_s
        return median * _SECONDS[unit]
    if quantity in ("encrypt_rate", "decrypt_rate") and unit in _RATES:
        median = getattr(r, quantity.removesuffix("_rate")).median_s
        return r.input_bytes / median / _RATES[unit] if median > 0 else None
    if quantity == "memory" and unit in _BYTES:
        used = {"python": r.python_peak_bytes, "process": r.peak_rss_bytes}.get(
            figure.basis, r.memory_above_baseline_bytes
        )
        return None if used is None else used / _BYTES[unit]
    if quantity == "speedup":
        return speedups.get((r.input_label, r.label))
    return None


def _transfer_measured(figure: PublishedFigure, r: TransferResult) -> float | None:
    quantity, unit = figure.quantity, figure.unit
    median = r.timing.median_s
    if quantity in ("encrypt_s", "decrypt_s") and unit in _SECONDS:
        return median * _SECONDS[unit]
    if quantity in ("transfer_rate", "encrypt_rate", "decrypt_rate") and unit in _RATES:
        return r.input_bytes / median / _RATES[unit] if median > 0 else None
    if quantity == "memory" and unit in _BYTES:
        if figure.basis == "process":  # the larger end's whole peak RSS
            ends = (r.sender.peak_rss_bytes, r.receiver.peak_rss_bytes)
        else:
            ends = (r.sender.peak_above_baseline_bytes, r.receiver.peak_above_baseline_bytes)
        return max(ends) / _BYTES[unit]
    return None
