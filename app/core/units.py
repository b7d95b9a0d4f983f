"""Byte sizes: parsing what users type and printing with the unit spelled out.

MB, GB are decimal (10^6, 10^9 bytes); MiB, GiB binary (2^20, 2^30). Throughput is reported in
both MB/s and MiB/s, always labelled.
"""

from __future__ import annotations

import re

from app.core.errors import UserError

MB = 10**6
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
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$")


def parse_size(text: str) -> int:
    """Bytes in ``text``: ``'10MB'`` -> 10_000_000, ``'10MiB'`` -> 10_485_760,
    ``'1.5KiB'`` -> 1536, ``'4096'`` -> 4096."""
    match = _SIZE_RE.match(str(text))
    if not match:
        raise UserError(f"cannot read the size {text!r}; write it like 10MB, 10MiB or 4096")
    number, unit = match.groups()
    factor = _UNITS.get(unit.upper())
    if factor is None:
        raise UserError(
            f"unknown unit {unit!r} in {text!r}; use B, KB, MB, GB (powers of 10) "
            "or KiB, MiB, GiB (powers of 2)"
        )
    value = float(number) * factor
    if value != int(value):
        raise UserError(f"{text!r} is not a whole number of bytes")
    return int(value)


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


def format_seconds(s: float) -> str:
    if s >= 1:
        return f"{s:.3f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3f} ms"
    return f"{s * 1e6:.2f} µs"
