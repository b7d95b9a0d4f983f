"""Derived self-test checks, where nothing is published (see :mod:`app.core.ciphers.selftest`).

CTR and CBC are rebuilt from the same library's ECB (itself checked against published vectors),
larger Blowfish keys from published vectors with the key repeated, and RC4 at key sizes RFC 6229
lacks from a pure-Python RC4 checked against every RFC 6229 vector. Also the small helpers the
published-vector checks share.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from app.core.ciphers.adapters import SLACK, Adapter
from app.core.ciphers.message import decrypt_bytes, encrypt_bytes
from app.core.ciphers.registry import REGISTRY, CipherSpec
from app.core.ciphers.vectors import VECTORS, Vector

_DERIVED_CTR = "derived from ECB vectors"
_DERIVED_KEY_REPEAT = "derived: Blowfish key repetition"
_DERIVED_RC4 = "derived: RFC 6229-checked reference RC4"
_DERIVED_CBC = "derived from ECB vectors (CBC chaining)"


def _hex(data: bytes, limit: int = 24) -> str:
    text = data.hex()
    return text if len(text) <= 2 * limit else f"{text[: 2 * limit]}... ({len(data)} bytes)"


def _mismatch(what: str, got: bytes, want: bytes) -> str | None:
    if got == want:
        return None
    return f"{what}: got {_hex(got)}, expected {_hex(want)}"


def _guard(what: str, fn: Callable[[], str | None]) -> str | None:
    """Run one check; an exception from the library is a failure, not a crash."""
    try:
        return fn()
    except Exception as exc:  # any library error is a failed check
        return f"{what}: {type(exc).__name__}: {exc}"


def _raw(
    adapter: Adapter, spec: CipherSpec, key: bytes, iv: bytes, data: bytes, dec: bool
) -> bytes:
    """One pass of the unpadded cipher (no PKCS#7), through the adapter's raw interface."""
    out = bytearray(len(data) + SLACK)
    adapter.raw(spec, key, iv, dec).update_into(memoryview(data), memoryview(out))
    return bytes(out[: len(data)])


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def _accepts_key(spec: CipherSpec, key_bits: int) -> bool:
    return key_bits in (spec.key_bits_allowed or (spec.key_bits,))


# --- derived checks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DerivedResult:
    """One derived check at one key size; ``failures`` empty means it passed."""

    name: str
    key_bits: int
    failures: tuple[str, ...] = ()


def _ecb_spec(spec: CipherSpec) -> CipherSpec | None:
    """The ECB entry of ``spec``'s algorithm and library, at ``spec``'s key size."""
    for s in REGISTRY:
        if s.algorithm == spec.algorithm and s.library == spec.library and s.mode == "ECB":
            return replace(s, key_bits=spec.key_bits)
    return None


def _ctr_from_ecb(spec: CipherSpec, adapter: Adapter, rng: random.Random) -> DerivedResult:
    """CTR == data XOR ECB(counter), counter = the whole IV block, incremented big-endian."""
    ecb = _ecb_spec(spec)
    if ecb is None:
        return DerivedResult(_DERIVED_CTR, spec.key_bits, ("no ECB entry in this library",))
    block = spec.block_bytes
    key = rng.randbytes(spec.key_bytes)
    # Counters that carry across the 32-bit boundary, and through every byte until the whole
    # block wraps to zero (OpenSSL counts modulo 2**(8 * block)).
    ivs = (
        rng.randbytes(block - 4) + b"\xff\xff\xff\xfd",
        b"\xff" * (block - 1) + b"\xfd",
    )
    failures = []
    for iv in ivs:
        data = rng.randbytes(5 * block + 3)  # a partial last block too
        failure = _guard(
            f"CTR from ECB, IV {iv.hex()}",
            partial(_ctr_matches_ecb, spec, ecb, adapter, key, iv, data),
        )
        if failure:
            failures.append(failure)
    return DerivedResult(_DERIVED_CTR, spec.key_bits, tuple(failures))


def _ctr_matches_ecb(
    spec: CipherSpec, ecb: CipherSpec, adapter: Adapter, key: bytes, iv: bytes, data: bytes
) -> str | None:
    block = spec.block_bytes
    start = int.from_bytes(iv, "big")
    wrap = 1 << (8 * block)
    nblocks = -(-len(data) // block)
    counters = b"".join(((start + i) % wrap).to_bytes(block, "big") for i in range(nblocks))
    stream = _raw(adapter, ecb, key, b"", counters, False)
    want = _xor(data, stream[: len(data)])
    got = encrypt_bytes(spec, adapter, key, iv, data)
    return _mismatch(f"CTR encrypt, IV {iv.hex()}", got, want) or _mismatch(
        f"CTR decrypt, IV {iv.hex()}", decrypt_bytes(spec, adapter, key, iv, want), data
    )


def repeated_key_vectors(spec: CipherSpec, key_bits: int) -> tuple[Vector, ...]:
    """Blowfish vectors for ``key_bits`` made from published ones whose key length divides it.

    Blowfish XORs the key bytes, cycled, into the 72-byte P-array and nothing else reads the key,
    so key K and K repeated k times (up to 56 bytes) define the same cipher.
    """
    if spec.algorithm != "Blowfish" or not _accepts_key(spec, key_bits):
        return ()
    out = []
    for v in VECTORS:
        if v.algorithm != spec.algorithm or v.mode != spec.mode or v.key_bits >= key_bits:
            continue
        times, rest = divmod(key_bits, v.key_bits)
        if rest == 0:
            out.append(
                replace(
                    v,
                    key=v.key * times,
                    document=_DERIVED_KEY_REPEAT,
                    location=f"{v.document}: {v.location}, key repeated {times}x",
                )
            )
    return tuple(out)


def reference_rc4(key: bytes, n: int) -> bytes:
    """Plain RC4 keystream (KSA + PRGA): checks libraries at key sizes RFC 6229 lacks."""
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) & 0xFF
        s[i], s[j] = s[j], s[i]
    out = bytearray(n)
    i = j = 0
    for k in range(n):
        i = (i + 1) & 0xFF
        j = (j + s[i]) & 0xFF
        s[i], s[j] = s[j], s[i]
        out[k] = s[(s[i] + s[j]) & 0xFF]
    return bytes(out)


def _reference_rc4_failures() -> list[str]:
    """The reference RC4 against every RFC 6229 vector here; it is only trusted if they pass."""
    failures = []
    for v in VECTORS:
        if v.algorithm == "RC4":
            stream = reference_rc4(bytes.fromhex(v.key), v.offset + len(v.plaintext) // 2)
            got = _xor(bytes.fromhex(v.plaintext), stream[v.offset :])
            failure = _mismatch(f"reference RC4, {v.source}", got, bytes.fromhex(v.ciphertext))
            if failure:
                failures.append(failure)
    return failures


def _rc4_against_reference(
    spec: CipherSpec, adapter: Adapter, rng: random.Random
) -> list[DerivedResult]:
    """Every key size the library accepts that has no RFC 6229 vector, against the reference."""
    reference_broken = tuple(_reference_rc4_failures())
    published = {v.key_bits for v in VECTORS if v.algorithm == "RC4"}
    results = []
    for bits in spec.key_bits_allowed or (spec.key_bits,):
        if bits in published:
            continue
        if reference_broken:
            results.append(DerivedResult(_DERIVED_RC4, bits, reference_broken))
            continue
        sized = spec.with_key_bits(bits)
        key, data = rng.randbytes(bits // 8), rng.randbytes(48)
        want = _xor(data, reference_rc4(key, len(data)))
        failure = _guard(f"RC4 {bits}-bit key", partial(_rc4_once, sized, adapter, key, data, want))
        results.append(DerivedResult(_DERIVED_RC4, bits, (failure,) if failure else ()))
    return results


def _rc4_once(
    spec: CipherSpec, adapter: Adapter, key: bytes, data: bytes, want: bytes
) -> str | None:
    got = encrypt_bytes(spec, adapter, key, b"", data)
    return _mismatch(f"{spec.key_bits}-bit key", got, want)


def derived_checks(spec: CipherSpec, adapter: Adapter, rng: random.Random) -> list[DerivedResult]:
    """The derived checks that apply to ``spec`` (see the module docstring)."""
    results: list[DerivedResult] = []
    if spec.mode == "CTR":
        sizes = [spec.key_bits]
        if spec.key_bits_allowed:  # Blowfish: also the smallest and largest key
            sizes += [min(spec.key_bits_allowed), max(spec.key_bits_allowed)]
        results += [_ctr_from_ecb(spec.with_key_bits(b), adapter, rng) for b in sorted(set(sizes))]
    if spec.mode == "CBC":
        results.append(_cbc_from_ecb(spec, adapter, rng))
    if spec.algorithm == "RC4":
        results += _rc4_against_reference(spec, adapter, rng)
    return results


def _cbc_from_ecb(spec: CipherSpec, adapter: Adapter, rng: random.Random) -> DerivedResult:
    """CBC == ECB(P_i XOR C_(i-1)), C_0 = the IV, through the raw (unpadded) interface."""
    ecb = _ecb_spec(spec)
    if ecb is None:
        return DerivedResult(_DERIVED_CBC, spec.key_bits, ("no ECB entry in this library",))
    key, iv = rng.randbytes(spec.key_bytes), rng.randbytes(spec.iv_bytes)
    data = rng.randbytes(5 * spec.block_bytes)
    failure = _guard("CBC from ECB", partial(_cbc_matches_ecb, spec, ecb, adapter, key, iv, data))
    return DerivedResult(_DERIVED_CBC, spec.key_bits, (failure,) if failure else ())


def _cbc_matches_ecb(
    spec: CipherSpec, ecb: CipherSpec, adapter: Adapter, key: bytes, iv: bytes, data: bytes
) -> str | None:
    block = spec.block_bytes
    want, previous = b"", iv
    for off in range(0, len(data), block):
        previous = _raw(adapter, ecb, key, b"", _xor(data[off : off + block], previous), False)
        want += previous
    return _mismatch("CBC encrypt", _raw(adapter, spec, key, iv, data, False), want) or (
        _mismatch("CBC decrypt", _raw(adapter, spec, key, iv, want, True), data)
    )


DERIVED_NOTES = {
    _DERIVED_CTR: "CTR output = data XOR ECB(counter blocks), the same library's ECB being "
    "checked against published vectors; counters carried across 32 bits and wrapping to zero",
    _DERIVED_KEY_REPEAT: "published Blowfish vectors with the key repeated to a larger size "
    "(Blowfish cycles the key bytes over the P-array, so the cipher is the same)",
    _DERIVED_RC4: "a pure-Python RC4, checked against every RFC 6229 vector, compared with the "
    "library at each key size RFC 6229 lacks",
    _DERIVED_CBC: "CBC output = ECB(data block XOR previous ciphertext block), the same "
    "library's ECB being checked against published vectors",
}
