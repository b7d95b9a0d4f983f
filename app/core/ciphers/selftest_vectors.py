"""The self-test's published vectors (:mod:`app.core.ciphers.vectors`): which apply to a registry
entry (:func:`applicable_vectors`, :func:`applicable_ocb_iterated`) and running one through the
entry's library, both directions and through the message layer, with a flipped tag bit refused
for AEADs (:func:`check_vector`, :func:`check_ocb_iterated`). Each returns its failures as
sentences, empty when it passes. :func:`aead_once` seals or opens in one call. The whole
self-test, with the derived checks and the cross-library agreement, is
:mod:`app.core.ciphers.selftest`."""

from __future__ import annotations

from collections.abc import Callable

from app.core.ciphers.adapters import Adapter, get_adapter
from app.core.ciphers.message import decrypt_bytes, encrypt_bytes
from app.core.ciphers.registry import CipherSpec, Kind
from app.core.ciphers.selftest_derived import _accepts_key, _guard, _mismatch, _raw
from app.core.ciphers.vectors import OCB_ITERATED, VECTORS, OcbIterated, Vector
from app.core.errors import AuthenticationError


def aead_once(
    adapter: Adapter,
    spec: CipherSpec,
    key: bytes,
    nonce: bytes,
    data: bytes,
    aad: bytes,
    *,
    decrypt: bool = False,
) -> bytes:
    """Seal ``data`` (``decrypt``: open it) in one call through the adapter's AEAD."""
    aead = adapter.aead(spec, key)
    run = aead.open_into if decrypt else aead.seal_into
    out = bytearray(len(data) + 64)  # room for any tag
    n = run(nonce, memoryview(data), memoryview(out), aad)
    return bytes(out[:n])


def applicable_vectors(spec: CipherSpec) -> tuple[Vector, ...]:
    """The published vectors for ``spec``: same algorithm and mode, a key size it accepts."""
    return tuple(
        v
        for v in VECTORS
        if v.algorithm == spec.algorithm and v.mode == spec.mode and _accepts_key(spec, v.key_bits)
    )


def check_vector(spec: CipherSpec, vector: Vector, adapter: Adapter | None = None) -> list[str]:
    """Run one vector through ``spec``'s library, both directions; the failures (empty = pass)."""
    if not _accepts_key(spec, vector.key_bits):
        return [f"{vector.source}: a {vector.key_bits}-bit key does not fit {spec.label}"]
    spec = spec.with_key_bits(vector.key_bits)
    adapter = adapter or get_adapter(spec.library)
    if spec.kind is Kind.AEAD:
        checks = _aead_vector_checks(spec, adapter, vector)
    else:
        checks = _unauthenticated_vector_checks(spec, adapter, vector)
    failures = [_guard(what, fn) for what, fn in checks]
    return [f"{vector.source}: {f}" for f in failures if f]


def _unauthenticated_vector_checks(
    spec: CipherSpec, adapter: Adapter, v: Vector
) -> list[tuple[str, Callable[[], str | None]]]:
    key, iv = bytes.fromhex(v.key), bytes.fromhex(v.iv)
    pt, ct = bytes.fromhex(v.plaintext), bytes.fromhex(v.ciphertext)
    # RFC 6229 gives keystream at an offset: run that many zero bytes first, compare the rest.
    skip = bytes(v.offset)
    n = v.offset

    def raw_enc() -> str | None:
        return _mismatch("raw encrypt", _raw(adapter, spec, key, iv, skip + pt, False)[n:], ct)

    def raw_dec() -> str | None:
        return _mismatch("raw decrypt", _raw(adapter, spec, key, iv, skip + ct, True)[n:], pt)

    checks: list[tuple[str, Callable[[], str | None]]] = [
        ("raw encrypt", raw_enc),
        ("raw decrypt", raw_dec),
    ]
    if spec.kind is Kind.BLOCK:
        checks.append(("padded round trip", lambda: _padded_check(spec, adapter, key, iv, pt, ct)))
    else:

        def msg_enc() -> str | None:
            got = encrypt_bytes(spec, adapter, key, iv, skip + pt)[n:]
            return _mismatch("encrypt_bytes", got, ct)

        def msg_dec() -> str | None:
            return _mismatch(
                "decrypt_bytes", decrypt_bytes(spec, adapter, key, iv, skip + ct)[n:], pt
            )

        checks += [("encrypt_bytes", msg_enc), ("decrypt_bytes", msg_dec)]
    return checks


