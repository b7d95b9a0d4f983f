"""The step finder's heap gives the segmentation the quadratic scan gave (the weakest failing
boundary merged first, ties to the earliest), on random series with and without steps."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence

from app.core.history import steps
from app.core.history.steps import Boundary, find_steps


def _reference(runs: Sequence[Sequence[float]]) -> list[Boundary]:
    """The bottom-up segmentation as it was first written: every boundary scanned each time."""
    n = len(runs)
    noise = steps.run_noise([statistics.median(v) for v in runs])
    if math.isnan(noise):
        return []
    margin = math.log1p(steps.THRESHOLD)
    bounds = list(range(1, n))
    while bounds:
        edges = [0, *bounds, n]
        current = [
            steps._test(runs, edges[i], edges[i + 1], edges[i + 2], noise, margin, steps.CONFIDENCE)
            for i in range(len(bounds))
        ]
        failing = [b for b in current if not b.step]
        if not failing:
            return current
        bounds.remove(min(failing, key=lambda b: (b.strength, b.at)).at)
    return []


def _series(seed: int) -> list[list[float]]:
    rng = random.Random(seed)
    level, runs = 0.0, []
    for _ in range(rng.randint(3, 60)):
        if rng.random() < 0.08:
            level += rng.choice((-1, 1)) * rng.uniform(0.05, 0.4)
        runs.append([level + rng.gauss(0, 0.02) for _ in range(rng.choice((1, 3, 6)))])
    return runs


def test_the_heap_finds_the_steps_the_scan_found() -> None:
    steps = 0
    for seed in range(12):
        runs = _series(seed)
        found = find_steps(runs)
        assert found == _reference(runs), seed
        steps += sum(b.step for b in found)
    assert steps >= 3  # not only empty answers compared
