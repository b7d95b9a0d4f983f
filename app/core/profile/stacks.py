"""Reading py-spy's raw output (Brendan Gregg's collapsed stacks: ``frame;frame;... count``,
outermost first) and keeping the samples of the timed calls only.

A bench job's timed call is the ``body`` of :class:`~app.core.bench.workloads.MemoryWorkload`
(or ``StreamWorkload``)'s ``encrypt`` or ``decrypt``; a sample whose stack passes through one
is kept, from the frame below it, under a root frame naming the direction. Everything else in
the worker (its start, imports, the input's generation or reading, making each context before
the clock starts) is counted apart and left out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from app.core.profile.rules import HARNESS, Share, classify, split_frame

_TIMED = re.compile(r"^(Memory|Stream)Workload\.(?P<direction>encrypt|decrypt)\.<locals>\.body$")
_WORKLOADS = f"{__name__.partition('.')[0]}/core/bench/workloads.py"  # app, or cipherbench
SEPARATOR = ";"


@dataclass(frozen=True)
class Sampled:
    """One profiled job's samples: the timed calls' stacks (``"encrypt;frame;..." -> count``)
    and how many samples fell outside them."""

    timed: Mapping[str, int]
    untimed: int

    @property
    def timed_count(self) -> int:
        return sum(self.timed.values())


def timed_direction(frame: str) -> str | None:
    """``"encrypt"`` or ``"decrypt"`` when ``frame`` is a timed call's body, else None."""
    function, file = split_frame(frame)
    match = _TIMED.match(function)
    if match is None or not file.replace("\\", "/").endswith(_WORKLOADS):
        return None
    return match["direction"]


def parse_raw(lines: Iterable[str]) -> Sampled:
    """The samples of py-spy's raw output ``lines`` (blank and malformed lines skipped)."""
    timed: Counter[str] = Counter()
    untimed = 0
    for line in lines:
        stack, _, count_text = line.rstrip("\n").rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = stack.split(SEPARATOR)
        for i, frame in enumerate(frames):
            direction = timed_direction(frame)
            if direction is not None:
                timed[SEPARATOR.join((direction, *frames[i + 1 :]))] += count
                break
        else:
            untimed += count
    return Sampled(dict(timed), untimed)


def leaf_share(stack: str) -> Share:
    """The class of a kept stack: its innermost frame's (the body itself: the harness)."""
    frames = stack.split(SEPARATOR)
    return HARNESS if len(frames) == 1 else classify(frames[-1])


def shares(stacks: Mapping[str, int]) -> dict[str, float]:
    """Each class's fraction of the samples in ``stacks`` (classes with none left out)."""
    total = sum(stacks.values())
    counts: Counter[str] = Counter()
    for stack, count in stacks.items():
        counts[leaf_share(stack).name] += count
    return {name: n / total for name, n in counts.items()} if total else {}


TIMED_LOOP = "the timed loop itself (harness)"  # a sample in the body, below no call


def leaf_functions(stacks: Mapping[str, int]) -> Counter[str]:
    """Samples per innermost frame (:data:`TIMED_LOOP` for the body itself)."""
    out: Counter[str] = Counter()
    for stack, count in stacks.items():
        frames = stack.split(SEPARATOR)
        out[frames[-1] if len(frames) > 1 else TIMED_LOOP] += count
    return out
