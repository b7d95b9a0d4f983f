"""One sweep round, inside its worker: every point of a :class:`SweepJob`, timed.

What one call is, for each kind of cipher (the cost a program pays per message once it holds a
cipher object; making that object is the separate "key setup" point):

* stream modes (CTR, CFB, OFB, ChaCha20, RC4): one ``update`` of the message;
* block modes (ECB, CBC): one ``update`` of the PKCS#7-padded message (16 B becomes 32 B with
  AES); the padding is made once, outside the timer, and throughput counts the message's bytes;
* AEADs: one seal (encrypt) or one open (decrypt) of the whole message with its tag, the
  library's per-message initialisation included, as a program pays it; "forgery" opens the
  same message with one bit of the ciphertext flipped (the time to reject it, SUPERCOP's
  ``forgery_decrypt_cycles``).

Each length gets a fresh random key, nonce and message. A length whose single call would take
longer than :data:`MAX_CALL_S` (pure Python at megabytes) is skipped and said so.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable

from app.core.ciphers.adapters import Adapter, get_adapter
from app.core.ciphers.registry import CipherSpec, Kind, lookup
from app.core.errors import AuthenticationError
from app.core.sweep.cycles import CycleCounter, clock_mhz, open_counter
from app.core.sweep.jobs import (
    DECRYPT,
    ENCRYPT,
    FORGERY,
    KEY_SETUP,
    PointSamples,
    RoundSamples,
    SkippedPoint,
    SweepJob,
)
from app.core.sweep.timing import TooSlow, time_calls

MAX_CALL_S = 2.0
RATE_FROM_BYTES = 16 * 1024
KEY_SETUP_BYTES = 0  # the key setup point's message length
SLACK = 64

Progress = Callable[[float], None]
# Libraries that make their AEAD object per message (key schedule with it): no key setup apart.
PER_MESSAGE_OBJECTS = {
    (Kind.AEAD, "pycryptodome"): "pycryptodome makes its AEAD cipher object (key schedule "
    "included) for every message, so its key setup is inside every call's time",
}


def point_count(job: SweepJob, spec: CipherSpec) -> int:
    """How many points the round times (for progress)."""
    aead = spec.kind is Kind.AEAD
    per_length = 1 + job.decrypt + (job.forgery and aead)
    ad = len(job.ad_lengths) * len(set(job.ad_at) & set(job.lengths)) if aead else 0
    key_setup = job.key_setup and (spec.kind, job.library) not in PER_MESSAGE_OBJECTS
    return key_setup + per_length * len(job.lengths) + ad


def run_round(job: SweepJob, progress: Progress | None = None) -> RoundSamples:
    """Time every point of ``job`` in this process (a fresh worker: see app.core.sweep.runner)."""
    spec = lookup(job.cipher_id, job.library, job.key_bits)
    adapter = get_adapter(job.library)
    counter = open_counter()
    mhz_before = clock_mhz()
    total = max(1, point_count(job, spec))
    points: list[PointSamples] = []
    skipped: list[SkippedPoint] = []

    def add(point: PointSamples) -> None:
        points.append(point)
        if progress is not None:
            progress(len(points) / total)

    try:
        if job.key_setup and (spec.kind, job.library) in PER_MESSAGE_OBJECTS:
            skipped.append(
                SkippedPoint(KEY_SETUP_BYTES, PER_MESSAGE_OBJECTS[spec.kind, job.library])
            )
        elif job.key_setup:
            add(_key_setup(job, spec, adapter, counter))
        timed: list[tuple[int, float]] = []  # (length, ns per call): to foresee a long call
        for length in job.lengths:
            guess = _predicted_ns(timed, length)
            if guess > MAX_CALL_S * 1e9:
                reason = f"one call would take about {guess / 1e9:,.0f} s"
                skipped.append(SkippedPoint(length, reason))
                continue
            try:
                for point in _length_points(job, spec, adapter, counter, length):
                    add(point)
                    if point.operation == ENCRYPT and point.ad_bytes == 0:
                        timed.append((length, min(point.ns_per_call)))
            except TooSlow as exc:
                skipped.append(SkippedPoint(length, str(exc)))
    finally:
        if counter is not None:
            counter.close()
    mhz_after = clock_mhz()
    known = [m for m in (mhz_before, mhz_after) if m]
    return RoundSamples(
        job=job,
        points=tuple(points),
        skipped=tuple(skipped),
        counter=counter is not None,
        clock_mhz=sum(known) / len(known) if known else None,
        library_version=adapter.version(),
    )


def _predicted_ns(timed: list[tuple[int, float]], length: int) -> float:
    """A call's time at ``length`` at the rate of the longest length timed so far, once that
    is at least :data:`RATE_FROM_BYTES` (shorter messages' times are mostly per-call cost, not
    a rate); 0 (no guess) before. The warm-up call's own time still stops a length whose
    single call is too long (app.core.sweep.timing.TooSlow)."""
    longest = max(timed, default=(0, 0.0))
    if longest[0] < RATE_FROM_BYTES:
        return 0.0
    return longest[1] / longest[0] * length


def _timed(
    job: SweepJob,
    counter: CycleCounter | None,
    fn: Callable[[], object],
    operation: str,
    length: int,
    ad: int = 0,
) -> PointSamples:
    # A call longer than the point's budget still gets 3 samples (pure Python at 1 MiB).
    t = time_calls(
        fn,
        job.point_time_s,
        counter,
        min_samples=3 if length >= 1 << 20 else 5,
        max_call_ns=int(MAX_CALL_S * 1e9),
    )
    return PointSamples(operation, length, ad, t.calls, t.ns_per_call, t.cycles_per_call)


def _key_setup(
    job: SweepJob, spec: CipherSpec, adapter: Adapter, counter: CycleCounter | None
) -> PointSamples:
    key = secrets.token_bytes(spec.key_bytes)
    if spec.kind is Kind.AEAD:
        fn: Callable[[], object] = functools.partial(adapter.aead, spec, key)
    else:
        iv = spec.fresh_iv(secrets.token_bytes)
        fn = functools.partial(adapter.raw, spec, key, iv, False)
    return _timed(job, counter, fn, KEY_SETUP, KEY_SETUP_BYTES)


def _length_points(
    job: SweepJob, spec: CipherSpec, adapter: Adapter, counter: CycleCounter | None, length: int
) -> list[PointSamples]:
    key = secrets.token_bytes(spec.key_bytes)
    iv = spec.fresh_iv(secrets.token_bytes)
    if spec.kind is Kind.AEAD:
        return _aead_points(job, spec, adapter, counter, length, key, iv)
    size = spec.output_bytes(length) if spec.kind is Kind.BLOCK else length
    # Both buffers have room past the message: cryptography writes block modes into ``dst``
    # only with a block's worth to spare, whichever direction.
    src = memoryview(bytearray(secrets.token_bytes(size) + bytes(SLACK)))
    dst = memoryview(bytearray(size + SLACK))
    enc = adapter.raw(spec, key, iv, decrypt=False)
    fn = functools.partial(enc.update_into, src[:size], dst)
    points = [_timed(job, counter, fn, ENCRYPT, length)]
    if job.decrypt:
        dec = adapter.raw(spec, key, iv, decrypt=True)
        fn = functools.partial(dec.update_into, dst[:size], src)
        points.append(_timed(job, counter, fn, DECRYPT, length))
    return points


def _aead_points(
    job: SweepJob,
    spec: CipherSpec,
    adapter: Adapter,
    counter: CycleCounter | None,
    length: int,
    key: bytes,
    nonce: bytes,
) -> list[PointSamples]:
    aead = adapter.aead(spec, key)
    message = memoryview(bytearray(secrets.token_bytes(length)))
    sealed = memoryview(bytearray(length + spec.tag_bytes + SLACK))
    out = memoryview(bytearray(length + SLACK))
    seal = functools.partial(aead.seal_into, nonce, message, sealed, b"")
    points = [_timed(job, counter, seal, ENCRYPT, length)]
    n = aead.seal_into(nonce, message, sealed, b"")
    ciphertext = sealed[:n]
    if job.decrypt:
        fn = functools.partial(aead.open_into, nonce, ciphertext, out, b"")
        points.append(_timed(job, counter, fn, DECRYPT, length))
    if job.forgery:
        forged = bytearray(ciphertext)
        forged[0] ^= 1  # the first byte of the ciphertext, or of the tag for an empty message
        reject = _rejecting(aead.open_into, nonce, forged, out)
        points.append(_timed(job, counter, reject, FORGERY, length))
    if length in job.ad_at:
        for ad_bytes in job.ad_lengths:
            ad = secrets.token_bytes(ad_bytes)
            fn = functools.partial(aead.seal_into, nonce, message, sealed, ad)
            points.append(_timed(job, counter, fn, ENCRYPT, length, ad_bytes))
    return points


def _rejecting(
    open_into: Callable[[bytes, memoryview, memoryview, bytes], int],
    nonce: bytes,
    forged: bytearray,
    out: memoryview,
) -> Callable[[], object]:
    """A call that opens ``forged`` and must be refused; accepting it is a bug worth a stop."""
    src = memoryview(forged)

    def call() -> None:
        try:
            open_into(nonce, src, out, b"")
        except AuthenticationError:
            return
        raise AssertionError("a forged message was accepted")

    return call
