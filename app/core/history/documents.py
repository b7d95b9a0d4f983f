"""A stored run is its JSON export: what ``bench``, ``study`` or ``transfer --out`` writes.

This module turns a result into that document and back, recognises a document's kind by its
``format``, and reads what the history lists about it (title, ciphers, inputs, times, CPU).
A study of loopback transfers (``workload = "transfer"``) is a study too: the same format, its
cells transfer results. The study and transfer modules are imported only when needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from app.core.bench.results import JobResult, RunResult
from app.core.kinds import table

if TYPE_CHECKING:
    from app.core.study.result import StudyResult
    from app.core.study.transfer_result import TransferStudyResult
    from app.core.sweep.results import SweepResult
    from app.core.transfer.results import TransferRun

Result: TypeAlias = "RunResult | StudyResult | TransferStudyResult | TransferRun | SweepResult"
TITLE_CHARS = 120


class NotAnExport(ValueError):
    """The document is not a CipherBench export this version reads; the message says why."""


def kind_of(result: Result) -> str:
    """The name the history stores ``result``'s kind under (``"bench"``, ``"study"``,
    ...: :mod:`app.core.kinds.table`); ``TypeError`` for a kind it does not store."""
    kind = table.kind_of(result)
    if not kind.stored:
        raise TypeError(f"not a run CipherBench stores: {type(result).__name__}")
    return kind.name


def document_of(result: Result) -> dict[str, Any]:
    """The run's JSON export, as Python objects (not yet redacted)."""
    return table.kind_of(result).json_of(result)


def check_document(doc: Any) -> str:
    """The kind of a CipherBench export ``doc``; :class:`NotAnExport` for anything else."""
    kind = table.by_json_format(doc.get("format")) if isinstance(doc, dict) else None
    if kind is None:
        names = ", ".join(table.stored_names())
        raise NotAnExport(f"it is not a CipherBench export ({names} JSON)")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise NotAnExport("it has no valid format version")
    if version > kind.json_version:
        raise NotAnExport(
            f"it was written by a newer CipherBench ({kind.name} format version {version}, "
            f"this one reads up to {kind.json_version})"
        )
    return kind.name


def result_of(kind: str, doc: Mapping[str, Any]) -> Result:
    """The result object ``doc`` was written from. Raises ``KeyError``, ``TypeError``,
    ``ValueError``, ``AttributeError`` or ``UserError`` for a malformed document."""
    try:
        row = table.named(kind)
    except KeyError:
        raise ValueError(f"unknown kind of run {kind!r}") from None
    result: Result = row.result_of(_with_previews(doc))
    return result


def exercise(result: Result) -> None:
    """Build from ``result`` what the history stores and shows of it (its rows of
    measurements, its JSON export, its document as the terminal prints it): a result that
    cannot be shown is refused when it arrives, rather than failing in ``show`` later."""
    from app.core.document import terminal

    row = table.kind_of(result)
    measurements(result)
    row.json_of(result)
    terminal.render(row.document_of(result))


def _with_previews(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``doc`` with an empty ciphertext preview in each job that has one (the history never
    keeps one)."""
    results = [
        {**r, "ciphertext_preview_hex": ""}
        if isinstance(r, Mapping) and "ciphertext_preview_hex" in r
        else r
        for r in doc["results"]
    ]
    return {**doc, "results": results}


@dataclass(frozen=True)
class Description:
    """What the history lists about a run, read from its document."""

    title: str
    ciphers: tuple[str, ...]  # cipher ids, each once, in the order they ran
    inputs: tuple[str, ...]  # input labels, each once
    started_at: str
    finished_at: str
    cpu_model: str | None
    cancelled: bool
    cipherbench_version: str | None


def describe(kind: str, doc: Mapping[str, Any], result: Result) -> Description:
    """The listing of a checked document and the result read from it."""
    results = [r for r in doc.get("results", ()) if isinstance(r, Mapping)]
    ciphers = tuple(dict.fromkeys(str(r.get("cipher")) for r in results))
    failed = tuple(str(f.get("cipher")) for f in doc.get("failures", ()) if isinstance(f, Mapping))
    ciphers += tuple(c for c in dict.fromkeys(failed) if c not in ciphers)
    inputs = tuple(dict.fromkeys(str(r.get("input_label", r.get("input"))) for r in results))
    if kind == "transfer":
        inputs = inputs or (str(doc.get("input")),)
        title = f"transfer of {inputs[0]}: {', '.join(ciphers)}"
    elif kind == "sweep":
        noun = "ladder" if doc.get("kind") == "ladder" else "sweep"
        title = f"{noun}: {', '.join(ciphers)}"
        points = [p for r in results for p in r.get("points", ())]
        lengths = sorted({int(p["message_bytes"]) for p in points if p.get("message_bytes")})
        from app.core.sweep.report import length_label

        span = f"{length_label(lengths[0])}-{length_label(lengths[-1])}" if lengths else ""
        inputs = (f"{span} messages",) if lengths else ()
    elif kind == "study":
        study = doc.get("study") or {}
        name, what = str(study.get("name", "")), str(study.get("title", ""))
        title = f"study {name}: {what}" if what else f"study {name}"
    else:
        title = f"{', '.join(ciphers) or 'no cipher'} on {', '.join(inputs) or 'no input'}"
    env = doc.get("environment") or {}
    cpu = env.get("cpu") if isinstance(env, Mapping) else None
    tool = doc.get("tool")
    tool = tool if isinstance(tool, Mapping) else {}
    version = doc.get("cipherbench") or tool.get("version") or env.get("cipherbench_version")
    return Description(
        title=title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 3] + "...",
        ciphers=ciphers,
        inputs=inputs,
        started_at=result.started_at,
        finished_at=result.finished_at,
        cpu_model=cpu.get("model") if isinstance(cpu, Mapping) else None,
        cancelled=result.cancelled,
        cipherbench_version=None if version is None else str(version),
    )


def measurements(result: Result) -> list[tuple[Any, ...]]:
    """The ``measurements`` rows of a run: (position, direction, cipher, library, key_bits,
    input label, input bytes, median seconds, MB/s)."""
    from app.core.sweep.results import SweepEntry
    from app.core.transfer.results import TransferResult

    rows: list[tuple[Any, ...]] = []
    for i, r in enumerate(result.results):
        if isinstance(r, JobResult):
            for direction in ("encrypt", "decrypt"):
                t = getattr(r, direction)
                job: tuple[Any, ...] = (r.cipher, r.library, r.key_bits, r.input_label)
                rows.append((i, direction, *job, r.input_bytes, t.median_s, t.throughput_mb_s))
        elif isinstance(r, TransferResult):
            job = (r.cipher_id, r.library, None, r.input_label)
            rows.append((i, "transfer", *job, r.input_bytes, r.timing.median_s, r.throughput_mb_s))
        elif isinstance(r, SweepEntry):  # a row per point, each its own position
            for p in r.points:
                if p.operation in ("encrypt", "decrypt") and p.ad_bytes == 0 and p.message_bytes:
                    library = r.library if r.aes_instructions else f"{r.library} (AES off)"
                    job = (r.cipher, library, r.key_bits, f"{p.message_bytes} B message")
                    median_s = p.median_ns / 1e9
                    position = len(rows)
                    rows.append((position, p.operation, *job, p.message_bytes, median_s, p.mb_s))
    return rows
