"""A message-length sweep (``sweep``) or a hardware ladder (``ladder``) as a publication table
with its Methods.

Every figure is the median over rounds of each round's median, with its 95 % interval over
those rounds: a round is one fresh worker at one moment, the sweep's unit (the samples of one
round are batches of calls of one worker, and vary less than rounds do). Cycles per byte come
from the CPU's counter when every round had one, otherwise from time x the kernel's clock
figure, printed with a leading ``~``. A sweep gives one row per entry and message length
(encryption); a ladder one row per step, with how many times slower it is per byte than the
step above and than the first.
"""

from __future__ import annotations

from app.core.ciphers.message import MAX_CONTEXTS
from app.core.document.estimate import SECONDS, Estimate, estimate
from app.core.document.intervals import median
from app.core.document.model import Table
from app.core.document.numbers import figure
from app.core.publish.methods import interval_sentence, machine_sentence, span_text
from app.core.publish.table import failure_notes, rate_unit, too_few_note
from app.core.sweep.jobs import MESSAGE
from app.core.sweep.report import ladder_steps, ladder_verdicts, length_label
from app.core.sweep.results import LADDER, SweepEntry, SweepPoint, SweepResult
from app.core.timing.batches import MAX_SAMPLES, MIN_SAMPLE_NS, MIN_SAMPLES

UNITS = "MB/s"


def time_estimate(point: SweepPoint) -> Estimate:
    """Nanoseconds per call over the rounds' medians (its median is ``point.median_ns``)."""
    return estimate(point.round_medians_ns)


def throughput_estimate(point: SweepPoint) -> Estimate:
    """MB/s: message bytes per microsecond, from :func:`time_estimate` (as ``point.mb_s``)."""
    return time_estimate(point).reciprocal(point.message_bytes * 1e3)


def whole_message_estimate(entry: SweepEntry, point: SweepPoint) -> Estimate | str:
    """A whole message with a cipher object of its own (as bench times it), ns over the rounds'
    medians; ``"-"`` where not timed."""
    whole = entry.point(MESSAGE, point.message_bytes)
    return "-" if whole is None else time_estimate(whole)


def cycles_estimate(entry: SweepEntry, point: SweepPoint) -> Estimate | str:
    """Cycles per byte over the rounds: counted (each round's median count), or estimated
    from the time and the clock figure (``~``; then its median is ``point.cycles_per_byte``);
    ``"-"`` with neither."""
    counted = [median(r) / point.message_bytes for r in point.rounds_cycles if r]
    if counted and len(counted) == len(point.round_medians_ns):
        return estimate(counted)
    if entry.clock_mhz:
        per_ns = entry.clock_mhz / 1e3 / point.message_bytes
        return time_estimate(point).scaled(per_ns, approx=True)
    return "-"


def step_name(i: int, entry: SweepEntry) -> str:
    if entry.library == "pyaes":
        return f"{i}. pure Python"
    return f"{i}. {entry.library}" + ("" if entry.aes_instructions else ", AES instructions off")


def _factor(value: float | None) -> str:
    return "-" if value is None else figure(value)


def _notes(result: SweepResult, rounds: list[int]) -> list[str]:
    times = (
        ""
        if result.kind == LADDER
        else (
            "time per call and per whole message (a cipher object of its own, as bench times it) "
            "in the unit each prints, "
        )
    )
    notes = [
        f"Figures: {times}throughput in {rate_unit(UNITS)} of message bytes, cycles per "
        "byte: each the median over rounds of each round's median, with its distribution-free "
        "95 % interval over those rounds in brackets; a round is one fresh worker process.",
    ]
    estimated = {e.clock_mhz for e in result.entries if not e.counter and e.clock_mhz}
    if estimated:
        mhz = ", ".join(f"{m:,.0f}" for m in sorted(estimated))
        notes.append(
            f"~: cycles estimated as time x the clock frequency the kernel reported ({mhz} "
            "MHz), no cycle counter being available."
        )
    notes += too_few_note(rounds, "rounds", "run with --rounds 6 or more")
    for e in result.entries:
        if e.note and result.kind == LADDER:
            notes.append(f"{e.label}: {e.note}.")
        notes += [
            f"{e.label}: {length_label(n)} not timed: {why}." for n, why in e.skipped.items() if n
        ]
    notes += failure_notes(((f.label, f.message) for f in result.failures), result.cancelled)
    return notes


