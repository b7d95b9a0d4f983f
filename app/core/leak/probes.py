"""What a leak test times, for each kind of entry: a call taking one argument, and the
arguments of a batch, one per call, made outside the timer from each call's class.

* Cipher entries encrypt one message of the job's length with a cipher object made once (the
  bench's calls: ``update_into`` of a stream or block mode, ``seal_into`` of an AEAD; no
  padding, the length is whole blocks). Each call's message has its own slot in one buffer,
  whatever its class, so a fixed message is not the only one always in the cache.
* With ``--classes key`` each call encrypts the same random message with an object of its own,
  made before the batch from a fixed key (class 0) or a fresh random key (class 1)
  (``random-keys``, its A/A control: random keys for both). One object a call, not a pool a
  class: objects differ in speed by themselves (where their memory lies), and a pool of 64 a
  class, each used a thousand times, made two pools of random keys differ at |t| 11 in 30 of
  40 A/A runs; with an object a call every call is an independent draw.
* The controls check a 16-byte tag against a candidate that differs from it in the first byte
  (class 0) or the last (class 1); the A/A control draws the byte at random for both.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.core.ciphers.adapters import get_adapter
from app.core.ciphers.registry import CipherSpec, Kind, lookup
from app.core.leak.job import KEY_CLASSES, LeakJob

SLACK = 64  # room past the message in the output buffers (cryptography's block modes want it)
KEY_BATCH = 5_000  # calls a batch with --classes key: as many cipher objects made for it
TAG_BYTES = 16


@dataclass(frozen=True)
class Probe:
    call: Callable[[Any], object]  # the timed call, of one argument
    arguments: Callable[[np.ndarray], list[Any]]  # a batch's classes -> one argument a call
    max_batch: int = 100_000  # calls a batch at most (its arguments are held at once)


def probe(job: LeakJob, rng: np.random.Generator) -> Probe:
    if job.control:
        return _control(job, rng)
    spec = lookup(job.cipher, job.library, job.key_bits)
    if job.classes in KEY_CLASSES:
        return _key_classes(job, spec, rng)
    return _message_classes(job, spec, rng)


def _bytes(rng: np.random.Generator, count: int) -> bytes:
    return rng.integers(0, 256, count, dtype=np.uint8).tobytes()


def _encryptor(spec: CipherSpec, key: bytes, nonce: bytes, length: int) -> Callable[[Any], object]:
    """One cipher object's encryption of a message (a memoryview of ``length`` bytes)."""
    adapter = get_adapter(spec.library)
    if spec.kind is Kind.AEAD:
        aead = adapter.aead(spec, key)
        sealed = memoryview(bytearray(length + spec.tag_bytes + SLACK))
        return lambda message: aead.seal_into(nonce, message, sealed, b"")
    raw = adapter.raw(spec, key, nonce, False)
    out = memoryview(bytearray(length + SLACK))
    return lambda message: raw.update_into(message, out)


BATCH_BYTES = 64 << 20  # a batch's messages at most: a 64 KiB message, 1,024 calls a batch


def _nonce(spec: CipherSpec, rng: np.random.Generator) -> bytes:
    """A random IV or nonce with its block counter (where it has one: ChaCha20's) at zero, so
    one object's key stream lasts the whole run whatever the draw."""
    return spec.with_counter_zeroed(_bytes(rng, spec.iv_bytes))


def _message_classes(job: LeakJob, spec: CipherSpec, rng: np.random.Generator) -> Probe:
    key, nonce = _bytes(rng, spec.key_bytes), _nonce(spec, rng)
    other = np.frombuffer(_bytes(rng, job.length), dtype=np.uint8)  # fixed-fixed's class 1
    length = job.length

    def arguments(classes: np.ndarray) -> list[Any]:
        buffer = bytearray(len(classes) * length)  # class 0: all zero; filled in place
        rows = np.frombuffer(buffer, dtype=np.uint8).reshape(len(classes), length)
        drawn = classes == 1 if job.classes != "random-random" else np.ones_like(classes, bool)
        if job.classes == "fixed-fixed":
            rows[drawn] = other
        else:
            rows[drawn] = rng.integers(0, 256, (int(drawn.sum()), length), dtype=np.uint8)
        view = memoryview(buffer)
        return [view[i * length : (i + 1) * length] for i in range(len(classes))]

    most = max(1, min(Probe.max_batch, BATCH_BYTES // length))
    return Probe(_encryptor(spec, key, nonce, length), arguments, most)


def _key_classes(job: LeakJob, spec: CipherSpec, rng: np.random.Generator) -> Probe:
    fixed_key, nonce = _bytes(rng, spec.key_bytes), _nonce(spec, rng)
    message = memoryview(bytearray(_bytes(rng, job.length)))

    def key(cls: int) -> bytes:
        fixed = cls == 0 and job.classes == "key"  # random-keys: both classes random
        return fixed_key if fixed else _bytes(rng, spec.key_bytes)

    def arguments(classes: np.ndarray) -> list[Any]:
        return [_encryptor(spec, key(c), nonce, job.length) for c in classes.tolist()]

    return Probe(lambda encrypt: encrypt(message), arguments, KEY_BATCH)


def _control(job: LeakJob, rng: np.random.Generator) -> Probe:
    """A tag check; its classes are fixed-random (first byte or last) or random-random."""
    tag = _bytes(rng, TAG_BYTES)
    call: Callable[[Any], object]
    if job.cipher == "tag-compare-eq":
        call = tag.__eq__
    else:
        call = lambda candidate: hmac.compare_digest(tag, candidate)  # noqa: E731

    def arguments(classes: np.ndarray) -> list[Any]:
        if job.classes == "random-random":
            where = rng.integers(0, TAG_BYTES, len(classes))
        else:
            where = np.where(classes == 0, 0, TAG_BYTES - 1)
        out = []
        for i in where.tolist():
            candidate = bytearray(tag)
            candidate[i] ^= 1
            out.append(bytes(candidate))
        return out

    return Probe(call, arguments)
