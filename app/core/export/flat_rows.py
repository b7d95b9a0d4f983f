"""A result's run facts, options and machine as ``(key, value)`` rows: the Environment sheet of
every workbook and the environment table of every HTML report (``environment.cpu.model``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def flatten(prefix: str, value: Any) -> Iterator[tuple[str, Any]]:
    """``value``'s leaves under dotted keys: a list of plain values as one comma-separated
    text, anything else nested as JSON."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from flatten(f"{prefix}.{k}", v)
    elif isinstance(value, list | tuple):
        if all(isinstance(v, str | int | float | bool) or v is None for v in value):
            yield prefix, ", ".join("" if v is None else str(v) for v in value)
        else:
            yield prefix, json.dumps(value, default=str)
    elif value is None or isinstance(value, str | int | float | bool):
        yield prefix, value
    else:
        yield prefix, str(value)


def result_rows(result: Any, **facts: Any) -> Iterator[tuple[str, Any]]:
    """:func:`environment_rows` of a sweep's or a transfer's ``result``: ``facts`` (its kind,
    say), when it started and finished, whether it was cancelled and the CipherBench that made
    it; its options and its machine."""
    facts |= {
        "started_at": result.started_at,
        "finished_at": result.finished_at,
        "cancelled": result.cancelled,
        "cipherbench": result.cipherbench_version,
    }
    return environment_rows(facts, dict(result.options), result.environment.to_dict())


def environment_rows(
    run: dict[str, Any], options: dict[str, Any], environment: dict[str, Any]
) -> Iterator[tuple[str, Any]]:
    """``run.*`` (when it started, whether it was cancelled ...), ``options.*`` and
    ``environment.*`` rows."""
    for key, value in run.items():
        yield f"run.{key}", value
    yield from flatten("options", options)
    yield from flatten("environment", environment)
