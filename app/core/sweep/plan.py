"""What a sweep or a ladder measures: message lengths, entries, and the ladder's three steps.

The default lengths run from 16 B to 16 MiB in powers of 4, with the lengths real traffic uses
added: 64 B (a small packet), 576 B (the IPv4 minimum datagram), 1350 B (a TLS record that fits
an Ethernet frame after headers, one of ``bssl speed``'s), 1536 B and 4 KiB (a page).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.ciphers.registry import CipherSpec, Kind, libraries_for, lookup, select
from app.core.errors import UserError
from app.core.sweep.jobs import SweepJob, SweepPlan
from app.core.units import KIB, MIB, format_bytes, parse_size

DEFAULT_LENGTHS = (
    16, 64, 256, 576, 1024, 1350, 1536, 4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB,
    MIB, 4 * MIB, 16 * MIB,
)  # fmt: skip
AD_LENGTHS = (13, 64, 1024)  # with 0 (the plain curve): TLS's 13-byte header, a small, a large
AD_AT = (64, 1350, 16 * KIB)  # the message lengths timed with associated data
MAX_LENGTH = 256 * MIB
MAX_LENGTHS = 64
DEFAULT_ROUNDS = 3
DEFAULT_POINT_TIME_S = 0.1

# The ladder: every step times this many bytes per call (long enough that the per-call cost is
# under 1 % of it with the AES instructions on, short enough for pure Python).
LADDER_BYTES = MIB
PURE_PYTHON_BYTES = 16 * KIB
PURE_PYTHON = "pyaes"


def parse_lengths(text: str) -> tuple[int, ...]:
    """``"16,64,1350,4KiB,1MiB"`` -> sorted distinct byte counts; ``UserError`` for a bad one."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise UserError("give at least one message length, e.g. 64,1350,4KiB")
    lengths = sorted({parse_size(p) for p in parts})
    if lengths[0] < 1:
        raise UserError("a message length must be at least 1 byte")
    if lengths[-1] > MAX_LENGTH:
        raise UserError(f"message lengths go up to {format_bytes(MAX_LENGTH)}")
    if len(lengths) > MAX_LENGTHS:
        raise UserError(f"at most {MAX_LENGTHS} message lengths, not {len(lengths)}")
    return tuple(lengths)


def check_rounds(rounds: int) -> int:
    from app.core.sweep.runner import MAX_ROUNDS

    if not 1 <= rounds <= MAX_ROUNDS:
        raise UserError(f"the rounds must be 1..{MAX_ROUNDS}, not {rounds}")
    return rounds


def _job(spec: CipherSpec, lengths: tuple[int, ...], point_time_s: float, ad: bool) -> SweepJob:
    aead = spec.kind is Kind.AEAD
    return SweepJob(
        cipher_id=spec.id,
        library=spec.library,
        key_bits=spec.key_bits,
        lengths=lengths,
        ad_lengths=AD_LENGTHS if aead and ad else (),
        ad_at=AD_AT if aead and ad else (),
        forgery=aead,
        point_time_s=point_time_s,
    )


def ladder_jobs(
    cipher_id: str, libraries: Sequence[str] = ("cryptography",), key_bits: int | None = None
) -> tuple[list[SweepJob], list[str]]:
    """The ladder of ``cipher_id`` (an AES entry): for each library, with and without the AES
    instructions; then pure Python (pyaes; for a mode pyaes lacks, AES-CTR of the same key size,
    the nearest it has, noted). Of several ``libraries``, those that do not offer the cipher are
    left out (the first job's note says so); ``UserError`` when none does. Returns the jobs and
    each one's note."""
    libraries_given = list(libraries)
    offered = [lib for lib in libraries if lib in libraries_for(cipher_id)]
    if len(libraries) > 1 and offered:
        libraries = offered
    spec = lookup(cipher_id, libraries[0] if libraries else "cryptography", key_bits)
    if spec.algorithm != "AES":
        raise UserError(
            f"the ladder compares AES with and without the CPU's AES instructions; "
            f"{cipher_id} is {spec.algorithm}"
        )
    jobs: list[SweepJob] = []
    notes: list[str] = []
    for library in libraries:
        entry = lookup(cipher_id, library, key_bits)
        for on in (True, False):
            jobs.append(_ladder_job(entry, LADDER_BYTES, on))
            notes.append("" if on else "the CPU's AES instructions switched off in the worker")
    missing = [lib for lib in dict.fromkeys(libraries_given) if lib not in libraries]
    if missing and notes:
        notes[0] = f"{' and '.join(missing)} offer{'s' if len(missing) == 1 else ''} no {cipher_id}"
    pure_id = cipher_id if PURE_PYTHON in libraries_for(cipher_id) else _nearest_pure(spec)
    pure = lookup(pure_id, PURE_PYTHON, spec.nominal_key_bits)
    jobs.append(_ladder_job(pure, PURE_PYTHON_BYTES, True))
    notes.append(
        "pure Python"
        if pure_id == cipher_id
        else f"pure Python has no {spec.mode}: {pure_id} stands in (no authentication)"
    )
    return jobs, notes


def _nearest_pure(spec: CipherSpec) -> str:
    candidate = f"aes-{spec.nominal_key_bits}-ctr"
    if PURE_PYTHON not in libraries_for(candidate):
        raise UserError(f"no pure-Python library offers {spec.id} or {candidate}")
    return candidate


def _ladder_job(spec: CipherSpec, length: int, aes_instructions: bool) -> SweepJob:
    return SweepJob(
        cipher_id=spec.id,
        library=spec.library,
        key_bits=spec.key_bits,
        lengths=(length,),
        forgery=False,
        key_setup=False,
        decrypt=False,
        message=False,
        aes_instructions=aes_instructions,
        point_time_s=0.2,
    )


def sweep_plan(
    cipher_ids: Sequence[str],
    library: str | None = None,
    key_bits: int | None = None,
    lengths: Sequence[int] = DEFAULT_LENGTHS,
    rounds: int = DEFAULT_ROUNDS,
    ad: bool = True,
    point_time_s: float = DEFAULT_POINT_TIME_S,
) -> SweepPlan:
    """A sweep over ``lengths`` with one job per entry the choices stand for (``library`` as
    ``bench --library`` takes it), as the command line and the window run it."""
    if not cipher_ids:
        raise UserError("choose at least one cipher, e.g. aes-256-gcm")
    specs = select(cipher_ids, library, key_bits)
    jobs = [_job(spec, tuple(lengths), point_time_s, ad) for spec in dict.fromkeys(specs)]
    options = {"lengths": list(lengths), "associated_data": ad}
    return SweepPlan("sweep", tuple(jobs), check_rounds(rounds), options)


def ladder_plan(
    cipher_id: str, libraries: Sequence[str] = ("cryptography",), rounds: int = DEFAULT_ROUNDS
) -> SweepPlan:
    """The ladder of ``cipher_id`` (:func:`ladder_jobs`), titled with it."""
    cipher = cipher_id.strip().lower()
    jobs, notes = ladder_jobs(cipher, libraries)
    return SweepPlan("ladder", tuple(jobs), check_rounds(rounds), {}, cipher, tuple(notes))
