"""A profile as the one document every renderer prints: where the time goes (interpreted or
compiled, then each class), the hottest frames, and what the profiler cost."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from app.core.document.estimate import Estimate, estimate
from app.core.document.intervals import median
from app.core.document.model import Document, Table
from app.core.document.numbers import count_text, figure
from app.core.profile.result import ProfileEntry, ProfileResult, ProfileRound
from app.core.profile.rules import (
    COMPILED,
    HARNESS,
    INTERPRETED,
    SHARES,
    classify,
    share_names,
    short_frame,
)
from app.core.profile.stacks import TIMED_LOOP, leaf_functions, shares
from app.core.runtime.envelope import envelope_notes
from app.core.text import counted
from app.core.units import MB

TOP_FRAMES = 5


def profiled_rounds(entry: ProfileEntry) -> list[ProfileRound]:
    """The rounds of ``entry`` that have timed samples."""
    return [r for r in entry.rounds if r.samples]


def share_estimate(entry: ProfileEntry, names: Sequence[str]) -> Estimate:
    """The percentage of timed samples in the classes ``names``: each round's, then their
    median and 95 % interval over rounds."""
    per_round = []
    for r in profiled_rounds(entry):
        got = shares(r.stacks)
        per_round.append(100 * sum(got.get(n, 0.0) for n in names))
    return estimate(per_round)


def kernel_estimate(entry: ProfileEntry) -> Estimate:
    """The kernel's percentage of the unprofiled job's CPU time, over rounds."""
    values = [
        100 * r.system_s / (r.user_s + r.system_s) for r in entry.rounds if r.user_s + r.system_s
    ]
    return estimate(values)


def slowdown(r: ProfileRound) -> float:
    """A round's round-trip time under the profiler over the time without it."""
    if not all(r.plain_s) or not all(r.profiled_s):
        return math.nan
    plain = median(r.plain_s[0]) + median(r.plain_s[1])
    return (median(r.profiled_s[0]) + median(r.profiled_s[1])) / plain


def _encrypt_rate(entry: ProfileEntry, profiled: bool) -> Estimate:
    times = [
        median(t[0]) for r in entry.rounds if (t := r.profiled_s if profiled else r.plain_s)[0]
    ]
    return estimate(times).reciprocal(entry.input_bytes / MB)


def _groups_table(result: ProfileResult) -> Table:
    rows = []
    for e in result.results:
        profiled = profiled_rounds(e)
        samples = median([r.samples for r in profiled]) if profiled else 0
        rows.append(
            (
                e.cipher,
                e.library,
                e.input_label,
                share_estimate(e, share_names(INTERPRETED)),
                share_estimate(e, share_names(COMPILED)),
                kernel_estimate(e),
                count_text(round(samples)),
                f"{len(profiled)}",
            )
        )
    return Table(
        "Where the time goes: interpreted or compiled",
        (
            "Cipher",
            "Library",
            "Input",
            "Interpreted (%)",
            "Compiled (%)",
            "Kernel (% of CPU)",
            "Samples a round",
            "Rounds",
        ),
        tuple(rows),
        _notes(result),
    )


def _classes_table(result: ProfileResult) -> Table:
    rows = []
    for e in result.results:
        total: Counter[str] = Counter()
        for r in profiled_rounds(e):
            total.update({k: v for k, v in shares(r.stacks).items()})
        for name, _ in total.most_common():
            rows.append((e.cipher, e.library, name, share_estimate(e, (name,))))
    meanings = tuple(f"{s.name}: {s.meaning}." for s in SHARES)
    return Table(
        "Where the time goes, by class (share of the timed calls' samples)",
        ("Cipher", "Library", "Class", "Share (%)"),
        tuple(rows),
        meanings,
    )


def _frames_tables(result: ProfileResult) -> tuple[Table, ...]:
    """Per entry (a table each, so it fits 80 columns), its hottest innermost frames."""
    tables = []
    for e in result.results:
        leaves = leaf_functions(e.stacks())
        total = sum(leaves.values())
        rows = []
        for frame, count in leaves.most_common(TOP_FRAMES):
            share = 100 * count / total
            where = HARNESS if frame == TIMED_LOOP else classify(frame)
            rows.append((short_frame(frame), where.name, figure(share)))
        tables.append(
            Table(
                f"{e.label}: the hottest frames on {e.input_label} (where the CPU was; every "
                "round's samples)",
                ("Frame", "Class", "Share (%)"),
                tuple(rows),
                text_columns=2,
            )
        )
    return tuple(tables)


