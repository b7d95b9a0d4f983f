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
    ...                               # (the keys: :mod:`app.core.study.published`)

Loading (:func:`app.core.study.study_file.load_study`) checks everything (:meth:`Study.validate`,
:mod:`app.core.study.definition_checks`) and raises ``UserError`` in one sentence; every table
takes only its keys, and a study *file* must name, in each published figure and claim, an entry
and an input of its own (:func:`app.core.study.study_file.check_paper`). The paper's claims are
``[[claim]]`` tables (:mod:`app.core.study.paper_claims`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from app.core.bench.jobs import BenchOptions
from app.core.bench.plan import check_options
from app.core.bench.rounds import repeat_per_round
from app.core.ciphers.registry import CipherSpec, default_libraries_for, lookup
from app.core.errors import UserError
from app.core.study.definition_checks import MAX_ROUNDS, check_choices, check_extras, check_numbers
from app.core.study.figures import QUANTITIES, QUANTITY_NAMES, UNITS
from app.core.study.paper_claims import KEYS as CLAIM_KEYS
from app.core.study.paper_claims import PaperClaim, claim_from_dict
from app.core.study.published import (
    FIGURE_KEYS,
    PublishedFigure,
    check_figure,
    figure_dict,
    figure_from_dict,
)
from app.core.study.study_toml import (
    SETTING_KEYS,
    TEXT_KEYS,
    error_text,
    read_keys,
    tables,
    typed,
)
from app.core.units import MIB, parse_size, size_label


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
        check_choices(self.name, [c.cipher_id for c in self.ciphers], self.workload)
        specs = [] if self.workload == "transfer" else self.specs()  # libraries and key sizes
        if not (self.sizes or self.files or self.file_slots):
            raise UserError(f"the study {self.name} has no input: give sizes or files")
        for size in self.sizes:
            if size.size_bytes <= 0:
                raise UserError(f"the size {size.label!r} must be at least 1 byte")
        check_numbers(
            units=self.units,
            rounds=self.rounds,
            max_rounds=self.max_rounds,
            time_budget_s=self.time_budget_s,
            precision_percent=self.precision_percent,
            margin_percent=self.margin_percent,
            min_time_s=self.min_time_s,
        )
        check_options(replace(self.bench_options(), repeat=self.repeat))
        check_extras(
            workload=self.workload,
            whole_program=self.whole_program,
            profile=self.profile,
            leak=self.leak,
            specs=specs,
            claims=self.claims,
        )
        for figure in self.published:
            check_figure(figure, self.memory_workload)
        return specs

    # --- TOML ----------------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, base: Path | None = None) -> Study:
        """The study a parsed TOML document describes (validated). Relative ``files`` are
        taken from ``base`` (the TOML file's folder)."""
        try:
            return _from_dict(cls, data, base).validate()
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError(f"malformed study: {error_text(exc)}") from None

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
                out["published"] = [figure_dict(p) for p in value]
            elif f.name == "claims":
                out["claim"] = [c.to_dict() for c in value]
            elif value is not None:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


def _from_dict(cls: type[Study], data: Mapping[str, Any], base: Path | None) -> Study:
    known = {f.name for f in fields(cls)} - {"ciphers", "claims"} | {"cipher", "claim"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r}")
    ciphers = tuple(
        CipherChoice(str(c["id"]).strip().lower(), c.get("library") or None)
        for c in tables(data, "cipher", {"id", "library"})
    )
    files = tuple(str(f) for f in data.get("files", ()))
    if base is not None:
        files = tuple(str(base / Path(f).expanduser()) for f in files)
    published = tuple(figure_from_dict(p) for p in tables(data, "published", FIGURE_KEYS))
    claims = tuple(claim_from_dict(c) for c in tables(data, "claim", set(CLAIM_KEYS)))
    return cls(
        name=typed(data, "name", str, None) or "",
        ciphers=ciphers,
        **read_keys(data, TEXT_KEYS),
        sizes=tuple(size_input(str(s)) for s in data.get("sizes", ())),
        file_slots=tuple(str(s) for s in data.get("file_slots", ())),
        files=files,
        **read_keys(data, SETTING_KEYS),
        published=published,
        claims=claims,
    )


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
    "SizeInput",
    "Study",
    "parse_sizes",
    "size_input",
    "study_with",
]