def _padded_check(
    spec: CipherSpec, adapter: Adapter, key: bytes, iv: bytes, pt: bytes, ct: bytes
) -> str | None:
    """ECB/CBC through the message layer: NIST's raw ciphertext, then one block of PKCS#7."""
    if len(pt) % spec.block_bytes:
        return None  # not a whole-block vector: the raw checks are all it can give
    padded = encrypt_bytes(spec, adapter, key, iv, pt)
    if len(padded) != len(pt) + spec.block_bytes:
        return f"encrypt_bytes: {len(padded)} bytes, expected {len(pt) + spec.block_bytes}"
    return _mismatch("encrypt_bytes (before the padding block)", padded[: len(pt)], ct) or (
        _mismatch(
            "decrypt_bytes of the padded ciphertext",
            decrypt_bytes(spec, adapter, key, iv, padded),
            pt,
        )
    )


def _aead_vector_checks(
    spec: CipherSpec, adapter: Adapter, v: Vector
) -> list[tuple[str, Callable[[], str | None]]]:
    key, nonce, aad = bytes.fromhex(v.key), bytes.fromhex(v.iv), bytes.fromhex(v.aad)
    pt, ct, tag = bytes.fromhex(v.plaintext), bytes.fromhex(v.ciphertext), bytes.fromhex(v.tag)
    if spec.mode == "SIV" and not nonce:
        # Deterministic SIV (RFC 5297 A.1): one S2V component. The adapter's S2V components are
        # [aad, nonce], or [nonce] alone when aad is empty, so the AD goes in the nonce's place.
        nonce, aad = aad, b""
    sealed = tag + ct if spec.tag_first else ct + tag
    # Flip the lowest bit of the tag's first byte, wherever the tag sits.
    at = 0 if spec.tag_first else len(ct)
    forged = sealed[:at] + bytes([sealed[at] ^ 1]) + sealed[at + 1 :]

    def seal() -> str | None:
        return _mismatch("seal", aead_once(adapter, spec, key, nonce, pt, aad), sealed)

    def open_() -> str | None:
        return _mismatch(
            "open", aead_once(adapter, spec, key, nonce, sealed, aad, decrypt=True), pt
        )

    def forged_rejected() -> str | None:
        try:
            aead_once(adapter, spec, key, nonce, forged, aad, decrypt=True)
        except AuthenticationError:
            return None
        return "a flipped tag bit was accepted"

    checks: list[tuple[str, Callable[[], str | None]]] = [
        ("seal", seal),
        ("open", open_),
        ("flipped tag", forged_rejected),
    ]
    if not aad:  # the message layer seals without associated data, with the nonce as given

        def msg_enc() -> str | None:
            return _mismatch("encrypt_bytes", encrypt_bytes(spec, adapter, key, nonce, pt), sealed)

        def msg_dec() -> str | None:
            return _mismatch("decrypt_bytes", decrypt_bytes(spec, adapter, key, nonce, sealed), pt)

        checks += [("encrypt_bytes", msg_enc), ("decrypt_bytes", msg_dec)]
    return checks


def check_ocb_iterated(
    spec: CipherSpec, item: OcbIterated, adapter: Adapter | None = None
) -> list[str]:
    """RFC 7253 appendix A's iterated test through ``spec``'s AEAD; the failures (empty = pass)."""
    adapter = adapter or get_adapter(spec.library)
    key = bytes(item.key_bits // 8 - 1) + bytes([item.tag_bits])
    nonce_len = item.nonce_bits // 8

    def seal(n: int, aad: bytes, pt: bytes) -> bytes:
        return aead_once(adapter, spec, key, n.to_bytes(nonce_len, "big"), pt, aad)

    def run() -> str | None:
        c = b""
        for i in range(128):
            s = bytes(i)
            c += seal(3 * i + 1, s, s) + seal(3 * i + 2, b"", s) + seal(3 * i + 3, s, b"")
        return _mismatch("iterated output", seal(385, c, b""), bytes.fromhex(item.output))

    failure = _guard("iterated test", run)
    return [f"{item.document}: {item.location}: {failure}"] if failure else []


def applicable_ocb_iterated(spec: CipherSpec) -> tuple[OcbIterated, ...]:
    if spec.algorithm != "AES" or spec.mode != "OCB":
        return ()
    return tuple(
        i for i in OCB_ITERATED if i.key_bits == spec.key_bits and i.tag_bits == spec.tag_bytes * 8
    )