def _sweep_table(result: SweepResult) -> Table:
    rows: list[tuple[str | Estimate, ...]] = []
    rounds: list[int] = []
    for e in result.entries:
        for p in e.curve():
            ns = time_estimate(p)
            rounds.append(ns.rounds)
            name = e.cipher + ("" if e.aes_instructions else " (AES instructions off)")
            whole = whole_message_estimate(e, p)
            rows.append(
                (
                    name,
                    e.library,
                    length_label(p.message_bytes),
                    ns.scaled(1e-9, unit=SECONDS),  # a time in its own unit, as views print it
                    throughput_estimate(p),
                    cycles_estimate(e, p),
                    whole if isinstance(whole, str) else whole.scaled(1e-9, unit=SECONDS),
                    str(ns.rounds),
                )
            )
    return Table(
        caption="Encryption time per call against message length",
        headers=(
            "Cipher",
            "Library",
            "Message",
            "Time per call",
            f"Throughput ({UNITS})",
            "Cycles per byte",
            "Whole message",
            "Rounds",
        ),
        rows=tuple(rows),
        notes=tuple(_notes(result, rounds)),
    )


def _ladder_table(result: SweepResult) -> Table:
    rows: list[tuple[str | Estimate, ...]] = []
    rounds: list[int] = []
    for i, s in enumerate(ladder_steps(result), start=1):
        rate = throughput_estimate(s.point)
        rounds.append(rate.rounds)
        rows.append(
            (
                step_name(i, s.entry),
                s.entry.cipher,
                length_label(s.point.message_bytes),
                rate,
                cycles_estimate(s.entry, s.point),
                _factor(s.slower_than_previous),
                _factor(s.slower_than_first),
                str(rate.rounds),
            )
        )
    notes = _notes(result, rounds)
    notes.insert(
        1,
        "Slower: the step's time per byte over the step above's and over the first step's "
        "(medians over rounds).",
    )
    return Table(
        caption=f"Hardware ladder of {result.title or 'AES'}: encryption",
        headers=(
            "Step",
            "Cipher",
            "Message",
            f"Throughput ({UNITS})",
            "Cycles per byte",
            "Slower than above (x)",
            "Slower than first (x)",
            "Rounds",
        ),
        rows=tuple(rows),
        notes=(*notes, *ladder_verdicts(result)),
    )


def sweep_table(result: SweepResult) -> Table:
    """A ladder's steps, or a sweep's curves (see the module docstring)."""
    return _ladder_table(result) if result.kind == LADDER else _sweep_table(result)


def sweep_methods(result: SweepResult) -> str:
    """The Methods paragraph of a sweep or a ladder."""
    entries = result.entries
    libraries = ", ".join(
        dict.fromkeys(f"{e.library} {e.library_version}".strip() for e in entries)
    )
    rounds = span_text((e.rounds for e in entries), "no")
    what, whats = ("step", "steps") if result.kind == LADDER else ("entry", "entries")
    parts = [
        machine_sentence(result.environment),
        f"Each {what} ({libraries}) ran {rounds} rounds, each in a fresh worker process, the "
        f"rounds interleaved across {whats}.",
        "At each message length a fresh key, nonce and random message; calls batched so that "
        f"each timer read spans at least {MIN_SAMPLE_NS / 1e6:g} ms (a whole message: at most "
        f"{MAX_CONTEXTS:,} cipher objects a batch), each slice after an "
        f"untimed warm-up (a batch, or single calls until they stop getting faster), "
        f"{MIN_SAMPLES}-{MAX_SAMPLES} such samples per round (a monotonic nanosecond clock). "
        "One call is what a program pays per message once it holds a cipher object (making "
        "that object is not in it): one update of the message (block modes: of the PKCS#7-padded "
        "message, made outside the timer), or one AEAD seal with its tag and the library's "
        "per-message initialisation; a round's figure is the median of its "
        f"samples. Throughput is message bytes over the time per call, in {rate_unit(UNITS)}; "
        "cycles per byte come from the CPU's cycle counter where the system gives one, "
        "otherwise (~) from the time and the clock frequency the kernel reports.",
    ]
    if result.kind == LADDER:
        parts.append(
            "The steps: the library with the CPU's AES instructions, with them switched off in "
            "the worker (OpenSSL's capability mask; PyCryptodome's use_aesni=False), and pure "
            "Python (pyaes, on a shorter message); a step's factor is its time per byte over "
            "the step above's and over the first step's."
        )
    parts.append(
        interval_sentence(
            "rounds",
            "; a round is one worker process at one moment, so the interval covers "
            "what varies between processes and moments",
        )
    )
    return " ".join(parts)
