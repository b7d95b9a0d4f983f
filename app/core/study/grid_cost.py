"""What a study will cost before it starts: a lower bound on its running time, so a grid of
thousands of cells (or a received export that names one) is said before it measures for hours;
and the files a received export would have read outside its own folder.

The bound counts what cannot be avoided: each job of each round starts a fresh worker (about
0.2 s here, more on a loaded machine), and each repetition encrypts and decrypts its input at
no more than 2 GB/s (AES-GCM with AES-NI; the pure-Python entries run 10,000 times slower).
Files are counted at 1 MB each, their size unread: a received export is not opened before the
user agrees.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.study.definition import Study

WORKER_START_S = 0.2
FASTEST_BYTES_PER_S = 2e9
FILE_BYTES_GUESS = 10**6
ASK_ABOVE_S = 15 * 60  # a study longer than this asks first (--yes skips the question)


@dataclass(frozen=True)
class GridCost:
    cells: int  # entries x inputs
    jobs: int  # cells x rounds (at least)
    seconds: float  # a lower bound on the running time

    @property
    def long(self) -> bool:
        return self.seconds > ASK_ABOVE_S

    def sentence(self) -> str:
        hours = self.seconds / 3600
        span = f"{hours:,.1f} hours" if hours >= 1 else f"{self.seconds / 60:,.0f} minutes"
        return (
            f"this study runs {self.cells:,} cells in at least {self.jobs:,} worker jobs: "
            f"at least {span}"
        )


def grid_cost(study: Study) -> GridCost:
    inputs = [s.size_bytes for s in study.sizes] + [FILE_BYTES_GUESS] * len(study.files)
    entries = len(study.ciphers)
    cells = entries * len(inputs)
    jobs = cells * max(1, study.rounds)
    processed = entries * sum(inputs) * max(1, study.repeat + study.warmup) * 2
    seconds = jobs * WORKER_START_S + processed / FASTEST_BYTES_PER_S
    return GridCost(cells, jobs, seconds)


def files_outside(study: Study, folder: Path) -> list[str]:
    """The files ``study`` would read that are not inside ``folder`` (a received export's):
    measured only when the user agrees, since the export's author chose them."""
    inside = folder.resolve()
    return [f for f in study.files if not Path(f).expanduser().resolve().is_relative_to(inside)]


def outside_sentence(origin: str, outside: list[str]) -> str:
    more = f" and {len(outside) - 3} more" if len(outside) > 3 else ""
    return (
        f"{origin} names files outside its folder ({', '.join(outside[:3])}{more}) to read and time"
    )
