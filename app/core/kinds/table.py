"""Every kind of result as one row: its result type, the name the history stores it under,
its JSON export (format name, newest version, writer and reader), its document (what every
renderer prints), its file formats and whether runs of it merge into one table.

Each function is named ``"module:attribute"`` and imported when used, so reading the table
imports no kind (openpyxl, matplotlib and the kinds' modules stay unloaded until needed). The
rows are in ``isinstance`` order: a more specific result type before a more general one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.core.document.model import Document
    from app.core.runtime.definition import Definition


# How a format's writer makes its file (:attr:`Format.how`).
WRITE = "write"  # a kind's own ``write(result, path)``
RENDER = "render"  # a renderer of any kind's document: ``render(document) -> str | bytes``
FIGURE = "figure"  # the result's print figure, ``figure(result) -> FigureData``, drawn by DRAW
# The one drawer (matplotlib) of every kind's print figure, in the suffix's vector format.
DRAW = "app.core.publish.figure_drawing:draw"


@dataclass(frozen=True)
class Format:
    suffix: str  # lower case, with its dot: ".xlsx"
    description: str  # what a file dialog lists: "Excel workbook with charts"
    writer: str  # "module:function", imported when used (openpyxl costs 0.2 s to import)
    how: str = WRITE  # WRITE, RENDER (of :meth:`Kind.document_of`) or FIGURE (svg, pdf)

    def write(self, result: Any, path: Path) -> None:
        """Write ``result`` to ``path`` plainly (not atomically: :func:`save` is)."""
        function = resolve(self.writer)
        if self.how == FIGURE:
            resolve(DRAW)(function(result), Path(path), self.suffix.removeprefix("."))
        elif self.how == RENDER:
            document = kind_of(result).document_of(result)
            made = function(document)  # text, or bytes for a binary format (xlsx)
            if isinstance(made, bytes):
                Path(path).write_bytes(made)
            else:
                Path(path).write_text(made, encoding="utf-8")
        else:
            function(result, path)

    @property
    def file_filter(self) -> str:
        return f"{self.description} (*{self.suffix})"


@dataclass(frozen=True)
class ResultKind:
    """One type of result and the formats it can be saved in, the first the default."""

    name: str  # "bench", "study", "transfer": as the history names kinds
    what: str  # for messages: "cannot save <what> to x.pdf"
    formats: tuple[Format, ...]

    @property
    def writers(self) -> dict[str, Format]:
        return {f.suffix: f for f in self.formats}

    @property
    def suffixes(self) -> tuple[str, ...]:
        return tuple(f.suffix for f in self.formats)

    def help_text(self) -> str:
        """For ``--out``'s help: ``.xlsx (Excel workbook with charts), .csv (...)``."""
        return ", ".join(f"{f.suffix} ({f.description})" for f in self.formats)

    def file_filters(self) -> dict[str, str]:
        """``{"Excel workbook with charts (*.xlsx)": ".xlsx", ...}`` for a save dialog."""
        return {f.file_filter: f.suffix for f in self.formats}


def resolve(name: str) -> Any:
    """The object ``"package.module:attribute.path"`` names."""
    module, _, path = name.partition(":")
    return reduce(getattr, path.split("."), import_module(module))


@dataclass(frozen=True)
class Kind:
    name: str  # as the history stores it ("study" for a study of ciphers and one of transfers)
    noun: str  # for messages: "a bench run"
    result: str  # "module:Class" of the result
    formats: str  # "module:name" of its formats (a ResultKind), read when saving
    document: str  # "module:function": result -> Document
    json_format: str = ""  # the "format" of its JSON export; "": never stored in the history
    json_version: int = 0  # the newest version of that format this CipherBench reads
    to_json: str = ""  # "module:function": result -> the JSON document the history stores
    from_json: str = ""  # "module:function": that document -> result
    mergeable: bool = False  # its rows (entry x input) merge with other runs' into one table
    definition: str = ""  # "module:name" of its Definition: a command and a window made for it
    # Its own files beside every renderer's (with ``formats`` empty): (suffix, what a file
    # dialog lists, "module:function" writing ``(result, path)``).
    own_formats: tuple[tuple[str, str, str], ...] = ()
    # With ``formats`` empty: "module:function", result -> its print figure (FigureData),
    # saved as .svg and .pdf.
    figure: str = ""

    @property
    def files(self) -> ResultKind:
        """The formats it can be saved in (none named: its own files, its figure and every
        renderer of its document)."""
        if not self.formats:
            document_formats = resolve("app.core.kinds.formats:document_formats")
            own = tuple(Format(*f) for f in self.own_formats)
            made: ResultKind = document_formats(self.name, self.noun, own, self.figure, self.stored)
            return made
        files: ResultKind = resolve(self.formats)
        return files

    @property
    def stored(self) -> bool:
        return bool(self.json_format)

    def result_type(self) -> type:
        cls: type = resolve(self.result)
        return cls

    def document_of(self, result: Any) -> Document:
        document: Document = resolve(self.document)(result)
        return document

    def json_of(self, result: Any) -> dict[str, Any]:
        data: dict[str, Any] = resolve(self.to_json)(result)
        return data

    def result_of(self, data: Any) -> Any:
        return resolve(self.from_json)(data)

    def defined(self) -> Definition | None:
        """Its definition, when its command and window are made from one."""
        if not self.definition:
            return None
        definition: Definition = resolve(self.definition)
        return definition


