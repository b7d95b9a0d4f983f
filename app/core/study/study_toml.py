"""Reading a study file's values (:meth:`app.core.study.definition.Study.from_dict`): its plain
keys, each of its type (:data:`TEXT_KEYS`, :data:`SETTING_KEYS`), its ``[[tables]]``, each
holding only the keys it takes, and only numbers a study's export can hold. Each refusal is a
``TypeError`` or ``ValueError`` whose text (:func:`error_text`) the ``UserError`` passes on."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from app.core.units import MIB

_LARGEST = 2**63 - 1  # what the history (SQLite) and every export can hold
DEFAULT_MAX_ROUNDS = 20

# The plain keys of a study file, each with its type and its default, in the order they are
# read (the first wrong one is the one reported): its words, then (after its inputs) how it
# measures. ``max_rounds`` without a value: :func:`default_max_rounds`.
TEXT_KEYS: tuple[tuple[str, type, Any], ...] = (
    ("title", str, ""),
    ("seed", str, ""),
    ("description", str, ""),
    ("paper", str, ""),
    ("paper_method", str, ""),
    ("baseline", str, ""),
)
SETTING_KEYS: tuple[tuple[str, type, Any], ...] = (
    ("key_bits", int, None),
    ("workload", str, "cipher"),
    ("data_mode", str, "memory"),
    ("chunk_bytes", int, MIB),
    ("repeat", int, 12),
    ("warmup", int, 1),
    ("rounds", int, 6),
    ("max_rounds", int, None),
    ("time_budget_s", float, 60.0),
    ("precision_percent", float, 2.0),
    ("margin_percent", float, 1.0),
    ("units", str, "MB/s"),
    ("measure_memory", bool, True),
    ("memory_workload", str, ""),
    ("min_time_s", float, 0.1),
    ("data_seed", int, 0),
    ("whole_program", bool, False),
    ("profile", bool, False),
    ("leak", bool, False),
)


def read_keys(data: Mapping[str, Any], keys: tuple[tuple[str, type, Any], ...]) -> dict[str, Any]:
    """Each of ``keys`` from ``data`` (:func:`typed`), its default where it is not given; a
    ``max_rounds`` not given: :func:`default_max_rounds`."""
    out = {key: typed(data, key, kind, default) for key, kind, default in keys}
    if "max_rounds" in out:
        out["max_rounds"] = out["max_rounds"] or default_max_rounds(data)
    return out


def default_max_rounds(data: Mapping[str, Any]) -> int:
    """Without ``max_rounds``: 20, or ``rounds`` when a study asks for more (or for one)."""
    rounds = data.get("rounds", 6)
    if not isinstance(rounds, int) or isinstance(rounds, bool):
        return DEFAULT_MAX_ROUNDS
    return rounds if rounds == 1 else max(DEFAULT_MAX_ROUNDS, rounds)


def error_text(exc: BaseException) -> str:
    """What was wrong with a study file, from the ``KeyError``, ``TypeError`` or ``ValueError``
    reading it raised."""
    if isinstance(exc, KeyError):
        return f"missing key {exc.args[0]!r}"
    return str(exc)


def typed(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any) -> Any:
    """``data[key]`` when it is a ``kind`` (an int is taken for a float, true or false only for
    a bool) and storable, ``default`` without it; else ``TypeError`` or ``ValueError``."""
    value = data.get(key, default)
    if value is default:
        return value
    if isinstance(value, bool) and kind is not bool:
        raise TypeError(f"{key} must not be true or false")
    if kind is float and isinstance(value, int):
        value = float(value)
    if not isinstance(value, kind):
        raise TypeError(f"{key} has the wrong type ({type(value).__name__})")
    return storable(key, value)


def storable(key: str, value: Any) -> Any:
    """``value`` when a study's export can hold it (so what runs can be imported again);
    ``ValueError`` for an integer beyond 64 bits or a number that is not finite."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _LARGEST:
        raise ValueError(f"{key} is {value}, larger than a study can hold (at most {_LARGEST})")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{key} is {value}; a study holds finite numbers only")
    return value


def tables(data: Mapping[str, Any], key: str, known: set[str]) -> list[Mapping[str, Any]]:
    """The ``[[key]]`` tables of a study, each holding only ``known`` keys (a misspelt key
    would otherwise be ignored: ``key_bits`` inside a ``[[cipher]]`` runs the default size)."""
    found = data.get(key, [])
    if not isinstance(found, list) or not all(isinstance(t, Mapping) for t in found):
        raise TypeError(f"{key} must be a list of [[{key}]] tables")
    for n, table in enumerate(found, 1):
        unknown = sorted(set(table) - known)
        if unknown:
            raise ValueError(
                f"unknown key {unknown[0]!r} in [[{key}]] number {n}; "
                f"a [[{key}]] takes {', '.join(sorted(known))}"
            )
    return found
