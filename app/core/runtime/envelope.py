"""The envelope of a kind's result, shared by the kinds declared as data (key setup, profile,
leak test): the fields every such result has (rounds, the machine, the times, cancelled, the
tool's version, the entries that failed) and their JSON, written and read in one place; and
the failures every kind reports (:class:`EntryFailure`, :class:`NamedFailure`); the time a
result says it started and finished (:func:`timestamp`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app import __version__


def timestamp() -> str:
    """The time now as every result's ``started_at`` and ``finished_at`` say it: UTC, to the
    second, ISO 8601 ("2026-11-29T16:47:03+00:00")."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class EntryFailure:
    """An entry (a cipher in a library) that did not finish, and why (one line): a bench's job,
    a kind's entry."""

    cipher: str
    library: str
    message: str


@dataclass(frozen=True)
class NamedFailure:
    """Something a run did not finish (a sweep's entry, a transfer's cipher), by the name its
    tables give it, and why."""

    label: str
    message: str


def named_failures_json(failures: Iterable[NamedFailure]) -> list[dict[str, str]]:
    """``failures`` as a result's JSON keeps them (the name under ``cipher``)."""
    return [{"cipher": f.label, "message": f.message} for f in failures]


def named_failures(data: Iterable[Mapping[str, Any]]) -> tuple[NamedFailure, ...]:
    """Inverse of :func:`named_failures_json`."""
    return tuple(NamedFailure(str(f["cipher"]), str(f["message"])) for f in data)


@dataclass(frozen=True, kw_only=True)
class Envelope:
    """The fields every such result has, declared once; a kind's result adds its ``results``
    (and its own fields) and is made with keywords."""

    failures: tuple[EntryFailure, ...]
    rounds: int
    environment: Mapping[str, Any]
    started_at: str
    finished_at: str
    cancelled: bool = False
    cipherbench_version: str = __version__


def envelope_dict(result: Envelope, json_format: str, version: int) -> dict[str, Any]:
    """The envelope of ``result`` as JSON, its ``results`` for the kind to add."""
    return {
        "format": json_format,
        "version": version,
        "cipherbench": result.cipherbench_version,
        "rounds": result.rounds,
        "started_at": result.started_at,
        "finished_at": result.finished_at,
        "cancelled": result.cancelled,
        "environment": dict(result.environment),
        "failures": [
            {"cipher": f.cipher, "library": f.library, "message": f.message}
            for f in result.failures
        ],
    }


def envelope_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """The envelope's fields read back from :func:`envelope_dict`'s JSON, as keyword
    arguments of the result."""
    return {
        "failures": tuple(
            EntryFailure(str(f["cipher"]), str(f["library"]), str(f["message"]))
            for f in data.get("failures", ())
        ),
        "rounds": int(data["rounds"]),
        "environment": dict(data.get("environment") or {}),
        "started_at": str(data["started_at"]),
        "finished_at": str(data["finished_at"]),
        "cancelled": bool(data.get("cancelled", False)),
        "cipherbench_version": str(data.get("cipherbench", "")),
    }


def envelope_notes(result: Envelope, not_done: str) -> list[str]:
    """A document's notes of what its tables leave out: each failed entry after ``not_done``
    ("Not tested: aes-128-gcm [cryptography]: why"), then whether the run was cancelled."""
    notes = [f"{not_done}: {f.cipher} [{f.library}]: {f.message}" for f in result.failures]
    if result.cancelled:
        notes.append("The run was cancelled: the tables hold what finished before it stopped.")
    return notes


def entry_dict(entry: Any, **more: Any) -> dict[str, Any]:
    """An entry's names in a result's JSON (cipher, library, key bits, input label: the
    entry's own, or one of ``more``'s), then ``more``, its figures."""
    names = ("cipher", "library", "key_bits", "input_label")
    return {
        **{name: more[name] if name in more else getattr(entry, name) for name in names},
        **more,
    }


def entry_names(data: Mapping[str, Any]) -> tuple[str, str, int]:
    """``(cipher, library, key bits)`` of an entry's JSON from :func:`entry_dict`."""
    return str(data["cipher"]), str(data["library"]), int(data["key_bits"])
