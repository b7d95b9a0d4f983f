"""A study: a grid of cipher entries x inputs with one set of options, as data.

A study is read from and written to a small TOML file (the presets in ``resources/studies/``
are such files, and a user's saved grid is one too). The schema is flat; every key but
``name`` and at least one ``[[cipher]]`` is optional:

    name = "aes-key-sizes"            # short, for the command line
    title = "AES key sizes, CBC"
    seed = "000"                      # the published study it reproduces ("" for none)
    description = "..."
    paper = "Yudiono et al. 2026, Table 2"   # where the published figures come from
    paper_method = "time.time() around ..."  # how the paper measured: its definitions, shown
                                      # beside ours in every report
    sizes = ["1 MB", "10 MB", "50 MB"]       # generated inputs, labelled as written
    file_slots = ["txt", "pdf", "zip"]       # what files the study expects, if any
    files = ["report.pdf"]                   # files (relative to the TOML file's folder)
    key_bits = 256                    # for variable-key ciphers (Blowfish)
    workload = "cipher"               # or "transfer": each cell a loopback transfer
    data_mode = "memory"              # or "stream"
    chunk_bytes = 1048576
    repeat = 12                       # timed repetitions per job, over the first rounds
    warmup = 1                        # per worker
    rounds = 6                        # rounds, each job in a fresh worker, in a seeded random
                                      # order per round (1: one job after another)
    max_rounds = 20                   # more rounds, for the claims not yet precise ...
    time_budget_s = 60                # ... while the study has run less than this
    precision_percent = 2             # a claim is precise within +/- this (its 95 % interval)
    margin_percent = 1                # differences below this are "equal within 1 %"
    units = "MB/s"                    # or "MiB/s", "KB/s"
    measure_memory = true
    memory_workload = "load-all"      # also the papers' program shape, direction by direction:
                                      # the file read whole, a padded copy, a new ciphertext
    min_time_s = 0.1                  # tiny inputs repeat until each direction ran this long
    data_seed = 0                     # seed of the generated inputs (reproducible data)
    whole_program = true              # also time each entry as a whole Python program (a
                                      # fresh interpreter: start, import, encrypt, decrypt)
    profile = true                    # also profile each entry: where its time goes
                                      # (python main.py profile), its rounds the study's
    leak = true                       # also test each entry for a timing leak (python main.py
                                      # leak: fixed vs random 16-byte messages, 10 s an entry)
    baseline = "aes-128-ctr [pyaes]"  # speed-ups are against this entry (the paper's 1x);
                                      # default: the slowest on each input

    [[cipher]]
    id = "aes-128-cbc"
    library = "pycryptodome"          # omitted: the compiled libraries offering the id
                                      # (pure-Python pyaes only when named); the same
                                      # entry listed twice runs twice, "... #2": an A/A control

    [[published]]                     # the paper's own figures, shown labelled as the paper's
    cipher = "AES-128"
    input = "50 MB"                   # our input of that label; ".zip (85.7 MiB)": a .zip
                                      # file, or the generated "85.7 MiB"
    quantity = "encrypt_s"            # encrypt_s, decrypt_s, encrypt_rate, decrypt_rate,
    value = 0.1084                    # transfer_s, transfer_rate, cpu_percent, memory, speedup
    unit = "s"                        # one the quantity takes: s, ms; MB/s, MiB/s, KB/s;
                                      # %; MB, MiB, KB; x
    entry = "aes-128-cbc"             # optional: our entries it is set beside (ids or
                                      # "id [library]", a string or a list); default: the
                                      # entry or library named like ``cipher``
    basis = "python"                  # memory only: tracemalloc's peak; "process": the whole
                                      # process's peak RSS (default: the peak above the
                                      # process's baseline); "load-all": tracemalloc's peak of
                                      # the load-all program's encryption, "load-all-rss" its
                                      # resident memory after minus before (memory_workload)
    direction = "decrypt"             # memory only: the memory pass's peak in one direction
                                      # (default: the pass's own, both directions)
    end = "sender"                    # a transfer's CPU or memory: "sender" or "receiver"
                                      # (default: the larger of the two ends); its time or
                                      # throughput: "sender" stops the clock where a sender's
                                      # does (the last byte sent, not verified)
    table = "Table 2"                 # where in the paper the figure stands
    note = "the text says 0.11 s"     # the paper's own inconsistencies, shown with the figure
    statistic = "mean"                # a time or rate the paper averaged: set beside our mean
                                      # (default: our median)

Loading (:func:`app.core.study.study_file.load_study`) checks everything
(:meth:`Study.validate`) and raises ``UserError`` in one sentence; every table takes only the
keys above, and a study *file* must name, in each published figure and claim, an entry and an
input of its own (:func:`app.core.study.study_file.check_paper`). The paper's claims are
``[[claim]]`` tables (:mod:`app.core.study.paper_claims`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from app.core.bench.jobs import LOAD_ALL, BenchOptions
from app.core.bench.plan import check_options
from app.core.bench.rounds import repeat_per_round
from app.core.ciphers.registry import (
    CipherSpec,
    UnknownCipher,
    cipher_ids,
    default_libraries_for,
    lookup,
)
from app.core.errors import UserError
from app.core.study.figures import (
    ENDS,
    MEMORY_BASES,
    QUANTITIES,
    QUANTITY_NAMES,
    QUANTITY_UNITS,
    UNITS,
)
from app.core.study.memory_figures import LOAD_ALL_BASES
from app.core.study.paper_claims import CROSSED, SHARE, PaperClaim, claim_from_dict
from app.core.study.paper_claims import KEYS as CLAIM_KEYS
from app.core.study.whole_program import check_entries
from app.core.transfer.framing import transfer_spec
from app.core.units import MIB, parse_size, size_label

WORKLOADS = ("cipher", "transfer")  # what a cell runs: the engine's job, or a loopback transfer
MAX_ROUNDS = 100
DEFAULT_MAX_ROUNDS = 20


@dataclass(frozen=True)
class CipherChoice:
    """A cipher id and its library; ``library=None`` means the id's default libraries (the
    compiled ones offering it, as ``bench`` without ``--library``)."""

    cipher_id: str
    library: str | None = None


@dataclass(frozen=True)
class SizeInput:
    """A generated input: its size, labelled as the user or the preset wrote it."""

    label: str  # "1 MiB", never "1.05 MB"
    size_bytes: int


@dataclass(frozen=True)
class PublishedFigure:
    """One figure the paper published, kept to be shown beside ours, labelled as the paper's."""

    cipher: str  # as the paper names it: "AES-128", "Blowfish ECB"
    input: str  # as the paper names it: "50 MB", ".zip"
    quantity: str  # one of QUANTITIES
    value: float
    unit: str  # "s", "ms", "MB/s", "MiB/s", "KB/s", "MB", "MiB", "KB", "x"
    entry: tuple[str, ...] = ()  # our entries it matches ("aes-128-cbc", "id [library]")
    basis: str = ""  # memory: "" above the baseline, "python" tracemalloc, "process" whole RSS
    end: str = ""  # a transfer's CPU or memory: "sender", "receiver", "" the larger of the two
    table: str = ""  # where in the paper: "Table VI", "Table II (Android)"
    note: str = ""  # what the paper's own text says otherwise, or how to read the figure
    statistic: str = ""  # a time's: "" the median of ours, "mean": the paper's was a mean
    # a memory's: "encrypt" or "decrypt", the memory pass's peak in that direction; "": the
    # pass's own (both directions), or the encryption's for a load-all basis
    direction: str = ""

    def describe(self) -> str:
        """``"AES ECB, .txt (14.35 KiB), encryption time"``: which figure, in a message."""
        return f"{self.cipher}, {self.input}, {QUANTITY_NAMES.get(self.quantity, self.quantity)}"


