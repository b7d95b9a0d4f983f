"""Whole-program timing: what a Python program that encrypts a file with a library costs from
start to exit, the measurement behind a figure like seed 003's "6.09x".

The study's own times are of the cipher call alone (the key set up outside the timed region,
the interpreter warm): there, pure-Python pyaes is thousands of times slower than a compiled
library. A program run from the shell pays much more than the call: the interpreter's start,
the library's import, reading the file, the key schedule, then encryption and decryption. That
fixed cost is the same order for every library and dilutes the factor to single digits on a
small input. Both numbers are true; they answer different questions, and a report states both.

For each entry and input, a fresh interpreter (``sys.executable -I``: no user site, no
``PYTHON*`` variables) runs a ten-line program that imports only the library, reads the input,
makes a random key and encrypts and decrypts it, checking the round trip; its wall time from
spawn to exit is one sample. ``python -c pass`` is timed the same way: the interpreter's start
alone. Each repetition runs every program once, in a seeded random order, so a busy moment
hits every entry alike; the factor between two programs rests on those repetitions (each one a
fresh process: the unit of evidence of :mod:`app.core.study.claims`).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.ciphers.registry import CipherSpec
from app.core.errors import UserError

STARTUP = "python -c pass"  # the label of the interpreter's start alone
TIMEOUT_S = 120.0

_READ = (
    "import os, sys\n"
    "data = open(sys.argv[1], 'rb').read()\n"
    "key = os.urandom(int(sys.argv[2]) // 8)\n"
)
# One program per library, AES-CTR: import the library, encrypt and decrypt, check.
PROGRAMS: dict[str, str] = {
    "pyaes": _READ
    + "import pyaes\n"
    + "ct = pyaes.AESModeOfOperationCTR(key, pyaes.Counter(1)).encrypt(data)\n"
    + "assert pyaes.AESModeOfOperationCTR(key, pyaes.Counter(1)).decrypt(ct) == data\n",
    "cryptography": _READ
    + "from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes\n"
    + "nonce = os.urandom(16)\n"
    + "e = Cipher(algorithms.AES(key), modes.CTR(nonce)).encryptor()\n"
    + "ct = e.update(data) + e.finalize()\n"
    + "d = Cipher(algorithms.AES(key), modes.CTR(nonce)).decryptor()\n"
    + "assert d.update(ct) + d.finalize() == data\n",
    "pycryptodome": _READ
    + "from Crypto.Cipher import AES\n"
    + "nonce = os.urandom(8)\n"
    + "ct = AES.new(key, AES.MODE_CTR, nonce=nonce).encrypt(data)\n"
    + "assert AES.new(key, AES.MODE_CTR, nonce=nonce).decrypt(ct) == data\n",
}


def check_entries(specs: Sequence[CipherSpec]) -> None:
    """``UserError`` unless every entry has a whole program (AES-CTR of a library above)."""
    for spec in specs:
        if spec.algorithm != "AES" or spec.mode != "CTR" or spec.library not in PROGRAMS:
            raise UserError(
                f"whole_program times AES-CTR programs of {', '.join(PROGRAMS)}; "
                f"{spec.id} [{spec.library}] has none: remove it or whole_program"
            )


@dataclass(frozen=True)
class ProgramTiming:
    """One program's wall times from spawn to exit, seconds, one per repetition."""

    label: str  # the entry's ("aes-128-ctr [pyaes]") or STARTUP
    input_label: str  # "" for STARTUP
    samples_s: tuple[float, ...]

    @property
    def median_s(self) -> float:
        return statistics.median(self.samples_s)

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "input": self.input_label, "samples_s": list(self.samples_s)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ProgramTiming:
        return cls(str(data["label"]), str(data["input"]), tuple(map(float, data["samples_s"])))


@dataclass(frozen=True)
class _Program:
    label: str
    input_label: str
    argv: tuple[str, ...]


def measure_programs(
    entries: Sequence[tuple[str, CipherSpec]],
    inputs: Sequence[tuple[str, str]],
    repeat: int,
    seed: int,
    cancelled: Callable[[], bool],
) -> Generator[tuple[int, int], None, tuple[ProgramTiming, ...]]:
    """Time every ``(label, spec)`` entry's program on every ``(label, path)`` input, and the
    interpreter's start, ``repeat`` times each in a seeded random order per repetition. Yields
    ``(done, total)`` as it goes and returns the timings (none when cancelled); ``UserError``
    when a program fails, or when there is no Python interpreter to start (a bundle)."""
    if getattr(sys, "frozen", False):
        raise UserError(
            "whole programs need a Python interpreter, which a bundled CipherBench has not: "
            "run it from source (scripts/run.sh) to time them"
        )
    programs = [_Program(STARTUP, "", (sys.executable, "-I", "-c", "pass"))]
    for input_label, path in inputs:
        for label, spec in entries:
            code = PROGRAMS[spec.library]
            argv = (sys.executable, "-I", "-c", code, path, str(spec.key_bits))
            programs.append(_Program(label, input_label, argv))
    samples: dict[int, list[float]] = {i: [] for i in range(len(programs))}
    total = repeat * len(programs)
    order = random.Random(seed)
    for rep in range(repeat):
        for k, i in enumerate(order.sample(range(len(programs)), len(programs))):
            if cancelled():
                return ()
            samples[i].append(_run(programs[i]))
            yield rep * len(programs) + k + 1, total
    return tuple(
        ProgramTiming(p.label, p.input_label, tuple(samples[i])) for i, p in enumerate(programs)
    )


def _run(program: _Program) -> float:
    """One program's wall time, spawn to exit; ``UserError`` when it fails."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    t0 = time.perf_counter_ns()
    done = subprocess.run(
        program.argv, capture_output=True, timeout=TIMEOUT_S, env=env, check=False
    )
    seconds = (time.perf_counter_ns() - t0) / 1e9
    if done.returncode != 0:
        last = (done.stderr.decode(errors="replace").strip().splitlines() or ["no message"])[-1]
        raise UserError(f"the whole program of {program.label} failed: {last}")
    return seconds
