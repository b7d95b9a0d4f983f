"""A figure the paper published (:class:`PublishedFigure`), shown beside ours labelled as the
paper's: its ``[[published]]`` table in a study file, read and written, and its checks.

    [[published]]                     # the paper's own figures, shown labelled as the paper's
    cipher = "AES-128"
    input = "50 MB"                   # our input of that label; ".zip (85.7 MiB)": a .zip
                                      # file, or the generated "85.7 MiB"
    quantity = "encrypt_s"            # encrypt_s, decrypt_s, encrypt_rate, decrypt_rate,
    value = 0.1084                    # transfer_s, transfer_rate, cpu_percent, memory, speedup
    unit = "s"                        # one the quantity takes: s, ms; MB/s, MiB/s, KB/s;
                                      # %; MB, MiB, KB; x
    entry = "aes-128-cbc"             # optional: our entries it is set beside (ids or
                                      # "id [library]", a string or a list); default: the
                                      # entry or library named like ``cipher``
    basis = "python"                  # memory only: tracemalloc's peak; "process": the whole
                                      # process's peak RSS (default: the peak above the
                                      # process's baseline); "load-all": tracemalloc's peak of
                                      # the load-all program's encryption, "load-all-rss" its
                                      # resident memory after minus before (memory_workload)
    direction = "decrypt"             # memory only: the memory pass's peak in one direction
                                      # (default: the pass's own, both directions)
    end = "sender"                    # a transfer's CPU or memory: "sender" or "receiver"
                                      # (default: the larger of the two ends); its time or
                                      # throughput: "sender" stops the clock where a sender's
                                      # does (the last byte sent, not verified)
    table = "Table 2"                 # where in the paper the figure stands
    note = "the text says 0.11 s"     # the paper's own inconsistencies, shown with the figure
    statistic = "mean"                # a time or rate the paper averaged: set beside our mean
                                      # (default: our median)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from app.core.bench.jobs import LOAD_ALL
from app.core.errors import UserError
from app.core.study.figures import (
    ENDS,
    MEMORY_BASES,
    QUANTITIES,
    QUANTITY_NAMES,
    QUANTITY_UNITS,
)
from app.core.study.memory_figures import LOAD_ALL_BASES
from app.core.study.paper_claims import CROSSED
from app.core.study.study_toml import storable

_OPTIONAL_FIGURE_KEYS = ("basis", "end", "table", "note", "statistic", "direction")
STATISTICS = ("", "mean")


@dataclass(frozen=True)
class PublishedFigure:
    """One figure the paper published, kept to be shown beside ours, labelled as the paper's."""

    cipher: str  # as the paper names it: "AES-128", "Blowfish ECB"
    input: str  # as the paper names it: "50 MB", ".zip"
    quantity: str  # one of QUANTITIES
    value: float
    unit: str  # "s", "ms", "MB/s", "MiB/s", "KB/s", "MB", "MiB", "KB", "x"
    entry: tuple[str, ...] = ()  # our entries it matches ("aes-128-cbc", "id [library]")
    basis: str = ""  # memory: "" above the baseline, "python" tracemalloc, "process" whole RSS
    end: str = ""  # a transfer's CPU or memory: "sender", "receiver", "" the larger of the two
    table: str = ""  # where in the paper: "Table VI", "Table II (Android)"
    note: str = ""  # what the paper's own text says otherwise, or how to read the figure
    statistic: str = ""  # a time's: "" the median of ours, "mean": the paper's was a mean
    # a memory's: "encrypt" or "decrypt", the memory pass's peak in that direction; "": the
    # pass's own (both directions), or the encryption's for a load-all basis
    direction: str = ""

    def describe(self) -> str:
        """``"AES ECB, .txt (14.35 KiB), encryption time"``: which figure, in a message."""
        return f"{self.cipher}, {self.input}, {QUANTITY_NAMES.get(self.quantity, self.quantity)}"


FIGURE_KEYS = {f.name for f in fields(PublishedFigure)}  # what a [[published]] table takes


def figure_from_dict(p: Mapping[str, Any]) -> PublishedFigure:
    """The figure a ``[[published]]`` table describes (not yet checked: :func:`check_figure`);
    ``KeyError``, ``TypeError`` or ``ValueError`` for a malformed one."""
    return PublishedFigure(
        str(p["cipher"]),
        str(p["input"]),
        str(p["quantity"]),
        storable("a published value", float(p["value"])),
        str(p["unit"]),
        _entries(p.get("entry", [])),
        **{k: str(p.get(k, "")) for k in _OPTIONAL_FIGURE_KEYS},
    )


def figure_dict(p: PublishedFigure) -> dict[str, Any]:
    """The ``[[published]]`` table of ``p``, its empty optional keys left out."""
    out: dict[str, Any] = {k.name: getattr(p, k.name) for k in fields(PublishedFigure)}
    if not p.entry:
        del out["entry"]
    else:
        out["entry"] = p.entry[0] if len(p.entry) == 1 else list(p.entry)
    for optional in _OPTIONAL_FIGURE_KEYS:
        if not out[optional]:
            del out[optional]
    return out


def _entries(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError("a published figure's entry must be a string or a list of strings")
    return tuple(v.strip() for v in value if v.strip())


def check_figure(figure: PublishedFigure, memory_workload: str) -> None:
    """``UserError`` unless the figure's quantity, unit, basis and end are ones we know, and a
    figure of the load-all program's memory is in a study that runs it (``memory_workload``)."""
    _check_vocabulary(figure)
    if figure.basis in LOAD_ALL_BASES and memory_workload != LOAD_ALL:
        raise UserError(
            f"the published figure ({figure.describe()}) is of the load-all program's "
            'memory: set memory_workload = "load-all"'
        )


def _check_vocabulary(figure: PublishedFigure) -> None:
    """``UserError`` unless the figure's quantity, unit, basis and end are ones we know."""
    if figure.quantity not in QUANTITIES:
        raise UserError(
            f"unknown published quantity {figure.quantity!r}; use {', '.join(QUANTITIES)}"
        )
    units = QUANTITY_UNITS[figure.quantity]
    if figure.unit not in units:
        raise UserError(
            f"the published figure ({figure.describe()}) has the unit {figure.unit!r}; "
            f"a {QUANTITY_NAMES[figure.quantity]} takes {', '.join(units)}"
        )
    if figure.basis not in MEMORY_BASES:
        raise UserError(
            f"unknown published memory basis {figure.basis!r}; use "
            f"{', '.join(b for b in MEMORY_BASES if b)}, or leave it out"
        )
    if figure.statistic not in STATISTICS:
        raise UserError(
            f"unknown statistic {figure.statistic!r} of a published figure; use mean, or leave "
            "it out for a median"
        )
    if figure.end not in ENDS:
        raise UserError(
            f"unknown transfer end {figure.end!r} of a published figure; use sender or "
            "receiver, or leave it out"
        )
    if figure.direction and (figure.quantity != "memory" or figure.direction not in CROSSED):
        raise UserError(
            f"the published figure ({figure.describe()}) has the direction "
            f"{figure.direction!r}: only a memory takes one, encrypt or decrypt"
        )