_DOCUMENTS = "app.core.publish.documents:"
_FORMATS = "app.core.kinds.formats:"

KINDS: tuple[Kind, ...] = (
    Kind(
        "bench",
        "a bench run",
        "app.core.bench.results:RunResult",
        _FORMATS + "BENCH",
        _DOCUMENTS + "bench_document",
        "cipherbench-results",
        1,
        "app.core.export.json_export:run_document",
        "app.core.bench.results:RunResult.from_dict",
        mergeable=True,
    ),
    Kind(
        "study",
        "a transfer study",
        "app.core.study.transfer_result:TransferStudyResult",
        _FORMATS + "TRANSFER_STUDY",
        _DOCUMENTS + "transfer_study_document",
        "cipherbench-study",
        1,
        "app.core.study.transfer_report:document",
        "app.core.study.export:result_from_document",
    ),
    Kind(
        "study",
        "a study",
        "app.core.study.result:StudyResult",
        _FORMATS + "STUDY",
        _DOCUMENTS + "study_document",
        "cipherbench-study",
        1,
        "app.core.study.export:stored_document",
        "app.core.study.export:result_from_document",
        mergeable=True,
    ),
    Kind(
        "transfer",
        "a transfer run",
        "app.core.transfer.results:TransferRun",
        _FORMATS + "TRANSFER",
        _DOCUMENTS + "transfer_document",
        "cipherbench-transfer",
        1,
        "app.core.transfer.results:transfer_document",
        "app.core.transfer.results:TransferRun.from_dict",
    ),
    Kind(
        "sweep",
        "a sweep run",
        "app.core.sweep.results:SweepResult",
        _FORMATS + "SWEEP",
        _DOCUMENTS + "sweep_document",
        "cipherbench-sweep",
        1,
        "app.core.sweep.results:sweep_document",
        "app.core.sweep.results:SweepResult.from_dict",
    ),
    Kind(
        "merged",
        "merged results",
        "app.core.publish.merge:MergedResult",
        _FORMATS + "MERGED",
        _DOCUMENTS + "merged_document",
    ),
    Kind(  # runs of any other kind, table by table: every renderer of its document
        "merged",
        "merged results",
        "app.core.publish.merged_documents:MergedDocuments",
        "",
        "app.core.publish.merged_documents:merged_documents_document",
    ),
)


def declared(row: dict[str, Any]) -> Kind:
    """The kind a package declares as plain data (its ``ROW``: name, noun, result, document,
    and its own formats and its print figure if any); what the row leaves out follows the
    convention: JSON ``cipherbench-NAME`` version 1 through the result's ``to_dict`` and
    ``from_dict``, the definition ``app.core.NAME.definition:DEFINITION``, every renderer of
    its document."""
    name, result = row["name"], row["result"]
    convention: dict[str, Any] = {
        "formats": "",
        "json_format": f"cipherbench-{name}",
        "json_version": 1,
        "to_json": f"{result}.to_dict",
        "from_json": f"{result}.from_dict",
        "definition": f"app.core.{name}.definition:DEFINITION",
    }
    return Kind(**(convention | row))


# The kinds declared by their own package (``ROW``): one line each.
KINDS += tuple(
    declared(resolve(row))
    for row in ("app.core.keysetup:ROW", "app.core.profile:ROW", "app.core.leak:ROW")
)


def kind_of(result: object) -> Kind:
    """The row of ``result``'s type; ``TypeError`` for anything CipherBench does not make."""
    for kind in KINDS:
        if isinstance(result, kind.result_type()):
            return kind
    raise TypeError(f"not a result CipherBench makes: {type(result).__name__}")


def stored_names() -> tuple[str, ...]:
    """The names of the kinds the history stores, each once, in the table's order."""
    return tuple(dict.fromkeys(k.name for k in KINDS if k.stored))


def by_json_format(json_format: object) -> Kind | None:
    """The kind whose JSON export has ``json_format`` (the first row: its reader decides
    between the types that share one)."""
    return next((k for k in KINDS if k.stored and k.json_format == json_format), None)


def named(name: str) -> Kind:
    """The first stored kind called ``name`` (``KeyError`` for none)."""
    for kind in KINDS:
        if kind.stored and kind.name == name:
            return kind
    raise KeyError(name)


def defined_kinds() -> tuple[Kind, ...]:
    """The kinds whose command and window are made from their definition."""
    return tuple(k for k in KINDS if k.definition)


def mergeable_names() -> tuple[str, ...]:
    return tuple(dict.fromkeys(k.name for k in KINDS if k.mergeable))
