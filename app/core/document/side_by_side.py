"""Documents of several runs side by side, as benchstat gives each input file a column: every
table the runs have (matched by caption) becomes one table with a row per name (its text
columns: cipher, library, ...) and, for each figure column, one column per run. Cells are
copied, not recomputed, so a run's figure reads as in its own document; a run without that row
shows :data:`MISSING`. Notes, sections and methods the runs share appear once, the others
under the run's label.

    side_by_side(["laptop", "server"], [document_a, document_b], "Key setup") -> Document
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from app.core.document.model import Cell, Document, Section, Table, cell_text

MISSING = "-"
MISSING_NOTE = f"{MISSING}: that run has no such row."

_Key = tuple[str, ...]
T = TypeVar("T")


def side_by_side(labels: Sequence[str], documents: Sequence[Document], title: str) -> Document:
    """One document of ``documents`` (one per run, labelled ``labels``, at least one)."""
    if not documents or len(labels) != len(documents):
        raise ValueError("one label per document, and at least one document")
    tables = tuple(
        _table(labels, group) for group in _tables_by_caption([d.tables for d in documents])
    )
    sections = _shared(labels, [d.sections for d in documents], _labelled_section)
    methods = [(label, d.method) for label, d in zip(labels, documents, strict=True) if d.method]
    if len({m for _, m in methods}) <= 1:
        method = methods[0][1] if methods else ""
    else:
        method = " ".join(f"{label}: {m}" for label, m in methods)
    return Document(title, tables, method, tuple(sections))


def _tables_by_caption(
    per_document: Sequence[Sequence[Table]],
) -> list[list[Table | None]]:
    """For each caption met (in order; a caption twice in one document counts as two tables),
    each document's table of it or None."""
    order: list[tuple[str, int]] = []
    found: list[dict[tuple[str, int], Table]] = []
    for tables in per_document:
        mine: dict[tuple[str, int], Table] = {}
        for table in tables:
            key = (table.caption, sum(1 for k in mine if k[0] == table.caption))
            mine[key] = table
            if key not in order:
                order.append(key)
        found.append(mine)
    return [[mine.get(key) for mine in found] for key in order]


def _table(labels: Sequence[str], tables: Sequence[Table | None]) -> Table:
    """The runs' tables of one caption as one: the names of the first, then each figure
    column once per run that has the table."""
    present = [(label, t) for label, t in zip(labels, tables, strict=True) if t is not None]
    first = present[0][1]
    names = first.text_columns
    figures = list(dict.fromkeys(h for _, t in present for h in t.headers[t.text_columns :]))
    by_run = [_rows_by_key(t) for _, t in present]
    keys = list(dict.fromkeys(k for rows in by_run for k in rows))
    rows: list[tuple[Cell, ...]] = []
    for key in keys:
        cells: list[Cell] = list(key)
        for header in figures:
            for (_, t), mine in zip(present, by_run, strict=True):
                cells.append(_cell(t, mine.get(key), header))
        rows.append(tuple(cells))
    headers = (
        *first.headers[:names],
        *(f"{label}: {h}" if len(present) > 1 else h for h in figures for label, _ in present),
    )
    notes = _shared(
        [label for label, _ in present],
        [t.notes for _, t in present],
        lambda note, label: f"{label}: {note}",
    )
    if any(c == MISSING for row in rows for c in row[names:]):
        notes.append(MISSING_NOTE)
    absent = [label for label, t in zip(labels, tables, strict=True) if t is None]
    if absent:
        notes.append(f"Not in the runs of {', '.join(absent)}.")
    return Table(first.caption, headers, tuple(rows), tuple(notes), names)


def _rows_by_key(table: Table) -> dict[_Key, tuple[Cell, ...]]:
    """Each row by its names (a name met twice gets its place among those: "#2")."""
    out: dict[_Key, tuple[Cell, ...]] = {}
    for row in table.rows:
        key = tuple(cell_text(c) for c in row[: table.text_columns])
        seen = sum(1 for k in out if k[: len(key)] == key)
        out[key if not seen else (*key[:-1], f"{key[-1]} #{seen + 1}")] = row
    return out


def _cell(table: Table, row: tuple[Cell, ...] | None, header: str) -> Cell:
    if row is None or header not in table.headers:
        return MISSING
    column = table.headers.index(header)
    return row[column] if column < len(row) else MISSING


def _shared(
    labels: Sequence[str], parts: Sequence[Sequence[T]], labelled: Callable[[T, str], T]
) -> list[T]:
    """Each part (a note, a section) once when every run has it, else under each run's label,
    in the order met."""
    out: list[T] = []
    for part in dict.fromkeys(p for ps in parts for p in ps):
        holders = [label for label, ps in zip(labels, parts, strict=True) if part in ps]
        if len(holders) == len(labels):
            out.append(part)
        else:
            out += [labelled(part, label) for label in holders]
    return out


def _labelled_section(section: Section, label: str) -> Section:
    return Section(f"{label}: {section.heading}", section.lines)
