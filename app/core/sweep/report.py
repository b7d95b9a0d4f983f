"""What every view of a sweep or a ladder shows, computed once: table rows, summary sentences,
the ladder's steps and verdicts. The command line, the window and the exports format these."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from app.core.document.numbers import figure as number
from app.core.document.numbers import seconds_text
from app.core.sweep.jobs import DECRYPT, ENCRYPT, FORGERY, KEY_SETUP, MESSAGE
from app.core.sweep.results import LADDER, SweepEntry, SweepPoint, SweepResult
from app.core.text import counted
from app.core.units import format_bytes

# A step of the ladder that is less than this much slower than the step above it did not
# really switch anything off (the library ignored the switch, or has no hardware path here).
SWITCH_MIN_FACTOR = 1.5


def length_label(n: int) -> str:
    """``"16 B"``, ``"1350 B"``, ``"4 KiB"``, ``"16 MiB"``: as the lengths are chosen."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


def ns_text(ns: float | None) -> str:
    """A time per call with its unit: ``"812 ns"``, ``"1.33 µs"`` (the one time formatter)."""
    return seconds_text(None if ns is None else ns * 1e-9)


@dataclass(frozen=True)
class CurveRow:
    """One message length of one entry: encryption, decryption, forgery and the whole message
    with a cipher object of its own side by side."""

    entry: SweepEntry
    message_bytes: int
    encrypt: SweepPoint
    decrypt: SweepPoint | None
    forgery: SweepPoint | None
    message: SweepPoint | None = None


def curve_rows(entry: SweepEntry) -> list[CurveRow]:
    return [
        CurveRow(
            entry,
            p.message_bytes,
            p,
            entry.point(DECRYPT, p.message_bytes),
            entry.point(FORGERY, p.message_bytes),
            entry.point(MESSAGE, p.message_bytes),
        )
        for p in entry.curve(ENCRYPT)
    ]


# The headers of :func:`curve_cells`' columns: the terminal's (upper case, short) and the
# HTML report's; the cycles header says "~" where the figures are estimated.
CURVE_HEADERS = (
    ("MESSAGE", "Message"),
    ("ENCRYPT", "Encrypt (per call)"),
    ("±IQR", "± IQR"),
    ("MB/s", "MB/s"),
    ("NS/B", "ns/byte"),
    ("CYC/B", "Cycles/byte"),
    ("WHOLE MSG", "Whole message"),
    ("DEC MB/s", "Decrypt MB/s"),
    ("FORGERY", "Forgery rejected in"),
)


def curve_headers(terminal: bool, counted: bool = True) -> list[str]:
    """:data:`CURVE_HEADERS` for the terminal or the HTML report (``counted``: cycles from the
    CPU's counter, else ``~`` marks the estimate)."""
    heads = [short if terminal else long for short, long in CURVE_HEADERS]
    if not counted:
        heads[5] += "~" if terminal else " (~ estimated)"
    return heads


def curve_cells(entry: SweepEntry) -> list[list[str]]:
    """Each length's row as every table prints it (headers: :data:`CURVE_HEADERS`): message,
    encryption's median per call and IQR, MB/s, ns/byte, cycles/byte, a whole message with an
    object of its own, decryption MB/s and the time to reject a forgery ("-" where not
    timed)."""
    cells = []
    for r in curve_rows(entry):
        q1, q3 = r.encrypt.quartiles_ns
        cells.append(
            [
                length_label(r.message_bytes),
                ns_text(r.encrypt.median_ns),
                ns_text(q3 - q1),
                number(r.encrypt.mb_s),
                number(r.encrypt.ns_per_byte),
                number(r.encrypt.cycles_per_byte(entry.clock_mhz)),
                ns_text(r.message.median_ns) if r.message else "-",
                number(r.decrypt.mb_s) if r.decrypt else "-",
                ns_text(r.forgery.median_ns) if r.forgery else "-",
            ]
        )
    return cells


