"""Published test vectors for every algorithm and mode in the registry, read from data
files.

The vectors are ``resources/vectors/<algorithm>.json`` (one file per algorithm), the citations
``resources/vectors/documents.json`` and RFC 7253's iterated OCB test ``ocb-iterated.json``; one
reader (:func:`load_vectors`, in the manner of pyca/cryptography's ``load_nist_vectors``) turns
them into frozen :class:`Vector` rows and refuses a malformed file (an unknown field, a hex
string that is not hex, a document without a citation). Adding an algorithm's vectors is adding
its file. Every hex string was extracted by a script (never typed) from a published vector file;
each :class:`Vector` names its document (a key of :data:`DOCUMENTS`, which gives the full
citation) and its exact location (file, section, COUNT). Most files come from the
``cryptography_vectors`` 50.0.2 wheel (``cryptography_vectors/ciphers/...``), which
redistributes the NIST CAVP response files and the RFC appendices; the rest from pycryptodome
4.4's self-test sources and Wycheproof.

Conventions, so a checker needs no per-file knowledge:

- ``ciphertext`` never contains the tag; ``tag`` is separate (empty for unauthenticated modes).
- ECB and CBC vectors are raw blocks without padding, as NIST publishes them.
- CFB is full-block CFB (CFB128 for AES, CFB64 for Blowfish/3DES/DES), as OpenSSL's ``-cfb``.
- AES-CTR ``iv`` is the full initial counter block (RFC 3686: nonce || IV || counter 1).
- ChaCha20 ``iv`` is OpenSSL's 16 bytes: little-endian 32-bit block counter || 96-bit nonce.
- AES-SIV vectors with an empty ``iv`` are deterministic (RFC 5297 A.1): ``aad`` is the single
  S2V component. RFC 5297 A.2 (two AD strings plus a nonce) is left out: the adapter takes one AD
  string and the nonce, so it cannot express three components.
- ``offset`` (RC4, RFC 6229) is how many keystream bytes precede ``plaintext``.

A handful of vectors per (algorithm, mode, key size): known-answer and multi-block ones, with and
without associated data, empty plaintext where the source has it. Sizes with no published vector
(Blowfish/3DES/DES in CTR mode, Blowfish keys above 192 bits, most RC4 key sizes) are covered by
derived checks in :mod:`app.core.ciphers.selftest_derived`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from app.core.resources import resource_path

VECTOR_FILES = "vectors"  # under resources/
_HEX_FIELDS = ("key", "plaintext", "ciphertext", "iv", "aad", "tag")


@dataclass(frozen=True)
class Vector:
    """One published encryption: hex strings, ``ciphertext`` without the tag (see module doc)."""

    algorithm: str  # as CipherSpec.algorithm
    mode: str  # as CipherSpec.mode
    document: str  # a key of DOCUMENTS
    location: str  # file, section and COUNT inside the document
    key: str
    plaintext: str
    ciphertext: str
    iv: str = ""
    aad: str = ""
    tag: str = ""
    offset: int = 0

    @property
    def key_bits(self) -> int:
        return len(self.key) * 4

    @property
    def source(self) -> str:
        return f"{self.document}: {self.location}"


@dataclass(frozen=True)
class OcbIterated:
    """RFC 7253 appendix A's iterated test: 385 OCB encryptions under the key
    ``zeros(key_bits - 8) || tag_bits`` with 96-bit nonces 1..385, of which ``output`` is the
    last (the tag over all earlier outputs). Covers the 192- and 256-bit keys, which have no
    plain sample vector."""

    key_bits: int
    document: str
    location: str
    output: str
    tag_bits: int = 128
    nonce_bits: int = 96


class VectorFileError(ValueError):
    """A vector file that cannot be read as published vectors (the message names the file)."""


def _read(path: Path, kind: str) -> Mapping[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise VectorFileError(f"{path}: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != kind or data.get("version") != 1:
        raise VectorFileError(f"{path}: not a {kind} file of version 1")
    return data


def _vector(path: Path, algorithm: str, row: Any, documents: Mapping[str, str]) -> Vector:
    names = {f.name for f in fields(Vector)} - {"algorithm"}
    if not isinstance(row, dict) or set(row) - names:
        raise VectorFileError(f"{path}: a vector with unknown fields {sorted(set(row) - names)}")
    try:
        vector = Vector(algorithm=algorithm, **row)
    except TypeError as exc:  # a required field missing
        raise VectorFileError(f"{path}: {exc}") from exc
    for name in _HEX_FIELDS:
        value = getattr(vector, name)
        try:
            bytes.fromhex(value)
        except (TypeError, ValueError):
            raise VectorFileError(f"{path}: {vector.location}: {name} is not hex") from None
    if vector.document not in documents:
        raise VectorFileError(f"{path}: {vector.location}: no citation for {vector.document!r}")
    return vector


def load_documents(folder: Path | None = None) -> dict[str, str]:
    """The citation of every document a vector names."""
    folder = folder or resource_path(VECTOR_FILES)
    return dict(_read(folder / "documents.json", "cipherbench-vector-documents")["documents"])


def load_vectors(folder: Path | None = None) -> tuple[Vector, ...]:
    """Every vector in every ``<algorithm>.json`` of ``folder`` (the shipped ones by default),
    in file-name order. Raises :class:`VectorFileError` for a malformed file."""
    folder = folder or resource_path(VECTOR_FILES)
    documents = load_documents(folder)
    found: list[Vector] = []
    for path in sorted(folder.glob("*.json")):
        if path.name in ("documents.json", "ocb-iterated.json"):
            continue
        data = _read(path, "cipherbench-test-vectors")
        algorithm = str(data["algorithm"])
        found.extend(_vector(path, algorithm, row, documents) for row in data["vectors"])
    return tuple(found)


def load_ocb_iterated(folder: Path | None = None) -> tuple[OcbIterated, ...]:
    folder = folder or resource_path(VECTOR_FILES)
    tests = _read(folder / "ocb-iterated.json", "cipherbench-ocb-iterated")["tests"]
    return tuple(OcbIterated(**t) for t in tests)


def vectors_for(algorithm: str, mode: str) -> tuple[Vector, ...]:
    """Every vector of ``algorithm`` in ``mode``, all key sizes."""
    return tuple(v for v in VECTORS if v.algorithm == algorithm and v.mode == mode)


DOCUMENTS: dict[str, str] = load_documents()
VECTORS: tuple[Vector, ...] = load_vectors()
OCB_ITERATED: tuple[OcbIterated, ...] = load_ocb_iterated()