def size_input(text: str) -> SizeInput:
    """``"1MiB"`` -> ``SizeInput("1 MiB", 1048576)``: the number as typed, the unit spelled
    the usual way, one space between. ``UserError`` for what :func:`parse_size` refuses."""
    size = parse_size(text)
    if size <= 0:
        raise UserError(f"the size {text.strip()!r} must be at least 1 byte")
    return SizeInput(size_label(text), size)


def parse_sizes(text: str) -> tuple[SizeInput, ...]:
    """A comma-separated list: ``"2KB,4KB"`` or ``"10 KB, 1 MiB"``."""
    parts = [p for p in (s.strip() for s in text.split(",")) if p]
    if not parts:
        raise UserError("give at least one size, e.g. 1MB,10MB")
    return tuple(size_input(p) for p in parts)


@dataclass(frozen=True)
class Study:
    """A grid of cipher entries x inputs and how to measure it. Frozen; see the module."""

    name: str
    ciphers: tuple[CipherChoice, ...]
    title: str = ""
    seed: str = ""
    description: str = ""
    paper: str = ""
    paper_method: str = ""  # how the paper measured, in a sentence or two (its definitions)
    sizes: tuple[SizeInput, ...] = ()
    file_slots: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    key_bits: int | None = None
    workload: str = "cipher"
    data_mode: str = "memory"
    chunk_bytes: int = MIB
    repeat: int = 12
    warmup: int = 1
    rounds: int = 6
    max_rounds: int = 20
    time_budget_s: float = 60.0
    precision_percent: float = 2.0
    margin_percent: float = 1.0
    units: str = "MB/s"
    measure_memory: bool = True
    memory_workload: str = ""  # "load-all": also the papers' program shape (bench/load_all.py)
    min_time_s: float = 0.1
    data_seed: int = 0
    whole_program: bool = False  # also time each entry as a whole program (whole_program.py)
    profile: bool = False  # also profile each entry: where its time goes (app/core/profile)
    leak: bool = False  # also test each entry for a timing leak (app/core/leak)
    baseline: str = ""  # speed-ups against this entry ("id" or "id [library]"); "": slowest
    published: tuple[PublishedFigure, ...] = ()
    claims: tuple[PaperClaim, ...] = ()  # the paper's claims, checked against our comparisons

    # --- derived ---------------------------------------------------------------------------

    @property
    def baseline_name(self) -> str:
        """What speed-ups are against, in words: the named entry or "the slowest"."""
        return f"{self.baseline} (the paper's 1x)" if self.baseline else "the slowest"

    @property
    def repeat_per_round(self) -> int:
        """Timed repetitions each round's worker makes (the total rounded up to whole rounds,
        at least one)."""
        return repeat_per_round(self.repeat, self.rounds)

    @property
    def adaptive(self) -> bool:
        """Whether claims not yet precise get more rounds (beyond ``rounds``, up to
        ``max_rounds``, within ``time_budget_s``). A study of one round stays one pass."""
        return self.rounds > 1 and self.max_rounds > self.rounds and self.time_budget_s > 0

    def specs(self) -> list[CipherSpec]:
        """The registry entries, in the order chosen, each once (see :meth:`entries`)."""
        return [spec for spec, copy in self.entries() if copy == 1]

    def entries(self) -> list[tuple[CipherSpec, int]]:
        """The registry entries, in the order chosen, each with its copy number: 1, then 2, 3
        ... when the same entry is chosen again (an A/A control: its comparison with itself is
        the study's own false-positive check). ``key_bits`` applies to the ciphers that take
        it (a cipher of another fixed size is refused, not ignored)."""
        out: list[tuple[CipherSpec, int]] = []
        copies: dict[tuple[str, str, int], int] = {}
        for choice in self.ciphers:
            libs = [choice.library] if choice.library else default_libraries_for(choice.cipher_id)
            for lib in libs:
                spec = lookup(choice.cipher_id, lib)
                if self.key_bits is not None and spec.key_bits != self.key_bits:
                    if self.key_bits not in spec.key_bits_allowed:
                        raise UserError(
                            f"{spec.id} [{spec.library}] has no {self.key_bits}-bit key; "
                            f"remove key_bits or that cipher from the study {self.name}"
                        )
                    spec = spec.with_key_bits(self.key_bits)
                key = (spec.id, spec.library, spec.key_bits)
                copies[key] = copies.get(key, 0) + 1
                out.append((spec, copies[key]))
        return out

    def bench_options(self) -> BenchOptions:
        """The options of one round's jobs (repetitions and minimum time split over rounds)."""
        return BenchOptions(
            repeat=self.repeat_per_round,
            warmup=self.warmup,
            data_mode=self.data_mode,
            chunk_bytes=self.chunk_bytes,
            measure_memory=self.measure_memory,
            min_time_s=self.min_time_s / self.rounds,
            memory_workload=self.memory_workload,
        )

    def after(self) -> str:
        """The paper a preset follows, as a list names it ("Yudiono et al. 2026": its
        ``paper`` up to the first comma); "" for a study of no paper."""
        return self.paper.split(",", 1)[0].strip()

    def compares(self) -> str:
        """What the study compares, in a few words, for ``study --list``."""
        return self.title or ", ".join(c.cipher_id for c in self.ciphers)

    # --- checking ----------------------------------------------------------------------------

    def validate(self) -> Study:
        """``self`` when it can run, else ``UserError`` saying what is wrong."""
        self.checked_specs()
        return self

    def checked_specs(self) -> list[CipherSpec]:
        """:meth:`specs` of a study that can run, else ``UserError`` saying what is wrong
        (:meth:`validate` and the specs at once, for a caller that needs both)."""
        if not self.name.strip():
            raise UserError("the study has no name")
        if not self.ciphers:
            raise UserError(f"the study {self.name} chooses no cipher; add a [[cipher]] entry")
        if self.workload not in WORKLOADS:
            raise UserError(f"unknown workload {self.workload!r}; use {', '.join(WORKLOADS)}")
        if self.workload == "transfer":
            specs = []
            for choice in self.ciphers:
                transfer_spec(choice.cipher_id)  # an AEAD, or "none": else UserError
        else:
            known = set(cipher_ids())
            for choice in self.ciphers:
                if choice.cipher_id not in known:
                    raise UnknownCipher(choice.cipher_id)
            specs = self.specs()  # libraries and key sizes
        if not (self.sizes or self.files or self.file_slots):
            raise UserError(f"the study {self.name} has no input: give sizes or files")
        for size in self.sizes:
            if size.size_bytes <= 0:
                raise UserError(f"the size {size.label!r} must be at least 1 byte")
        if self.units not in UNITS:
            raise UserError(f"unknown unit {self.units!r}; use {', '.join(UNITS)}")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise UserError(f"rounds must be at least 1 and at most {MAX_ROUNDS}")
        if not self.rounds <= self.max_rounds <= MAX_ROUNDS:
            raise UserError(
                f"max_rounds must be at least rounds ({self.rounds}) and at most {MAX_ROUNDS}"
            )
        if not (math.isfinite(self.time_budget_s) and self.time_budget_s >= 0):
            raise UserError("time_budget_s must be a number of seconds, 0 or more")
        if not (math.isfinite(self.precision_percent) and 0 < self.precision_percent <= 100):
            raise UserError("precision_percent must be above 0 and at most 100")
        if not (math.isfinite(self.margin_percent) and 0 <= self.margin_percent <= 100):
            raise UserError("margin_percent must be between 0 and 100")
        if not (math.isfinite(self.min_time_s) and self.min_time_s >= 0):
            raise UserError("min_time_s must be a number of seconds, 0 or more")
        check_options(replace(self.bench_options(), repeat=self.repeat))
        if self.whole_program:
            if self.workload != "cipher":
                raise UserError("whole_program times cipher entries, not transfers")
            check_entries(specs)
        if self.profile and self.workload != "cipher":
            raise UserError("profile samples cipher entries, not transfers")
        if self.leak and self.workload != "cipher":
            raise UserError("leak tests cipher entries, not transfers")
        shares = [c for c in self.claims if c.quantity == SHARE]
        if shares and not self.profile:
            raise UserError(
                f"the claim {shares[0].says!r} is about where the time goes: set profile = true"
            )
        for figure in self.published:
            _check_figure(figure)
            if figure.basis in LOAD_ALL_BASES and self.memory_workload != LOAD_ALL:
                raise UserError(
                    f"the published figure ({figure.describe()}) is of the load-all program's "
                    'memory: set memory_workload = "load-all"'
                )
        return specs

    # --- TOML ----------------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, base: Path | None = None) -> Study:
        """The study a parsed TOML document describes (validated). Relative ``files`` are
        taken from ``base`` (the TOML file's folder)."""
        try:
            return _from_dict(cls, data, base).validate()
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError(f"malformed study: {_describe(exc)}") from None

    def to_dict(self) -> dict[str, Any]:
        """The TOML document as Python values (``None`` left out), inverse of :meth:`from_dict`."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "ciphers":
                out["cipher"] = [
                    {"id": c.cipher_id, **({"library": c.library} if c.library else {})}
                    for c in value
                ]
            elif f.name == "sizes":
                out["sizes"] = [s.label for s in value]
            elif f.name == "published":
                out["published"] = [_figure_dict(p) for p in value]
            elif f.name == "claims":
                out["claim"] = [c.to_dict() for c in value]
            elif value is not None:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


_OPTIONAL_FIGURE_KEYS = ("basis", "end", "table", "note", "statistic", "direction")
STATISTICS = ("", "mean")


def _figure_dict(p: PublishedFigure) -> dict[str, Any]:
    out: dict[str, Any] = {k.name: getattr(p, k.name) for k in fields(PublishedFigure)}
    if not p.entry:
        del out["entry"]
    else:
        out["entry"] = p.entry[0] if len(p.entry) == 1 else list(p.entry)
    for optional in _OPTIONAL_FIGURE_KEYS:
        if not out[optional]:
            del out[optional]
    return out


def _entries(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError("a published figure's entry must be a string or a list of strings")
    return tuple(v.strip() for v in value if v.strip())


def _describe(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"missing key {exc.args[0]!r}"
    return str(exc)


def _typed(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = data.get(key, default)
    if value is default:
        return value
    if isinstance(value, bool) and kind is not bool:
        raise TypeError(f"{key} must not be true or false")
    if kind is float and isinstance(value, int):
        value = float(value)
    if not isinstance(value, kind):
        raise TypeError(f"{key} has the wrong type ({type(value).__name__})")
    return _storable(key, value)


_LARGEST = 2**63 - 1  # what the history (SQLite) and every export can hold


def _storable(key: str, value: Any) -> Any:
    """``value`` when a study's export can hold it (so what runs can be imported again);
    ``ValueError`` for an integer beyond 64 bits or a number that is not finite."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _LARGEST:
        raise ValueError(f"{key} is {value}, larger than a study can hold (at most {_LARGEST})")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{key} is {value}; a study holds finite numbers only")
    return value


