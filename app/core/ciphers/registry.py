"""The cipher registry: every algorithm x key size x mode x library CipherBench can run, as data.

An entry's ``id`` follows OpenSSL's cipher names where OpenSSL has one (``aes-128-cbc``,
``des-ede3-cbc``, ``bf-cbc``, ``rc4``, ``chacha20-poly1305``) and extends the same pattern where
it has none (``bf-ctr``, ``aes-256-eax``, ``xchacha20-poly1305``). The same id exists once per
library that offers it; ``(id, library)`` is the key. Adding a cipher is one entry here plus, if
it is new to a library, one branch in that library's adapter.

Ciphers with a variable key (Blowfish, RC4) have one id and a ``key_bits_allowed`` set; a job picks
the size (``--key-bits``), the entry gives the default.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import pairwise

from app.core.errors import UserError


class Kind(StrEnum):
    """How a cipher treats the message; decides padding, buffer sizes and chunking."""

    BLOCK = "block"  # ECB/CBC: PKCS#7 padded, output grows by 1..block bytes
    STREAM = "stream"  # CFB/OFB/CTR/ChaCha20/RC4: output as long as the input
    AEAD = "aead"  # authenticated: output grows by the tag, tag verified on decryption


LIBRARIES = ("cryptography", "pycryptodome", "pyaes")

WEAKNESS_NOTES = {
    "ECB": "ECB encrypts equal blocks to equal ciphertext and leaks patterns; "
    "a speed baseline only.",
    "64-bit block": "64-bit block: the birthday bound is reached after a few GB under one key "
    "(Sweet32); avoid on large data.",
    "DES": "56-bit key: brute-forced in hours with commodity hardware.",
    "RC4": "RC4 is broken (biased keystream, RFC 7465 bans it from TLS).",
    "pyaes": "Pure Python: shows what an interpreter costs, thousands of times slower.",
}


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
    in_place: bool = False  # the library documents in-place operation (output may be the input)
    notes: tuple[str, ...] = ()

    @property
    def key_bytes(self) -> int:
        return self.key_bits // 8

    @property
    def label(self) -> str:
        return f"{self.id} [{self.library}]"

    @property
    def padded(self) -> bool:
        return self.kind is Kind.BLOCK

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


# --- the entries ------------------------------------------------------------------------------

_AES_IV = {"ECB": 0, "CBC": 16, "CFB": 16, "OFB": 16, "CTR": 16}
# AEAD nonce sizes. CCM uses 11 bytes so one message may reach 4 GiB (a 12-byte nonce caps it at
# 16 MiB); SIV takes its nonce as the last associated-data component (RFC 5297).
_AEAD = {
    "GCM": (12, 16),
    "CCM": (11, 16),
    "OCB": (12, 16),
    "SIV": (16, 16),
    "GCM-SIV": (12, 16),
    "EAX": (16, 16),
}
_AEAD_LIBS = {
    "GCM": ("cryptography", "pycryptodome"),
    "CCM": ("cryptography", "pycryptodome"),
    "OCB": ("cryptography", "pycryptodome"),
    "SIV": ("cryptography", "pycryptodome"),
    "GCM-SIV": ("cryptography",),
    "EAX": ("pycryptodome",),
}
_OPENSSL_RAW = {"ECB", "CBC", "CFB", "OFB", "CTR"}


def _aes_entries() -> list[CipherSpec]:
    out: list[CipherSpec] = []
    for bits in (128, 192, 256):
        for mode, iv in _AES_IV.items():
            kind = Kind.BLOCK if mode in ("ECB", "CBC") else Kind.STREAM
            notes = (WEAKNESS_NOTES["ECB"],) if mode == "ECB" else ()
            ident = f"aes-{bits}-{mode.lower()}"
            for lib in LIBRARIES:
                lib_notes = notes + ((WEAKNESS_NOTES["pyaes"],) if lib == "pyaes" else ())
                out.append(
                    CipherSpec(
                        id=ident,
                        library=lib,
                        algorithm="AES",
                        mode=mode,
                        kind=kind,
                        key_bits=bits,
                        block_bytes=16,
                        iv_bytes=iv,
                        openssl_name=ident if mode in _OPENSSL_RAW else None,
                        in_place=lib == "pycryptodome",
                        notes=lib_notes,
                    )
                )
        for mode, (nonce, tag) in _AEAD.items():
            # SIV needs two AES keys: aes-128-siv takes 256 key bits, as in OpenSSL.
            key_bits = bits * 2 if mode == "SIV" else bits
            if mode == "GCM-SIV" and bits == 192:
                continue  # RFC 8452 defines AES-128- and AES-256-GCM-SIV only
            for lib in _AEAD_LIBS[mode]:
                out.append(
                    CipherSpec(
                        id=f"aes-{bits}-{mode.lower()}",
                        library=lib,
                        algorithm="AES",
                        mode=mode,
                        kind=Kind.AEAD,
                        key_bits=key_bits,
                        block_bytes=16,
                        iv_bytes=nonce,
                        tag_bytes=tag,
                        tag_first=mode == "SIV",
                        in_place=lib == "pycryptodome" and mode not in ("SIV", "OCB"),  # no output=
                        notes=("SIV uses two AES keys (the key is twice the AES size).",)
                        if mode == "SIV"
                        else (),
                    )
                )
    return out


def _legacy_block_entries() -> list[CipherSpec]:
    """Blowfish, 3DES and DES: 64-bit blocks, so every one carries the birthday-bound note."""
    out: list[CipherSpec] = []
    families = (
        # algorithm, id prefix, key bits, allowed, libraries for ECB/CBC/CFB/OFB, extra notes
        ("Blowfish", "bf", 256, _bits_range(32, 448), ("cryptography", "pycryptodome"), ()),
        ("3DES", "des-ede3", 192, (192,), ("cryptography", "pycryptodome"), ()),
        ("DES", "des", 64, (64,), ("pycryptodome",), (WEAKNESS_NOTES["DES"],)),
    )
    for algorithm, prefix, bits, allowed, libs, extra in families:
        for mode in ("ECB", "CBC", "CFB", "OFB", "CTR"):
            kind = Kind.BLOCK if mode in ("ECB", "CBC") else Kind.STREAM
            notes = (WEAKNESS_NOTES["64-bit block"], *extra)
            if mode == "ECB":
                notes = (WEAKNESS_NOTES["ECB"], *notes)
            # OpenSSL has no CTR for these; cryptography (OpenSSL) therefore neither.
            mode_libs = ("pycryptodome",) if mode == "CTR" else libs
            ident = f"{prefix}-{mode.lower()}"
            openssl = ident if mode != "CTR" else None
            for lib in mode_libs:
                out.append(
                    CipherSpec(
                        id=ident,
                        library=lib,
                        algorithm=algorithm,
                        mode=mode,
                        kind=kind,
                        key_bits=bits,
                        block_bytes=8,
                        iv_bytes=0 if mode == "ECB" else 8,
                        key_bits_allowed=allowed,
                        openssl_name=openssl,
                        in_place=lib == "pycryptodome",
                        notes=notes,
                    )
                )
    return out


def _stream_entries() -> list[CipherSpec]:
    out: list[CipherSpec] = []
    for lib in ("cryptography", "pycryptodome"):
        # OpenSSL's chacha20 IV: 4-byte little-endian block counter, then the 12-byte nonce.
        out.append(
            CipherSpec(
                id="chacha20",
                library=lib,
                algorithm="ChaCha20",
                mode="Stream",
                kind=Kind.STREAM,
                key_bits=256,
                block_bytes=1,
                iv_bytes=16,
                openssl_name="chacha20",
                in_place=lib == "pycryptodome",
            )
        )
        out.append(
            CipherSpec(
                id="chacha20-poly1305",
                library=lib,
                algorithm="ChaCha20-Poly1305",
                mode="AEAD",
                kind=Kind.AEAD,
                key_bits=256,
                block_bytes=1,
                iv_bytes=12,
                tag_bytes=16,
                in_place=lib == "pycryptodome",
            )
        )
        rc4_allowed = (
            (40, 56, 64, 80, 128, 160, 192, 256) if lib == "cryptography" else _bits_range(40, 2048)
        )
        out.append(
            CipherSpec(
                id="rc4",
                library=lib,
                algorithm="RC4",
                mode="Stream",
                kind=Kind.STREAM,
                key_bits=128,
                block_bytes=1,
                iv_bytes=0,
                key_bits_allowed=rc4_allowed,
                openssl_name="rc4",
                in_place=False,  # pycryptodome's ARC4 returns a new bytes object
                notes=(WEAKNESS_NOTES["RC4"],),
            )
        )
    out.append(
        CipherSpec(
            id="xchacha20-poly1305",
            library="pycryptodome",
            algorithm="XChaCha20-Poly1305",
            mode="AEAD",
            kind=Kind.AEAD,
            key_bits=256,
            block_bytes=1,
            iv_bytes=24,
            tag_bytes=16,
            in_place=True,
        )
    )
    return out


REGISTRY: tuple[CipherSpec, ...] = tuple(
    _aes_entries() + _legacy_block_entries() + _stream_entries()
)


def cipher_ids() -> list[str]:
    """Every distinct id, in registry order."""
    return list(dict.fromkeys(s.id for s in REGISTRY))


def libraries_for(cipher_id: str) -> list[str]:
    return [s.library for s in REGISTRY if s.id == cipher_id]


def lookup(cipher_id: str, library: str, key_bits: int | None = None) -> CipherSpec:
    """The entry for ``cipher_id`` from ``library``, optionally with another key size."""
    cipher_id = cipher_id.strip().lower()
    if library not in LIBRARIES:
        raise UserError(f"unknown library {library!r}; choose from {', '.join(LIBRARIES)}")
    libs = libraries_for(cipher_id)
    if not libs:
        raise UserError(f"unknown cipher {cipher_id!r}; `python main.py list` shows them all")
    if library not in libs:
        raise UserError(f"{cipher_id} is not offered by {library}; it is in {', '.join(libs)}")
    spec = next(s for s in REGISTRY if s.id == cipher_id and s.library == library)
    return spec.with_key_bits(key_bits)


def select(
    cipher_ids_: Iterable[str], library: str = "all", key_bits: int | None = None
) -> list[CipherSpec]:
    """Resolve command-line style choices to entries. ``library='all'`` takes every library
    offering each id; a named library must offer every id asked for. The id ``all`` stands for
    every id, from the libraries chosen (``all --library pyaes``: what pyaes offers)."""
    if library != "all" and library not in LIBRARIES:
        raise UserError(f"unknown library {library!r}; choose from {', '.join(LIBRARIES)}")
    specs: list[CipherSpec] = []
    for cid in cipher_ids_:
        cid = cid.strip().lower()
        if cid == "all":
            specs.extend(
                lookup(every, lib, key_bits)
                for every in cipher_ids()
                for lib in libraries_for(every)
                if library in ("all", lib)
            )
            continue
        libs = libraries_for(cid) if library == "all" else [library]
        if not libs:
            raise UserError(f"unknown cipher {cid!r}; `python main.py list` shows them all")
        specs.extend(lookup(cid, lib, key_bits) for lib in libs)
    return specs
