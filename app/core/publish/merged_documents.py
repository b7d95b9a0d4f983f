"""Runs of a kind without rows of entry and input (key setup, profile, leak test, sweep,
transfer...) merged table by table: each run's document side by side
(:func:`app.core.document.side_by_side.side_by_side`), then the sources and what differs
between them, as a bench merge lists them. Every renderer writes the result (its row in
:mod:`app.core.kinds.table`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.core.document.model import Document
from app.core.document.side_by_side import side_by_side
from app.core.errors import UserError
from app.core.kinds import table
from app.core.publish.merge import (
    MergedResult,
    MergeSource,
    check_sources,
    differences,
    merge_results,
    mergeable,
)
from app.core.publish.merge_writers import differences_section, sources_section


@dataclass(frozen=True)
class MergedDocuments:
    sources: tuple[MergeSource, ...]
    differences: tuple[tuple[str, tuple[str, ...]], ...]  # (what, each source's value)
    document: Document  # the runs' tables side by side, the sources, what differs

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(s.label for s in self.sources)


def merge_documents(sources: Sequence[MergeSource]) -> MergedDocuments:
    """``sources`` (at least two, of one kind, labels unique) side by side."""
    check_sources(sources)
    labels = [s.label for s in sources]
    documents = [table.kind_of(s.result).document_of(s.result) for s in sources]
    noun = table.kind_of(sources[0].result).noun.split(" ", 1)[-1]  # "a sweep run": "sweep run"
    title = documents[0].title or noun[:1].upper() + noun[1:]
    merged = side_by_side(labels, documents, f"{title}: {len(sources)} runs side by side")
    found = tuple(differences(sources))
    document = Document(
        merged.title,
        merged.tables,
        merged.method,
        (sources_section(sources), *merged.sections, differences_section(labels, found)),
    )
    return MergedDocuments(tuple(sources), found, document)


def merged_documents_document(merged: MergedDocuments) -> Document:
    return merged.document


def merge_runs(
    sources: Sequence[MergeSource],
    *,
    reference: str | None = None,
    units: str | None = None,
    direction: str | None = None,
) -> MergedResult | MergedDocuments:
    """Bench runs and cipher studies merged row by row (:func:`merge_results`, with a
    ``reference``, ``units`` and ``direction``: MB/s of encryption by default); runs of any
    other kind side by side. ``UserError`` for a choice their tables do not have."""
    if all(mergeable(s.result) for s in sources):
        return merge_results(
            sources,
            reference=reference,
            units=units or "MB/s",
            direction=direction or "encrypt",
        )
    chosen = [
        n
        for n, v in (("a reference", reference), ("units", units), ("a direction", direction))
        if v
    ]
    if chosen:
        noun = table.kind_of(sources[0].result).noun
        raise UserError(
            f"{' and '.join(chosen)}: a choice for merging bench runs and cipher studies, not "
            f"runs like {noun}: those merge table by table, each figure as its run measured it"
        )
    return merge_documents(sources)
