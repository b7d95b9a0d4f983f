"""Self-test: every registry entry against published test vectors, and libraries against each other.

:func:`run_selftest` checks each :class:`~app.core.ciphers.registry.CipherSpec` in ``REGISTRY``
through
the same adapter and message-layer calls the benchmark times, so a wrong mode, IV layout, padding
or tag placement in an adapter shows up here:

1. **Published vectors** (:mod:`app.core.ciphers.vectors`) matching the entry's algorithm, mode and
a key
   size it accepts. Each one is encrypted and decrypted through the raw/AEAD interface and through
   ``encrypt_bytes``/``decrypt_bytes`` (PKCS#7 for ECB/CBC: the padded output must start with the
   raw vector and round-trip). AEAD vectors must also be rejected, with ``AuthenticationError``,
   once a tag bit is flipped. RFC 7253's iterated test covers 192/256-bit OCB.
2. **Derived checks**, where nothing is published:

   - CTR: the output must equal the data XORed with ECB encryptions of the successive counter
     blocks (the whole block, big-endian, carried across 32 bits and wrapping to zero as
     OpenSSL does), the ECB of the same library being vector-checked itself ("derived from ECB
     vectors"). Run for every CTR entry: RFC 3686 only counts 1, 2, 3 in the last word, and for
     Blowfish/3DES/DES in CTR mode (OpenSSL has none, nobody publishes vectors) it is the check.
   - CBC: the output must equal ECB(data block XOR previous ciphertext block), the same
     library's ECB being vector-checked ("CBC chaining"), on five whole blocks. Run for every CBC
     entry, beside the published CBC vectors, which rarely chain more than four blocks.
   - Blowfish keys above 192 bits: the key schedule cycles the key bytes over the 72-byte
     P-array, so key K and K repeated give the same cipher; a published vector with its key
     repeated up to the size becomes a vector for it ("key repetition").
   - RC4 at key sizes RFC 6229 lacks: a pure-Python RC4, itself checked against every RFC 6229
     vector here, must produce the same keystream as the library at every size it accepts.
3. **Cross-library agreement** for each id offered by two or more libraries: random (seeded)
   key, IV and data of 0, 1, 15, 16, 17, 1000 and 4099 bytes (pyaes, pure Python, at most 1000),
   AEADs also with associated data; every library must produce the same bytes and decrypt the
   others' output. Variable-key ciphers run at their default, smallest and largest common key
   size, and every other common size with short inputs.

An entry without any published or derived check fails with "no test vector". The derived checks
live in :mod:`app.core.ciphers.selftest_derived`, the published-vector checks in
:mod:`app.core.ciphers.selftest_vectors`, the report types in ``selftest_report``.
No Qt here: the CLI (``python main.py selftest``) and the GUI both call this.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial

from app.core.ciphers.adapters import Adapter, get_adapter
from app.core.ciphers.message import decrypt_bytes, encrypt_bytes
from app.core.ciphers.registry import LIBRARIES, REGISTRY, CipherSpec, Kind
from app.core.ciphers.selftest_derived import (
    _DERIVED_KEY_REPEAT,
    DerivedResult,
    _ecb_spec,
    _guard,
    _hex,
    _raw,
    derived_checks,
    reference_rc4,
    repeated_key_vectors,
)
from app.core.ciphers.selftest_report import (
    EntryResult,
    SelfTestReport,
    format_report,
    report_to_dict,
)
from app.core.ciphers.selftest_vectors import (
    aead_once,
    applicable_ocb_iterated,
    applicable_vectors,
    check_ocb_iterated,
    check_vector,
)

DEFAULT_SEED = 0xC1BE
AGREEMENT_LENGTHS = (0, 1, 15, 16, 17, 1000, 4099)
SHORT_LENGTHS = (0, 1, 17, 100)  # the extra key sizes of variable-key ciphers
PYAES_MAX_BYTES = 1000  # pure Python: ~2 ms per KB, so the 4099-byte case is left out
AAD_LENGTHS = {1: 13, 1000: 32}  # data length -> AAD length for the extra AEAD cases


# --- cross-library agreement --------------------------------------------------------------------


def _agreement_key_sizes(specs: list[CipherSpec]) -> list[tuple[int, tuple[int, ...]]]:
    """(key bits, data lengths) to compare: default/min/max in full, other common sizes short."""
    base = specs[0]
    if not base.key_bits_allowed:
        return [(base.key_bits, AGREEMENT_LENGTHS)]
    common = sorted(set.intersection(*(set(s.key_bits_allowed) for s in specs)))
    full = {base.key_bits, common[0], common[-1]}
    return [(b, AGREEMENT_LENGTHS if b in full else SHORT_LENGTHS) for b in common]


def _random_iv(spec: CipherSpec, rng: random.Random) -> bytes:
    # The block counter at zero, far from its limit, where the libraries refuse to go on.
    return spec.fresh_iv(rng.randbytes)


def cross_library_agreement(specs: list[CipherSpec], rng: random.Random) -> tuple[int, list[str]]:
    """Same key, IV and data through every library offering the id: (cases run, failures)."""
    adapters = {s.library: get_adapter(s.library) for s in specs}
    cases, failures = 0, []
    for bits, lengths in _agreement_key_sizes(specs):
        sized = [s.with_key_bits(bits) for s in specs]
        for length in lengths:
            key, iv, data = (
                rng.randbytes(bits // 8),
                _random_iv(sized[0], rng),
                rng.randbytes(length),
            )
            aads = [b""]
            if sized[0].kind is Kind.AEAD and length in AAD_LENGTHS:
                aads.append(rng.randbytes(AAD_LENGTHS[length]))
            for aad in aads:
                cases += 1
                failure = _guard(
                    f"{bits}-bit key, {length} bytes",
                    partial(_agree_once, sized, adapters, key, iv, data, aad),
                )
                if failure:
                    failures.append(failure)
    return cases, failures


def _agree_once(
    specs: list[CipherSpec],
    adapters: dict[str, Adapter],
    key: bytes,
    iv: bytes,
    data: bytes,
    aad: bytes,
) -> str | None:
    where = f"{specs[0].key_bits}-bit key, {len(data)} bytes" + (
        f", {len(aad)}-byte AAD" if aad else ""
    )
    usable = [s for s in specs if s.library != "pyaes" or len(data) <= PYAES_MAX_BYTES]
    outputs: dict[str, bytes] = {}
    for s in usable:
        a = adapters[s.library]
        outputs[s.library] = (
            aead_once(a, s, key, iv, data, aad) if aad else encrypt_bytes(s, a, key, iv, data)
        )
    first, reference = next(iter(outputs.items()))
    for lib, out in outputs.items():
        if out != reference:
            return f"{where}: {lib} gives {_hex(out)}, {first} gives {_hex(reference)}"
    for s in usable:  # each library decrypts what the others produced
        a = adapters[s.library]
        back = (
            aead_once(a, s, key, iv, reference, aad, decrypt=True)
            if aad
            else decrypt_bytes(s, a, key, iv, reference)
        )
        if back != data:
            return f"{where}: {s.library} does not decrypt {first}'s output"
    return None


# --- running it all -----------------------------------------------------------------------------


@dataclass
class _Tally:
    """Mutable accumulator for one entry; frozen into an EntryResult at the end."""

    key_sizes: set[int] = field(default_factory=set)
    vectors_passed: int = 0
    vectors_run: int = 0
    derived_passed: int = 0
    derived_run: int = 0
    sources: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def add_source(self, name: str) -> None:
        if name not in self.sources:
            self.sources.append(name)

    def published(self, vector_failures: list[str], key_bits: int, document: str) -> None:
        self.vectors_run += 1
        self.add_source(document)
        if vector_failures:
            self.failures += vector_failures
        else:
            self.vectors_passed += 1
            self.key_sizes.add(key_bits)

    def derived(self, key_bits: int, name: str, failures: Iterable[str]) -> None:
        failures = list(failures)
        self.derived_run += 1
        self.add_source(name)
        if failures:
            self.failures += [f"{name}: {f}" for f in failures]
        else:
            self.derived_passed += 1
            self.key_sizes.add(key_bits)


def check_entry(spec: CipherSpec, rng: random.Random) -> _Tally:
    """Published vectors and derived checks for one entry (no cross-library part)."""
    tally = _Tally()
    try:
        adapter = get_adapter(spec.library)
    except Exception as exc:  # a missing library fails its entries only
        tally.failures.append(f"library unavailable: {type(exc).__name__}: {exc}")
        return tally
    for v in applicable_vectors(spec):
        tally.published(check_vector(spec, v, adapter), v.key_bits, v.document)
    for item in applicable_ocb_iterated(spec):
        tally.published(check_ocb_iterated(spec, item, adapter), item.key_bits, item.document)
    derived_sizes = [spec.key_bits]
    if spec.key_bits_allowed:
        derived_sizes.append(max(spec.key_bits_allowed))
    for bits in sorted(set(derived_sizes)):
        for v in repeated_key_vectors(spec, bits):
            tally.derived(bits, _DERIVED_KEY_REPEAT, check_vector(spec, v, adapter))
    for result in derived_checks(spec, adapter, rng):
        tally.derived(result.key_bits, result.name, result.failures)
    if tally.vectors_run + tally.derived_run == 0:
        tally.failures.append("no test vector: no published vector or derived check applies")
    elif spec.key_bits not in tally.key_sizes and not tally.failures:
        tally.failures.append(f"no test vector at the default {spec.key_bits}-bit key")
    return tally


def _library_versions() -> tuple[tuple[str, str], ...]:
    versions = []
    for lib in LIBRARIES:
        try:
            versions.append((lib, get_adapter(lib).version()))
        except Exception as exc:  # reported, not fatal
            versions.append((lib, f"unavailable: {type(exc).__name__}"))
    return tuple(versions)


def run_selftest(
    specs: Iterable[CipherSpec] | None = None, seed: int = DEFAULT_SEED
) -> SelfTestReport:
    """Check ``specs`` (default: the whole registry); takes about a second or two.

    Random inputs come from ``random.Random(seed)``, so a failure reproduces with the same seed.
    """
    started = time.perf_counter()
    specs = list(REGISTRY if specs is None else specs)
    rng = random.Random(seed)
    tallies = {(s.id, s.library): check_entry(s, rng) for s in specs}
    agreement: dict[str, str] = {}
    for cid in dict.fromkeys(s.id for s in specs):
        group = [s for s in REGISTRY if s.id == cid]
        if len(group) < 2:
            agreement[cid] = "single library"
            continue
        try:
            cases, failures = cross_library_agreement(group, rng)
        except Exception as exc:  # e.g. a library missing
            cases, failures = 0, [f"{type(exc).__name__}: {exc}"]
        libs = ", ".join(s.library for s in group)
        if failures:
            agreement[cid] = f"DISAGREES ({libs})"
            for s in group:
                if (s.id, s.library) in tallies:
                    tallies[s.id, s.library].failures += [f"agreement: {f}" for f in failures]
        else:
            agreement[cid] = f"agree ({libs}; {cases} cases)"
    entries = tuple(
        EntryResult(
            id=s.id,
            library=s.library,
            key_bits=s.key_bits,
            key_sizes=tuple(sorted(t.key_sizes)),
            vectors_passed=t.vectors_passed,
            vectors_run=t.vectors_run,
            derived_passed=t.derived_passed,
            derived_run=t.derived_run,
            sources=tuple(t.sources),
            agreement=agreement[s.id],
            failures=tuple(t.failures),
        )
        for s in specs
        for t in [tallies[s.id, s.library]]
    )
    return SelfTestReport(
        entries=entries,
        seconds=time.perf_counter() - started,
        seed=seed,
        versions=_library_versions(),
    )


__all__ = [
    "DerivedResult",
    "EntryResult",
    "SelfTestReport",
    "_ecb_spec",
    "_raw",
    "derived_checks",
    "format_report",
    "reference_rc4",
    "repeated_key_vectors",
    "report_to_dict",
]