def _from_dict(cls: type[Study], data: Mapping[str, Any], base: Path | None) -> Study:
    known = {f.name for f in fields(cls)} - {"ciphers", "claims"} | {"cipher", "claim"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r}")
    ciphers = tuple(
        CipherChoice(str(c["id"]).strip().lower(), c.get("library") or None)
        for c in _tables(data, "cipher", {"id", "library"})
    )
    files = tuple(str(f) for f in data.get("files", ()))
    if base is not None:
        files = tuple(str(base / Path(f).expanduser()) for f in files)
    published = tuple(
        PublishedFigure(
            str(p["cipher"]),
            str(p["input"]),
            str(p["quantity"]),
            _storable("a published value", float(p["value"])),
            str(p["unit"]),
            _entries(p.get("entry", [])),
            **{k: str(p.get(k, "")) for k in _OPTIONAL_FIGURE_KEYS},
        )
        for p in _tables(data, "published", {f.name for f in fields(PublishedFigure)})
    )
    claims = tuple(claim_from_dict(c) for c in _tables(data, "claim", set(CLAIM_KEYS)))
    return cls(
        name=_typed(data, "name", str, None) or "",
        ciphers=ciphers,
        title=_typed(data, "title", str, ""),
        seed=_typed(data, "seed", str, ""),
        description=_typed(data, "description", str, ""),
        paper=_typed(data, "paper", str, ""),
        paper_method=_typed(data, "paper_method", str, ""),
        baseline=_typed(data, "baseline", str, ""),
        sizes=tuple(size_input(str(s)) for s in data.get("sizes", ())),
        file_slots=tuple(str(s) for s in data.get("file_slots", ())),
        files=files,
        key_bits=_typed(data, "key_bits", int, None),
        workload=_typed(data, "workload", str, "cipher"),
        data_mode=_typed(data, "data_mode", str, "memory"),
        chunk_bytes=_typed(data, "chunk_bytes", int, MIB),
        repeat=_typed(data, "repeat", int, 12),
        warmup=_typed(data, "warmup", int, 1),
        rounds=_typed(data, "rounds", int, 6),
        max_rounds=_typed(data, "max_rounds", int, None) or _default_max_rounds(data),
        time_budget_s=_typed(data, "time_budget_s", float, 60.0),
        precision_percent=_typed(data, "precision_percent", float, 2.0),
        margin_percent=_typed(data, "margin_percent", float, 1.0),
        units=_typed(data, "units", str, "MB/s"),
        measure_memory=_typed(data, "measure_memory", bool, True),
        memory_workload=_typed(data, "memory_workload", str, ""),
        min_time_s=_typed(data, "min_time_s", float, 0.1),
        data_seed=_typed(data, "data_seed", int, 0),
        whole_program=_typed(data, "whole_program", bool, False),
        profile=_typed(data, "profile", bool, False),
        leak=_typed(data, "leak", bool, False),
        published=published,
        claims=claims,
    )


