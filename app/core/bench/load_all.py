"""The memory of a program that loads the whole file, as the papers' programs do (untimed).

CipherBench's own memory pass encrypts one buffer (in place where the library allows), so its
peak is 1-2x the input. The AES key-length study's program reads the file whole, pads a copy and
has the library return a new ciphertext: three copies, 3x. This pass runs that program shape
with the entry's library, one direction at a time, so the papers' figures can be set beside a
figure of the same definition:

- **encryption**: the file read whole (1x); for a block mode, a padded copy (1x, PKCS#7 with the
  library's helper); the ciphertext in a new buffer (1x);
- **decryption**: the ciphertext file read whole (1x); the plaintext in a new buffer (1x); for a
  block mode, the unpadded copy (1x, as ``unpad`` returns).

Each direction is measured on its own, from a collected heap: tracemalloc's peak of the Python
allocations while it runs (the key-length study's measure) and the resident memory after it
minus before it, with its buffers still held (the classic-ciphers survey's "process memory
after minus before"). The round trip is verified against the input's digest.
"""

from __future__ import annotations

import gc
import hashlib
import os
import tracemalloc
from collections.abc import Callable
from typing import TypeVar

from app.core.bench.jobs import LOAD_ALL
from app.core.bench.memory_probe import current_rss_bytes
from app.core.bench.results import WorkloadMemory
from app.core.bench.workloads import Material
from app.core.ciphers.adapters import SLACK
from app.core.ciphers.message import MessageCipher
from app.core.ciphers.registry import Kind
from app.core.errors import VerificationError

_T = TypeVar("_T")


def _measured(step: Callable[[], _T]) -> tuple[int, int, _T]:
    """``(tracemalloc peak, RSS after minus before, what step returned)``, from a collected
    heap; what ``step`` returns is still held when the RSS is read."""
    gc.collect()
    before = current_rss_bytes()
    tracemalloc.start()
    try:
        kept = step()
        peak = tracemalloc.get_traced_memory()[1]
        after = current_rss_bytes()
    finally:
        tracemalloc.stop()
    return peak, max(0, after - before), kept


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def measure_load_all(material: Material, work_dir: str) -> WorkloadMemory:
    """Run the load-all program once each way (the ciphertext goes through a file in
    ``work_dir``, as the papers' programs write it) and verify it gives back the input it read
    (its digest taken after the measurement: no second read of the file)."""
    spec, adapter = material.spec, material.adapter
    block = spec.kind is Kind.BLOCK
    cipher_path = os.path.join(work_dir, "load-all.enc")

    def encrypt() -> tuple[bytes, bytes, bytearray, int]:
        data = _read(material.path)
        if block:
            tail = data[len(data) - len(data) % spec.block_bytes :]
            padded = data + adapter.pad(tail, spec.block_bytes)[len(tail) :]  # a padded copy
            out = bytearray(len(padded) + spec.block_bytes)
            adapter.raw(spec, material.key, material.iv, False).update_into(
                memoryview(padded), memoryview(out)
            )
            return data, padded, out, len(padded)
        out = bytearray(spec.output_bytes(len(data)) + SLACK)
        ctx = MessageCipher(spec, adapter, material.key, material.iv, False)
        return data, data, out, ctx.final(memoryview(data), memoryview(out))

    enc_peak, enc_rss, sealed = _measured(encrypt)
    digest = hashlib.sha256(sealed[0]).digest()
    with open(cipher_path, "wb") as fh:
        fh.write(memoryview(sealed[2])[: sealed[3]])
    del sealed

    def decrypt() -> tuple[bytes, bytearray, bytes | bytearray, int]:
        data = _read(cipher_path)
        out = bytearray(len(data) + SLACK)
        ctx = MessageCipher(spec, adapter, material.key, material.iv, True)
        n = ctx.final(memoryview(data), memoryview(out))
        plain = bytes(memoryview(out)[:n]) if block else out  # unpad returns a copy
        return data, out, plain, n

    dec_peak, dec_rss, opened = _measured(decrypt)
    ok = hashlib.sha256(memoryview(opened[2])[: opened[3]]).digest() == digest
    del opened
    os.remove(cipher_path)
    if not ok:
        raise VerificationError("the load-all memory pass did not give the input back")
    return WorkloadMemory(LOAD_ALL, enc_peak, dec_peak, enc_rss, dec_rss)


def workload_sentences(workload: str) -> list[str]:
    """What a report says of the memory workload it ran beside CipherBench's own (none for
    none): one sentence, the same in every report and export."""
    if workload != LOAD_ALL:
        return []
    return [
        "Memory set beside the paper's was measured with the paper's own program shape too, "
        "in a pass of its own for each direction: the file read whole, a padded copy and a new "
        "ciphertext (to decrypt: the ciphertext read whole, a new plaintext and its unpadded "
        "copy), as tracemalloc's peak of the Python allocations and as resident memory after "
        "minus before; CipherBench's own memory figure encrypts one buffer, in place where the "
        "library allows, so it holds one or two copies of the input where this holds three."
    ]
