"""A table column declared once, for every view of a result type: its machine key, the header
a person reads (unit included), how to get the raw value, the Excel number format, and how a
table cell shows it. Each result type has one tuple of these (``app.core.export.schema`` for a
benchmark's jobs, ``app.core.study.columns`` for a study's and a transfer study's rows,
``app.core.transfer.columns`` for a transfer's ciphers); its CSV, XLSX and HTML writers and
the window's table model all read that tuple.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

R = TypeVar("R")  # the row's type: a JobResult, a TransferResult


def plain_text(value: Any) -> str:
    """A raw value as a table shows it: thousands separators, about four significant digits,
    "–" for not measured."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if not math.isfinite(value) or value == 0:
            return f"{value:g}"
        decimals = max(0, min(6, 3 - math.floor(math.log10(abs(value)))))
        return f"{value:,.{decimals}f}"
    return str(value)


@dataclass(frozen=True)
class Column(Generic[R]):
    key: str  # machine name: a CSV key
    header: str  # for people, with its unit; "{units}" stands for the chosen throughput unit
    get: Callable[[R, str], Any]  # (row, throughput unit) -> a number, text, bool or None
    number_format: str | None = None  # Excel; None: text
    text: Callable[[Any], str] = plain_text  # the value in a table cell
    label: str = ""  # the header where the cell's text carries its own unit; default: header
    tip: str = ""  # what the column means, for a header's tooltip
    short: str = ""  # the header of a narrow terminal table; default: label or header

    @property
    def numeric(self) -> bool:
        return self.number_format is not None

    def title(self, units: str) -> str:
        """The header, with the throughput unit in."""
        return self.header.format(units=units)

    def short_title(self, units: str) -> str:
        """The header an 80-column terminal table uses."""
        return (self.short or self.label or self.header).format(units=units)

    def shown_title(self, units: str) -> str:
        """The header a table that shows :attr:`text` uses."""
        return (self.label or self.header).format(units=units)


def headers(columns: Sequence[Column[Any]], units: str) -> list[str]:
    return [c.title(units) for c in columns]


def values(columns: Sequence[Column[R]], row: R, units: str) -> list[Any]:
    return [c.get(row, units) for c in columns]
