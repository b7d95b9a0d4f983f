"""Documents of several runs side by side, as benchstat gives each input file a column: every
table the runs have becomes one table with a row per name (its text columns: cipher, library,
...) and, for each figure column, one column per run, kept together (:attr:`Table.group`).
Tables are matched by caption; a table whose caption no other run has (it names the run's
input or title) goes with the one table of exactly its columns that could be its twin, when
there is just one. Cells are copied, not recomputed, so a
run's figure reads as in its own document; a run without that row shows :data:`ABSENT`. Notes
and sections the runs share appear once, the others under the run's label; the method is the
first run's (how each ran is listed with the sources).

    side_by_side(["laptop", "server"], [document_a, document_b], "Key setup") -> Document
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from app.core.document.model import Cell, Document, Section, Table, cell_text

ABSENT = "none"  # a cell of a row that run does not have ("-" is a document's own mark)
ABSENT_NOTE = f"{ABSENT}: that run has no such row."

_Key = tuple[str, ...]
T = TypeVar("T")


def side_by_side(labels: Sequence[str], documents: Sequence[Document], title: str) -> Document:
    """One document of ``documents`` (one per run, labelled ``labels``, at least one)."""
    if not documents or len(labels) != len(documents):
        raise ValueError("one label per document, and at least one document")
    tables = tuple(_table(labels, group) for group in _matched([d.tables for d in documents]))
    sections = _shared(labels, [d.sections for d in documents], _labelled_section)
    methods = [(label, d.method) for label, d in zip(labels, documents, strict=True) if d.method]
    method = methods[0][1] if methods else ""
    if len({m for _, m in methods}) > 1:
        method = (
            f"As {methods[0][0]} ran (the other runs' methods differ in how they ran: see the "
            f"sources): {method}"
        )
    return Document(title, tables, method, tuple(sections))


def _matched(per_document: Sequence[Sequence[Table]]) -> list[list[Table | None]]:
    """Each table met, with each document's table of it or None: by caption, then a table no
    other run has the caption of with the one table of the same columns the others lack."""
    groups: list[list[Table | None]] = []
    left = [list(tables) for tables in per_document]
    for i, tables in enumerate(per_document):
        for table in tables:
            if table not in left[i]:
                continue  # taken by an earlier document's table
            group: list[Table | None] = [None] * len(per_document)
            for j in range(i, len(per_document)):
                twin = next((t for t in left[j] if t.caption == table.caption), None)
                if twin is None:
                    continue
                group[j] = twin
                left[j].remove(twin)
            groups.append(group)
    for group in groups:  # tables some runs lack: their twins may bear another caption
        twins = _twins(group, groups)
        if len(twins) == 1 and _twins(twins[0], groups) == [group]:  # unambiguous both ways
            for k, twin in enumerate(twins[0]):
                if twin is not None:
                    group[k], twins[0][k] = twin, None
    return [g for g in groups if any(t is not None for t in g)]


def _twins(group: list[Table | None], groups: list[list[Table | None]]) -> list[list[Table | None]]:
    """The other groups that could hold ``group``'s table for the runs it lacks: tables of
    exactly its columns, from only those runs."""
    present = [t for t in group if t is not None]
    if not present or len(present) == len(group):
        return []
    return [
        other
        for other in groups
        if other is not group
        and any(t is not None for t in other)
        and all(a is None or b is None for a, b in zip(group, other, strict=True))
        and all(t.headers == present[0].headers for t in other if t is not None)
    ]


def _table(labels: Sequence[str], tables: Sequence[Table | None]) -> Table:
    """The runs' tables of one kind as one: the names of the first, then each figure column
    once per run that has the table, the runs' columns of one figure together."""
    present = [(label, t) for label, t in zip(labels, tables, strict=True) if t is not None]
    first = present[0][1]
    names = first.text_columns
    figures = list(dict.fromkeys(h for _, t in present for h in t.headers[t.text_columns :]))
    by_run = [_rows_by_key(t) for _, t in present]
    keys = list(dict.fromkeys(k for rows in by_run for k in rows))
    rows: list[tuple[Cell, ...]] = []
    absent = False
    for key in keys:
        cells: list[Cell] = list(key)
        for header in figures:
            for (_, t), mine in zip(present, by_run, strict=True):
                row = mine.get(key)
                absent = absent or row is None
                cells.append(ABSENT if row is None else _cell(t, row, header))
        rows.append(tuple(cells))
    lacking = [f"{label}: {h}" for h in figures for label, t in present if h not in t.headers]
    several = len(present) > 1
    headers = (
        *first.headers[:names],
        *(f"{label}: {h}" if several else h for h in figures for label, _ in present),
    )
    notes = _shared(
        [label for label, _ in present],
        [t.notes for _, t in present],
        lambda note, label: f"{label}: {note}",
    )
    if absent:
        notes.append(ABSENT_NOTE)
    if lacking:
        notes.append(f"{ABSENT}: that run's table has no such column ({', '.join(lacking)}).")
    captions = {t.caption for _, t in present}
    if len(captions) > 1:
        notes.append("Captions: " + "; ".join(f"{label}: {t.caption}" for label, t in present))
    missing = [label for label, t in zip(labels, tables, strict=True) if t is None]
    if missing:
        notes.append(f"Not in the runs of {', '.join(missing)}.")
    caption = first.caption if several or len(labels) == 1 else f"{present[0][0]}: {first.caption}"
    runs = tuple(label for label, _ in present) if several else ()
    return Table(caption, headers, tuple(rows), tuple(notes), names, runs)


def _rows_by_key(table: Table) -> dict[_Key, tuple[Cell, ...]]:
    """Each row by its names; a name met again gets its count ("#2", "#3") on its last part."""
    out: dict[_Key, tuple[Cell, ...]] = {}
    met: dict[_Key, int] = {}
    for row in table.rows:
        key = tuple(cell_text(c) for c in row[: table.text_columns])
        met[key] = met.get(key, 0) + 1
        count = met[key]
        named = key if count == 1 else _counted(key, count)
        while named in out:  # a name met again ("x #2"), or a row named so already
            count += 1
            named = _counted(key, count)
        out[named] = row
    return out


def _counted(key: _Key, count: int) -> _Key:
    """``key`` with ``#count`` on its last name: ``("aes", "x #2")``."""
    return (*key[:-1], f"{key[-1]} #{count}") if key else (f"#{count}",)


def _cell(table: Table, row: tuple[Cell, ...], header: str) -> Cell:
    if header not in table.headers:
        return ABSENT
    column = table.headers.index(header)
    return row[column] if column < len(row) else ABSENT


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
