"""The vocabulary of a paper's published figures: their quantities and units, and how a figure
names our entries and inputs. Shared by the study file's checks (:mod:`.definition`) and the
report's matching (:mod:`.paper`).

A figure names its cipher and input the paper's way ("AES-128", ".zip (85.7 MiB)"):

- **entries**: those its ``entry`` lists (registry ids, or ``"id [library]"`` labels); without
  one, the entry whose id or library is the paper's name (``"aes-256-gcm"``, ``"pyaes"``);
- **input**: our input of the same label (``"50 MB"``); for ``".zip (85.7 MiB)"`` our generated
  ``"85.7 MiB"`` or a ``.zip`` file of the user's; for ``".pdf"`` a ``.pdf`` file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.core.errors import UserError
from app.core.units import MB, MIB, parse_size

# Throughput units a study reports in, bytes per second each.
UNITS: dict[str, int] = {"MB/s": MB, "MiB/s": MIB, "KB/s": 10**3}

SECONDS = {"s": 1.0, "ms": 1e3, "us": 1e6, "µs": 1e6}
BYTES = {"MB": 10**6, "MiB": MIB, "KB": 10**3, "KiB": 1024, "GB": 10**9, "GiB": 2**30}
RATES = {**UNITS, "KiB/s": 1024, "GB/s": 10**9, "GiB/s": 2**30}

# Each quantity a paper may publish, what a report calls it, and the units it may be given in.
QUANTITY_NAMES = {
    "encrypt_s": "encryption time",
    "decrypt_s": "decryption time",
    "encrypt_rate": "encryption throughput",
    "decrypt_rate": "decryption throughput",
    "transfer_s": "transfer total time",  # a loopback transfer, first byte to the end
    "transfer_rate": "transfer throughput",  # a loopback transfer's end-to-end throughput
    "cpu_percent": "CPU",  # % of one core over the timed work
    "program_s": "whole-program time",  # a fresh interpreter: start, import, encrypt, decrypt
    "program_speedup": "whole-program speed-up",
    "memory": "memory",
    "speedup": "speed-up",
}
QUANTITIES = tuple(QUANTITY_NAMES)
QUANTITY_UNITS: dict[str, tuple[str, ...]] = {
    "encrypt_s": tuple(SECONDS),
    "decrypt_s": tuple(SECONDS),
    "transfer_s": tuple(SECONDS),
    "encrypt_rate": tuple(RATES),
    "decrypt_rate": tuple(RATES),
    "transfer_rate": tuple(RATES),
    "cpu_percent": ("%",),
    "program_s": tuple(SECONDS),
    "program_speedup": ("x",),
    "memory": tuple(BYTES),
    "speedup": ("x",),
}
# A published memory figure: RSS above the baseline, tracemalloc's peak, or the whole process's
# peak RSS (what a paper measuring its own process reports); or the encryption's of the papers'
# load-all program (app.core.bench.load_all): tracemalloc's peak, or its resident memory after
# minus before.
MEMORY_BASES = ("", "python", "process", "load-all", "load-all-rss")
MEMORY_DIRECTIONS = {"encrypt": "to encrypt", "decrypt": "to decrypt"}


def memory_words(basis: str, direction: str) -> str:
    """A memory figure's definition in a report: "to decrypt, above baseline"."""
    where = MEMORY_DIRECTIONS.get(direction)
    return f"{where}, {BASIS_WORDS[basis]}" if where else BASIS_WORDS[basis]


BASIS_WORDS = {  # a memory figure's basis, in a report
    "": "above baseline",
    "python": "tracemalloc peak",
    "process": "process peak RSS",
    "load-all": "the paper's load-all program, encryption: tracemalloc peak",
    "load-all-rss": "the paper's load-all program, encryption: RSS after minus before",
}
# Which end of a transfer a CPU or memory figure describes ("": the larger of the two).
ENDS = ("", "sender", "receiver")

_PAREN = re.compile(r"\(([^)]*)\)\s*$")


def names_entry(
    names: Iterable[str], paper_cipher: str, cipher_id: str, library: str | None, label: str
) -> bool:
    """Whether a figure (its ``entry`` ``names``, else the paper's cipher name) names our entry
    ``cipher_id`` of ``library`` (``label``: ``"id [library]"``, as results are labelled)."""
    explicit = tuple(names)
    wanted = {n.strip().lower() for n in explicit or (paper_cipher,)}
    if wanted & {cipher_id, label.lower()}:
        return True
    return not explicit and library is not None and paper_cipher.strip().lower() == library


def paper_bytes(paper: str) -> int | None:
    """The size of a paper's input, from ``"50 MB"`` or ``".zip (89869298 B)"``; None when
    its label names no size (``".pdf"``)."""
    size = _PAREN.search(paper)
    for text in ([size.group(1)] if size else []) + [paper]:
        try:
            return parse_size(text.strip())
        except (UserError, ValueError):
            continue
    return None


def same_input(paper: str, ours: str) -> bool:
    """``"50 MB"`` is ours ``"50 MB"``; ``".zip (85.7 MiB)"`` is ours ``"85.7 MiB"`` or a .zip
    file; ``".pdf"`` is a .pdf file (``ours`` may also be a file slot, ``"pdf"``)."""
    paper = paper.strip()
    if paper.lower() == ours.strip().lower():
        return True
    size = _PAREN.search(paper)
    if size and size.group(1).strip().lower() == ours.strip().lower():
        return True
    extension = _PAREN.sub("", paper).strip().lower()
    slot = "." + ours.strip().lower().lstrip(".")
    return extension.startswith(".") and (ours.lower().endswith(extension) or slot == extension)
