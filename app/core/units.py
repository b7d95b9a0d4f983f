"""Byte sizes: parsing what users type and printing with the unit spelled out.

MB, GB are decimal (10^6, 10^9 bytes); MiB, GiB binary (2^20, 2^30). Throughput is reported in
both MB/s and MiB/s, always labelled.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

from app.core.errors import UserError

MB = 10**6
KIB = 2**10
MIB = 2**20

_UNITS = {
    "": 1,
    "B": 1,
    "KB": 10**3,
    "MB": 10**6,
    "GB": 10**9,
    "TB": 10**12,
    "KIB": 2**10,
    "MIB": 2**20,
    "GIB": 2**30,
    "TIB": 2**40,
    "K": 2**10,
    "M": 2**20,
    "G": 2**30,
}
# Far beyond any disk, far below what would overflow a float or a file offset.
MAX_SIZE_BYTES = 2**60
_MAX_DIGITS = 40
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$")
# How a size's unit is shown, whatever its case when typed ("k" and "K" mean KiB, as in dd).
_UNIT_NAMES = {
    "": "B", "B": "B", "KB": "KB", "MB": "MB", "GB": "GB", "TB": "TB",
    "KIB": "KiB", "MIB": "MiB", "GIB": "GiB", "TIB": "TiB", "K": "KiB", "M": "MiB", "G": "GiB",
}  # fmt: skip


def size_label(text: str) -> str:
    """A size as the user wrote it, spelled the usual way: ``"1mib"`` -> ``"1 MiB"``, not the
    ``"1.05 MB"`` a conversion would show. ``UserError`` for what :func:`parse_size` refuses."""
    parse_size(text)
    match = _SIZE_RE.match(str(text))
    assert match is not None  # parse_size accepted it
    number, unit = match.groups()
    return f"{number} {_UNIT_NAMES[unit.upper()]}"


def prefixes_note(labels: Iterable[str]) -> str:
    """What the prefixes of sizes written as ``labels`` mean, each family once:
    ``"1 MB = 10⁶ bytes"``, ``"1 MiB = 2²⁰ bytes"`` or both."""
    written = list(labels)
    binary = any("iB" in label for label in written)
    decimal = any(p in label for label in written for p in (" kB", " KB", " MB", " GB"))
    notes = ["1 MB = 10⁶ bytes"] * (decimal or not binary) + ["1 MiB = 2²⁰ bytes"] * binary
    return ", ".join(notes)


def parse_size(text: str) -> int:
    """Bytes in ``text``: ``'10MB'`` -> 10_000_000, ``'10MiB'`` -> 10_485_760,
    ``'1.5KiB'`` -> 1536, ``'4096'`` -> 4096. At most :data:`MAX_SIZE_BYTES`."""
    text = str(text)
    shown = text if len(text) <= 40 else f"{text[:16]}...{text[-12:]}"  # one readable line
    match = _SIZE_RE.match(text)
    if not match:
        raise UserError(f"cannot read the size {shown!r}; write it like 10MB, 10MiB or 4096")
    number, unit = match.groups()
    factor = _UNITS.get(unit.upper())
    if factor is None:
        raise UserError(
            f"unknown unit {unit!r} in {shown!r}; use B, KB, MB, GB (powers of 10) "
            "or KiB, MiB, GiB (powers of 2)"
        )
    # Exact arithmetic: a float turns 400 digits into infinity and 2**53 + 1 into 2**53.
    whole, _, decimals = number.partition(".")
    whole, decimals = whole.lstrip("0"), decimals.rstrip("0")
    too_large = UserError(f"{shown!r} is too large; sizes go up to {MAX_SIZE_BYTES:,} bytes")
    if len(whole) > _MAX_DIGITS:
        raise too_large
    # More than 40 decimals cannot make whole bytes even times 2^40 (and would be slow to read).
    if len(decimals) > _MAX_DIGITS:
        raise UserError(f"{shown!r} is not a whole number of bytes")
    value = (int(whole or "0") + Fraction(int(decimals or "0"), 10 ** len(decimals))) * factor
    if value.denominator != 1:
        raise UserError(f"{shown!r} is not a whole number of bytes")
    if value > MAX_SIZE_BYTES:
        raise too_large
    return int(value)


def whole_size(n: int) -> str:
    """``n`` bytes as a size would be written when it is a whole number of a unit, the
    largest that divides it (``100_000`` -> ``"100 KB"``, ``2**20`` -> ``"1 MiB"``), else
    decimal as :func:`file_size`: how generated data is named ("random 100 KB")."""
    for unit, size in (("TB", 10**12), ("TiB", 2**40), ("GB", 10**9), ("GiB", 2**30),
                       ("MB", 10**6), ("MiB", 2**20), ("KB", 10**3), ("KiB", 2**10)):  # fmt: skip
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B" if n < 1000 else file_size(n)


def format_bytes(n: float, binary: bool = True) -> str:
    """A short human size: ``format_bytes(1536)`` -> ``'1.50 KiB'``."""
    base, units = (
        (1024.0, ("B", "KiB", "MiB", "GiB", "TiB"))
        if binary
        else (
            1000.0,
            ("B", "KB", "MB", "GB", "TB"),
        )
    )
    value = float(n)
    for unit in units:
        if abs(value) < base or unit == units[-1]:
            return f"{int(value)} B" if unit == "B" else f"{value:.2f} {unit}"
        value /= base
    raise AssertionError("unreachable")


def file_size(n: float) -> str:
    """A file's size as the window shows it everywhere (the input list, the results table,
    the encrypt and decrypt dialogs): decimal, as the MB/s beside it, ``'14.69 KB'``."""
    return format_bytes(n, binary=False)


def format_seconds(s: float, digits: int = 3) -> str:
    """A time in s, ms or µs: ``format_seconds(0.0123)`` -> ``'12.300 ms'``. Seconds keep three
    decimals, milliseconds ``digits`` and microseconds one fewer (``digits=2``: ``'12.30 ms'``,
    ``'4.5 µs'``); a negative time (a fitted fixed cost) is the positive one with a minus sign."""
    if s < 0:
        return "-" + format_seconds(-s, digits)
    if s >= 1:
        return f"{s:.3f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.{digits}f} ms"
    return f"{s * 1e6:.{max(0, digits - 1)}f} µs"
