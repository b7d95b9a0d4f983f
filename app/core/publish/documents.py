"""Each kind of result as one :class:`~app.core.document.model.Document`: its publication
table (the median of every cell with its 95 % interval, units in the headers) and its Methods
paragraph; a merged result's figures, normalised view, sources and differences. The renderers
of :mod:`app.core.document` (Markdown, LaTeX, ...) print any of them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.core.bench.results import RunResult
from app.core.document.model import Document, Table
from app.core.leak.document import leak_document
from app.core.profile.document import profile_document
from app.core.publish.bench_claims import bench_title, comparison_sections
from app.core.publish.bench_table import bench_methods, bench_table
from app.core.publish.merge import MergedResult
from app.core.publish.merge_writers import (
    differences_section,
    figures_table,
    normalised_table,
    sources_table,
)
from app.core.publish.methods import study_methods
from app.core.publish.paper_table import (
    paper_claims_section,
    paper_figures_table,
    paper_shaped_tables,
)
from app.core.publish.sweep_table import sweep_methods, sweep_table
from app.core.publish.table import study_table
from app.core.publish.transfer_table import (
    transfer_methods,
    transfer_study_methods,
    transfer_study_table,
    transfer_table,
)


def _paper(
    table: Callable[[Any], Table], methods: Callable[[Any], str]
) -> Callable[[Any], Document]:
    """The document of a kind whose paper kit is one table and its Methods."""

    def build(result: Any) -> Document:
        return Document("", (table(result),), methods(result))

    return build


def _study(
    table: Callable[[Any], Table], methods: Callable[[Any], str]
) -> Callable[[Any], Document]:
    """The document of a study: its table, the paper's figures beside ours (in the paper's
    quantities) and its claims checked, when it reproduces a paper; its Methods."""

    def build(result: Any) -> Document:
        paper = paper_figures_table(result)
        tables = (table(result), *paper_shaped_tables(result))
        tables += (paper,) if paper is not None else ()
        method = methods(result)
        sections = paper_claims_section(result)
        profiled = getattr(result, "profile", None)  # where the time goes (profile = true)
        if profiled is not None:
            where = profile_document(profiled)
            tables += where.tables
            method += " Where the time goes: " + where.method[0].lower() + where.method[1:]
        leaked = getattr(result, "leak", None)  # timing leakage (leak = true)
        if leaked is not None:
            leaks = leak_document(leaked)
            tables += leaks.tables
            sections += leaks.sections
            method += " Timing leakage: " + leaks.method[0].lower() + leaks.method[1:]
        return Document("", tables, method, sections)

    return build


study_document = _study(study_table, study_methods)


def bench_document(run: RunResult) -> Document:
    """A benchmark run: what it measured as its title, its table, its comparisons (as the
    window's Comparisons tab words them), its Methods."""
    return Document(
        bench_title(run), (bench_table(run),), bench_methods(run), comparison_sections(run)
    )


transfer_document = _paper(transfer_table, transfer_methods)
transfer_study_document = _study(transfer_study_table, transfer_study_methods)
sweep_document = _paper(sweep_table, sweep_methods)


def merged_document(merged: MergedResult) -> Document:
    """The sources, the figures of every source, the normalised view, what differs."""
    tables: list[Table] = [sources_table(merged.sources), figures_table(merged)]
    normalised = normalised_table(merged)
    if normalised is not None:
        tables.append(normalised)
    return Document(
        f"Merged results: {len(merged.sources)} runs",
        tuple(tables),
        sections=(differences_section(merged.labels, merged.differences),),
    )
