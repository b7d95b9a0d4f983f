"""A benchmark run's comparisons as its document states them: each pair of entries on each
input, both directions, in the words and with the statistics of the main window's Comparisons
tab (:func:`app.core.study.cell_pairs.pair_comparisons`, one source for both), or why there
are none."""

from __future__ import annotations

from app.core.bench.results import RunResult
from app.core.document.model import Section
from app.core.study.cell_pairs import pair_comparisons
from app.core.study.claims import DEFAULT_MARGIN, DEFAULT_TARGET, MIN_ROUNDS_FOR_INTERVAL


def bench_title(run: RunResult) -> str:
    """What the run measured, in a line: "CipherBench: 4 cipher entries on 3 inputs"."""
    entries = len({(j.cipher, j.library) for j in run.results})
    inputs = len({j.input_label for j in run.results})

    entry = "cipher entry" if entries == 1 else "cipher entries"
    return f"CipherBench: {entries} {entry} on {inputs} input{'' if inputs == 1 else 's'}"


def comparison_sections(run: RunResult) -> tuple[Section, ...]:
    """A section of comparisons per input (entries ran beside others on it), or one line
    saying why the run has none: a comparison rests on rounds, 4 or more a side."""
    if len(run.results) < 2:
        return ()
    rounds = min(len(j.round_samples("encrypt")) for j in run.results)
    if rounds < MIN_ROUNDS_FOR_INTERVAL:
        ran = "one worker" if rounds <= 1 else f"{rounds} rounds"
        return (
            Section(
                "Comparisons",
                (
                    f"None: each job ran in {ran}, and a comparison needs "
                    f"{MIN_ROUNDS_FOR_INTERVAL} rounds or more a side (bench --rounds 6, or "
                    "Rounds in the window's Options).",
                ),
            ),
        )
    claims = pair_comparisons(run.results, margin=DEFAULT_MARGIN, target=DEFAULT_TARGET)
    inputs = dict.fromkeys(c.input_label for c in claims)
    return tuple(
        Section(
            f"Comparisons on {label}",
            tuple(c.comparison.sentence() for c in claims if c.input_label == label),
        )
        for label in inputs
    )
