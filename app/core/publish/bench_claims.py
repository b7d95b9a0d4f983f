"""A benchmark run's comparisons as its document states them: on each input with two entries
or more, each pair of entries in both directions, in the words and with the statistics of the
main window's Comparisons tab (:func:`app.core.study.cell_pairs.pair_comparisons`, one source
for both), or one line saying why there are none."""

from __future__ import annotations

from math import comb

from app.core.bench.results import JobResult, RunResult
from app.core.document.model import Section
from app.core.study.cell_pairs import by_input, pair_comparisons
from app.core.study.claims import DEFAULT_MARGIN, DEFAULT_TARGET, MIN_ROUNDS_FOR_INTERVAL

# Past this many pairs on one input (ten entries), a document lists none: the statements grow
# with the square of the entries (30 entries: 870), and the window lists every one.
MAX_PAIRS = 45


def bench_title(run: RunResult) -> str:
    """What the run measured, in a line: "CipherBench: 4 cipher entries on 3 inputs"."""
    entries = len({(j.cipher, j.library) for j in run.results})
    inputs = len({j.input_label for j in run.results})
    if not entries:
        return "CipherBench: no results"
    entry = "cipher entry" if entries == 1 else "cipher entries"
    return f"CipherBench: {entries} {entry} on {inputs} input{'' if inputs == 1 else 's'}"


def comparison_sections(run: RunResult) -> tuple[Section, ...]:
    """A section per input that has two entries or more: their comparisons, or why there
    are none (a comparison rests on rounds, 4 or more a side; too many pairs to list)."""
    return tuple(
        Section(f"Comparisons on {label}", _statements(jobs))
        for label, jobs in by_input(run.results).items()
        if len(jobs) >= 2
    )


def _statements(jobs: list[JobResult]) -> tuple[str, ...]:
    rounds = min(len(j.round_samples("encrypt")) for j in jobs)
    if rounds < MIN_ROUNDS_FOR_INTERVAL:
        ran = "one worker" if rounds <= 1 else f"{rounds} rounds"
        return (
            f"None: each job ran in {ran}, and a comparison needs {MIN_ROUNDS_FOR_INTERVAL} "
            "rounds or more a side (bench --rounds 6, or Rounds in the window's Options).",
        )
    pairs = comb(len(jobs), 2)
    if pairs > MAX_PAIRS:
        return (
            f"{pairs:,} pairs of entries, too many to state here; the window's Comparisons "
            "tab states each.",
        )
    claims = pair_comparisons(jobs, margin=DEFAULT_MARGIN, target=DEFAULT_TARGET)
    return tuple(c.sentence() for c in claims)
