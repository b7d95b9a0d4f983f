"""What one timed call is, for each kind of cipher, and the points a message length has.

The cost a program pays per message once it holds a cipher object (making that object is the
separate "key setup" point):

* stream modes (CTR, CFB, OFB, ChaCha20, RC4): one ``update`` of the message;
* block modes (ECB, CBC): one ``update`` of the PKCS#7-padded message (16 B becomes 32 B with
  AES); the padding is made once, outside the timer, and throughput counts the message's bytes;
* AEADs: one seal (encrypt) or one open (decrypt) of the whole message with its tag, the
  library's per-message initialisation included, as a program pays it; "forgery" opens the
  same message under a nonce with one bit flipped, which fails its tag check after the same
  work as a flipped ciphertext bit (the time to reject it, SUPERCOP's
  ``forgery_decrypt_cycles``);
* "message": encrypting the whole message as ``bench`` times it, with a cipher object of its
  own made before the clock (the first call on a fresh object, the library's PKCS#7 helper
  padding the last block, the tag): the same timed loop as the bench's
  (:func:`~app.core.ciphers.message.final_each`), so the two time the same thing at any
  length (``benchmarks/bench_one_call.py`` prints them side by side).

Each length gets a fresh random key, nonce and message; everything here is made outside the
timer. Every point of a length works on the same two buffers, the message and its ciphertext,
as the bench's encryption and decryption do, and a length's points run in the order forgery,
decrypt, message, encrypt: each then starts on buffers the slice before it used. At 16 MiB on
the project's VMs a seal into a buffer that another point's slice had left idle ran 1.5-2x
slower for several calls (the held call read 27 % slower than the whole message).
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from app.core.ciphers.adapters import Adapter, key_setup
from app.core.ciphers.message import MAX_CONTEXTS, final_each, fresh_contexts
from app.core.ciphers.registry import CipherSpec, Kind
from app.core.errors import AuthenticationError
from app.core.sweep.jobs import DECRYPT, ENCRYPT, FORGERY, KEY_SETUP, MESSAGE, SweepJob
from app.core.timing.batches import MAX_CALLS, Batch, repeated

KEY_SETUP_BYTES = 0  # the key setup point's message length
SLACK = 64
# Libraries that make their AEAD object per message (key schedule with it): no key setup apart.
PER_MESSAGE_OBJECTS = {
    (Kind.AEAD, "pycryptodome"): "pycryptodome makes its AEAD cipher object (key schedule "
    "included) for every message, so its key setup is inside every call's time",
}


@dataclass(frozen=True)
class Call:
    """One point's calls, ready to time: ``(operation, message bytes, ad bytes)`` and the
    :data:`~app.core.timing.batches.Batch` that times them."""

    operation: str
    message_bytes: int
    ad_bytes: int
    batch: Batch
    max_calls: int = MAX_CALLS  # per sample: fewer for a batch that makes an object per call

    @property
    def key(self) -> tuple[str, int, int]:
        return self.operation, self.message_bytes, self.ad_bytes


def has_key_setup(job: SweepJob, spec: CipherSpec) -> bool:
    return job.key_setup and (spec.kind, job.library) not in PER_MESSAGE_OBJECTS


def point_count(job: SweepJob, spec: CipherSpec) -> int:
    """How many points the round times (for progress)."""
    return has_key_setup(job, spec) + sum(length_point_count(job, spec, n) for n in job.lengths)


def length_point_count(job: SweepJob, spec: CipherSpec, length: int) -> int:
    """How many points one message length has (:func:`length_calls`'s calls)."""
    aead = spec.kind is Kind.AEAD
    per_length = 1 + job.decrypt + job.message + (job.forgery and aead)
    return per_length + (len(job.ad_lengths) if aead and length in job.ad_at else 0)


def buffer_bytes(spec: CipherSpec, length: int) -> int:
    """About how much memory one length's calls hold (to decide whether to keep them): the
    message and its ciphertext."""
    return 2 * (spec.output_bytes(length) + SLACK)


def key_setup_call(spec: CipherSpec, adapter: Adapter) -> Call:
    """Making the cipher object from a fresh key (and IV), the cost paid once per key."""
    return Call(KEY_SETUP, KEY_SETUP_BYTES, 0, repeated(key_setup(spec, adapter)))


def length_calls(job: SweepJob, spec: CipherSpec, adapter: Adapter, length: int) -> list[Call]:
    """Every call timed at ``length``, with a fresh key, nonce and message."""
    key = secrets.token_bytes(spec.key_bytes)
    iv = spec.fresh_iv(secrets.token_bytes)
    if spec.kind is Kind.AEAD:
        return _aead_calls(job, spec, adapter, length, key, iv)
    size = spec.output_bytes(length) if spec.kind is Kind.BLOCK else length
    # Both buffers have room past the message: cryptography writes block modes into ``dst``
    # only with a block's worth to spare, whichever direction.
    src = memoryview(bytearray(secrets.token_bytes(size) + bytes(SLACK)))
    dst = memoryview(bytearray(size + SLACK))
    enc = adapter.raw(spec, key, iv, decrypt=False)
    calls: list[Call] = []
    if job.decrypt:
        dec = adapter.raw(spec, key, iv, decrypt=True)
        fn = functools.partial(dec.update_into, dst[:size], src)
        calls.append(Call(DECRYPT, length, 0, repeated(fn)))
    if job.message:
        calls.append(message_call(spec, adapter, key, iv, src[:length], dst))
    calls.append(
        Call(ENCRYPT, length, 0, repeated(functools.partial(enc.update_into, src[:size], dst)))
    )
    return calls


def message_call(
    spec: CipherSpec, adapter: Adapter, key: bytes, iv: bytes, src: memoryview, dst: memoryview
) -> Call:
    """The message ``src`` encrypted whole into ``dst`` with a cipher object of its own per
    call, the objects made before the clock (the bench's timed loop)."""

    def batch(calls: int) -> Callable[[], object]:
        contexts = fresh_contexts(spec, adapter, key, iv, False, calls)
        return functools.partial(final_each, contexts, src, dst)

    return Call(MESSAGE, len(src), 0, batch, MAX_CONTEXTS)


def _aead_calls(
    job: SweepJob, spec: CipherSpec, adapter: Adapter, length: int, key: bytes, nonce: bytes
) -> list[Call]:
    """The AEAD's points on two buffers, as the bench's: the message (with room past it) and
    its sealed form. Opening writes the plaintext back over the message; associated data
    seals into a buffer of its own, so the sealed message stays the authentic one."""
    aead = adapter.aead(spec, key)
    plain = memoryview(bytearray(secrets.token_bytes(length) + bytes(SLACK)))
    message = plain[:length]
    sealed = memoryview(bytearray(length + spec.tag_bytes + SLACK))
    ciphertext = sealed[: aead.seal_into(nonce, message, sealed, b"")]
    calls: list[Call] = []
    if job.forgery:
        rejected = rejecting(aead.open_into, forged_nonce(nonce), ciphertext, plain)
        calls.append(Call(FORGERY, length, 0, repeated(rejected)))
    if job.decrypt:
        fn = functools.partial(aead.open_into, nonce, ciphertext, plain, b"")
        calls.append(Call(DECRYPT, length, 0, repeated(fn)))
    if job.message:
        calls.append(message_call(spec, adapter, key, nonce, message, sealed))
    seal = functools.partial(aead.seal_into, nonce, message, sealed, b"")
    calls.append(Call(ENCRYPT, length, 0, repeated(seal)))
    if length in job.ad_at:
        with_ad = memoryview(bytearray(len(sealed)))
        for ad_bytes in job.ad_lengths:
            ad = secrets.token_bytes(ad_bytes)
            seal_ad = functools.partial(aead.seal_into, nonce, message, with_ad, ad)
            calls.append(Call(ENCRYPT, length, ad_bytes, repeated(seal_ad)))
    return calls


def forged_nonce(nonce: bytes) -> bytes:
    """``nonce`` with its first bit flipped: the authentic message opened under it fails its
    tag check after the same work as a message with a flipped ciphertext bit."""
    return bytes([nonce[0] ^ 1]) + nonce[1:]


def rejecting(
    open_into: Callable[[bytes, memoryview, memoryview, bytes], int],
    nonce: bytes,
    sealed: memoryview,
    out: memoryview,
) -> Callable[[], object]:
    """A call that opens ``sealed`` under ``nonce`` and must be refused; accepting it is a bug
    worth a stop."""

    def call() -> None:
        try:
            open_into(nonce, sealed, out, b"")
        except AuthenticationError:
            return
        raise AssertionError("a forged message was accepted")

    return call