def ad_rows(entry: SweepEntry) -> list[tuple[int, list[tuple[int, SweepPoint]]]]:
    """``[(message bytes, [(ad bytes, point), ...]), ...]`` where associated data was timed,
    the plain (0-byte) point first."""
    with_ad = sorted({p.message_bytes for p in entry.points if p.ad_bytes})
    out = []
    for n in with_ad:
        row = sorted(
            (
                (p.ad_bytes, p)
                for p in entry.points
                if p.operation == ENCRYPT and p.message_bytes == n
            ),
            key=lambda pair: pair[0],
        )
        out.append((n, row))
    return out


def summary_sentences(entry: SweepEntry) -> list[str]:
    """Key setup, the fixed cost per call, the cycle source, what was skipped."""
    out = []
    head = f"{entry.label}, {entry.library} {entry.library_version}: "
    out.append(head + counted(entry.rounds, "round") + (f"; {entry.note}" if entry.note else ""))
    setup = entry.key_setup_ns
    if setup is not None:
        out.append(f"Key setup (making a cipher object): {ns_text(setup)} per call.")
    whole = [r for r in curve_rows(entry) if r.message is not None]
    if whole:
        r, m = whole[0], whole[0].message
        assert m is not None
        out.append(
            f"A whole message with a cipher object of its own (as bench times it; making the "
            f"object apart): {ns_text(m.median_ns)} at {length_label(r.message_bytes)}, "
            f"{m.median_ns / r.encrypt.median_ns:.1f}x a call on a held object."
        )
    fixed = entry.fixed_cost_ns()
    curve = entry.curve()
    if fixed is not None and curve:
        long = curve[-1]
        rate = long.message_bytes / long.median_ns  # bytes per ns
        equiv = format_bytes(fixed * rate, binary=False)
        out.append(
            f"Fixed cost per call: {ns_text(fixed)} (what any message pays, whatever its length; "
            f"at full speed {equiv} would take as long)."
        )
    mark = "" if entry.counter else " (~ in the tables)"
    out.append(f"Cycles{mark}: {entry.cycles_source}.")
    for n, why in sorted(entry.skipped.items()):
        out.append(
            f"Key setup not timed apart: {why}."
            if n == 0
            else f"{length_label(n)} not timed: {why}."
        )
    return out


def point_rows(result: SweepResult) -> Iterator[dict[str, Any]]:
    """Every point of every entry, flat (the CSV, the workbook's Points sheet)."""
    for e in result.entries:
        for p in sorted(e.points, key=_order):
            q1, q3 = p.quartiles_ns
            yield {
                "entry": e.label,
                "cipher": e.cipher,
                "library": e.library,
                "library_version": e.library_version,
                "key_bits": e.key_bits,
                "aes_instructions": e.aes_instructions,
                "operation": p.operation,
                "message_bytes": p.message_bytes,
                "ad_bytes": p.ad_bytes,
                "median_ns": p.median_ns,
                "q1_ns": q1,
                "q3_ns": q3,
                "round_medians_ns": " ".join(f"{m:.1f}" for m in p.round_medians_ns),
                "ns_per_byte": p.ns_per_byte,
                "mb_s": p.mb_s,
                "cycles_per_call": p.cycles_per_call(e.clock_mhz),
                "cycles_per_byte": p.cycles_per_byte(e.clock_mhz),
                "cycles_counted": e.counter,
                "samples": len(p.samples_ns),
                "calls_per_sample": " ".join(str(c) for c in p.calls),
            }


def _order(p: SweepPoint) -> tuple[int, int, int, int]:
    ops = (KEY_SETUP, ENCRYPT, DECRYPT, FORGERY)
    return (p.message_bytes, p.ad_bytes, ops.index(p.operation) if p.operation in ops else 9, 0)


POINT_COLUMNS = (
    ("entry", "Entry"),
    ("operation", "Operation"),
    ("message_bytes", "Message (bytes)"),
    ("ad_bytes", "Associated data (bytes)"),
    ("median_ns", "Median (ns per call)"),
    ("q1_ns", "Q1 (ns)"),
    ("q3_ns", "Q3 (ns)"),
    ("round_medians_ns", "Round medians (ns)"),
    ("ns_per_byte", "ns per byte"),
    ("mb_s", "Throughput (MB/s)"),
    ("cycles_per_call", "Cycles per call"),
    ("cycles_per_byte", "Cycles per byte"),
    ("cycles_counted", "Cycles counted (else estimated)"),
    ("samples", "Samples"),
    ("calls_per_sample", "Calls per sample (per round)"),
    ("cipher", "Cipher"),
    ("library", "Library"),
    ("library_version", "Library version"),
    ("key_bits", "Key bits"),
    ("aes_instructions", "AES instructions"),
)


