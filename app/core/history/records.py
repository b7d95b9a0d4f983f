"""What the history hands out: a frozen summary per run, and a stored run with its result."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.core.history.documents import Result

SOURCES = ("here", "imported")


@dataclass(frozen=True)
class RunSummary:
    """One stored run as the history lists it (no raw samples: cheap for thousands)."""

    id: int
    kind: str  # "bench", "study" or "transfer"
    title: str
    started_at: str  # ISO 8601, UTC, as the run recorded it
    finished_at: str
    recorded_at: str  # when it entered this history
    hostname: str | None  # None: not known (an export from before the history)
    cpu_model: str | None
    ciphers: tuple[str, ...]  # cipher ids, each once
    inputs: tuple[str, ...]  # input labels, each once
    source: str  # "here" (run on this machine) or "imported" (from a file)
    cancelled: bool
    cipherbench_version: str | None

    @property
    def machine(self) -> str:
        """The host name, else the CPU model, else ``"unknown machine"``."""
        return self.hostname or self.cpu_model or "unknown machine"

    @property
    def started(self) -> datetime | None:
        """The start in local time (None when the document has no valid time)."""
        return _local(self.started_at)

    def date_text(self) -> str:
        """``"2026-11-03 14:02"`` in local time, or the stored text when it is not a time."""
        when = self.started
        return when.strftime("%Y-%m-%d %H:%M") if when else (self.started_at or "?")

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ciphers": list(self.ciphers), "inputs": list(self.inputs)}


@dataclass(frozen=True)
class StoredRun:
    """A run from the history: its summary and its result rebuilt as the original object
    (``RunResult``, ``StudyResult`` or ``TransferRun``; no ciphertext preview)."""

    summary: RunSummary
    result: Result

    @property
    def id(self) -> int:
        return self.summary.id


def _local(text: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return when.astimezone() if when.tzinfo else when
