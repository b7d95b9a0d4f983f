"""The tables of a sweep and a ladder, through the one column model: every cell's text comes
from :mod:`app.core.sweep.report` (the command line's and the exports' figures).

- :data:`CURVE_COLUMNS`: one row per entry and message length: time per call with its IQR,
  MB/s, ns and cycles per byte (``~`` where the cycles are estimated from time), a whole
  message with a cipher object of its own (as bench times it), decryption MB/s, the time to
  reject a forgery.
- :func:`ad_columns`: the encryption time with each length of associated data.
- :data:`LADDER_COLUMNS`: the ladder's steps and the factor to the first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from app.core.columns import Column
from app.core.sweep.report import (
    CurveRow,
    LadderStep,
    ad_rows,
    curve_rows,
    ladder_steps,
    length_label,
    ns_text,
    number,
)
from app.core.sweep.results import SweepEntry, SweepPoint, SweepResult
from app.gui.results.column_model import ColumnTableModel

ESTIMATED = "~ "  # before a cycles figure estimated from time x the clock frequency
NUMERIC = "General"  # the column model right-aligns a column with a number format


@dataclass(frozen=True)
class AdLine:
    """One row of the associated-data table: an entry at one message length, by AD length."""

    entry: SweepEntry
    message_bytes: int
    by_ad: dict[int, SweepPoint]


@dataclass(frozen=True)
class LadderLine:
    """One step of the ladder, numbered from 1."""

    number: int
    step: LadderStep


def cycles_text(entry: SweepEntry, point: SweepPoint) -> str:
    """Cycles per byte, ``"~ 1.97"`` when estimated from time."""
    value = point.cycles_per_byte(entry.clock_mhz)
    if value is None:
        return "-"
    return ("" if entry.counter else ESTIMATED) + number(value)


def _iqr(p: SweepPoint) -> str:
    q1, q3 = p.quartiles_ns
    return ns_text(q3 - q1)


def _col(
    key: str, header: str, get: Any, tip: str = "", numeric: bool = True, label: str = ""
) -> Column[Any]:
    """A column whose cells are texts already (``label``: a header on two lines)."""
    return Column(key, header, get, NUMERIC if numeric else None, text=str, label=label, tip=tip)


CYCLES_TIP = (
    "Cycles per byte of encryption: from the CPU's cycle counter where the system gives one; "
    f"'{ESTIMATED.strip()}' marks an estimate (time x the clock frequency the kernel reports)"
)

CURVE_COLUMNS: tuple[Column[CurveRow], ...] = (
    _col("entry", "Entry", lambda r, _u: r.entry.label, numeric=False),
    _col("message", "Message", lambda r, _u: length_label(r.message_bytes)),
    _col(
        "encrypt",
        "Encrypt (per call)",
        lambda r, _u: ns_text(r.encrypt.median_ns),
        "Median time of one encryption call over every sample of every round",
    ),
    _col(
        "iqr",
        "± IQR",
        lambda r, _u: _iqr(r.encrypt),
        "Interquartile range of the encryption samples (Q3 - Q1)",
    ),
    _col(
        "mb_s",
        "MB/s",
        lambda r, _u: number(r.encrypt.mb_s),
        "Encryption: 10^6 message bytes per second",
    ),
    _col("ns_byte", "ns/byte", lambda r, _u: number(r.encrypt.ns_per_byte)),
    _col("cycles_byte", "Cycles/byte", lambda r, _u: cycles_text(r.entry, r.encrypt), CYCLES_TIP),
    _col(
        "whole_message",
        "Whole message",
        lambda r, _u: ns_text(r.message.median_ns) if r.message else "-",
        "Encrypting the whole message with a cipher object of its own, made before the clock, "
        "as bench times it: the first call on a fresh object, the library's padding and tag",
    ),
    _col(
        "decrypt_mb_s",
        "Decrypt MB/s",
        lambda r, _u: number(r.decrypt.mb_s) if r.decrypt else "-",
    ),
    _col(
        "forgery",
        "Forgery",
        lambda r, _u: ns_text(r.forgery.median_ns) if r.forgery else "-",
        "Time to open the message under a nonce one bit off and reject it (AEADs)",
    ),
)


def curve_lines(result: SweepResult | None) -> list[CurveRow]:
    if result is None:
        return []
    return [row for e in result.entries for row in curve_rows(e)]


def curve_tip(line: CurveRow) -> str:
    e, p = line.entry, line.encrypt
    medians = ", ".join(ns_text(m) for m in p.round_medians_ns)
    return (
        f"{e.label}, {e.library} {e.library_version}: {length_label(p.message_bytes)} "
        f"({p.message_bytes:,} bytes)\n{len(p.samples_ns)} samples over {e.rounds} round(s); "
        f"each round's median: {medians}\nCycles: {e.cycles_source}"
    )


def ad_lines(result: SweepResult | None) -> list[AdLine]:
    if result is None:
        return []
    return [AdLine(e, n, dict(row)) for e in result.entries for n, row in ad_rows(e)]


def ad_columns(lines: Sequence[AdLine]) -> tuple[Column[AdLine], ...]:
    """Entry, message, then one column per length of associated data timed."""
    ads = sorted({ad for line in lines for ad in line.by_ad})

    def time_at(ad: int) -> Any:
        return lambda r, _u: ns_text(r.by_ad[ad].median_ns) if ad in r.by_ad else "-"

    return (
        _col("entry", "Entry", lambda r, _u: r.entry.label, numeric=False),
        _col("message", "Message", lambda r, _u: length_label(r.message_bytes)),
        *(
            _col(f"ad_{ad}", f"AD {ad} B", time_at(ad), "Median encryption time per call")
            for ad in ads
        ),
    )


def step_title(number: int, entry: SweepEntry) -> str:
    """``"1. cryptography"``, ``"2. cryptography, AES off"``, ``"3. pure Python"``."""
    if entry.library == "pyaes":
        return f"{number}. pure Python"
    return f"{number}. {entry.library}" + ("" if entry.aes_instructions else ", AES off")


def _factor(line: LadderLine) -> str:
    f = line.step.slower_than_first
    return "-" if f is None else f"{number(f)}x"


LADDER_COLUMNS: tuple[Column[LadderLine], ...] = (
    _col("step", "Step", lambda r, _u: step_title(r.number, r.step.entry), numeric=False),
    _col("message", "Message", lambda r, _u: length_label(r.step.point.message_bytes)),
    _col("mb_s", "MB/s", lambda r, _u: number(r.step.point.mb_s), "10^6 bytes per second"),
    _col(
        "cycles_byte",
        "Cycles/byte",
        lambda r, _u: cycles_text(r.step.entry, r.step.point),
        CYCLES_TIP,
    ),
    _col(
        "slower",
        "Slower than step 1",
        lambda r, _u: _factor(r),
        "Time per byte / step 1's",
        label="Slower than\nstep 1",  # narrow: the note beside it has the room
    ),
    _col(
        "note",
        "Note",
        lambda r, _u: r.step.entry.note,
        numeric=False,
    ),
)


def ladder_lines(result: SweepResult | None) -> list[LadderLine]:
    if result is None:
        return []
    return [LadderLine(i, s) for i, s in enumerate(ladder_steps(result), start=1)]


def ladder_tip(line: LadderLine) -> str:
    e = line.step.entry
    note = f"\n{e.note}" if e.note else ""
    return f"{e.label}, {e.library} {e.library_version}{note}\nCycles: {e.cycles_source}"


class SweepTableModel(ColumnTableModel):
    """A table of a sweep's or a ladder's result: its rows are ``lines(result)``, shown through
    ``columns(rows)`` (the associated-data table has a column per length timed)."""

    def __init__(
        self,
        lines: Callable[[SweepResult | None], Sequence[Any]],
        columns: Callable[[Sequence[Any]], Sequence[Column[Any]]],
        parent: QObject | None = None,
        *,
        row_tip: Callable[[Any], str] | None = None,
    ) -> None:
        super().__init__(columns(()), parent, row_tip=row_tip)
        self._lines = lines
        self._columns_of = columns

    def set_result(self, result: SweepResult | None) -> None:
        lines = self._lines(result)
        self.set_results(lines, columns=self._columns_of(lines))


class SweepTableView(QTableView):
    """A read-only table whose columns are as wide as their longest text, measured from the
    model's texts once per change (Qt's ``ResizeToContents`` would measure on every paint);
    with ``stretch_last``, the last column (a note) takes the room left, its text cut short
    there (all of it in the row's tooltip)."""

    PADDING = 18

    def __init__(self, parent: QWidget | None = None, *, stretch_last: bool = False) -> None:
        super().__init__(parent)
        self._stretch_last = stretch_last
        self.setAlternatingRowColors(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(stretch_last)

    def setModel(self, model: Any) -> None:
        super().setModel(model)
        if model is not None:
            model.modelReset.connect(self.fit_columns)
            self.fit_columns()

    def rows_height(self, rows: int) -> int:
        """The height showing the header and ``rows`` rows without a scroll bar."""
        header = self.horizontalHeader().sizeHint().height()
        return header + rows * self.verticalHeader().defaultSectionSize() + 2 * self.frameWidth()

    def fit_columns(self) -> None:
        model = self.model()
        if model is None:
            return
        cells = self.fontMetrics()
        titles = self.horizontalHeader().fontMetrics()
        horizontal = Qt.Orientation.Horizontal
        fitted = model.columnCount() - (1 if self._stretch_last else 0)
        for column in range(fitted):
            title = str(model.headerData(column, horizontal) or "")
            width = max(titles.horizontalAdvance(line) for line in title.split("\n"))
            for row in range(model.rowCount()):
                text = model.data(model.index(row, column))
                width = max(width, cells.horizontalAdvance(str(text or "")))
            self.horizontalHeader().resizeSection(column, width + self.PADDING)
