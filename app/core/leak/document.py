"""A leak test as the one document every renderer prints: per entry its verdict (leak,
possible leak, no leak found: never "constant time"), the largest |t| and the test that gave
it, the effect's size with its interval, and what the test could and could not have seen."""

from __future__ import annotations

import math

from app.core.document.estimate import Estimate
from app.core.document.model import Document, Section, Table
from app.core.document.numbers import count_text, figure, seconds_text
from app.core.leak.job import CLASSES, CONTROLS, KEY_CLASSES
from app.core.leak.result import LeakEntry, LeakResult
from app.core.leak.ttests import ENOUGH, LEAK_T, PERCENTILES, POSSIBLE_T, calls_needed
from app.core.runtime.envelope import envelope_notes

LEAK, POSSIBLE, NONE, TOO_FEW = "leak", "possible leak", "no leak found", "too few calls"

# Each class in words, for the verdicts: (class 0, class 1).
CLASS_NAMES = {
    "fixed-random": ("fixed messages", "random messages"),
    "fixed-fixed": ("all-zero messages", "the other fixed message"),
    "key": ("the fixed key", "random keys"),
    "random-random": ("class 0", "class 1"),
    "random-keys": ("class 0", "class 1"),
}
CONTROL_CLASSES = ("a first byte that differs", "a last byte that differs")

LIMITS = (
    "A timing test measures one machine, one build of each library and one interpreter. "
    "From Python each call also carries the interpreter's own cost and noise (the clock's "
    "reading, the call's dispatch), so a leak of a few cycles needs many more calls than in "
    "C, and the clock's step on this machine bounds what one call can show.",
    "'no leak found' bounds the size of an effect these calls could have shown; it proves "
    "nothing more. A leak through the cache can depend on what else runs on the machine, on "
    "the key, or on inputs the two classes did not cover.",
    "The test says nothing about the cipher's mathematics, nor about power, cache-line or "
    "speculative channels that do not change a call's time.",
    "In CBC, CTR and the AEAD modes the block cipher's input is not the message (it is "
    "chained, or a counter): a fixed message does not fix what AES or Blowfish computes on; "
    "ECB does, and the key classes (a fixed key against random keys) do in every mode.",
)


def verdict(entry: LeakEntry) -> str:
    """:data:`LEAK` (|t| >= 10), :data:`POSSIBLE` (>= 4.5), :data:`NONE`, or :data:`TOO_FEW`."""
    if math.isnan(entry.t):
        return TOO_FEW
    size = abs(entry.t)
    return LEAK if size >= LEAK_T else POSSIBLE if size >= POSSIBLE_T else NONE


def class_names(result: LeakResult, entry: LeakEntry) -> tuple[str, str]:
    if entry.cipher in CONTROLS and result.classes == "fixed-random":
        return CONTROL_CLASSES
    return CLASS_NAMES[result.classes]


def _estimate(entry: LeakEntry, values: tuple[float, float, float]) -> Estimate:
    point, low, high = values
    interval = None if math.isnan(low) else (low, high)
    return Estimate(point, interval, entry.calls)


def mean_effect(entry: LeakEntry) -> Estimate:
    """Class 0's mean minus class 1's in the test with the largest |t|, its 95 % interval."""
    return _estimate(entry, entry.mean_effect_ns)


def median_effect(entry: LeakEntry) -> Estimate:
    """Class 0's median minus class 1's, its bootstrapped 95 % interval (tlsfuzzer's)."""
    return _estimate(entry, entry.effect_ns)


def sentence(result: LeakResult, entry: LeakEntry) -> str:
    """The verdict in one sentence, with its evidence."""
    said = verdict(entry)
    calls = count_text(entry.calls)
    if said == TOO_FEW:
        return (
            f"{entry.label}: {TOO_FEW}: {calls} calls in the budget; a test needs "
            f"{count_text(ENOUGH)} a class (a longer time budget)."
        )
    first, second = class_names(result, entry)
    if said == NONE:
        seen = (
            f"; a mean shift of {seconds_text(entry.detectable_ns / 1e9)} or more would have "
            "been seen in 95 % of runs"
            if not math.isnan(entry.detectable_ns)
            else ""
        )
        return (
            f"{entry.label}: no leak found: |t| < {POSSIBLE_T} after {calls} calls (largest "
            f"{figure(abs(entry.t))}){seen}."
        )
    mean, low, high = entry.mean_effect_ns
    if math.isnan(mean):  # the second-order test: the spread differs, not which is slower
        wider = first if entry.t > 0 else second
        size = (
            f"the spread of the times differs between {first} and {second} ({wider} wider); "
            f"medians differ by {median_effect(entry).text()} ns"
        )
    else:
        size = (
            f"{first if entry.t > 0 else second} {figure(abs(mean))} ns slower on average (95 % "
            f"CI {figure(min(abs(low), abs(high)))} to {figure(max(abs(low), abs(high)))} ns); "
            f"medians differ by {median_effect(entry).text()} ns"
        )
    if said == LEAK:
        return (
            f"{entry.label}: leak: |t| = {figure(abs(entry.t))} after {calls} calls "
            f"({entry.best_test}): {size}."
        )
    needed = calls_needed(entry.t, entry.calls)
    return (
        f"{entry.label}: possible leak: |t| = {figure(abs(entry.t))} after {calls} calls "
        f"({entry.best_test}): {size}. A leak this size reaches "
        f"|t| = {LEAK_T:g} after about {count_text(round(needed))} calls: run longer to decide."
    )


