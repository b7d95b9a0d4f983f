"""A job's memory on a named basis and direction: the one reading of memory that a paper's
published figure (:mod:`app.core.study.paper`) and a memory claim
(:mod:`app.core.study.claim_verdicts`) share."""

from __future__ import annotations

from app.core.bench.results import JobResult

LOAD_ALL_BASES = ("load-all", "load-all-rss")
# Bases counted exactly (tracemalloc counts the bytes allocated, the same in every run): the
# ones a memory claim may rest on with one measurement a side.
EXACT_BASES = ("python", "load-all")


def memory_bytes(basis: str, direction: str, r: JobResult) -> int | None:
    """``r``'s memory on ``basis`` ("" above the baseline, "python" tracemalloc's peak,
    "process" the whole peak RSS, "load-all"/"load-all-rss" the papers' program), in
    ``direction`` when it names one ("encrypt", "decrypt"); None: not measured."""
    load_all = r.workload_memory
    if basis in LOAD_ALL_BASES:
        if load_all is None:
            return None
        if basis == "load-all":
            return load_all.python_peak(direction or "encrypt")
        return load_all.rss_delta(direction or "encrypt")
    by_direction = r.direction_memory
    if direction and by_direction is not None:
        if basis == "python":
            return by_direction.python_peak(direction)
        if basis == "process":
            return by_direction.peak_rss(direction)
        return r.memory_above_baseline(direction)
    return {"python": r.python_peak_bytes, "process": r.peak_rss_bytes}.get(
        basis, r.memory_above_baseline_bytes
    )