def _tables(data: Mapping[str, Any], key: str, known: set[str]) -> list[Mapping[str, Any]]:
    """The ``[[key]]`` tables of a study, each holding only ``known`` keys (a misspelt key
    would otherwise be ignored: ``key_bits`` inside a ``[[cipher]]`` runs the default size)."""
    tables = data.get(key, [])
    if not isinstance(tables, list) or not all(isinstance(t, Mapping) for t in tables):
        raise TypeError(f"{key} must be a list of [[{key}]] tables")
    for n, table in enumerate(tables, 1):
        unknown = sorted(set(table) - known)
        if unknown:
            raise ValueError(
                f"unknown key {unknown[0]!r} in [[{key}]] number {n}; "
                f"a [[{key}]] takes {', '.join(sorted(known))}"
            )
    return tables


def _check_figure(figure: PublishedFigure) -> None:
    """``UserError`` unless the figure's quantity, unit, basis and end are ones we know."""
    if figure.quantity not in QUANTITIES:
        raise UserError(
            f"unknown published quantity {figure.quantity!r}; use {', '.join(QUANTITIES)}"
        )
    units = QUANTITY_UNITS[figure.quantity]
    if figure.unit not in units:
        raise UserError(
            f"the published figure ({figure.describe()}) has the unit {figure.unit!r}; "
            f"a {QUANTITY_NAMES[figure.quantity]} takes {', '.join(units)}"
        )
    if figure.basis not in MEMORY_BASES:
        raise UserError(
            f"unknown published memory basis {figure.basis!r}; use "
            f"{', '.join(b for b in MEMORY_BASES if b)}, or leave it out"
        )
    if figure.statistic not in STATISTICS:
        raise UserError(
            f"unknown statistic {figure.statistic!r} of a published figure; use mean, or leave "
            "it out for a median"
        )
    if figure.end not in ENDS:
        raise UserError(
            f"unknown transfer end {figure.end!r} of a published figure; use sender or "
            "receiver, or leave it out"
        )
    if figure.direction and (figure.quantity != "memory" or figure.direction not in CROSSED):
        raise UserError(
            f"the published figure ({figure.describe()}) has the direction "
            f"{figure.direction!r}: only a memory takes one, encrypt or decrypt"
        )


