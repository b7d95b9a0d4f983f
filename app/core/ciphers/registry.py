"""The cipher registry: every algorithm x key size x mode x library CipherBench can run, as data.

An entry's ``id`` follows OpenSSL's cipher names where OpenSSL has one (``aes-128-cbc``,
``des-ede3-cbc``, ``bf-cbc``, ``rc4``, ``chacha20-poly1305``) and extends the same pattern where
it has none (``bf-ctr``, ``aes-256-eax``, ``xchacha20-poly1305``). The same id exists once per
library that offers it; ``(id, library)`` is the key.

Everything that differs between ciphers is declared in a :class:`Row` of ``ROWS`` (key sizes, IV
layout and its block counter, in-place support, OpenSSL name, nominal key size, weaknesses); the
expansion into entries has no special cases. Adding a cipher is one row plus its published
vectors in ``resources/vectors/<algorithm>.json`` (and, for an algorithm new to a library, one
line in that adapter's table). ``tests/core/ciphers/test_registry_rows.py`` fails for a row
lacking either.

Ciphers with a variable key (Blowfish, RC4) have one id and a ``key_bits_allowed`` set; a job picks
the size (``--key-bits``), the entry gives the default.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import pairwise
from typing import Any

from app.core.ciphers import libraries
from app.core.errors import UserError
from app.core.text import did_you_mean


class Kind(StrEnum):
    """How a cipher treats the message; decides padding, buffer sizes and chunking."""

    BLOCK = "block"  # ECB/CBC: PKCS#7 padded, output grows by 1..block bytes
    STREAM = "stream"  # CFB/OFB/CTR/ChaCha20/RC4: output as long as the input
    AEAD = "aead"  # authenticated: output grows by the tag, tag verified on decryption


LIBRARIES = libraries.LIBRARIES  # one row each in app.core.ciphers.libraries


@dataclass(frozen=True)
class Weakness:
    """A note shown with an entry; ``label`` is the short form warnings use (None: not a
    security weakness, only worth knowing)."""

    note: str
    label: str | None


WEAKNESSES = {
    "ECB": Weakness(
        "ECB encrypts equal blocks to equal ciphertext and leaks patterns; a speed baseline only.",
        "ECB leaks patterns",
    ),
    "64-bit block": Weakness(
        "64-bit block: the birthday bound is reached after a few GB under one key "
        "(Sweet32); avoid on large data.",
        "64-bit block (Sweet32)",
    ),
    "DES": Weakness("56-bit key: brute-forced in hours with commodity hardware.", "56-bit key"),
    "RC4": Weakness(
        "RC4 is broken (biased keystream, RFC 7465 bans it from TLS).", "RC4 is broken"
    ),
    "pyaes": Weakness(
        "Pure Python: shows what an interpreter costs, thousands of times slower.", None
    ),
}
WEAKNESS_NOTES = {key: w.note for key, w in WEAKNESSES.items()}
LIBRARY_WEAKNESSES = {"pyaes": ("pyaes",)}  # noted on every entry of that library
_LABELS = {w.note: w.label for w in WEAKNESSES.values() if w.label}


def weakness_labels(spec: CipherSpec) -> list[str]:
    """The short labels of ``spec``'s security weaknesses (empty when it has none)."""
    return [_LABELS[n] for n in spec.notes if n in _LABELS]


