"""The two data modes as workloads: one encryption and one decryption of the whole input.

Each ``encrypt()``/``decrypt()`` returns ``(setup_ns, work_ns, cpu_ns)``: the cipher context is
created (key schedule) before the clock starts and timed on its own. Buffers are allocated once,
in the constructor, and their pages touched there, so no timed call pays for page faults.

- :class:`MemoryWorkload`: the whole input in RAM, as the papers do, without their waste. One
  buffer holds the plaintext; ciphertext goes to a second, preallocated buffer, or, in the
  memory pass, back into the same one where the library documents in-place operation
  (pycryptodome), so peak memory is about 2x (cryptography) or 1x (pycryptodome) the input, not
  the papers' 3x. The timed runs keep the ciphertext apart for every library, as the sweep
  does: at 16 MiB in place ran 5-8 % faster than apart on this VM (one buffer in the caches,
  not two), so the library and the call's length would have chosen the figure. Timed: the
  cipher call only.
- :class:`StreamWorkload`: chunked from disk to disk (read, encrypt, write), memory bounded
  whatever the file size. Timed: the whole pipeline, which is what encrypting a file costs.

Both verify the round trip with SHA-256 of the plaintext, outside the timed region.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.core.ciphers.adapters import SLACK, Adapter
from app.core.ciphers.message import (
    MessageCipher,
    final_each,
    fresh_contexts,
    stream_output_bytes,
)
from app.core.ciphers.registry import CipherSpec, Kind
from app.core.errors import UserError, VerificationError
from app.core.runtime.safe_files import StagedFile, move_into_place, read_exact, write_all

PAGE = 4096
PREVIEW_BYTES = 32
# setup_ns, work_ns, cpu_ns, and the wall time of the span cpu_ns was measured over
Timing = tuple[int, int, int, int]
Clock = Callable[[], int]


def touch_pages(buf: bytearray) -> None:
    """Fault in every page now, so the first timed write does not pay for it."""
    if buf:
        buf[::PAGE] = bytes(len(range(0, len(buf), PAGE)))


def sha256_file(path: str, chunk: int = 1 << 20) -> bytes:
    h = hashlib.sha256()
    buf = bytearray(chunk)
    view = memoryview(buf)
    with open(path, "rb", buffering=0) as fh:
        while n := read_exact(fh, view):
            h.update(view[:n])
    return h.digest()


@dataclass(frozen=True)
class Material:
    """What a workload works on: the entry, its library's adapter, the key and IV, and the input
    file with its size in bytes."""

    spec: CipherSpec
    adapter: Adapter
    key: bytes
    iv: bytes
    path: str
    size: int


# Called after each timed span with (decrypt, start ns, end ns) on perf_counter_ns (Linux's
# CLOCK_MONOTONIC): how a profile under perf keeps the samples of the timed calls only.
span_observers: list[Callable[[bool, int, int], None]] = []


class _Workload:
    def __init__(self, material: Material, clock: Clock) -> None:
        self.spec = material.spec
        self.adapter = material.adapter
        self.key = material.key
        self.iv = material.iv
        self.path = material.path
        self.size = material.size
        self.clock = clock
        self.preview = b""
        self.output_bytes = 0

    def _timed(
        self, decrypt: bool, body: Callable[[list[MessageCipher]], None], calls: int = 1
    ) -> Timing:
        """``body`` given ``calls`` contexts, made before the clock starts, to make one message
        with each; the setup and work times are per call, CPU and wall time the whole span's."""
        clock = self.clock
        s0 = clock()
        contexts = fresh_contexts(self.spec, self.adapter, self.key, self.iv, decrypt, calls)
        # CPU time is read inside its own wall-clock bracket (the real clock, even when a fake
        # one times the work), so CPU % compares like with like and stays <= 100 % per thread.
        w0 = time.perf_counter_ns()
        c0 = time.process_time_ns()
        t0 = clock()
        body(contexts)
        t1 = clock()
        c1 = time.process_time_ns()
        w1 = time.perf_counter_ns()
        for observe in span_observers:
            observe(decrypt, w0, w1)
        return (t0 - s0) // calls, (t1 - t0) // calls, c1 - c0, w1 - w0

    def check(self, label: str) -> None:
        """``VerificationError`` naming ``label`` unless the plaintext equals the input."""
        if not self.verify():
            raise VerificationError(f"{label}: the decrypted output differs from the input")

    def verify(self) -> bool:
        raise NotImplementedError

    def _check_decrypted_size(self, got: int) -> None:
        """After the timed call: a decryption must give back exactly the input's length."""
        if got != self.size:
            raise VerificationError(f"decryption returned {got} bytes, the input has {self.size}")