@dataclass(frozen=True)
class LadderStep:
    entry: SweepEntry
    point: SweepPoint
    slower_than_previous: float | None  # this step's time per byte / the previous step's
    slower_than_first: float | None


def ladder_steps(result: SweepResult) -> list[LadderStep]:
    """The ladder's rows in order, each with its factor to the step above and to the top."""
    steps: list[LadderStep] = []
    for e in result.entries:
        curve = e.curve()
        if not curve:
            continue
        p = curve[-1]
        prev = steps[-1].point if steps else None
        first = steps[0].point if steps else None
        steps.append(LadderStep(e, p, _factor(p, prev), _factor(p, first)))
    return steps


def _factor(p: SweepPoint, other: SweepPoint | None) -> float | None:
    if other is None or not p.ns_per_byte or not other.ns_per_byte:
        return None
    return p.ns_per_byte / other.ns_per_byte


def ladder_verdicts(result: SweepResult) -> list[str]:
    """Whether each switch really switched: "off" clearly slower than "on" in each library,
    pure Python the slowest."""
    if result.kind != LADDER:
        return []
    steps = ladder_steps(result)
    out = []
    for i, s in enumerate(steps):
        if s.entry.aes_instructions or i == 0:
            continue
        on = steps[i - 1]
        if on.entry.library != s.entry.library or not on.entry.aes_instructions:
            continue
        factor = s.slower_than_previous or 0.0
        if factor >= SWITCH_MIN_FACTOR:
            out.append(
                f"{s.entry.library}: {number(factor)}x slower with the AES instructions off "
                "(the switch worked)."
            )
        else:
            out.append(
                f"{s.entry.library}: could not switch the AES instructions off (only "
                f"{number(factor)}x slower): the library ignores the switch here, or does not "
                "use them on this CPU."
            )
    pure = [s for s in steps if s.entry.library == "pyaes"]
    others = [s for s in steps if s.entry.library != "pyaes"]
    if pure and others:
        slowest = max(others, key=lambda s: s.point.ns_per_byte or 0.0)
        ratio = _factor(pure[0].point, slowest.point)
        if ratio is not None:
            verdict = "the slowest step" if ratio > 1 else "NOT the slowest step"
            out.append(
                f"Pure Python is {verdict}: {number(ratio)}x the time per byte of "
                f"{slowest.entry.label}."
            )
    return out


def _slices(result: SweepResult) -> str:
    passes = result.options.get("passes", 1)  # runs stored before slices: one pass
    if not isinstance(passes, int) or passes < 2:
        return ""
    return (
        f"each point timed in {passes} slices spread over its round (pass after pass over "
        "all points), so that a slow second of a shared machine takes a minority of its "
        "samples; "
    )


def method_text(result: SweepResult) -> str:
    """How the figures were measured, in a few sentences (every report's first paragraph)."""
    rounds = result.options.get("rounds", "?")
    return (
        f"Each entry ran {rounds} round(s), each in a fresh worker process; rounds were "
        "interleaved across entries. At each message length a fresh key, nonce and random "
        "message; calls batched so each timer read spans at least 1 ms (a whole message: at "
        "most 1,024 cipher objects a batch), each slice after an "
        "untimed warm-up (a batch, or single calls until they stop getting faster); "
        f"{_slices(result)}the figure is the median of the rounds' medians (each round "
        "counts once), the "
        "quartiles are over every sample of every round. One call: one update of the "
        "message (block modes: the PKCS#7-padded message), "
        "or one AEAD seal/open with its tag, on a cipher object held across calls; whole "
        "message: encrypting it as bench does, with an object of its own made before the "
        "clock (its first call, the library's padding, the tag); forgery: opening the message "
        "under a nonce one bit off (refused at the tag check, after the same work). "
        "MB/s = 10^6 message bytes per second. Cycles per byte from "
        "the CPU's cycle counter where the system gives one, otherwise estimated as time x "
        "the clock frequency the kernel reports."
    )