@dataclass(frozen=True)
class CipherSpec:
    """One runnable cipher: algorithm, key size, mode and the library that implements it."""

    id: str
    library: str
    algorithm: str  # display family: AES, ChaCha20, ChaCha20-Poly1305, Blowfish, 3DES, DES, RC4
    mode: str  # ECB, CBC, CFB, OFB, CTR, GCM, CCM, OCB, SIV, GCM-SIV, EAX, Stream, AEAD
    kind: Kind
    key_bits: int
    block_bytes: int  # cipher block size; 1 for stream ciphers
    iv_bytes: int  # IV or nonce length; 0 when the mode takes none
    tag_bytes: int = 0
    tag_first: bool = False  # SIV puts the synthetic IV before the ciphertext (RFC 5297)
    key_bits_allowed: tuple[int, ...] = ()
    openssl_name: str | None = None  # the `openssl enc` name when OpenSSL can decrypt raw output
    openssl_legacy: bool = False  # OpenSSL 3 keeps it in the legacy provider
    openssl_key_bits: tuple[int, ...] = ()  # the only sizes `openssl enc` takes (empty: any)
    in_place: bool = False  # the library documents in-place operation (output may be the input)
    notes: tuple[str, ...] = ()
    keys: int = 1  # keys in the key material: SIV takes two, so aes-128-siv has 256 key bits
    # Where the IV holds a block counter, as (offset, length); fresh IVs zero it so no message
    # carries out of the low 32 bits, where libraries disagree (OpenSSL carries, pycryptodome
    # stops). OpenSSL's chacha20 IV starts with a 4-byte little-endian counter; CTR's whole IV
    # is the counter block, of which the last 4 bytes are zeroed.
    iv_counter: tuple[int, int] | None = None

    @property
    def key_bytes(self) -> int:
        return self.key_bits // 8

    @property
    def nominal_key_bits(self) -> int:
        """The key size a user thinks of: AES-128-SIV is "128" although it takes two keys."""
        return self.key_bits // self.keys

    @property
    def label(self) -> str:
        return f"{self.id} [{self.library}]"

    @property
    def padded(self) -> bool:
        return self.kind is Kind.BLOCK

    def with_counter_zeroed(self, iv: bytes) -> bytes:
        """``iv`` with its block-counter bytes (if the layout has any) set to zero."""
        if self.iv_counter is None:
            return iv
        at, n = self.iv_counter
        return iv[:at] + bytes(n) + iv[at + n :]

    def fresh_iv(self, random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> bytes:
        """A new IV or nonce from ``random_bytes``, its block counter (if any) at zero."""
        return self.with_counter_zeroed(random_bytes(self.iv_bytes))

    def with_key_bits(self, key_bits: int | None) -> CipherSpec:
        """This entry with another key size, checked against what the library accepts."""
        if key_bits is None or key_bits == self.key_bits:
            return self
        allowed = self.key_bits_allowed or (self.key_bits,)
        if key_bits not in allowed:
            raise UserError(
                f"{self.id} from {self.library} does not take a {key_bits}-bit key; "
                f"it takes {describe_sizes(allowed)}"
            )
        return replace(self, key_bits=key_bits)

    def output_bytes(self, input_bytes: int) -> int:
        """Ciphertext size of one message of ``input_bytes`` in memory mode."""
        if self.kind is Kind.BLOCK:
            return (input_bytes // self.block_bytes + 1) * self.block_bytes
        return input_bytes + self.tag_bytes


def describe_sizes(sizes: Iterable[int]) -> str:
    sizes = sorted(sizes)
    if len(sizes) > 6 and all(b - a == 8 for a, b in pairwise(sizes)):
        return f"{sizes[0]} to {sizes[-1]} bits in steps of 8"
    return ", ".join(str(s) for s in sizes) + " bits"


def _bits_range(lo: int, hi: int) -> tuple[int, ...]:
    return tuple(range(lo, hi + 1, 8))


# --- the rows ---------------------------------------------------------------------------------

_AES_LIBS = ("cryptography", "pycryptodome", "pyaes")  # the libraries that offer AES
_CRYPTO_AND_DOME = ("cryptography", "pycryptodome")
_DOME = ("pycryptodome",)
_CRYPTO = ("cryptography",)


@dataclass(frozen=True)
class Row:
    """One cipher id (or one per nominal key size, when ``id`` holds ``{bits}``), with everything
    that sets it apart. Expands to one :class:`CipherSpec` per size and library."""

    id: str
    algorithm: str
    mode: str
    kind: Kind
    sizes: tuple[int, ...]  # nominal key sizes, one id each
    libraries: tuple[str, ...]
    block_bytes: int
    iv_bytes: int
    tag_bytes: int = 0
    tag_first: bool = False
    keys: int = 1
    allowed: tuple[int, ...] = ()  # variable key: the sizes every library accepts
    allowed_by_library: tuple[tuple[str, tuple[int, ...]], ...] = ()  # ...unless set here
    openssl: bool = False  # `openssl enc -<id>` reads the raw output
    openssl_legacy: bool = False
    openssl_key_bits: tuple[int, ...] = ()  # `openssl enc` 3.0 uses the default key length
    in_place: tuple[str, ...] = ()  # libraries that may write over their input
    iv_counter: tuple[int, int] | None = None
    weaknesses: tuple[str, ...] = ()  # keys of WEAKNESSES
    remarks: tuple[str, ...] = ()

    def specs(self, bits: int) -> list[CipherSpec]:
        ident = self.id.format(bits=bits)
        per_lib = dict(self.allowed_by_library)
        return [
            CipherSpec(
                id=ident,
                library=lib,
                algorithm=self.algorithm,
                mode=self.mode,
                kind=self.kind,
                key_bits=bits * self.keys,
                block_bytes=self.block_bytes,
                iv_bytes=self.iv_bytes,
                tag_bytes=self.tag_bytes,
                tag_first=self.tag_first,
                key_bits_allowed=per_lib.get(lib, self.allowed),
                openssl_name=ident if self.openssl else None,
                openssl_legacy=self.openssl_legacy,
                openssl_key_bits=self.openssl_key_bits,
                in_place=lib in self.in_place,
                notes=self._notes(lib),
                keys=self.keys,
                iv_counter=self.iv_counter,
            )
            for lib in self.libraries
            if bits in self.sizes
        ]

    def _notes(self, library: str) -> tuple[str, ...]:
        keys = (*self.weaknesses, *LIBRARY_WEAKNESSES.get(library, ()))
        return tuple(WEAKNESS_NOTES[k] for k in keys) + self.remarks


def _block_modes(
    prefix: str, algorithm: str, sizes: tuple[int, ...], block: int, **common: Any
) -> list[Row]:
    """ECB, CBC, CFB, OFB and CTR of one block cipher; ``common`` applies to every mode and a
    ``<MODE>`` keyword (a dict) overrides fields for that mode; ``modes=`` picks a subset."""
    ctr = (block - 4, 4)
    modes: dict[str, dict[str, Any]] = {
        "ECB": dict(kind=Kind.BLOCK, iv_bytes=0, weaknesses=("ECB",)),
        "CBC": dict(kind=Kind.BLOCK, iv_bytes=block),
        "CFB": dict(kind=Kind.STREAM, iv_bytes=block),
        "OFB": dict(kind=Kind.STREAM, iv_bytes=block),
        "CTR": dict(kind=Kind.STREAM, iv_bytes=block, iv_counter=ctr),
    }
    wanted = common.pop("modes", tuple(modes))
    shared = {k: v for k, v in common.items() if k not in modes}
    rows = []
    for mode in wanted:
        fields = modes[mode]
        merged = {**shared, **fields, **common.get(mode, {})}
        merged["weaknesses"] = (*fields.get("weaknesses", ()), *shared.get("weaknesses", ()))
        rows.append(
            Row(
                id=prefix.format(mode=mode.lower()),
                algorithm=algorithm,
                mode=mode,
                sizes=sizes,
                block_bytes=block,
                **merged,
            )
        )
    return rows


def _aes_aead(mode: str, nonce: int, libraries: tuple[str, ...], **fields: Any) -> Row:
    return Row(
        id=f"aes-{{bits}}-{mode.lower()}",
        algorithm="AES",
        mode=mode,
        kind=Kind.AEAD,
        sizes=fields.pop("sizes", (128, 192, 256)),
        libraries=libraries,
        block_bytes=16,
        iv_bytes=nonce,
        tag_bytes=16,
        **fields,
    )


# AEAD nonce sizes: CCM uses 11 bytes so one message may reach 4 GiB (a 12-byte nonce caps it at
# 16 MiB); SIV takes its nonce as the last associated-data component (RFC 5297). pycryptodome's
# SIV and OCB have no output= parameter, so they are not in place.
_AES_ROWS = [
    *_block_modes(
        "aes-{{bits}}-{mode}", "AES", (128, 192, 256), 16,
        libraries=_AES_LIBS, openssl=True, in_place=_DOME,
    ),
    _aes_aead("GCM", 12, _CRYPTO_AND_DOME, in_place=_DOME),
    _aes_aead("CCM", 11, _CRYPTO_AND_DOME, in_place=_DOME),
    _aes_aead("OCB", 12, _CRYPTO_AND_DOME),
    _aes_aead(
        "SIV", 16, _CRYPTO_AND_DOME, tag_first=True, keys=2,
        remarks=("SIV uses two AES keys (the key is twice the AES size).",),
    ),
    _aes_aead("GCM-SIV", 12, _CRYPTO, sizes=(128, 256)),  # RFC 8452: no 192-bit variant
    _aes_aead("EAX", 16, _DOME, in_place=_DOME),
]  # fmt: skip

# 64-bit block ciphers. OpenSSL has no CTR for them; cryptography (OpenSSL) therefore neither.
_NO_OPENSSL_CTR = {
    "libraries": _DOME,
    "openssl": False,
    "openssl_legacy": False,
    "openssl_key_bits": (),
}
_LEGACY_ROWS = [
    *_block_modes(
        "bf-{mode}", "Blowfish", (256,), 8, libraries=_CRYPTO_AND_DOME, openssl=True,
        in_place=_DOME, allowed=_bits_range(32, 448), weaknesses=("64-bit block",),
        CTR=_NO_OPENSSL_CTR, openssl_legacy=True, openssl_key_bits=(128,),
    ),
    *_block_modes(
        "des-ede3-{mode}", "3DES", (192,), 8, libraries=_CRYPTO_AND_DOME, openssl=True,
        in_place=_DOME, allowed=(192,), weaknesses=("64-bit block",), CTR=_NO_OPENSSL_CTR,
    ),
    *_block_modes(
        "des-{mode}", "DES", (64,), 8, libraries=_DOME, openssl=True, in_place=_DOME,
        allowed=(64,), weaknesses=("64-bit block", "DES"), CTR=_NO_OPENSSL_CTR,
        openssl_legacy=True,
    ),
]  # fmt: skip

_STREAM_ROWS = [
    Row(
        id="chacha20", algorithm="ChaCha20", mode="Stream", kind=Kind.STREAM, sizes=(256,),
        libraries=_CRYPTO_AND_DOME, block_bytes=1, iv_bytes=16, openssl=True, in_place=_DOME,
        iv_counter=(0, 4),  # OpenSSL's IV: 4-byte little-endian block counter, 12-byte nonce
    ),
    Row(
        id="chacha20-poly1305", algorithm="ChaCha20-Poly1305", mode="AEAD", kind=Kind.AEAD,
        sizes=(256,), libraries=_CRYPTO_AND_DOME, block_bytes=1, iv_bytes=12, tag_bytes=16,
        in_place=_DOME,
    ),
    Row(
        id="rc4", algorithm="RC4", mode="Stream", kind=Kind.STREAM, sizes=(128,),
        libraries=_CRYPTO_AND_DOME, block_bytes=1, iv_bytes=0, openssl=True,
        openssl_legacy=True, openssl_key_bits=(128,),
        allowed_by_library=(
            ("cryptography", (40, 56, 64, 80, 128, 160, 192, 256)),
            ("pycryptodome", _bits_range(40, 2048)),
        ),
        weaknesses=("RC4",),  # not in place: pycryptodome's ARC4 returns a new bytes object
    ),
    Row(
        id="xchacha20-poly1305", algorithm="XChaCha20-Poly1305", mode="AEAD", kind=Kind.AEAD,
        sizes=(256,), libraries=_DOME, block_bytes=1, iv_bytes=24, tag_bytes=16, in_place=_DOME,
    ),
]  # fmt: skip

# Camellia (RFC 3713): cryptography only, pycryptodome and pyaes lack it.
_CAMELLIA_ROWS = _block_modes(
    "camellia-{{bits}}-{mode}", "Camellia", (128, 192, 256), 16, libraries=_CRYPTO,
    openssl=True, modes=("ECB", "CBC"),
)  # fmt: skip

# Each group expands row by row, or size by size (aes-128-*, then aes-192-*, ...) when marked;
# within a row, library by library.
_GROUPS: tuple[tuple[bool, list[Row]], ...] = (
    (True, _AES_ROWS),
    (False, _LEGACY_ROWS),
    (False, _STREAM_ROWS),
    (True, _CAMELLIA_ROWS),
)
ROWS: tuple[Row, ...] = tuple(row for _, rows in _GROUPS for row in rows)


def _expand(by_size: bool, rows: list[Row]) -> list[CipherSpec]:
    if not by_size:
        return [spec for row in rows for bits in row.sizes for spec in row.specs(bits)]
    sizes = dict.fromkeys(bits for row in rows for bits in row.sizes)
    return [spec for bits in sizes for row in rows for spec in row.specs(bits)]


REGISTRY: tuple[CipherSpec, ...] = tuple(
    spec for by_size, rows in _GROUPS for spec in _expand(by_size, rows)
)


def cipher_ids() -> list[str]:
    """Every distinct id, in registry order."""
    return list(dict.fromkeys(s.id for s in REGISTRY))


class UnknownCipher(UserError):
    """No registry entry has the id ``cipher_id``; the message names the nearest ids (each
    front-end says where the whole list is)."""

    def __init__(self, cipher_id: str) -> None:
        # An empty id (`--cipher ""`, `--cipher " "`) is said so rather than quoted as ''.
        super().__init__(
            f"unknown cipher {cipher_id!r}{suggest_ids(cipher_id)}"
            if cipher_id.strip()
            else "the cipher id is empty"
        )
        self.cipher_id = cipher_id


def suggest_ids(cipher_id: str) -> str:
    """`` (did you mean aes-256-ecb, aes-256-cbc, ...?)``: the ids nearest to ``cipher_id``,
    also by algorithm (``blowfish``: the bf-* ids), or empty."""
    algorithms = {s.id: s.algorithm for s in REGISTRY}
    return did_you_mean(cipher_id, cipher_ids(), algorithms)


def check_library(name: str, *, allow_all: bool = False) -> str:
    """``name`` when it is a library (or ``"all"``, when allowed), else :class:`UserError`
    naming the nearest and every choice."""
    choices = [*LIBRARIES, "all"] if allow_all else list(LIBRARIES)
    if name in choices:
        return name
    listed = ", ".join(choices[:-1]) + f" or {choices[-1]}"
    raise UserError(f"unknown library {name!r}{did_you_mean(name, choices)}; choose {listed}")


def libraries_for(cipher_id: str) -> list[str]:
    """Every library offering ``cipher_id``, in order of preference (pure Python last)."""
    return [s.library for s in REGISTRY if s.id == cipher_id]


def default_libraries_for(cipher_id: str) -> list[str]:
    """The libraries ``cipher_id`` runs in when none is named (``bench`` without --library, a
    preset or study entry without one): the compiled ones offering it. Pure Python (pyaes, a
    job of minutes where the others take milliseconds) only when named, or when no compiled
    library offers the id."""
    offered = libraries_for(cipher_id)
    return [lib for lib in offered if lib in libraries.COMPILED] or offered


def lookup(cipher_id: str, library: str, key_bits: int | None = None) -> CipherSpec:
    """The entry for ``cipher_id`` from ``library``, optionally with another key size."""
    cipher_id = cipher_id.strip().lower()
    check_library(library)
    libs = libraries_for(cipher_id)
    if not libs:
        raise UnknownCipher(cipher_id)
    if library not in libs:
        raise UserError(f"{cipher_id} is not offered by {library}; it is in {', '.join(libs)}")
    spec = next(s for s in REGISTRY if s.id == cipher_id and s.library == library)
    return spec.with_key_bits(key_bits)


def _chosen_libraries(cipher_id: str, library: str | None) -> list[str]:
    """The libraries of ``cipher_id`` that ``library`` (None: the default ones, ``"all"``, or a
    name) stands for."""
    if library is None:
        return default_libraries_for(cipher_id)
    offered = libraries_for(cipher_id)
    return offered if library == "all" else [lib for lib in offered if lib == library]


def select(
    cipher_ids_: Iterable[str], library: str | None = None, key_bits: int | None = None
) -> list[CipherSpec]:
    """Resolve command-line style choices to entries. ``library=None`` takes the default
    libraries of each id (:func:`default_libraries_for`: the compiled ones), ``'all'`` every
    library offering it; a named library must offer every id asked for. The id ``all`` stands
    for every id, from the libraries chosen (``all --library pyaes``: what pyaes offers)."""
    if library is not None:
        check_library(library, allow_all=True)
    specs: list[CipherSpec] = []
    for cid in cipher_ids_:
        cid = cid.strip().lower()
        if cid == "all":
            specs.extend(
                lookup(every, lib, key_bits)
                for every in cipher_ids()
                for lib in _chosen_libraries(every, library)
            )
            continue
        if not libraries_for(cid):
            raise UnknownCipher(cid)
        # A named library that lacks the id: lookup says which libraries have it.
        libs = _chosen_libraries(cid, library) if library in (None, "all") else [library]
        specs.extend(lookup(cid, lib, key_bits) for lib in libs)
    return specs
