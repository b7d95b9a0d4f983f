"""The paper's published figures set beside ours: for each figure, the entries and the input of
this study it describes (:mod:`.figures` says how a figure names them), and our value of the
same quantity in the paper's unit.

A figure that matches nothing (the study ran other inputs) is still shown, with no value of
ours. Our value is what the study measured: the median time, the throughput from it, the CPU %
over the timed runs, the memory the figure's ``basis`` names, the speed-up against the slowest
entry on the input (the mean where the figure's ``statistic`` is one; whole programs' times
and factors); in a transfer study the total time to the receiver's verification (or, for
``end = "sender"``, the sender-side time, where a sending program's clock stops), the
throughput from it, and the CPU and memory of the end the figure names (the larger of the two
by default; memory above its baseline, or its whole peak RSS for ``basis = "process"``).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.bench.results import JobResult
from app.core.bench.stats import TimingStats
from app.core.document import numbers
from app.core.study.figures import (
    BYTES,
    QUANTITY_NAMES,
    RATES,
    SECONDS,
    memory_words,
    names_entry,
    paper_bytes,
    same_input,
)
from app.core.study.memory_figures import memory_bytes
from app.core.study.published import PublishedFigure
from app.core.study.result import StudyResult
from app.core.study.transfer_result import TransferStudyResult
from app.core.transfer.results import TransferResult


@dataclass(frozen=True)
class PaperMatch:
    """One published figure and, when the study ran it, our value in the paper's unit."""

    figure: PublishedFigure
    cipher_label: str | None = None  # our entry, "aes-128-cbc [pycryptodome]"
    input_label: str | None = None  # our input
    measured: float | None = None  # in ``figure.unit``

    def sentence(self) -> str:
        """``"Table 2: AES-128, 50 MB: encryption time = 0.1084 s; here aes-128-cbc
        [pycryptodome]: 0.0921 s (0.85x)"``: where the paper gives it, the paper's figure, then
        ours when the study ran it, and the figure's note."""
        p = self.figure
        name = QUANTITY_NAMES.get(p.quantity, p.quantity) + (" (mean)" if p.statistic else "")
        if p.quantity == "memory" and (p.basis or p.direction):
            name += f" ({memory_words(p.basis, p.direction)})"
        where = f"{p.table}: " if p.table else ""
        unit = p.unit if p.unit == "x" else " " + p.unit  # "6.09x", "98.2 ms"
        line = f"{where}{p.cipher}, {p.input}: {name} = {p.value:g}{unit}"
        if self.measured is not None:  # ours even where the paper's is 0 (no ratio then)
            ours = numbers.figure(self.measured)
            ratio = f" ({numbers.ratio_text(self.ratio)})" if self.ratio is not None else ""
            line += f"; here {self.cipher_label}: {ours}{unit}{ratio}"
        return line + (f" (note: {p.note})" if p.note else "")

    @property
    def ratio(self) -> float | None:
        """Ours / the paper's (2.0: our figure is twice the paper's)."""
        if self.measured is None or self.figure.value == 0:
            return None
        return self.measured / self.figure.value


def source(result: StudyResult | TransferStudyResult) -> str:
    """The paper the study reproduces, as its definition cites it."""
    study = result.study
    return study.paper or study.title or study.name


def match_published(result: StudyResult | TransferStudyResult) -> tuple[PaperMatch, ...]:
    """Every published figure, once per entry of ours it matches (once, empty, for none).
    In a transfer study a throughput is the transfer's, memory the larger end's."""
    out: list[PaperMatch] = []
    speedups = _derived(result)
    for figure in result.study.published:
        rows = [
            PaperMatch(figure, r.label, r.input_label, _measured(figure, r, speedups))
            for r in result.results
            if _same_entry(figure, r)
            and same_input(figure.input, r.input_label)
            and _comparable_size(figure, r.input_bytes)
        ]
        out.extend(rows or [PaperMatch(figure)])
    return tuple(out)


SIZE_FREE = frozenset(
    ("encrypt_rate", "decrypt_rate", "transfer_rate", "cpu_percent", "speedup", "program_speedup")
)


