"""The warnings of a table's rows, one line per row: short words for each (``encryption spread
11 %``, ``decryption outlier 251 %``, ``busy: 40 % of a core``), the whole sentences staying in
the result (its JSON, the exports' Note column, the window's tooltips)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol


class Warned(Protocol):
    @property
    def label(self) -> str: ...
    @property
    def input_label(self) -> str: ...
    @property
    def warnings(self) -> tuple[str, ...]: ...


_SHORT = (
    (re.compile(r"^(\w+): unstable samples, standard deviation is (\d+) %"), r"\1 spread \2 %"),
    (
        re.compile(r"^(\w+): the (?:maximum|minimum) is (\d+) % away from the mean"),
        r"\1 outlier \2 %",
    ),
    (
        re.compile(r"^(\w+): each sample takes ([\d.,]+ \S+), too short"),
        r"\1 too short (\2 a sample)",
    ),
    (re.compile(r"^(\w+): the cold first run took ([\d.]+x) the median"), r"\1 cold start \2"),
    (re.compile(r"^(\w+): the first run was ([\d.]+x) slower"), r"\1 cold start \2 (counted)"),
    (re.compile(r"got only ([\d\-]+ %) of a CPU core"), r"busy: \1 of a core"),
)


def short(warning: str) -> str:
    """A warning in a few words (the sentence itself when it has no short form)."""
    for pattern, words in _SHORT:
        match = pattern.search(warning)
        if match:
            return match.expand(words)
    return warning


def grouped(results: Iterable[Warned], several: bool) -> list[tuple[str, str]]:
    """``(row label, its warnings in short words, ``; ``-separated)`` for each row that has
    any; the input named (``"x on 1 MB"``) when there are ``several`` inputs."""
    return [
        (f"{r.label} on {r.input_label}" if several else r.label, "; ".join(map(short, r.warnings)))
        for r in results
        if r.warnings
    ]


DETAIL = "(each warning in full: the JSON export, the CSV/xlsx Note column, the window's tooltips)"