def _entry_cells(e: LeakEntry) -> tuple[str, str]:
    """An entry's cipher and library cells, every table alike."""
    return e.cipher, e.library + ("" if e.aes_instructions else ", AES off")


def _verdicts_table(result: LeakResult) -> Table:
    rows = []
    for e in result.results:
        rows.append(
            (
                *_entry_cells(e),
                result.classes,
                count_text(e.calls),
                figure(abs(e.t)),
                mean_effect(e),
                median_effect(e),
                verdict(e),
            )
        )
    return Table(
        "Does its time depend on its data? The largest |t| and the effect's size",
        (
            "Cipher",
            "Library",
            "Classes",
            "Calls",
            "Max |t|",
            "Mean diff. (ns)",
            "Median diff. (ns)",
            "Verdict",
        ),
        tuple(rows),
        _notes(result),
        text_columns=3,
    )


def _tests_table(result: LeakResult) -> Table:
    rows = []
    for e in result.results:
        rows.append(
            (
                *_entry_cells(e),
                e.best_test or "-",
                figure(e.t_raw),
                figure(e.t_second_order),
                figure(e.median_ns[0]),
                figure(e.median_ns[1]),
                figure(e.detectable_ns),
                seconds_text(e.seconds),
            )
        )
    return Table(
        "The tests: raw, cropped and second order",
        (
            "Cipher",
            "Library",
            "Largest |t| in",
            "t raw",
            "t 2nd order",
            "Class 0 median (ns)",
            "Class 1 median (ns)",
            "Smallest shift seen (ns)",
            "Time",
        ),
        tuple(rows),
        (
            "t > 0: class 0's calls are slower. The smallest shift seen: the mean shift that "
            f"would have given |t| = {POSSIBLE_T} in the most sensitive first-order test whose "
            "times vary by a clock step (1 ns) or more in both classes.",
        ),
        text_columns=2,  # which test had the largest |t| is a finding, not a name
    )


def _notes(result: LeakResult) -> tuple[str, ...]:
    ciphers = any(e.cipher not in CONTROLS for e in result.results)
    classes = f"Classes {result.classes}: {CLASSES[result.classes]}. " if ciphers else ""
    notes = [
        f"{classes}Max |t|: the largest of Welch's t over the raw times, {PERCENTILES} "
        "cropped copies and a second-order test (dudect). "
        f"Verdicts: |t| >= {LEAK_T:g} leak, >= {POSSIBLE_T} possible leak, below it no leak "
        "found. Mean diff.: class 0's mean time minus class 1's in the test with the "
        "largest |t| (its 95 % interval, for that one test: the verdicts' thresholds, far "
        "above 1.96, allow for the hundred tests looked at). Median diff.: class 0's median "
        "minus class 1's (95 % bootstrap interval; as coarse as the clock's step).",
    ]
    if any(e.cipher in CONTROLS for e in result.results) and result.classes == "fixed-random":
        notes.append(
            "The controls' classes: a candidate tag that differs from the true one in its "
            "first byte (class 0) or its last (class 1)."
        )
    notes.extend(envelope_notes(result, "Not tested"))
    return tuple(notes)


def leak_document(result: LeakResult) -> Document:
    objects = (
        "with a cipher object of its own, made before its batch"
        if result.classes in KEY_CLASSES
        else "with a cipher object made once"
    )
    method = (
        "Each entry ran in a fresh worker process pinned to one core with the garbage "
        "collector off. Its calls were drawn into two classes at random (seed "
        f"{result.seed}), each call's input made before the clock started, and each call "
        f"timed alone with perf_counter_ns: one encryption of a {result.length}-byte message "
        f"{objects} (the controls: one comparison of a 16-byte tag). A "
        "first batch set the crop thresholds (dudect's percentiles) and was discarded. The "
        "tests were updated after every batch until the budget of "
        f"{seconds_text(result.budget_s)} an entry was spent, or |t| reached {LEAK_T:g}. "
        "Welch's t is computed as dudect does; a test counts once each class has "
        f"{count_text(ENOUGH)} calls in it. The effect's interval resamples up to 10,000 "
        "calls of each class (1,000 bootstrap resamples)."
    )
    sections = (
        Section("Verdicts", tuple(sentence(result, e) for e in result.results)),
        Section("What a timing test can and cannot see", LIMITS),
    )
    return Document(
        "Timing leakage", (_verdicts_table(result), _tests_table(result)), method, sections
    )
