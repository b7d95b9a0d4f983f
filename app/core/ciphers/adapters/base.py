"""What every adapter shares: its library's name, the installed version, and which entries it
supports (the pairs in its two tables)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from app.core.ciphers.libraries import BY_NAME
from app.core.ciphers.registry import CipherSpec, Kind


class LibraryAdapter:
    """Base of the adapters. A subclass names its library (a row of
    :mod:`app.core.ciphers.libraries`) and its ``(algorithm, mode)`` tables."""

    name: ClassVar[str]
    raw_table: ClassVar[Mapping[tuple[str, str], Any]]
    aead_table: ClassVar[Mapping[tuple[str, str], Any]] = {}

    def version(self) -> str:
        # Imported here: importlib.metadata (email, zipfile, ...) costs 11 ms, and every fresh
        # worker imports this module while it starts.
        from importlib.metadata import version as dist_version

        return dist_version(BY_NAME[self.name].distribution)

    def supports(self, spec: CipherSpec) -> bool:
        table = self.aead_table if spec.kind is Kind.AEAD else self.raw_table
        return (spec.algorithm, spec.mode) in table