def _default_max_rounds(data: Mapping[str, Any]) -> int:
    """Without ``max_rounds``: 20, or ``rounds`` when a study asks for more (or for one)."""
    rounds = data.get("rounds", 6)
    if not isinstance(rounds, int) or isinstance(rounds, bool):
        return DEFAULT_MAX_ROUNDS
    return rounds if rounds == 1 else max(DEFAULT_MAX_ROUNDS, rounds)


def study_with(
    study: Study,
    *,
    sizes: Sequence[SizeInput] | None = None,
    files: Sequence[str] | None = None,
    repeat: int | None = None,
    rounds: int | None = None,
    units: str | None = None,
    max_rounds: int | None = None,
    time_budget_s: float | None = None,
    precision_percent: float | None = None,
    margin_percent: float | None = None,
) -> Study:
    """``study`` with what the user chose instead of the preset's defaults (validated).
    Files given without sizes replace the study's generated sizes; more ``rounds`` than the
    study's ``max_rounds`` raise that too (without a ``max_rounds`` of the user's). Other
    inputs than the study's drop its description, which names its own; reports say what
    ran (:func:`app.core.study.report_text.what_ran`)."""
    changes: dict[str, Any] = {}
    if files is not None:
        changes["files"] = tuple(files)
        if sizes is None:
            changes["sizes"] = ()
    if sizes is not None:
        changes["sizes"] = tuple(sizes)
    if changes.get("sizes", study.sizes) != study.sizes or changes.get("files", study.files) != (
        study.files
    ):
        changes["description"] = ""  # the preset's words name its own inputs ("on 1, 10 ...")
    if repeat is not None:
        changes["repeat"] = repeat
    if rounds is not None:
        changes["rounds"] = rounds
        if max_rounds is None and rounds > study.max_rounds:
            changes["max_rounds"] = min(rounds, MAX_ROUNDS)
    for key, value in (
        ("units", units),
        ("max_rounds", max_rounds),
        ("time_budget_s", time_budget_s),
        ("precision_percent", precision_percent),
        ("margin_percent", margin_percent),
    ):
        if value is not None:
            changes[key] = value
    return replace(study, **changes).validate()


__all__ = [
    "QUANTITIES",
    "QUANTITY_NAMES",
    "UNITS",
    "CipherChoice",
    "PublishedFigure",
    "SizeInput",
    "Study",
    "parse_sizes",
    "size_input",
    "study_with",
]