class MemoryWorkload(_Workload):
    """Whole input in RAM; see the module docstring."""

    def __init__(
        self, material: Material, clock: Clock = time.perf_counter_ns, in_place: bool = False
    ) -> None:
        """``in_place``: the ciphertext over the plaintext, where the library allows it (the
        memory pass's one round trip)."""
        super().__init__(material, clock)
        spec, path, size = material.spec, material.path, material.size
        cap = max(size, spec.output_bytes(size)) + SLACK
        self.plain = bytearray(cap)
        with open(path, "rb", buffering=0) as fh:
            if read_exact(fh, memoryview(self.plain)[:size]) != size or fh.read(1):
                raise UserError(f"{os.path.basename(path)} changed size while it was read")
        self.digest = hashlib.sha256(memoryview(self.plain)[:size]).digest()
        if in_place and spec.in_place:
            self.cipher = self.plain
        else:
            self.cipher = bytearray(cap)
            touch_pages(self.cipher)
        self._pv = memoryview(self.plain)
        self._cv = memoryview(self.cipher)
        self.calls = 1  # calls timed per sample (:meth:`batch`)

    def batch(self, calls: int) -> None:
        """Time ``calls`` calls per sample from now on (the ciphertext is apart: a call
        repeated in place would encrypt its own output)."""
        assert self.cipher is not self.plain, "a batch in place encrypts its own output"
        self.calls = max(1, calls)

    def encrypt(self) -> Timing:
        src, dst = self._pv[: self.size], self._cv

        def body(contexts: list[MessageCipher]) -> None:
            self.output_bytes = final_each(contexts, src, dst)

        timing = self._timed(False, body, self.calls)
        if not self.preview:
            self.preview = bytes(self._cv[:PREVIEW_BYTES])
        return timing

    def decrypt(self) -> Timing:
        got = [0]
        src, dst = self._cv[: self.output_bytes], self._pv

        def body(contexts: list[MessageCipher]) -> None:
            got[0] = final_each(contexts, src, dst)

        timing = self._timed(True, body, self.calls)
        self._check_decrypted_size(got[0])
        return timing

    def verify(self) -> bool:
        return hashlib.sha256(self._pv[: self.size]).digest() == self.digest

    def spoil_plaintext(self) -> None:
        """Untimed, before a run of decryptions: flip the plaintext's first and last bytes
        (the ciphertext is already made from it), so a decryption that writes nothing, or
        stops short, fails :meth:`verify` rather than passing on the plaintext it left."""
        if self.size:
            for i in {0, self.size - 1}:
                self._pv[i] ^= 0xFF

    def save_ciphertext(self, path: str) -> None:
        """Encrypt once more (untimed) and write the ciphertext atomically to ``path``."""
        self.encrypt()
        with StagedFile(path, mode=0o600) as staged:
            staged.write(self._cv[: self.output_bytes])
            staged.place()

    def close(self) -> None:
        self._pv.release()
        self._cv.release()


class StreamWorkload(_Workload):
    """Chunked file to file; see the module docstring."""

    def __init__(
        self,
        material: Material,
        chunk: int,
        work_dir: str,
        clock: Clock = time.perf_counter_ns,
        on_bytes: Callable[[int], None] | None = None,
        digest: bytes | None = None,
    ) -> None:
        super().__init__(material, clock)
        spec, path, size = material.spec, material.path, material.size
        if spec.kind is Kind.BLOCK and chunk % spec.block_bytes:
            raise UserError(f"the chunk size must be a multiple of {spec.block_bytes} bytes")
        self.chunk = chunk
        self.record = chunk + spec.tag_bytes if spec.kind is Kind.AEAD else chunk
        self.on_bytes = on_bytes
        self.in_buf = bytearray(self.record + SLACK)
        self.out_buf = bytearray(self.record + spec.block_bytes + SLACK)
        touch_pages(self.in_buf)
        touch_pages(self.out_buf)
        self.ct_path = os.path.join(work_dir, "ciphertext.bin")
        self.pt_path = os.path.join(work_dir, "decrypted.bin")
        # The input's SHA-256, which every decryption is checked against. Pass it when making
        # several workloads for one job: hashing a large file again costs a full extra read.
        self.digest = digest if digest is not None else sha256_file(path)
        self.expected_output = stream_output_bytes(spec, size, chunk)

    def _pipe(
        self, ctx: MessageCipher, src: io.FileIO, dst: io.FileIO, total: int, step: int, first: bool
    ) -> int:
        """Read ``total`` bytes in ``step``-byte pieces, transform, write; returns bytes written.
        ``first``: keep the start of the output as the ciphertext preview."""
        inv, outv = memoryview(self.in_buf), memoryview(self.out_buf)
        left, written = total, 0
        report = self.on_bytes
        while True:
            last = left <= step
            want = left if last else step
            if read_exact(src, inv[:want]) != want:
                raise UserError(f"{os.path.basename(self.path)} changed size during the run")
            n = ctx.final(inv[:want], outv) if last else ctx.update(inv[:want], outv)
            write_all(dst, outv[:n])
            if first:
                self.preview = bytes(outv[:PREVIEW_BYTES])
                first = False
            written += n
            left -= want
            if report is not None:
                report(total - left)
            if last:
                return written

    def encrypt(self) -> Timing:
        with (
            open(self.path, "rb", buffering=0) as src,
            open(self.ct_path, "wb", buffering=0) as dst,
        ):

            def body(contexts: list[MessageCipher]) -> None:
                self.output_bytes = self._pipe(
                    contexts[0], src, dst, self.size, self.chunk, first=not self.preview
                )

            timing = self._timed(False, body)
        if self.output_bytes != self.expected_output:
            raise VerificationError(
                f"stream encryption wrote {self.output_bytes} bytes, expected "
                f"{self.expected_output}"
            )
        return timing

    def decrypt(self) -> Timing:
        got = [0]
        with (
            open(self.ct_path, "rb", buffering=0) as src,
            open(self.pt_path, "wb", buffering=0) as dst,
        ):

            def body(contexts: list[MessageCipher]) -> None:
                got[0] = self._pipe(
                    contexts[0], src, dst, self.output_bytes, self.record, first=False
                )

            timing = self._timed(True, body)
        self._check_decrypted_size(got[0])
        return timing

    def verify(self) -> bool:
        return sha256_file(self.pt_path) == self.digest

    def save_ciphertext(self, path: str) -> None:
        """Keep the last ciphertext (the file stays on disk; moved, not copied, when possible)."""
        move_into_place(self.ct_path, path)

    def close(self) -> None:
        for p in (self.ct_path, self.pt_path):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(p)
