"""What a result hands to its renderers: a document of a title, tables of typed cells, notes
and a method paragraph. A renderer (terminal, Markdown, LaTeX, HTML, ...) knows no kind of
result; a kind knows no format. A cell is text (a name, a label) or an :class:`Estimate` (a
median with its interval, printed by :meth:`Estimate.text`), so every format prints one
figure the same way."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.document.estimate import Estimate

Cell = str | Estimate


@dataclass(frozen=True)
class Table:
    """A caption, headers (each with its unit), rows of cells and the notes under it."""

    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = ()
    text_columns: int = 3  # the leading columns of names (left-aligned); figures follow
    # Merged runs' labels: the figures come in runs of one column per label, kept together,
    # each header "label: header" (a terminal prints the header once over its runs' columns
    # and the labels under it); none: one column per figure.
    group_labels: tuple[str, ...] = ()

    def text_rows(self) -> list[list[str]]:
        return [[cell_text(c) for c in row] for row in self.rows]

    @property
    def group(self) -> int:
        """How many columns each figure has (one per merged run)."""
        return len(self.group_labels) or 1

    def numeric(self, column: int) -> bool:
        return column >= self.text_columns

    def unit_of(self, column: int) -> str:
        """The unit the estimates of ``column`` carry themselves ("s": times), "" for none:
        what a format writing their bare numbers adds to the header."""
        for row in self.rows:
            cell = row[column]
            if isinstance(cell, Estimate):
                return cell.unit
        return ""


def cell_text(cell: Cell) -> str:
    return cell.text() if isinstance(cell, Estimate) else cell


@dataclass(frozen=True)
class Section:
    """A heading and its lines of prose (a list of what differs, the sources), for what is
    not a table of figures."""

    heading: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Document:
    """One result as every format shows it: ``tables`` first, then ``sections``, then the
    ``method`` paragraph (empty: none)."""

    title: str
    tables: tuple[Table, ...]
    method: str = ""
    sections: tuple[Section, ...] = ()