def _cost_table(result: ProfileResult) -> Table:
    rows = []
    for e in result.results:
        ratios = [x for r in e.rounds if not math.isnan(x := slowdown(r))]
        rows.append(
            (
                e.cipher,
                e.library,
                _encrypt_rate(e, profiled=False),
                _encrypt_rate(e, profiled=True),
                estimate(ratios),
            )
        )
    return Table(
        "What the profiler costs: the same job with and without it, in each round",
        ("Cipher", "Library", "Encrypt (MB/s)", "Profiled (MB/s)", "Time profiled / not (x)"),
        tuple(rows),
        ("MB = 10⁶ bytes.",),
        text_columns=2,
    )


DISTORTING = 1.5  # a job this much slower under the profiler: its shares are in doubt


def _distorted(result: ProfileResult) -> list[str]:
    """A warning for each entry the profiler slowed by :data:`DISTORTING` or more: py-spy
    pauses the job for every sample, and a job paused most of the time is sampled mostly in
    the pauses' wake (measured: cryptography 59 % compiled at 999 samples a second, 94 % at
    199)."""
    said = []
    for e in result.results:
        ratios = [x for r in e.rounds if not math.isnan(x := slowdown(r))]
        if ratios and (slower := median(ratios)) >= DISTORTING:
            said.append(
                f"The profiler slowed {e.label} {figure(slower)}x: shares of a job paused "
                "this much may be distorted. Sample less often (--rate; 199 by default)"
                + ("." if result.profiler.startswith("perf") else ", or use --profiler perf "
                   "(Linux), which costs about 1.0x even at 999 samples a second.")
            )  # fmt: skip
    return said


def _notes(result: ProfileResult) -> tuple[str, ...]:
    notes = []
    if 1 < result.rounds < 6 or any(1 < len(profiled_rounds(e)) < 6 for e in result.results):
        notes.append(
            "[n/a]: a 95 % interval over rounds needs 6 rounds or more (--rounds 6, the "
            "default); the figure before it is the median of the rounds run."
        )
    elif any(len(profiled_rounds(e)) == 1 for e in result.results):
        notes.append(
            "[n/a]: one round gives no interval (6 rounds or more do); the figure is that round's."
        )
    said = {r.note for e in result.results for r in e.rounds if r.note}
    notes.extend(sorted(said))
    no_native = any(not r.native for e in result.results for r in profiled_rounds(e))
    if no_native:
        notes.append(
            "Native frames could not be sampled on this platform (py-spy unwinds them on Linux "
            "and Windows, x86-64): compiled code shows as the Python line that called it."
        )
    notes.extend(_distorted(result))
    notes.extend(envelope_notes(result, "Not profiled"))
    return tuple(notes)


def _sees(profiler: str) -> str:
    """What the profiler's samples show, for the method."""
    if profiler.startswith("perf"):
        return (
            "perf samples from the kernel and shows every native frame, the interpreter's own "
            "C functions among them (its eval loop _PyEval_EvalFrameDefault, integer "
            "arithmetic, allocation), but not the Python functions the interpreter runs: time "
            "in Python code is counted as the interpreter's. The timed calls are told apart by "
            "their start and end on the clock perf stamps its samples with"
        )
    return (
        "py-spy shows the interpreter's eval loop as the Python code it runs, so time in "
        "Python code is time the interpreter spent running it"
    )


def profile_document(result: ProfileResult) -> Document:
    profiler = result.profiler or "no profiler (none was found)"
    method = (
        "Each entry's job (the bench's: a fresh key and IV or nonce per message, timed "
        "encryptions and decryptions in runs, each run verified, until each direction had about "
        f"100 samples; no warm-up) ran in {counted(result.rounds, 'round')}, "
        "each round in a fresh worker process, the entries of a round in a random order. In "
        "each round the worker timed the job itself, and ran it again in a fresh process "
        f"started by {profiler}, sampling {result.rate} times a second with native frames, "
        "the two in a random order. Only samples inside the timed calls count (not the "
        "process's start, the input, or making each cipher context before the clock starts). "
        f"A sample's class is that of its innermost frame; {_sees(result.profiler)}. "
        "Each share is the median over rounds of each round's share, with a "
        "distribution-free 95 % interval over rounds ([n/a] below 6 rounds). The kernel's "
        "share is of the unprofiled job's CPU time (its input read included)."
    )
    tables = (
        _groups_table(result),
        _classes_table(result),
        *_frames_tables(result),
        _cost_table(result),
    )
    return Document("Where the time goes", tables, method)
