"""What an imported run may hold: numbers the history can store and that make sense, and text
of a sensible length.

A file to import may have been edited by hand or made to do harm. What CipherBench writes
passes these checks by construction; anything else is refused, before it is stored or shown,
in one sentence that names the field (``results[0].key_bits``):

* NaN and Infinity (Python's json reads them; no export holds them, and the history cannot
  write them back), and numbers too large for a float (``1e400`` reads as Infinity);
* integers beyond SQLite's (signed 64 bits): they cannot be stored, and more than 40 digits
  are not even converted (a 5,000-digit literal would stop Python's parser);
* sizes (``*_bytes``) and counts (repetitions, rounds, cores) below zero or beyond
  :data:`MAX_SIZE_BYTES`, and key sizes beyond :data:`MAX_KEY_BITS`;
* names and labels (cipher, library, input, host...) over :data:`NAME_CHARS` characters, and
  any other text (titles, notes, messages, descriptions, paths) over :data:`TEXT_CHARS`: a
  10 MB cipher name made ``history show`` print 130 MB;
* lists and objects nested over :data:`MAX_DEPTH` levels (storing walks them recursively).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

MIN_INTEGER, MAX_INTEGER = -(2**63), 2**63 - 1  # SQLite's INTEGER
MAX_SIZE_BYTES = 2**53  # 8 PiB: beyond any input measured, and exact as a float
MAX_KEY_BITS = 2**16  # the largest key in the registry has 2,048 bits
# An input's label is its file's name: 255 bytes, each written as a 4-character escape (\xff)
# when the name is not UTF-8. A failure's message may hold two paths of 4,096 bytes so written.
NAME_CHARS = 1024
TEXT_CHARS = 65_536
# No figure of a run comes near it (10^18 ns is 31 years; sizes stop at 2^53), and a figure
# within it cannot overflow a variance or a sum of squares.
MAX_MAGNITUDE = 1e18
MAX_DEPTH = 64  # an export nests 5 levels deep (results[0].runs[0].sender.cpu_percent)
_INT_DIGITS = 40  # 2**63 has 19 digits; a longer literal is refused without converting it

# Keys whose text is a name or a label, shown in tables and listings.
NAME_KEYS = frozenset(
    (
        "cipher", "cipher_id", "library", "algorithm", "mode", "input", "input_label", "label",
        "baseline_label", "cipher_label", "name", "id", "kind", "direction", "format",
        "data_mode", "workload", "units", "source", "hostname", "model", "arch", "system",
        "version", "cipherbench", "cipherbench_version", "started_at", "finished_at",
        "captured_at", "recorded_at", "sizes",
    )
)  # fmt: skip
# Counts of things: never negative.
COUNT_KEYS = frozenset(
    (
        "repeat", "warmup", "max_repeat", "rounds", "max_rounds", "rounds_completed",
        "repeat_per_round", "warmup_per_worker", "copy", "verified_round_trips", "chunks",
        "encrypt_n", "decrypt_n", "n_points", "logical_cores", "physical_cores", "position",
        "round", "round_sizes", "processes",
    )
)  # fmt: skip
# Dicts whose keys are data, not names: a profile's folded call stacks ("a;b;c" for every
# frame of a deep stack), as long as a text may be.
TEXT_KEYED = frozenset(("stacks",))
# ``*_bytes`` keys that are differences of two sizes, so may be negative.
DIFFERENCE_KEYS = frozenset(("expansion_bytes", "memory_above_baseline_bytes"))


class BadValue(ValueError):
    """A value an export cannot hold; the message names the field and says why."""


@dataclass(frozen=True)
class Bound:
    """The numbers a field may hold, and what they are (said when one is refused)."""

    low: int
    high: int
    what: str


ANY_INTEGER = Bound(MIN_INTEGER, MAX_INTEGER, "a number the history can store")
SIZE = Bound(0, MAX_SIZE_BYTES, "a size in bytes")
COUNT = Bound(0, MAX_SIZE_BYTES, "a count")
KEY_BITS = Bound(0, MAX_KEY_BITS, "a key size in bits")


@dataclass(frozen=True)
class _Literal:
    """A JSON literal read but not converted: NaN, Infinity, or an integer too long."""

    text: str


def parse(text: str) -> Any:
    """``json.loads`` that keeps NaN, Infinity and over-long integers as markers, so
    :func:`check_values` can name the field that holds one. Raises what ``json.loads``
    raises for text that is not JSON."""
    return json.loads(
        text,
        parse_constant=_Literal,
        parse_int=lambda s: int(s) if len(s.lstrip("-")) <= _INT_DIGITS else _Literal(s),
    )


def bound_for(key: str) -> Bound:
    """The bound of the numbers under ``key`` (a list's items take their list's key)."""
    if key == "key_bits":
        return KEY_BITS
    if key in COUNT_KEYS:
        return COUNT
    if (key == "bytes" or key.endswith("_bytes")) and key not in DIFFERENCE_KEYS:
        return SIZE
    return ANY_INTEGER


def check_values(doc: Any) -> None:
    """Raise :class:`BadValue` for the first value (or key) in ``doc`` that no export holds.
    Iterative: a document nested a thousand levels deep gets an answer, not a RecursionError."""
    # (value, the key it is under, its parent's path, its name there: a key or an index, depth)
    stack: list[tuple[Any, str, str, str | int, int]] = [(doc, "", "", "", 0)]
    while stack:
        value, key, parent, name, depth = stack.pop()
        if isinstance(value, dict | list):
            here = _join(parent, name)
            if depth == MAX_DEPTH:
                raise BadValue(f"{_shown(here)} is nested more than {MAX_DEPTH} levels deep")
            if isinstance(value, dict):
                longest = TEXT_CHARS if key in TEXT_KEYED else NAME_CHARS
                for k in value:
                    if len(k) > longest:
                        where = _shown(here or "the document")
                        raise BadValue(f"{where} has a key of {len(k):,} characters")
                stack.extend((v, k, here, k, depth + 1) for k, v in reversed(value.items()))
            elif not _finite_floats(value, key):
                last = len(value) - 1
                stack.extend((value[i], key, here, i, depth + 1) for i in range(last, -1, -1))
            continue
        problem = _problem(value, key)
        if problem:
            raise BadValue(f"{_shown(_join(parent, name) or 'the document')} {problem}")


def _finite_floats(items: list[Any], key: str) -> bool:
    """True when ``items`` are all finite floats of no bound: the samples, which are most of
    an export, passed at C speed (a sum that overflows only sends them one by one)."""
    return (
        bool(items)
        and bound_for(key) is ANY_INTEGER
        and set(map(type, items)) == {float}
        and math.isfinite(sum(items))
        and max(map(abs, items)) <= MAX_MAGNITUDE
    )


def _problem(value: Any, key: str) -> str | None:
    """Why a scalar under ``key`` cannot be imported, or None."""
    if isinstance(value, str):
        limit = NAME_CHARS if key in NAME_KEYS else TEXT_CHARS
        if len(value) > limit:
            return f"is {len(value):,} characters long (at most {limit:,})"
        return None
    if isinstance(value, _Literal):
        if value.text in ("NaN", "Infinity", "-Infinity"):
            return f"is {value.text}; an export holds only finite numbers"
        return f"is a number of {len(value.text.lstrip('-')):,} digits, too large to store"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and math.isnan(value):
        return "is NaN; an export holds only finite numbers"
    if isinstance(value, float) and math.isinf(value):
        return "is a number too large to store (it reads as infinity)"
    bound = bound_for(key)
    if bound is ANY_INTEGER:
        if isinstance(value, int) and not MIN_INTEGER <= value <= MAX_INTEGER:
            return f"is {value}, beyond the integers the history can store"
        if isinstance(value, float) and abs(value) > MAX_MAGNITUDE:
            return f"is {value:g}, beyond any figure of a run (at most 1e18 in size)"
        return None
    if value < bound.low:
        return f"is {value}: {bound.what} cannot be negative"
    if value > bound.high:
        return f"is {value}, too large for {bound.what} (at most {bound.high:,})"
    return None


def _join(parent: str, name: str | int) -> str:
    if isinstance(name, int):
        return f"{parent}[{name}]"
    if not name:
        return parent
    return f"{parent}.{name}" if parent else name


def _shown(path: str) -> str:
    """A field's path as a message names it: a key may be 1,024 characters, a path 64 deep."""
    return path if len(path) <= 80 else path[:77] + "..."
