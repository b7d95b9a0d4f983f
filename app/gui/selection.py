"""What the user picked in the selection panel, as plain data (no Qt), and the presets.

A :class:`Selection` is a set of algorithms, each with chosen key sizes and modes, plus a set
of libraries. :func:`selected_specs` turns it into registry entries: every entry whose
algorithm, mode and library are chosen, once per chosen key size. The catalog of choices is
derived from the registry, so a new registry entry shows up here without code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.core.bench import presets as core_presets
from app.core.ciphers.registry import LIBRARIES, REGISTRY, CipherSpec

# Variable-key ciphers offer these sizes (when the libraries accept them) besides their default.
_VARIABLE_KEY_CHOICES = (128,)


@dataclass(frozen=True)
class AlgorithmInfo:
    """The choices one algorithm offers, in registry order."""

    name: str
    key_bits: tuple[int, ...]
    default_key_bits: int
    modes: tuple[str, ...]
    libraries: tuple[str, ...]


def _catalog() -> dict[str, AlgorithmInfo]:
    grouped: dict[str, list[CipherSpec]] = {}
    for spec in REGISTRY:
        grouped.setdefault(spec.algorithm, []).append(spec)
    out: dict[str, AlgorithmInfo] = {}
    for name, specs in grouped.items():
        modes = tuple(dict.fromkeys(s.mode for s in specs))
        libs = tuple(lib for lib in LIBRARIES if any(s.library == lib for s in specs))
        if any(s.key_bits_allowed and len(s.key_bits_allowed) > 1 for s in specs):
            # Sizes every library accepts: the smallest, 128, the default and the largest.
            common = set.intersection(*(set(s.key_bits_allowed or (s.key_bits,)) for s in specs))
            wanted = {min(common), max(common), specs[0].key_bits, *_VARIABLE_KEY_CHOICES}
            bits = tuple(sorted(wanted & common))
        else:
            bits = tuple(sorted({s.nominal_key_bits for s in specs}))
        default = specs[0].key_bits if specs[0].algorithm != "AES" else 256
        out[name] = AlgorithmInfo(name, bits, default, modes, libs)
    return out


CATALOG: dict[str, AlgorithmInfo] = _catalog()


@dataclass
class AlgorithmChoice:
    enabled: bool = False
    key_bits: set[int] = field(default_factory=set)
    modes: set[str] = field(default_factory=set)


@dataclass
class Selection:
    """Checked algorithms (with their key sizes and modes) and libraries."""

    algorithms: dict[str, AlgorithmChoice] = field(default_factory=dict)
    libraries: set[str] = field(default_factory=set)

    def choice(self, algorithm: str) -> AlgorithmChoice:
        return self.algorithms.setdefault(algorithm, AlgorithmChoice())

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form for the settings file."""
        return {
            "algorithms": {
                name: {
                    "enabled": c.enabled,
                    "key_bits": sorted(c.key_bits),
                    "modes": sorted(c.modes),
                }
                for name, c in self.algorithms.items()
            },
            "libraries": sorted(self.libraries),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Selection:
        """Inverse of :meth:`to_dict`; unknown names are dropped, bad data gives the default."""
        try:
            libs = tuple(lib for lib in data["libraries"] if lib in LIBRARIES)
            sel = make_selection({}, libs)
            for name, c in data["algorithms"].items():
                info = CATALOG.get(name)
                if info is None:
                    continue
                sel.algorithms[name] = AlgorithmChoice(
                    enabled=bool(c["enabled"]),
                    key_bits={int(b) for b in c["key_bits"] if int(b) in info.key_bits},
                    modes={m for m in c["modes"] if m in info.modes},
                )
            return sel
        except (KeyError, TypeError, ValueError, AttributeError):
            return default_selection()


def make_selection(
    choices: dict[str, tuple[tuple[int, ...], tuple[str, ...]]], libraries: tuple[str, ...]
) -> Selection:
    """A selection with ``choices`` (algorithm -> (key sizes, modes)) enabled. Algorithms left
    out keep their default key size and first mode, unchecked, so checking them later gives a
    sensible start."""
    sel = Selection(libraries=set(libraries))
    for name, info in CATALOG.items():
        if name in choices:
            bits, modes = choices[name]
            sel.algorithms[name] = AlgorithmChoice(True, set(bits), set(modes))
        else:
            sel.algorithms[name] = AlgorithmChoice(False, {info.default_key_bits}, {info.modes[0]})
    return sel


def selected_specs(selection: Selection) -> list[CipherSpec]:
    """Registry entries the selection stands for, in registry order, each with its key size."""
    out: list[CipherSpec] = []
    for spec in REGISTRY:
        choice = selection.algorithms.get(spec.algorithm)
        if choice is None or not choice.enabled or spec.library not in selection.libraries:
            continue
        if spec.mode not in choice.modes:
            continue
        if spec.algorithm == "AES" or not spec.key_bits_allowed:
            if spec.nominal_key_bits in choice.key_bits:
                out.append(spec)
            continue
        for bits in sorted(choice.key_bits):
            if bits in spec.key_bits_allowed:
                out.append(spec.with_key_bits(bits))
    return out


def weakness_notes(specs: list[CipherSpec]) -> list[str]:
    """The security notes of ``specs``, each once, in first-seen order."""
    return list(dict.fromkeys(note for spec in specs for note in spec.notes))


@dataclass(frozen=True)
class Preset:
    name: str  # the core preset's title
    source: str  # the study it reproduces (the core preset's description)
    selection: Selection


def preset_selection(preset: core_presets.Preset) -> Selection:
    """The smallest selection that covers ``preset``'s registry entries: their algorithms with
    their key sizes and modes, and their libraries."""
    choices: dict[str, tuple[list[int], list[str]]] = {}
    libraries: list[str] = []
    for spec in preset.specs():
        bits, modes = choices.setdefault(spec.algorithm, ([], []))
        bits.append(spec.nominal_key_bits)
        modes.append(spec.mode)
        libraries.append(spec.library)
    return make_selection(
        {name: (tuple(bits), tuple(modes)) for name, (bits, modes) in choices.items()},
        tuple(libraries),
    )


def _presets() -> tuple[Preset, ...]:
    """The window's presets: the core ones (``--preset`` on the command line), as selections."""
    return tuple(Preset(p.title, p.description, preset_selection(p)) for p in core_presets.PRESETS)


PRESETS: tuple[Preset, ...] = _presets()


def default_selection() -> Selection:
    """The first preset (the Blowfish study, the study whose window CipherBench reproduces)."""
    return Selection.from_dict(PRESETS[0].selection.to_dict())