def _comparable_size(figure: PublishedFigure, input_bytes: int) -> bool:
    """Whether our input is the paper's for this figure: a time or a memory depends on the
    size, so it is set beside ours only on an input of the paper's size (within 1 %); a
    throughput, a CPU share or a speed-up is size-free, set beside ours on any input its
    label matches (a .zip of ours beside the paper's .zip)."""
    if figure.quantity in SIZE_FREE:
        return True
    paper = paper_bytes(figure.input)
    return paper is None or abs(input_bytes - paper) <= 0.01 * paper


def _derived(result: StudyResult | TransferStudyResult) -> dict[tuple[str, str, str], float]:
    """``(quantity, input, entry)``: the study's derived figures a paper may publish (the
    speed-ups, each whole program's median time and its speed-up)."""
    if not isinstance(result, StudyResult):
        return {}
    out = {("speedup", s.input_label, s.cipher_label): s.factor for s in result.speedups}
    for s in result.program_speedups:
        out["program_speedup", s.input_label, s.cipher_label] = s.factor
    for p in result.programs:
        out["program_s", p.input_label, p.label] = p.median_s
    return out


def _same_entry(figure: PublishedFigure, r: JobResult | TransferResult) -> bool:
    cipher = r.cipher if isinstance(r, JobResult) else r.cipher_id
    return names_entry(figure.entry, figure.cipher, cipher, r.library, r.label)


def _measured(
    figure: PublishedFigure,
    r: JobResult | TransferResult,
    derived: dict[tuple[str, str, str], float],
) -> float | None:
    quantity, unit = figure.quantity, figure.unit
    if isinstance(r, TransferResult):
        return _transfer_measured(figure, r)
    if quantity in ("encrypt_s", "decrypt_s") and unit in SECONDS:
        return _time(figure, getattr(r, quantity.removesuffix("_s"))) * SECONDS[unit]
    if quantity in ("encrypt_rate", "decrypt_rate") and unit in RATES:
        seconds = _time(figure, getattr(r, quantity.removesuffix("_rate")))
        return r.input_bytes / seconds / RATES[unit] if seconds > 0 else None
    if quantity == "memory" and unit in BYTES:
        used = memory_bytes(figure.basis, figure.direction, r)
        return None if used is None else used / BYTES[unit]
    if quantity == "cpu_percent":
        return r.cpu_percent
    if quantity in ("speedup", "program_speedup"):
        return derived.get((quantity, r.input_label, r.label))
    if quantity == "program_s" and unit in SECONDS:
        program = derived.get((quantity, r.input_label, r.label))
        return None if program is None else program * SECONDS[unit]
    return None


def _transfer_measured(figure: PublishedFigure, r: TransferResult) -> float | None:
    quantity, unit = figure.quantity, figure.unit
    median = _time(figure, r.timing)
    if figure.end == "sender" and quantity in ("transfer_s", "transfer_rate"):
        sent = r.sent_median_s  # where the sender's clock stops, as the paper's did
        if sent is None:
            return None
        median = sent
    both = (r.sender, r.receiver)
    ends = {"sender": both[:1], "receiver": both[1:]}.get(figure.end, both)
    if quantity in ("transfer_s", "encrypt_s", "decrypt_s") and unit in SECONDS:
        return median * SECONDS[unit]
    if quantity in ("transfer_rate", "encrypt_rate", "decrypt_rate") and unit in RATES:
        return r.input_bytes / median / RATES[unit] if median > 0 else None
    if quantity == "cpu_percent":
        return max(end.cpu_percent for end in ends)
    if quantity == "memory" and unit in BYTES:
        if figure.basis == "process":  # the whole peak RSS
            return max(end.peak_rss_bytes for end in ends) / BYTES[unit]
        return max(end.peak_above_baseline_bytes for end in ends) / BYTES[unit]
    return None


def _time(figure: PublishedFigure, timing: TimingStats) -> float:
    """Our time in the figure's statistic: the mean where the paper averaged, else the median."""
    return timing.mean_s if figure.statistic == "mean" else timing.median_s
