"""The Methods paragraph of a result, ready to paste: the machine, its CPU features, the
libraries and their versions, how the jobs ran (repetitions, rounds, workers), the statistics
and the definitions of the units."""

from __future__ import annotations

import math
from collections.abc import Iterable

from app.core.bench.load_all import workload_sentences
from app.core.bench.run_info import Environment
from app.core.ciphers.libraries import ROWS
from app.core.document.estimate import CELL_RATE
from app.core.document.intervals import minimum_values
from app.core.publish.table import rate_unit
from app.core.study.budget_note import budget_note
from app.core.study.claims import BUSY_CPU_PERCENT
from app.core.study.result import StudyResult

_CIPHER_LIBS = {row.name for row in ROWS} | {row.distribution for row in ROWS}
_FEATURES = ("aes", "vaes", "pclmulqdq", "avx2", "avx512f", "sha_ni", "neon", "pmull")


def machine_sentence(env: Environment) -> str:
    data = env.to_dict()
    section = data.get("cpu")
    cpu: dict[str, object] = section if isinstance(section, dict) else {}
    features = [k for k, v in env.cpu_features.items() if v]
    shown = [f for f in features if f.lower() in _FEATURES] or features
    cores = cpu.get("logical_cores") or "?"
    mhz = cpu.get("freq_current_mhz")
    clock = f" at {mhz / 1000:.2f} GHz" if isinstance(mhz, int | float) and mhz else ""
    libs = ", ".join(
        f"{name} {v}" for name, v in env.packages.items() if v and name in _CIPHER_LIBS
    )
    openssl = data.get("openssl_version")
    versions = "; ".join(str(v) for v in (libs, openssl) if v)
    return (
        f"Measurements were taken on {env.cpu_model or 'an unrecorded CPU'}{clock} "
        f"({cores} logical cores; CPU features: {', '.join(shown) or 'none recorded'}), "
        f"running {env.os_platform or 'an unrecorded OS'} with Python {env.python_version or '?'}"
        f"{f' ({versions})' if versions else ''}, using CipherBench "
        f"{env.cipherbench_version or '?'}."
    )


def span_text(counts: Iterable[int], none: str = "no") -> str:
    """``"5"``, ``"5-124"`` (the smallest and largest of ``counts``) or ``none``."""
    values = sorted(set(counts))
    if not values:
        return none
    return f"{values[0]}" if len(values) == 1 else f"{values[0]}-{values[-1]}"


def interval_sentence(what: str, level: str = "") -> str:
    """How every bracket of a table was made: over ``what`` ("rounds"), with ``level`` saying
    what one of them is and therefore what the interval covers."""
    return (
        f"A table gives the median over {what} with a distribution-free 95 % confidence "
        f"interval from order statistics (as benchstat does; at least {minimum_values()} "
        f"{what} needed, [n/a] otherwise){level}."
    )


TIMED_REGION = "with a monotonic nanosecond clock, key setup outside the timed region"
MEMORY_SENTENCE = (
    "Memory, where given, is the peak resident set size above the worker's baseline, "
    "measured in a separate untimed pass."
)


def study_methods(result: StudyResult) -> str:
    """One paragraph for a study (see the module docstring)."""
    study = result.study
    reps = span_text(len(s) for r in result.results for s in r.round_samples("encrypt"))
    n_rounds = span_text((len(r.round_samples("encrypt")) for r in result.results), "0")
    return " ".join(
        [
            machine_sentence(result.environment),
            f"Each cipher entry was run on each input ({study.data_mode} mode) in {n_rounds} "
            f"rounds; a round is one job in a fresh worker process, and rounds were run "
            f"{'interleaved in a random order' if result.interleaved else 'one after another'}. "
            f"Within a round, {study.warmup} warm-up call(s) were discarded and {reps} "
            f"timed repetitions taken {TIMED_REGION}.",
            f"Throughput is {CELL_RATE}, in {rate_unit(result.units)}; every table, figure "
            "and export of the study prints this one value.",
            interval_sentence("rounds"),
            MEMORY_SENTENCE,
            *workload_sentences(study.memory_workload),
            *busy_sentence(result),
            *([note] if (note := budget_note(result)) else []),
        ]
    )


def busy_sentence(result: StudyResult) -> list[str]:
    """The share of a core the workers got, when below the busy threshold in some rounds (a
    reader of the numbers needs it most); none on a quiet machine."""
    shares = [p for r in result.results for p in r.round_cpu_percent() if math.isfinite(p)]
    busy = [p for p in shares if p < BUSY_CPU_PERCENT]
    if not busy:
        return []
    return [
        f"The machine was busy: in {len(busy)} of {len(shares)} rounds the worker got "
        f"{min(busy):.0f}-{max(busy):.0f} % of a core (below {BUSY_CPU_PERCENT:g} %); the "
        "intervals, made over rounds, include what that varied."
    ]
