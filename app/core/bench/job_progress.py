"""A job's progress as the worker reports it: phase and fraction of the job, at most 20 a second."""

from __future__ import annotations

import time
from collections.abc import Callable

Progress = Callable[[str, float], None]  # phase, fraction of the job


class JobProgressReport:
    """Turns steps and bytes into a job fraction, at most one report per 50 ms."""

    def __init__(self, report: Progress | None, steps: int, size: int) -> None:
        self.report = report
        self.steps = max(1, steps)
        self.size = max(1, size)
        self.done = 0
        self.phase = ""
        self._last = 0.0

    def step(self, phase: str) -> None:
        self.phase = phase
        self._emit(0, force=True)

    def finish_step(self, samples: int = 1) -> None:
        """A step done: a warm-up, or a slice of ``samples`` timed round trips (a step each)."""
        self.done += samples

    def bytes_done(self, n: int) -> None:
        self._emit(n)

    def _emit(self, n: int, force: bool = False) -> None:
        if self.report is None:
            return
        now = time.monotonic()
        if force or now - self._last >= 0.05:
            self._last = now
            # Each step is one direction over the input; a step has two directions' worth of
            # bytes only in stream mode reporting, hence the half per direction.
            frac = (self.done + min(1.0, n / self.size) * 0.5) / self.steps
            self.report(self.phase, min(0.99, frac))
